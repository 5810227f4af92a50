"""What an agent assumes of the other players, in words (issue #54).

A result of bot games holds for those bots: a bot that decides by assuming what the others do makes
its assumption look like a finding (Hangover's heuristic declares because it assumes the seats still
to speak declare). `assumes(spec, game)` says it, so that a finding can name what it rests on; a
game's `assumptions` module (`HEURISTIC_ASSUMES`) words its heuristic's.
"""

from __future__ import annotations

from typing import Any

from bodoge.agents.counterfactual import PARAMETERS
from bodoge.core.game import Game

Words = dict[str, str]


def _heuristic(game: Game) -> Words:
    module = game.part("assumptions")
    said = getattr(module, "HEURISTIC_ASSUMES", None) if module is not None else None
    if said:
        return dict(said)
    return {
        "en": "plays the game's rules of thumb from its own view",
        "ja": "自分に見える情報だけでゲームの経験則に従って打ちます",
    }


def _ismcts(game: Game, params: dict[str, Any]) -> Words:
    from bodoge.agents.ismcts import ISMCTSAgent, Policy

    opponents = ISMCTSAgent(**params).opponents_in(game)  # as the search itself resolves `auto`
    if opponents in (Policy.QUICK, Policy.HEURISTIC):
        heuristic = _heuristic(game)
        return {
            "en": "searches, but plays the other seats in its simulations as the heuristic bot does, so "
            f"it inherits that bot's view of them (it {heuristic['en']})",
            "ja": "探索しますが、シミュレーションの中では他の席を経験則ボットと同じように打たせるため、"
            f"そのボットの見方を受け継ぎます（{heuristic['ja']}）",
        }
    if opponents == Policy.RANDOM:
        return {
            "en": "searches with the other seats playing at random in its simulations",
            "ja": "シミュレーションの中で他の席をランダムに打たせて探索します",
        }
    return {
        "en": "searches with the other seats choosing by search in its own tree (no fixed model of them); "
        "the cards it cannot see are dealt as the others' moves suggest",
        "ja": "他の席の手も自分の探索木の中で探索して選ばせます（相手の打ち方を決めつけません）。見えない"
        "カードは他の人の手から推測して配ります",
    }


def assumes(spec: str, game: Game) -> Words:
    """What the agent of `spec` assumes of the others at `game`, in English and Japanese."""
    from bodoge.agents import parse_spec

    name, params = parse_spec(spec)
    if name == "random":
        base = {
            "en": "chooses uniformly at random among the legal moves",
            "ja": "合法手から一様にランダムに選びます",
        }
    elif name == "heuristic":
        base = _heuristic(game)
    elif name == "ismcts":
        base = _ismcts(game, {k: v for k, v in params.items() if k not in PARAMETERS})
    elif name == "nn":
        base = {
            "en": "plays a network trained by self-play, so it expects the others to play as it learned to",
            "ja": "自己対戦で学習したネットワークで打つため、他の人も自分が学んだように打つと見込んでいます",
        }
    else:
        base = {
            "en": "plays as its own code says (what it assumes is not known here)",
            "ja": "独自のコードで打ちます（前提はここでは分かりません）",
        }
    changes = {k: params[k] for k in PARAMETERS if k in params}
    if not changes:
        return base
    where = f" at {changes['at']} decisions" if "at" in changes else ""
    where_ja = f"（{changes['at']} の判断で）" if "at" in changes else ""
    parts_en, parts_ja = [], []
    if "prefer" in changes:
        parts_en.append(f"always takes {changes['prefer']} where it can{where}")
        parts_ja.append(f"{where_ja}できるときは必ず {changes['prefer']} を選びます")
    if "avoid" in changes:
        parts_en.append(f"never takes {changes['avoid']} where another move is legal{where}")
        parts_ja.append(f"{where_ja}ほかに合法手があるときは {changes['avoid']} を選びません")
    return {
        "en": f"{'; '.join(parts_en)}; otherwise it {base['en']}",
        "ja": f"{'。'.join(parts_ja)}。それ以外は{base['ja']}",
    }
