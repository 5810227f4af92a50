"""What the agents chose, by kind of decision (issue #35): the evidence of `dominant_choice` and
`dead_decisions` findings.

An action's **option** is its kind in the game's own words: the longest run of its text's leading
words that is an action word of the game (`bodoge.agents.counterfactual.action_label`: `declare`,
`pass`, `flip`, `steal none`, `return hand`), where a game's `text` module may fold words that name
which card rather than what to do into their move (`WHICH_CARD`: Tokkuri's `place dummy` is a
`place`). A decision's **kind** is the set of options it offers,
written `declare/pass`: a decision between options of different kinds is a real choice of what to
do, while one whose actions are all of one option (`play R5` or `play B2`) is a choice of which card,
which no option count can judge. Forced decisions (one legal action) count in neither.

`ChoiceTally` follows a game (`play_match` feeds it every decision) and keeps, per kind, how often
each option was chosen and how often it was chosen as a *single* action (the only action of its
option: choosing it leaves nothing more to decide). The record of a game keeps them under
`arena.choices` as `{kind: {option: [chosen, chosen_single]}}`.

`summarize(records)` gives each kind's decisions and each option's **share** of them with a 95%
interval with the deal as the unit: the share is a ratio (chosen over decisions, summed over the
deal's games), its variance the ratio estimator's over deals; the interval is Wilson's score interval
on the effective number of decisions (decisions over the design effect, at least 1), so that a
share of 1 out of few decisions is not certain (a plain t interval would be [1, 1]).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from typing import Any

from bodoge.agents.counterfactual import action_label, vocabulary
from bodoge.arena.stats import SHARE, Estimate, clustered_mean_ci
from bodoge.core.game import Game, State

Record = dict[str, Any]

#: An option is **dominant** at its kind of decision when its share's whole interval lies above this:
#: the bots almost never take the other options there.
DOMINANT = 0.9
#: Wilson's z for a 95% interval.
Z = 1.959963984540054


#: Each game's option of each action id, as seen so far ((game, players, options) -> {id: option}):
#: an action's text costs about as much as applying it, and the option of an id is the same in every
#: state in the games we know (the kind of action is part of the id). `ChoiceTally` checks that on the
#: chosen actions of a process's first CHECKED decisions of each game, and reads every text for a game
#: where it fails.
_OPTION_OF: dict[str, dict[int, str]] = {}
_TEXTS_ONLY: set[str] = set()
_CHECKS: dict[str, int] = {}
CHECKED = 5000


def _game_key(game: Game) -> str:
    return f"{type(game).__module__}.{type(game).__qualname__}:{game.num_players}:{sorted(game.options.items())!r}"


class ChoiceTally:
    """Choices of one game, by kind of decision (see the module docstring)."""

    def __init__(self, game: Game) -> None:
        self.words = vocabulary(game)
        module = game.part("text")
        self.which_card: dict[str, str] = (
            dict(getattr(module, "WHICH_CARD", {})) if module is not None else {}
        )
        self.kinds: dict[str, dict[str, list[int]]] = {}
        self._labels: dict[str, str] = {}
        self._key = _game_key(game)
        self._by_id = _OPTION_OF.setdefault(self._key, {})

    def label(self, text: str) -> str:
        found = self._labels.get(text)
        if found is None:
            label = action_label(text, self.words)
            found = self._labels[text] = self.which_card.get(label, label)
        return found

    def _labels_of(self, state: State, legal: list[int], action: int) -> list[str]:
        if self._key in _TEXTS_ONLY:
            return [self.label(state.action_text(a)) for a in legal]
        known = self._by_id.get(action)
        checks = _CHECKS.get(self._key, 0)
        if known is None or checks < CHECKED:
            _CHECKS[self._key] = checks + 1
            chosen = self.label(state.action_text(action))
            if known is not None and known != chosen:  # this game's ids do not fix their option
                _TEXTS_ONLY.add(self._key)
                return self._labels_of(state, legal, action)
            self._by_id[action] = chosen
        out = []
        for a in legal:
            label = self._by_id.get(a)
            if label is None:
                label = self._by_id[a] = self.label(state.action_text(a))
            out.append(label)
        return out

    def decide(self, state: State, legal: list[int], action: int) -> None:
        """`action` is chosen among `legal` at `state` (before it is applied)."""
        if len(legal) < 2 or action not in legal:
            return
        labels = self._labels_of(state, legal, action)
        options = sorted(set(labels))
        if len(options) < 2:
            return
        chosen = labels[legal.index(action)]
        entry = self.kinds.setdefault("/".join(options), {}).setdefault(chosen, [0, 0])
        entry[0] += 1
        if labels.count(chosen) == 1:
            entry[1] += 1

    def to_json(self) -> dict[str, dict[str, list[int]]]:
        return {kind: dict(sorted(options.items())) for kind, options in sorted(self.kinds.items())}


def share_ci(per_deal: list[tuple[float, float]]) -> Estimate:
    """Σ chosen / Σ decisions from (chosen, decisions) per deal, with Wilson's interval on the
    effective number of decisions (see the module docstring). `n` is the number of deals."""
    total = math.fsum(d for _c, d in per_deal)
    if total == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    chosen = math.fsum(c for c, _d in per_deal)
    p = chosen / total
    deals = len(per_deal)
    effective = total
    if deals > 1 and 0 < p < 1:
        # the ratio estimator's variance over deals, against a binomial's over all the decisions
        residual = math.fsum((c - p * d) ** 2 for c, d in per_deal)
        var_ratio = deals / (deals - 1) * residual / total**2
        var_binomial = p * (1 - p) / total
        effective = total / max(1.0, var_ratio / var_binomial)
    low, high = wilson(p, effective)
    return Estimate(p, low, high, deals)


def wilson(p: float, n: float, z: float = Z) -> tuple[float, float]:
    """Wilson's score interval for a share `p` of `n` trials (n may be an effective, fractional n)."""
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def summarize(records: list[Record]) -> dict[str, Any]:
    """Per kind of decision: decisions, games where it came up, and per option its share (Estimate),
    chosen count, and whether it is dominant; and `dead`, each game's share of dead decisions
    (forced, or a single action of a dominant option), over deals. Records without choices (written
    before issue #35) give an empty summary."""
    counts: dict[str, dict[str, dict[Hashable, list[int]]]] = {}
    games: dict[str, int] = {}
    deals = sorted({r["arena"]["deal"] for r in records}, key=str)
    for r in records:
        choices = r["arena"].get("choices")
        if not choices:
            continue
        deal = r["arena"]["deal"]
        for kind, options in choices.items():
            games[kind] = games.get(kind, 0) + 1
            by_option = counts.setdefault(kind, {})
            for option in kind.split("/"):
                by_option.setdefault(option, {})
            for option, (chosen, _single) in options.items():
                by_option.setdefault(option, {}).setdefault(deal, [0])[0] += chosen
    kinds: dict[str, Any] = {}
    for kind, by_option in sorted(counts.items()):
        decisions_by_deal: dict[Hashable, int] = {}
        for per_deal in by_option.values():
            for deal, (chosen,) in per_deal.items():
                decisions_by_deal[deal] = decisions_by_deal.get(deal, 0) + chosen
        options = {}
        for option, per_deal in sorted(by_option.items()):
            pairs = [
                (float(per_deal.get(d, [0])[0]), float(decisions_by_deal.get(d, 0)))
                for d in deals
                if decisions_by_deal.get(d, 0)
            ]
            share = share_ci(pairs)
            options[option] = {
                "share": share,
                "chosen": sum(c for (c,) in per_deal.values()),
                "dominant": bool(share.low > DOMINANT),
            }
        kinds[kind] = {
            "decisions": sum(decisions_by_deal.values()),
            "games": games[kind],
            "options": options,
        }
    return {"kinds": kinds, "dead": _dead(records, kinds)}


def _dead(records: list[Record], kinds: dict[str, Any]) -> Estimate:
    """Each game's share of dead decisions (forced, or the single action of a dominant option), over deals."""
    dominant = {
        (kind, option) for kind, k in kinds.items() for option, o in k["options"].items() if o["dominant"]
    }

    def dead(r: Record) -> float | None:
        a = r["arena"]
        total = sum(a.get("decisions", ()))
        forced = a.get("metrics", {}).get("forced")
        if not total or forced is None or "choices" not in a:
            return None
        settled = sum(
            single
            for kind, options in a["choices"].items()
            for option, (_chosen, single) in options.items()
            if (kind, option) in dominant
        )
        return (round(forced * total) + settled) / total

    pairs: Iterable[tuple[Hashable, float]] = (
        (r["arena"]["deal"], value) for r in records if (value := dead(r)) is not None
    )
    return clustered_mean_ci(pairs, within=SHARE)
