"""Counterfactual agents: any agent, made to prefer or avoid some actions (issue #35).

    bodoge.agents.make("heuristic:avoid=declare")           # Hangover: never declare non-drinker
    bodoge.agents.make("heuristic:prefer=pass")             # the same, said the other way
    bodoge.agents.make("ismcts:iterations=500,prefer=draw") # Troika: draw whenever drawing is legal
    bodoge.agents.make("heuristic:avoid=flip|stop")         # several prefixes: any of them
    bodoge.agents.make("heuristic:avoid=take,at=return hand/take")  # only at that kind of decision

A designer asks "what if the bots did not always do that?": the wrapper plays as its inner agent
does, except at the decisions it names. `prefer=P` takes an action whose text starts with P whenever
one is legal; `avoid=P` takes one that does not, whenever one is legal. Where the inner agent's own
choice already obeys, it stands; otherwise the inner agent chooses again from a view that offers only
the allowed actions, and if it still picks another, a random allowed action is taken. So the
difference between the wrapper and its inner agent is exactly the named choice.

`at=K` limits the wrapper to one kind of decision (`bodoge.arena.choices`): the decisions whose legal
actions are of exactly the options K names, `/`-separated (`at=return hand/take`: a Troika turn where
only returning a hand tile or taking is legal). Elsewhere the inner agent plays alone.

**Prefixes match whole words** of the English action text: `take 1` matches `take 1` but not
`take 12`; `return` matches `return hand 7`. Several prefixes are separated by `|`. A prefix must
name an action of the game (`check`, which `bodoge sim`, `bodoge tune` and `SimConfig.check` call
before any game is played): one that no action of the game can start with is refused with the
game's action words, so a typing error never runs a thousand games of the plain agent.

The game's action words come from its `action` text table (`texts/en.toml`: `play {rest}`,
`declare`, `steal none`), the same that translates action texts. A game without text tables (a
test's toy game) is read from the actions it offers in a few random games instead.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bodoge.agents.base import Agent, legal_ids
from bodoge.core.game import Game
from bodoge.errors import BadOption

#: The parameters any agent spec may carry to make it counterfactual.
PARAMETERS = ("prefer", "avoid", "at")


@dataclass(frozen=True)
class ActionWord:
    """One kind of action of a game: its leading words (`return hand`), and whether more words follow
    (`{rest}`: a card, a tile, a seat)."""

    words: tuple[str, ...]
    rest: bool

    @property
    def label(self) -> str:
        return " ".join(self.words)

    def shown(self) -> str:
        return self.label + (" …" if self.rest else "")

    def admits(self, prefix: tuple[str, ...]) -> bool:
        """Whether some action of this kind can start with the words `prefix`."""
        k = len(self.words)
        if len(prefix) <= k:
            return self.words[: len(prefix)] == prefix
        return self.rest and prefix[:k] == self.words


def _vocabulary_of(game: Game) -> tuple[ActionWord, ...]:
    module = game.part("text")
    texts = getattr(module, "TEXTS", None) if module is not None else None
    if texts is not None:
        found = []
        for key, template in texts.tables["en"].items():
            if not key.startswith("action."):
                continue
            literal, brace, _ = template.partition("{")
            words = tuple(literal.split())
            if words:
                found.append(ActionWord(words, bool(brace)))
        if found:
            return tuple(sorted(set(found), key=lambda w: w.words))
    return _sampled_vocabulary(game)


def _sampled_vocabulary(game: Game, games: int = 3) -> tuple[ActionWord, ...]:
    """The first words of every action offered in a few random games (a game without text tables)."""
    seen: dict[str, bool] = {}
    rng = random.Random(0)
    for seed in range(games):
        state = game.new_state(seed=seed)
        while state.current_player is not None:
            legal = state.legal_actions()
            for a in legal:
                first, *more = state.action_text(a).split()
                seen[first] = seen.get(first, False) or bool(more)
            state.apply(rng.choice(legal))
    return tuple(ActionWord((w,), rest) for w, rest in sorted(seen.items()))


def vocabulary(game: Game) -> tuple[ActionWord, ...]:
    """The kinds of action of `game`, from its `action` text table (or a few random games)."""
    key = (type(game), game.num_players)
    if key not in _VOCABULARIES:
        _VOCABULARIES[key] = _vocabulary_of(game)
    return _VOCABULARIES[key]


_VOCABULARIES: dict[tuple[type, int], tuple[ActionWord, ...]] = {}


def action_label(text: str, words: Sequence[ActionWord]) -> str:
    """The kind of action a text is: the longest run of its leading words that is an action word of
    the game (`steal none` -> 'steal none', `steal P2` -> 'steal', `return hand 7` -> 'return hand'),
    or its first word if none fits."""
    parts = tuple(text.split())
    best: tuple[str, ...] = ()
    for w in words:
        k = len(w.words)
        if k > len(best) and parts[:k] == w.words and (len(parts) == k or w.rest):
            best = w.words
    return " ".join(best) if best else (parts[0] if parts else "")


def parse_prefixes(value: Any, name: str, spec: str) -> tuple[tuple[str, ...], ...]:
    """`prefer=`/`avoid=` value -> word tuples; several separated by '|'."""
    text = value if isinstance(value, str) else str(value)
    found = tuple(tuple(part.split()) for part in text.split("|"))
    if not found or any(not words for words in found):
        raise BadOption(
            "agent", spec, f"{name}=the start of an action's text, e.g. {name}=declare or {name}=take|draw"
        )
    return found


def matches(text: str, prefixes: Sequence[tuple[str, ...]]) -> bool:
    """Whether an action text starts with one of the prefixes, word for word."""
    parts = tuple(text.split())
    return any(parts[: len(p)] == p for p in prefixes)


class _Offered(Mapping[str, Any]):
    """A view that offers only some of its legal actions (the rest as the view says)."""

    __slots__ = ("_allowed", "_entries", "_view")

    def __init__(self, view: Mapping[str, Any], allowed: list[int]) -> None:
        self._view = view
        self._allowed = set(allowed)
        self._entries: list[dict[str, Any]] | None = None

    def legal_ids(self) -> list[int]:
        return sorted(self._allowed)

    def __getitem__(self, key: str) -> Any:
        if key == "legal_actions":
            if self._entries is None:
                self._entries = [e for e in self._view["legal_actions"] if e["id"] in self._allowed]
            return self._entries
        return self._view[key]

    def __contains__(self, key: object) -> bool:
        return key in self._view

    def __iter__(self) -> Iterator[str]:
        return iter(self._view)

    def __len__(self) -> int:
        return len(self._view)


class CounterfactualAgent:
    """`inner`, except that it prefers actions starting with `prefer` and avoids those starting with
    `avoid` (see the module docstring)."""

    def __init__(
        self,
        inner: Agent,
        spec: str,
        prefer: Sequence[tuple[str, ...]] = (),
        avoid: Sequence[tuple[str, ...]] = (),
        at: frozenset[str] | None = None,
    ) -> None:
        self.inner = inner
        self.spec = spec
        self.prefer = tuple(prefer)
        self.avoid = tuple(avoid)
        self.at = at
        self.reads_log = bool(getattr(inner, "reads_log", True))

    def check(self, game: Game) -> None:
        """BadOption now if a prefix names no action of `game`, or the inner agent cannot play it."""
        words = vocabulary(game)
        for name, prefixes in (("prefer", self.prefer), ("avoid", self.avoid)):
            for prefix in prefixes:
                if not any(w.admits(prefix) for w in words):
                    shown = ", ".join(w.shown() for w in words)
                    raise BadOption(
                        "agent",
                        self.spec,
                        f"{name}= the start of an action of {game.name}: {shown}",
                        f"no action of {game.name} starts with {' '.join(prefix)!r}",
                    )
        labels = {w.label for w in words}
        if self.at is not None and not self.at <= labels:
            unknown = ", ".join(sorted(self.at - labels))
            raise BadOption(
                "agent",
                self.spec,
                f"at= options of {game.name} separated by '/': {', '.join(sorted(labels))}",
                f"{unknown} is not one",
            )
        check = getattr(self.inner, "check", None)
        if check is not None:
            check(game)

    def allowed(self, game: Game, view: Mapping[str, Any], legal: list[int]) -> list[int]:
        """The legal actions this agent may take: the preferred ones if any is legal, less the avoided
        ones if any other is legal."""
        texts = _texts(view, legal)
        if self.at is not None:
            words = vocabulary(game)
            if {action_label(texts[a], words) for a in legal} != self.at:
                return legal
        allowed = legal
        if self.prefer:
            preferred = [a for a in allowed if matches(texts[a], self.prefer)]
            allowed = preferred or allowed
        if self.avoid:
            kept = [a for a in allowed if not matches(texts[a], self.avoid)]
            allowed = kept or allowed
        return allowed

    def act(self, game: Game, view: Mapping[str, Any], rng: random.Random) -> int:
        legal = legal_ids(view)
        allowed = self.allowed(game, view, legal)
        choice = self.inner.act(game, view, rng)
        if len(allowed) == len(legal) or choice in allowed:
            return choice
        again = self.inner.act(game, _Offered(view, allowed), rng)
        return again if again in allowed else rng.choice(allowed)


def _texts(view: Mapping[str, Any], legal: list[int]) -> dict[int, str]:
    """Each legal action's English text, as the view offers it."""
    texts = {int(e["id"]): str(e["text"]) for e in view["legal_actions"]}
    return {a: texts[a] for a in legal}


def wrap(inner: Agent, spec: str, params: dict[str, Any]) -> Agent:
    """`inner` made counterfactual by the `prefer`/`avoid` of `params` (taken out of it), or `inner`."""
    prefer = params.pop("prefer", None)
    avoid = params.pop("avoid", None)
    at = params.pop("at", None)
    if prefer is None and avoid is None:
        if at is not None:
            raise BadOption("agent", spec, "at= together with prefer= or avoid= (it says where they apply)")
        return inner
    kind = None
    if at is not None:
        kind = frozenset(" ".join(part.split()) for part in str(at).split("/"))
        if len(kind) < 2 or "" in kind:
            raise BadOption("agent", spec, "at= a kind of decision: two or more options separated by '/'")
    return CounterfactualAgent(
        inner,
        spec,
        parse_prefixes(prefer, "prefer", spec) if prefer is not None else (),
        parse_prefixes(avoid, "avoid", spec) if avoid is not None else (),
        kind,
    )
