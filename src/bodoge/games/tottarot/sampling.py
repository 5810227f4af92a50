"""Determinization for Tottarot (DESIGN.md §2): a full state consistent with one seat's view, built
through the rules."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from bodoge.games.tottarot import play, setup
from bodoge.games.tottarot.state import TottarotGame, TottarotState


def sample_state(game: TottarotGame, view: Mapping[str, Any], rng: random.Random) -> TottarotState:
    """Rebuild the game from the view's log (every past turn is fully known: each drawn card
    ends discarded or decided, and steals are public), deal the current turn's unknown declared
    cards and the rest of the deck uniformly from the cards unaccounted for, sample the hidden
    bids of this turn among each bidder's unused tokens, and replay."""
    n = game.n
    seat = view["seat"]
    index = game.code_index
    rounds: list[tuple[int, list[list[int | None]]]] = []  # (start, faces per turn by origin seat)
    actions: list[int | None] = []
    hidden_bids: list[tuple[int, int]] = []  # (slot in actions, bidder)
    holder: list[int | None] = []
    faces: list[int | None] = []
    turn = 0
    for e in view["log"]:
        kind = e["type"]
        if kind == "round_start":
            rounds.append((e["start_player"], []))
            turn = 0
            continue
        if kind in ("round_end", "game_end", "skip", "invert"):
            continue
        if e["turn"] != turn:
            turn = e["turn"]
            holder = list(range(n))  # the origin (drawing seat) of each held card
            faces = [None] * n  # the face of the card each origin drew
            rounds[-1][1].append(faces)
        card = e.get("card")
        c = None if card is None else index[card]
        if kind == "draw":  # the seat's own draw shows its card; the others' are hidden
            if c is not None:
                faces[e["seat"]] = c
        elif kind == "bid":
            if e["value"] is None:
                hidden_bids.append((len(actions), e["seat"]))
            actions.append(e["value"])
        elif kind == "reveal":
            for slot, p in hidden_bids:
                actions[slot] = e["bids"][p]
            hidden_bids = []
        elif kind == "discard":
            o = holder[e["seat"]]
            assert o is not None
            faces[o] = c
            holder[e["seat"]] = None
        elif kind == "steal":
            o = holder[e["target"]]
            assert o is not None
            holder[e["seat"]] = o
            holder[e["target"]] = None
            if c is not None:
                faces[o] = c
            actions.append(game.steal0 + e["target"])
        elif kind == "steal_none":
            actions.append(game.steal0 + n)
        elif kind == "decide":
            for p, code in enumerate(e["cards"]):
                if code is not None:
                    o = holder[p]
                    assert o is not None
                    faces[o] = index[code]
        elif kind in ("share", "peek", "expose"):
            h = e["seat"]
            if kind != "expose":
                actions.append((game.share0 if kind == "share" else game.peek0) + e["target"])
            if c is not None:
                # What was shown: the target's card (to the holder, or to all for EXPOSE), or
                # the holder's card (to a SHARE target).
                shown = h if kind == "expose" or (kind == "share" and seat == e["target"]) else e["target"]
                o = holder[shown]
                assert o is not None
                faces[o] = c
    # This turn's bids still hidden from `seat`: any unused token of the bidder.
    unused = view["unused_tokens"]
    for slot, p in hidden_bids:
        actions[slot] = rng.choice(unused[p])
    stacked: dict[int, list[int]] = {}
    for r, (start, turns) in enumerate(rounds, 1):
        left = list(game.copies)
        for turn_faces in turns:
            for c in turn_faces:
                if c is not None:
                    left[c] -= 1
        if min(left) < 0:
            raise ValueError("the view shows more copies of a card than the deck has")
        rest = [i for i, k in enumerate(left) for _ in range(k)]
        rng.shuffle(rest)
        order = []
        for turn_faces in turns:
            for p in game.orders[start]:
                c = turn_faces[p]
                order.append(rest.pop() if c is None else c)
        stacked[r] = order + rest
    state = game.blank_state(rng)
    assert isinstance(state, TottarotState)
    setup.begin(state, stacked)
    play.start_turn(state)
    # Replay. Every action comes from the engine's own log (or a hidden bid drawn among the
    # bidder's unused tokens), so it is legal: the base's checks are skipped for speed.
    history = state.history
    for a in actions:
        assert a is not None
        history.append(a)
        state._apply(a)
    return state
