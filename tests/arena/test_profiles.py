"""`bodoge profiles` (issue #54): every profile of "always KIND" / "never KIND" on the same deals, its
equilibria and its sequential path. Small sizes: Hangover games take milliseconds."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bodoge import arena
from bodoge.arena import profiles
from bodoge.cli import app
from bodoge.errors import BadOption

runner = CliRunner()
A, N = "always", "never"


def invoke(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["profiles", *args, "--no-progress", "--jobs", "1"], catch_exceptions=False)
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def hangover_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("profiles") / "hangover-3p"
    code, text = invoke(
        "hangover", "--players", "3", "--choice", "declare", "--games", "5", "--seed", "3", "--out", str(out)
    )
    assert code == 0, text
    assert "pure equilibria:" in text and "in public, in seat order:" in text
    return out


# -- the run ---------------------------------------------------------------------------------------


def test_every_profile_is_played_and_the_json_has_its_shape(hangover_run: Path) -> None:
    data = json.loads((hangover_run / "profiles.json").read_text())
    assert {
        "game",
        "players",
        "choice",
        "agent",
        "games",
        "seed",
        "profiles",
        "equilibria",
        "sequential",
    } <= set(data)
    assert (data["game"], data["players"], data["choice"], data["agent"]) == (
        "hangover",
        3,
        "declare",
        "heuristic",
    )
    assert (data["games"], data["seed"]) == (5, 3)
    assert data["roles"] == {"always": "heuristic:prefer=declare", "never": "heuristic:avoid=declare"}
    assert len(data["profiles"]) == 2**3
    assert sorted(tuple(p["roles"]) for p in data["profiles"]) == sorted(profiles.profiles_of(3))
    for p in data["profiles"]:
        assert len(p["win_share"]) == 3
        for e in p["win_share"]:
            assert set(e) == {"mean", "low", "high"}
            assert 0 <= e["low"] <= e["mean"] <= e["high"] <= 1
        assert 0 <= p["ties"] <= 1
        used = p["kind_used"]
        # Hangover: every seat declares or passes once a game
        assert used["decisions"] == 3 * 5 and used["per_game"] == 3.0
        assert used["share_taken"] == pytest.approx(p["roles"].count(A) / 3, abs=1e-3)
    eq = data["equilibria"]
    assert set(eq) >= {"pure", "mixed", "mixed_note", "with_intervals"}
    for e in eq["pure"]:
        assert len(e["deviations"]) == 3 and isinstance(e["holds_with_intervals"], bool)
        assert all({"mean", "low", "high", "p", "clear"} <= set(d["gain"]) for d in e["deviations"])
    seq = data["sequential"]
    assert [d["seat"] for d in seq["path"]] == [0, 1, 2]
    assert [d["choice"] for d in seq["path"]] == seq["outcome"]
    assert len(seq["plan"]) == 1 + 2 + 4  # a decision after every history of earlier roles
    for d in seq["path"]:
        assert d["margin"]["mean"] == pytest.approx(d["win_share"] - d["win_share_other"], abs=1e-6)
    report = (hangover_run / "report.md").read_text()
    assert report.startswith("# Always or never `declare`: hangover, 3 players")
    for words in ("What this rests on", "counterfactual", "seeds 3 to 7", "not clear is not equal", "public"):
        assert words.lower() in report.lower()


def test_a_profile_agrees_exactly_with_sim_no_rotate(hangover_run: Path, tmp_path: Path) -> None:
    data = json.loads((hangover_run / "profiles.json").read_text())
    profile = next(p for p in data["profiles"] if p["roles"] == [A, N, A])
    out = tmp_path / "sim"
    result = runner.invoke(
        app,
        [
            "sim",
            "hangover",
            "--players",
            "3",
            "--agents",
            ",".join(profile["agents"]),
            "--games",
            "5",
            "--seed",
            "3",
            "--no-rotate",
            "--jobs",
            "1",
            "--out",
            str(out),
            "--no-progress",
            "--no-plots",
            "--experiments",
            "0",
        ],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    records = arena.load_records(out / "games.jsonl")
    assert [r["seed"] for r in records] == [3, 4, 5, 6, 7]
    played = profiles.from_records(records, "declare")
    for s in range(3):
        e = profiles.interval([r[s] for r in played.returns], 0.0, 1.0)
        assert e == profile["win_share"][s]
    assert sum(played.ties) / 5 == profile["ties"]


def test_play_uses_the_same_deals_in_every_profile() -> None:
    config = profiles.prepare("hangover", 3, "declare", games=3, seed=10)
    played = profiles.play(config)
    assert set(played) == set(profiles.profiles_of(3))
    # P1 passing alone, the others declaring: the same deals as everyone declaring
    same = profiles.from_records(arena.run(config.sim_config((A, N, A))), "declare")
    assert same.returns == played[(A, N, A)].returns


def test_troika_declaration_two_players(tmp_path: Path) -> None:
    out = tmp_path / "troika"
    code, text = invoke("troika", "--players", "2", "--choice", "troika", "--games", "3", "--out", str(out))
    assert code == 0, text
    data = json.loads((out / "profiles.json").read_text())
    assert len(data["profiles"]) == 4 and data["choice"] == "troika"


# -- bad input ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nosuchgame", "--choice", "declare"], "bad value for 'game'"),
        (["hangover", "--players", "7", "--choice", "declare"], "hangover is for 3 to 5 players"),
        (["hangover", "--players", "3", "--choice", "drink"], "no action of hangover starts with 'drink'"),
        (["hangover", "--players", "3", "--choice", "declare,x"], "bad value for 'choice'"),
        (["hangover", "--players", "3", "--choice", "declare", "--games", "0"], "out of range"),
        (["hangover", "--players", "3", "--choice", "declare", "--games", "2001"], "out of range"),
        (["hangover", "--players", "3", "--choice", "declare", "--agent", "nobot"], "bad value for 'agent'"),
        (
            ["hangover", "--players", "3", "--choice", "declare", "--agent", "heuristic:avoid=pass"],
            "without prefer=, avoid= or at=",
        ),
    ],
)
def test_bad_input_is_refused_in_one_line_and_nothing_is_written(
    args: list[str], message: str, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    code, text = invoke(*args, "--out", str(out))
    assert code == 2
    assert message in text and text.startswith("error:")
    assert len(text.strip().splitlines()) == 1
    assert not out.exists()


def test_an_existing_folder_needs_force(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    args = ["hangover", "--players", "3", "--choice", "declare", "--games", "1", "--out", str(out)]
    code, text = invoke(*args)
    assert code == 2 and "already exists and is not empty" in text and "--force" in text
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]
    code, text = invoke(*args, "--force")
    assert code == 0, text
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt", "profiles.json", "report.md"]


def test_a_file_as_out_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "file"
    out.write_text("x")
    code, text = invoke("hangover", "--players", "3", "--choice", "declare", "--out", str(out), "--force")
    assert code == 2 and "it is a file" in text


def test_the_total_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(profiles, "MAX_TOTAL", 100)
    with pytest.raises(
        BadOption, match=r"8 profiles × 13 games = 104; allowed: at most 12 games per profile at 3 players"
    ):
        profiles.prepare("hangover", 3, "declare", games=13)
    profiles.prepare("hangover", 3, "declare", games=12)


def test_the_choice_is_checked_against_the_games_words() -> None:
    assert profiles.prepare("troika", 3, "troika", games=1).choice == "troika"
    assert profiles.prepare("troika", 3, " return   hand ", games=1).choice == "return hand"
    with pytest.raises(BadOption, match="no action of troika starts with 'declare'"):
        profiles.prepare("troika", 3, "declare", games=1)


# -- the analysis on hand-made tables ----------------------------------------------------------------


def table_of(rows: dict[str, list[float]]) -> dict[tuple[str, ...], list[float]]:
    """{'AN': [payoffs]} -> {('always', 'never'): [payoffs]}."""
    return {tuple(A if c == "A" else N for c in key): values for key, values in rows.items()}


def test_pure_equilibria_of_a_hand_made_table() -> None:
    # a prisoner's dilemma: never is better whatever the other does
    dilemma = table_of({"AA": [0.6, 0.6], "AN": [0.0, 1.0], "NA": [1.0, 0.0], "NN": [0.3, 0.3]})
    assert profiles.pure_equilibria(dilemma) == [(N, N)]
    # coordination at three seats: all in the same role (either one) or nobody gains anything
    coordination = {p: [1.0 / 3 if len(set(p)) == 1 else 0.0] * 3 for p in profiles.profiles_of(3)}
    assert profiles.pure_equilibria(coordination) == [(A, A, A), (N, N, N)]
    # matching pennies: none; a tie (the same win share either way) does not break an equilibrium
    pennies = table_of({"AA": [1, 0], "AN": [0, 1], "NA": [0, 1], "NN": [1, 0]})
    assert profiles.pure_equilibria(pennies) == []
    flat = table_of({"AA": [0.5, 0.5], "AN": [0.5, 0.5], "NA": [0.5, 0.5], "NN": [0.5, 0.5]})
    assert len(profiles.pure_equilibria(flat)) == 4


def test_backward_induction_on_a_hand_made_table() -> None:
    # Seat 1 answers seat 0 by matching it when seat 0 is A, and choosing A when seat 0 is N.
    # Seat 0 foresees that: A leads to AA (0.4), N leads to NA (0.3); it chooses A.
    table = table_of({"AA": [0.4, 0.6], "AN": [0.9, 0.1], "NA": [0.3, 0.7], "NN": [0.8, 0.2]})
    result = profiles.backward_induction(table)
    assert result["outcome"] == (A, A)
    first, second = result["path"]
    assert (first["seat"], first["choice"], first["chosen"], first["other"]) == (0, A, (A, A), (N, A))
    assert (first["value"], first["other_value"]) == (0.4, 0.3)
    assert (second["earlier"], second["choice"], second["value"], second["other_value"]) == ([A], A, 0.6, 0.1)
    # the plan answers every history, also the one off the path
    off = next(d for d in result["plan"] if d["earlier"] == [N])
    assert off["choice"] == A and not off["tie"]
    # played at once, AA is the only pure equilibrium too
    assert profiles.pure_equilibria(table) == [(A, A)]


def test_backward_induction_is_not_the_simultaneous_game() -> None:
    # Three seats: a seat does best as the only one in role A, worst as one of several.
    table = {
        p: [1.0 if (r == A and p.count(A) == 1) else (0.0 if r == A else 0.3) for r in p]
        for p in profiles.profiles_of(3)
    }
    result = profiles.backward_induction(table)
    assert result["outcome"] == (A, N, N)  # the first mover takes it, the others cannot
    assert profiles.pure_equilibria(table) == [(A, N, N), (N, A, N), (N, N, A)]


def test_backward_induction_breaks_ties_as_told() -> None:
    flat = table_of({"AA": [0.5, 0.5], "AN": [0.5, 0.5], "NA": [0.5, 0.5], "NN": [0.5, 0.5]})
    assert profiles.backward_induction(flat)["outcome"] == (A, A)
    assert profiles.backward_induction(flat, tie_break=N)["outcome"] == (N, N)
    assert all(d["tie"] for d in profiles.backward_induction(flat)["path"])


def test_gain_is_clear_only_with_an_interval_and_a_test() -> None:
    assert profiles.gain([1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0])["clear"] == "above"
    assert profiles.gain([-1.0] * 8)["clear"] == "below"
    # three equal deals: a t interval of no width, but a sign test of p = 0.25
    assert profiles.gain([-1.0] * 3)["clear"] is None
    assert profiles.gain([1.0, -1.0, 0.0, 0.5])["clear"] is None
    one = profiles.gain([0.5])
    assert one["low"] is None and one["clear"] is None


@pytest.mark.skipif(importlib.util.find_spec("pygambit") is None, reason="pygambit is not installed")
def test_mixed_equilibria_from_gambit() -> None:
    pennies = table_of({"AA": [1, 0], "AN": [0, 1], "NA": [0, 1], "NN": [1, 0]})
    mixed, note = profiles.mixed_equilibria(pennies)
    assert mixed == [{"always": [0.5, 0.5], "win_share": [0.5, 0.5]}]
    assert "pygambit" in note
    # three seats: the solver runs, and a strict dominance table has no mixed equilibrium
    dominant = {p: [0.5 if r == N else 0.1 for r in p] for p in profiles.profiles_of(3)}
    mixed, note = profiles.mixed_equilibria(dominant)
    assert mixed == [] and "1 pure" in note


def test_without_gambit_the_mixed_equilibria_are_null(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pygambit", None)  # import pygambit raises ImportError
    pennies = table_of({"AA": [1, 0], "AN": [0, 1], "NA": [0, 1], "NN": [1, 0]})
    mixed, note = profiles.mixed_equilibria(pennies)
    assert mixed is None and "not installed" in note
