"""Hostile bodies for the lessons' step and for hints (server/lessons.py, server/hints.py), found by
hypothesis: whatever is sent, the answer is a clear 4xx with a `detail` or a step of the lesson's
own moves, never a server error, and a refused request changes nothing (the lesson's start and the
practice table answer as before)."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed (pip install -e '.[server]')")

from hostile_json import HUGE_INTS, JSON_VALUES, TEXTS, to_json
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

LESSON = "/api/games/troika/lessons/first-moves/step"
MOVES = ["take 7", "take 9", "take 12", "draw"]  # the fixture lesson's moves (tests/learn/fixtures)
# The same examples every run: CI must not flake on a draw.
FUZZ = settings(
    derandomize=True,
    deadline=None,
    max_examples=150,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# The shared hostile JSON (tests/server/hostile_json.py), with texts near the lesson's own moves.
MOVE_TEXTS = st.one_of(
    st.sampled_from([*MOVES, "", " take 7", "TAKE 7", "take 07", "take\x007", "draw\n", "ドロー", "\ud800"]),
    st.text(min_size=195, max_size=210),  # about the longest action text (200)
    TEXTS,
)
VALUES = st.one_of(MOVE_TEXTS, JSON_VALUES)
ACTIONS = st.one_of(
    st.integers(0, 4).map(lambda n: MOVES[:n]),  # the lesson's own moves so far
    st.lists(st.one_of(st.sampled_from(MOVES), MOVE_TEXTS, HUGE_INTS, VALUES), max_size=6),
    st.integers(199, 202).map(lambda n: ["draw"] * n),  # about MAX_STEPS
    VALUES,
)
STEP_BODIES = st.one_of(
    st.fixed_dictionaries({"actions": ACTIONS}, optional={"move": st.one_of(MOVE_TEXTS, HUGE_INTS, VALUES)}),
    st.dictionaries(st.sampled_from(["actions", "move", "Actions", "extra"]), VALUES, max_size=3),
    VALUES,
)
BYTES = st.one_of(
    st.binary(max_size=40),
    st.sampled_from([b"", b"{", b'{"actions": [}', b"\xff\xfe", "ドロー".encode("utf-16")]),
)


def dumps(body: Any) -> bytes:
    """A generated body as the bytes a client sends (lone surrogates escaped, Raw pieces as written)."""
    return to_json(body).encode()


def refused_clearly(answer: httpx.Response, allowed: set[int]) -> None:
    assert answer.status_code in allowed, (answer.status_code, answer.text[:300])
    detail = answer.json()["detail"]
    assert detail and (isinstance(detail, str) or all(d.get("msg") for d in detail)), detail


def test_any_step_body_is_a_step_or_a_clear_refusal(http: httpx.Client) -> None:
    start = http.post(LESSON, json={"actions": []}).json()
    seen: set[Any] = set()  # statuses, and whether a try was taken

    @FUZZ
    @given(body=st.one_of(STEP_BODIES.map(dumps), BYTES))
    # Every kind of answer, whatever the draw: a try taken, one refused, a step refused, a bad body.
    @example(body=dumps({"actions": ["take 7"]}))
    @example(body=dumps({"actions": [], "move": "take 7"}))
    @example(body=dumps({"actions": [], "move": "draw"}))
    @example(body=dumps({"actions": ["take 12"]}))
    @example(body=b'{"actions": [}')
    def fuzz(body: bytes) -> None:
        answer = http.post(LESSON, content=body, headers={"content-type": "application/json"})
        seen.add(answer.status_code)
        if answer.status_code != 200:
            refused_clearly(answer, {400, 413, 422})
            return
        got = answer.json()
        sent = json.loads(body)
        # Every action so far was the lesson's own (else 400), and the try is taken only if right.
        assert got["moves"] == len(sent.get("actions", [])) + (got["accepted"] is True)
        assert got["lesson"] == "first-moves" and got["view"]["seat"] == 0
        seen.add(got["accepted"])
        if sent.get("move") is None:
            assert got["accepted"] is None
        elif got["accepted"] is False:
            assert got["message"]["en"] and got["message"]["ja"]

    fuzz()
    # Steps, tries taken and not, refusals of the lesson and of the body: all were answered.
    assert {200, 400, 422, None, True, False} <= seen, seen
    assert http.post(LESSON, json={"actions": []}).json() == start  # nothing a refusal did stays


def test_any_hint_body_is_a_hint_or_a_clear_refusal(http: httpx.Client) -> None:
    seats = [{"kind": "human", "name": "Aki"}] + [{"kind": "bot", "spec": "heuristic"}] * 3
    created = http.post(
        "/api/tables", json={"game": "tottarot", "players": 4, "seats": seats, "hints": True, "seed": 3}
    ).json()
    hint_url = f"/api/tables/{created['id']}/hint"
    token = created["seats"][0]["token"]
    deadline = time.monotonic() + 60
    while (table := http.get(f"/api/tables/{created['id']}").json())["current_player"] != 0:
        assert time.monotonic() < deadline, table  # (Aki bids first; bots would move before)
        time.sleep(0.05)
    moves = table["moves"]

    @FUZZ
    @given(
        body=st.one_of(
            st.fixed_dictionaries({"token": st.one_of(MOVE_TEXTS, st.just(token[:-1]), VALUES)}).map(dumps),
            st.dictionaries(st.sampled_from(["token", "seat", "Token"]), VALUES, max_size=2).map(dumps),
            STEP_BODIES.map(dumps),
            BYTES,
        )
    )
    @example(body=dumps({"token": "x" * 20}))  # a token of no seat
    @example(body=dumps({"token": 5}))
    def fuzz(body: bytes) -> None:
        answer = http.post(hint_url, content=body, headers={"content-type": "application/json"})
        refused_clearly(answer, {403, 413, 422})
        seen.add(answer.status_code)

    seen: set[int] = set()
    fuzz()
    assert {403, 422} <= seen, seen
    assert http.get(f"/api/tables/{created['id']}").json()["moves"] == moves  # a hint never moves
    hint = http.post(hint_url, json={"token": token})
    assert hint.status_code == 200, hint.text  # its person still gets hints
    assert hint.json()["hints"], hint.json()
