"""`bodoge play`, the terminal game (issue #16): choices numbered by their place in the list, choices in
several parts taken part by part, each turn's choices listed once, a legend of the board's symbols, and a
game left by Ctrl-C, the end of the input or `quit` kept as a record that `bodoge.replay` reads."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from interrupt import CHILD
from typer.testing import CliRunner

import bodoge
from bodoge import agents
from bodoge.cli import app
from bodoge.core.game import State
from bodoge.core.registry import game_class
from bodoge.terminal import HELP_WORDS, QUIT, Decision, Refused

runner = CliRunner()
TROIKA = [
    "play",
    "troika",
    "--players",
    "3",
    "--seed",
    "3",
]  # P0's first choices: take 3, take 7, draw, return hand 6


def play(args: list[str], typed: list[str], record: Path) -> tuple[str, dict[str, Any]]:
    """Run `bodoge play` with these lines typed (then the end of the input); its output and record."""
    result = runner.invoke(app, [*args, "--record", str(record)], input="".join(f"{t}\n" for t in typed))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    return result.output, json.loads(record.read_text())


# -- numbering by place in the list ---------------------------------------------------------------


def test_a_number_is_a_place_in_the_list_never_an_id(tmp_path: Path) -> None:
    state = bodoge.make("troika", players=3).new_state(seed=3)
    legal = state.legal_actions()
    assert [state.action_text(a) for a in legal] == ["take 3", "take 7", "draw", "return hand 6"]
    assert legal[0] != 0 and legal[2] == 15  # the ids are not the places
    for k, action in enumerate(legal, 1):
        out, record = play(TROIKA, [str(k)], tmp_path / f"{k}.json")
        assert record["actions"][0] == action, out  # then the bots move
    # 15 is draw's id, and beside 'take 3' a 3 is a tile: as numbers they are places only
    out, record = play(TROIKA, ["15", "3"], tmp_path / "ids.json")
    assert record["actions"][0] == legal[2]
    assert "there is no choice 15; allowed: a number from 1 to 4" in out


def test_a_choice_is_also_taken_by_its_text(tmp_path: Path) -> None:
    legal = bodoge.make("troika", players=3).new_state(seed=3).legal_actions()
    out, record = play(TROIKA, ["  Take   7 "], tmp_path / "g.json")
    assert record["actions"][0] == legal[1], out


# -- bad entries ----------------------------------------------------------------------------------


def test_bad_entries_are_answered_with_what_is_allowed_and_change_nothing(tmp_path: Path) -> None:
    typed = ["nonsense", "0", "5", "-1", "take 99", "back", "take 3 now", "1.5", "٣"]
    out, record = play(TROIKA, typed, tmp_path / "g.json")
    assert record["actions"] == []
    allowed = (
        "allowed: a number from 1 to 4 (1 take 3 · 2 take 7 · 3 draw · 4 return hand 6), a choice's text"
    )
    assert out.count(allowed) == len(typed) - 1  # 'back' says there is nothing to go back from
    assert "nothing to go back from" in out
    assert "'nonsense' is not one of the choices" in out and "there is no choice 5" in out
    assert out.count("Choices:") == 1  # refusals do not list the choices again in full


# -- choices in several parts -----------------------------------------------------------------------


def arranging(seed: int = 5) -> State:
    """Hangover, P0 to arrange four different snacks (seed 5: +1/+2 -1/-2 -3/+3 -4/+4): 24 orderings."""
    state = bodoge.make("hangover").new_state(seed=seed)
    assert len(state.legal_actions()) == 24
    return state


def test_an_arrangement_is_offered_card_by_card_with_a_way_back() -> None:
    state = arranging()
    decision = Decision(state)
    chosen, choices = decision.offer()
    assert chosen == "arrange"
    assert [c.label for c in choices] == ["+1/+2 …", "-1/-2 …", "-3/+3 …", "-4/+4 …"]
    assert decision.answer("2") is None  # column 1: -1/-2
    chosen, choices = decision.offer()
    assert chosen == "arrange -1/-2" and [c.label for c in choices] == ["+1/+2 …", "-3/+3 …", "-4/+4 …"]
    assert decision.answer("back") is None and decision.offer()[0] == "arrange"
    assert decision.answer("-1/-2") is None and decision.answer("+1/+2") is None  # by their text
    chosen, choices = decision.offer()
    assert [c.label for c in choices] == ["-3/+3 -4/+4", "-4/+4 -3/+3"]  # the last two columns at once
    action = decision.answer("2")
    assert action is not None and state.action_text(action) == "arrange -1/-2 +1/+2 -4/+4 -3/+3"
    # a whole text is one entry; its first words (any case) narrow the list
    assert Decision(state).answer("arrange +1/+2 -1/-2 -3/+3 -4/+4") == state.parse_action(
        "arrange +1/+2 -1/-2 -3/+3 -4/+4"
    )
    narrowed = Decision(state)
    assert narrowed.answer("ARRANGE -4/+4") is None and narrowed.offer()[0] == "arrange -4/+4"


def test_an_arrangement_of_two_equal_snacks_offers_each_code_once() -> None:
    """HO-4.1: orderings that put the same codes in every column are one choice; so is each step."""
    state = next(
        s
        for s in (bodoge.make("hangover").new_state(seed=seed) for seed in range(100))
        if len(s.legal_actions()) == 12
    )
    decision = Decision(state)
    _, choices = decision.offer()
    assert len(choices) == 3 and all(c.action is None for c in choices)
    texts = set()
    for k in range(1, 4):  # every path through the steps ends at one of the 12 actions, each once
        texts |= _all_ends(state, [str(k)])
    assert texts == {state.action_text(a) for a in state.legal_actions()}


def _all_ends(state: State, typed: list[str]) -> set[str]:
    decision = Decision(state)
    action = None
    for t in typed:
        action = decision.answer(t)
    if action is not None:
        return {state.action_text(action)}
    ends: set[str] = set()
    for k in range(1, len(decision.offer()[1]) + 1):
        ends |= _all_ends(state, [*typed, str(k)])
    return ends


def test_texts_with_nothing_in_common_stay_whole() -> None:
    """Troika's take/draw/return and Hangover's stop/flip are one list; typing a first word narrows it."""
    decision = Decision(bodoge.make("troika", players=3).new_state(seed=3))
    assert [c.label for c in decision.offer()[1]] == ["take 3", "take 7", "draw", "return hand 6"]
    assert decision.answer("take") is None
    assert [c.label for c in decision.offer()[1]] == ["take 3", "take 7"]


def lines_for(state: State, action: int) -> list[str]:
    """The numbers a person types to take `action`, choosing part by part where the list is in parts."""
    text = state.action_text(action)
    decision = Decision(state)
    typed = []
    while True:
        _, choices = decision.offer()
        k = next(
            k
            for k, c in enumerate(choices, 1)
            if c.action == action or (c.action is None and text.startswith(" ".join(c.then) + " "))
        )
        typed.append(str(k))
        if decision.answer(str(k)) is not None:
            return typed


def cli_game(
    name: str, players: int, seed: int, bots: str, choose: Callable[[State], int]
) -> tuple[list[str], State, int]:
    """The CLI's game (bots as the CLI runs them) where seat 0 takes `choose(state)`: the lines it types,
    the state at the end, and how many decisions seat 0 had."""
    game = bodoge.make(name, players=players)
    state = game.new_state(seed=seed)
    bot = agents.make(bots)
    rng = random.Random(seed)
    typed: list[str] = []
    decisions = 0
    while not state.is_terminal:
        seat = state.current_player
        assert seat is not None
        if seat == 0:
            action = choose(state)
            typed += lines_for(state, action)
            decisions += 1
        else:
            action = bot.act(game, state.view(seat), rng)
        state.apply(action)
    return typed, state, decisions


def test_a_whole_hangover_game_typed_part_by_part(tmp_path: Path) -> None:
    pick = random.Random(1)

    def choose(state: State) -> int:
        return pick.choice(state.legal_actions())

    typed, end, _ = cli_game("hangover", 4, 5, "heuristic", choose)
    typed = ["2", "back", *typed]  # a step taken and undone first changes nothing
    out, record = play(["play", "hangover", "--seed", "5", "--bots", "heuristic"], typed, tmp_path / "g.json")
    assert "Winner(s):" in out, out[-3000:]
    assert record["actions"] == end.history
    assert bodoge.replay(record).is_terminal
    assert "Choose arrange … a part at a time:" in out and "Chosen so far: arrange -1/-2" in out


@pytest.mark.parametrize("name", bodoge.games())
def test_typing_1_every_time_plays_a_whole_game(name: str, tmp_path: Path) -> None:
    """The first choice, part by part, is the first legal action: '1' always finishes a game."""
    players = game_class(name).min_players
    _, end, _ = cli_game(name, players, 2, "heuristic", lambda s: s.legal_actions()[0])
    args = ["play", name, "--players", str(players), "--seed", "2", "--bots", "heuristic"]
    out, record = play(args, ["1"] * 3000, tmp_path / "g.json")
    assert "Winner(s):" in out, out[-2000:]
    assert record["actions"] == end.history


# -- the screen -------------------------------------------------------------------------------------


def test_each_decision_lists_its_choices_once(tmp_path: Path) -> None:
    typed, end, decisions = cli_game("troika", 3, 3, "heuristic", lambda s: s.legal_actions()[-1])
    out, record = play([*TROIKA, "--bots", "heuristic"], typed, tmp_path / "g.json")
    assert "Winner(s):" in out and record["actions"] == end.history
    assert out.count("Choices:") == decisions
    assert len(re.findall(r"^ +1  \S", out, re.M)) == decisions  # the numbered list, once each
    assert out.count("Troika トロイカ — round") == decisions + 1  # the board too, and once at the end
    assert "your turn:" not in out and "take 3, take 7" not in out  # the board lists no actions


@pytest.mark.parametrize("name", bodoge.games())
def test_the_legend_comes_first_and_on_help(name: str, tmp_path: Path) -> None:
    cls = game_class(name)
    for lang in ("en", "ja"):
        assert cls.legend(lang).count("\n") >= 5
    out, _ = play(["play", name, "--seed", "1"], ["?", "legend"], tmp_path / "g.json")
    legend = cls.legend("en")
    assert out.count(legend) == 3
    assert out.index(legend) < out.index("P0> ")  # before the first question
    for command in ("back", "legend", "rules", "quit", "1, 2, …"):
        assert command in out
    out, _ = play(["play", name, "--seed", "1", "--lang", "ja"], [], tmp_path / "ja.json")
    assert cls.legend("ja") in out


def test_every_legend_explains_its_boards_odd_symbols() -> None:
    symbols = {
        "hangover": ["R5^", "△", "??", "+1/+3", "columns [", "flipped -2/+2=-2@3", "drunk limit"],
        "tokkuri": ["◀", "T2.3", "[?]", "■", "□", "if left", "1~3", "round tally"],
        "tottarot": ["*", ">", "[hidden]", "EXPOSE", "inverted", "unused will", "bid"],
        "troika": [">", "mine (face up)", "container", "hidden", "TROIKA (first)", "waste", "left behind"],
    }
    for name, wanted in symbols.items():
        for lang in ("en", "ja"):
            legend = game_class(name).legend(lang)
            assert [s for s in wanted if s not in legend] == [], (name, lang)


# -- leaving a game: its record is kept -------------------------------------------------------------


def test_quit_and_the_end_of_input_keep_the_record(tmp_path: Path) -> None:
    out, record = play(TROIKA, ["draw", "quit"], tmp_path / "q.json")
    assert out.rstrip().endswith(f"Stopped: the game so far is in {tmp_path / 'q.json'}.")
    state = bodoge.replay(record)
    assert state.action_text(state.history[0]) == "draw" and not state.is_terminal


def test_without_record_an_unfinished_game_is_kept_in_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for expected in ("bodoge-troika-3.json", "bodoge-troika-3-2.json"):  # never over an earlier one
        result = runner.invoke(app, TROIKA, input="2\n")
        assert result.exit_code == 0, result.output
        assert result.output.rstrip().endswith(f"End of input: the game so far is in {tmp_path / expected}.")
        assert len(bodoge.replay(json.loads((tmp_path / expected).read_text())).history) >= 1
    finished = runner.invoke(app, ["play", "troika", "-p", "2", "--seed", "1"], input="1\n" * 3000)
    assert "Winner(s):" in finished.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bodoge-troika-3-2.json", "bodoge-troika-3.json"]


def test_ctrl_c_without_record_keeps_the_game_in_the_current_folder(tmp_path: Path) -> None:
    source = str(Path(bodoge.__file__).resolve().parents[1])  # this bodoge, from any folder
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": source}
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, *TROIKA],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        cwd=tmp_path,
        env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        seen = b""
        deadline = time.monotonic() + 30
        while b"P0> " not in seen:  # the first question: then Ctrl-C
            assert time.monotonic() < deadline, seen.decode(errors="replace")
            chunk = proc.stdout.read1(65536)
            assert chunk, seen.decode(errors="replace")
            seen += chunk
        proc.send_signal(signal.SIGINT)
        rest, _ = proc.communicate(timeout=30)
    finally:
        proc.kill()
    text = (seen + rest).decode()
    kept = tmp_path / "bodoge-troika-3.json"
    assert proc.returncode == 130, text
    assert text.splitlines()[-1] == f"Interrupted: the game so far is in {kept}.", text
    assert "Traceback" not in text
    assert bodoge.replay(json.loads(kept.read_text())).history == []


def test_an_unknown_language_is_refused() -> None:
    result = runner.invoke(app, ["play", "troika", "--lang", "fr"])
    assert result.exit_code == 2 and "en or ja" in result.output


# -- junk never crashes and never changes the game -------------------------------------------------

TOKENS = ["take", "arrange", "play", "flip", "back", "1", "0", "99", "-4/+4", "R5^", "T0.1", "bid", "…", " "]
junk = st.lists(
    st.one_of(st.sampled_from(TOKENS), st.text(st.characters(exclude_categories=("Cs",)), max_size=12)),
    max_size=5,
).map(" ".join)


def some_states() -> list[State]:
    states = []
    for name in bodoge.games():
        rng = random.Random(name)
        state = bodoge.make(name).new_state(seed=7)
        for _ in range(40):
            if state.is_terminal:
                break
            states.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
    return [arranging(), *states]


STATES = some_states()


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(STATES), st.lists(junk, max_size=4))
def test_any_entry_is_a_legal_action_a_step_or_a_refusal(state: State, entries: list[str]) -> None:
    decision = Decision(state)
    texts = [state.action_text(a) for a in state.legal_actions()]
    for typed in entries:
        before = list(decision.steps)
        try:
            action = decision.answer(typed)
        except Refused as exc:
            assert decision.steps == before
            assert "allowed: a number from 1 to" in str(exc) or "nothing to go back from" in str(exc)
            continue
        if action is not None:
            assert action in state.legal_actions()
            return
        chosen = decision.offer()[0]
        assert decision.steps != before or chosen
        # A step narrows to what some legal text starts with; `back` to the start leaves nothing chosen.
        assert not chosen or any(t == chosen or t.startswith(chosen + " ") for t in texts)


def _refused(line: str) -> bool:
    word = line.strip().lower()
    if word in QUIT or word in HELP_WORDS or word in ("", "legend", "rules"):
        return True
    try:
        Decision(bodoge.make("troika", players=3).new_state(seed=3)).answer(line)
    except Refused:
        return True
    return False


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(junk.filter(lambda t: "\n" not in t and "\r" not in t), min_size=1, max_size=6))
def test_junk_typed_at_the_prompt_never_crashes_and_changes_nothing(tmp_path: Path, lines: list[str]) -> None:
    assume(all(_refused(line) for line in lines))
    out, record = play(TROIKA, lines, tmp_path / "g.json")
    assert record["actions"] == [], out


def test_the_help_of_play_says_how_to_play() -> None:
    result = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "120"})
    assert result.exit_code == 0
    for words in ("numbered 1, 2, 3", "never an id", "back undoes a part", "legend", "Ctrl-C", "--lang"):
        assert words in result.output, words
