"""Findings say what they rest on (issue #54): the agents and their assumptions, the spec's decisions
with their words, which-card choices are not kinds, and wording that matches what the agents do."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from bodoge import arena
from bodoge.agents.assumptions import assumes
from bodoge.arena import findings
from bodoge.arena.choices import ChoiceTally
from bodoge.arena.findings import Context
from bodoge.arena.runner import make_game
from bodoge.arena.stats import Estimate
from bodoge.core.registry import game_class

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("hangover", "tokkuri", "tottarot", "troika")


def _plain(text: str) -> str:
    """Markdown's emphasis and line breaks out, spaces folded: a quote compares by its words."""
    return " ".join(text.replace("**", "").split())


@pytest.mark.parametrize("name", GAMES)
def test_every_ruling_a_finding_cites_is_a_quote_of_the_shipped_spec(name: str) -> None:
    module = game_class(name).part("assumptions")
    assert module is not None
    spec = _plain((ROOT / "docs" / "rules" / f"{name}.md").read_text(encoding="utf-8"))
    for rule, words in module.RULINGS.items():
        start = spec.find(f"{rule} ")
        assert start >= 0, f"{rule} is not in docs/rules/{name}.md"
        # the words are the decision's own, in the paragraph of that id
        assert _plain(words) in spec[start : start + 1500], f"{rule}: {words!r} is not its text"
    for subject, rules in module.SUBJECTS.items():
        assert re.fullmatch(r"(choice|end):.+|seats|ties|winner", subject), subject
        assert set(rules) <= set(module.RULINGS), subject
    assert module.HEURISTIC_ASSUMES["en"] and module.HEURISTIC_ASSUMES["ja"]


def test_the_hangover_heuristic_says_its_assumption_and_search_inherits_it_unless_it_searches_them() -> None:
    game = make_game("hangover", 4, {})
    assert "assuming that every seat still to speak declares" in assumes("heuristic", game)["en"]
    inherited = assumes("ismcts", game)["en"]
    assert "inherits that bot's view" in inherited and "assuming that every seat" in inherited
    assert "no fixed model" in assumes("ismcts:opponents=tree", game)["en"]
    never = assumes("heuristic:avoid=declare", game)["en"]
    assert never.startswith("never takes declare where another move is legal; otherwise it declares")
    only_there = assumes("heuristic:avoid=troika,at=take/troika", make_game("troika", 4, {}))["en"]
    assert "at take/troika decisions" in only_there


def est(mean: float, low: float, high: float) -> Estimate:
    return Estimate(mean, low, high, 50)


def dominant_variant(elsewhere: bool) -> dict[str, Any]:
    choices: dict[str, Any] = {
        "declare/pass": {
            "decisions": 800,
            "games": 200,
            "options": {
                "declare": {"share": est(0.97, 0.95, 0.99), "chosen": 776, "dominant": True},
                "pass": {"share": est(0.03, 0.01, 0.05), "chosen": 24, "dominant": False},
            },
        }
    }
    if elsewhere:
        choices["declare/flip/pass"] = {
            "decisions": 10,
            "games": 10,
            "options": {
                o: {"share": est(1 / 3, 0.1, 0.6), "chosen": 3, "dominant": False}
                for o in ("declare", "flip", "pass")
            },
        }
    return {"games": 200, "metrics": {}, "choices": choices, "seat_balance": None, "skill": None}


CTX = Context("hangover", 4, ["heuristic"] * 4, 200, 1)


def test_a_dominant_choice_is_worded_as_what_these_bots_do_and_names_what_it_rests_on() -> None:
    (f,) = findings.detect(dominant_variant(elsewhere=False), CTX)
    text = f["text"]["en"]
    assert "these bots chose declare 97% [95%, 99%]" in text
    assert "not yet what the game asks of players" in text
    assert f["profiles"] in text and f["profiles"].startswith(
        "bodoge profiles hangover --players 4 --choice declare"
    )
    assert "never chooses declare where another move is legal" in text  # the agent avoids it everywhere
    # what it rests on, last: the agent and its assumption, the spec's decisions with their words
    assert [a["agent"] for a in f["rests_on"]["agents"]] == ["heuristic"]
    assert [r["id"] for r in f["rests_on"]["rulings"]] == ["HO-D4", "HO-D6", "HO-D9"]
    assert text.endswith(f["rests_text"]["en"])
    assert "assuming that every seat still to speak declares" in text
    assert "HO-D4 \u201cOnce, after the deal and the snack arrangement" in text
    assert "docs/rules/hangover.md" in f["text"]["ja"] and "HO-D4" in f["text"]["ja"]


def test_an_experiment_that_avoids_an_option_at_one_kind_only_says_so() -> None:
    (f,) = findings.detect(dominant_variant(elsewhere=True), CTX)
    assert "avoids declare at these decisions only (it still chooses declare where other" in f["text"]["en"]
    assert "at=declare/pass" in f["experiment"]


def test_a_cost_is_said_before_what_the_finding_rests_on() -> None:
    (f,) = findings.detect(dominant_variant(elsewhere=False), CTX)
    findings.add_cost(f, Estimate(-0.2, -0.3, -0.1, 50), Estimate(0.05, 0.0, 0.1, 50))
    text = f["text"]["en"]
    assert text.endswith(f["rests_text"]["en"])
    assert text.index("Avoiding declare costs 0.200") < text.index("It rests on these agents")
    assert f["text"]["ja"].endswith(f["rests_text"]["ja"])


def test_which_card_choices_are_not_kinds_of_decision() -> None:
    """Tokkuri's `place dummy` is a `place`: a choice of card, not of what to do (issue #54)."""
    game = make_game("tokkuri", 4, {})
    tally = ChoiceTally(game)
    assert tally.label("place dummy") == "place" and tally.label("give trouble") == "give"
    assert tally.label("drink 3>A") == "drink"
    records = arena.run(arena.SimConfig("tokkuri", 4, ["heuristic"] * 4, games=8, seed=1))
    seen = {kind for r in records for kind in r["arena"]["choices"]}
    assert "drink/place" in seen
    assert not any("dummy" in kind or "trouble" in kind for kind in seen), seen
    assert all(len(set(kind.split("/"))) == len(kind.split("/")) > 1 for kind in seen)


def test_every_finding_of_a_real_run_names_its_agents(tmp_path: Path) -> None:
    config = arena.SimConfig("troika", 3, ["heuristic"] * 3, games=24, seed=1)
    summary = arena.summarize(arena.run(config), config)
    for f in summary["findings"]:
        assert f["rests_on"]["agents"][0]["agent"] == "heuristic"
        assert "It rests on these agents: `heuristic` judges each action" in f["text"]["en"]
        if f["kind"] == "dominant_choice":
            argv = shlex.split(f["profiles"])
            assert argv[:3] == ["bodoge", "profiles", "troika"]


def _run_folder(root: Path, name: str, config: arena.SimConfig) -> Path:
    import json

    folder = root / name
    folder.mkdir()
    (folder / "run.json").write_text(json.dumps(config.to_json()))
    return folder


def test_a_run_whose_deals_partly_overlap_an_earlier_one_is_warned_about(tmp_path: Path) -> None:
    """`--seed 7` replays deals 7… of a `--seed 1` run (issue #54): said, with the seeds that pair
    the runs or make them independent; the same seed (a paired run) and other games are not."""
    from bodoge.arena.runner import seed_overlaps

    def sim(seed: int, game: str = "hangover", games: int = 400) -> arena.SimConfig:
        return arena.SimConfig(game, 4, ["heuristic"] * 4, games=games, seed=seed)

    _run_folder(tmp_path, "first", sim(1))  # deals 1–100 (400 games, 4 rotations a deal)
    _run_folder(tmp_path, "paired", sim(7))  # the same seed as the new run: a paired comparison
    _run_folder(tmp_path, "other-game", sim(7, "troika"))
    _run_folder(tmp_path, "far", sim(500))
    (tmp_path / "not-a-run").mkdir()
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "run.json").write_text("{")
    (tmp_path / "not-utf8").mkdir()
    (tmp_path / "not-utf8" / "run.json").write_bytes(b"\xff\xfe{")
    (tmp_path / "huge").mkdir()
    (tmp_path / "huge" / "run.json").write_bytes(b" " * (2 << 20))  # never read whole
    (tmp_path / "a-folder").mkdir()
    (tmp_path / "a-folder" / "run.json").mkdir()
    (warning,) = seed_overlaps(sim(7), tmp_path / "new")
    assert warning.startswith("this run's deals 7–106 share deals 7–100 with the run in first (--seed 1")
    assert "--seed 1 pairs them deal by deal, --seed 107 or above makes them independent" in warning
    assert seed_overlaps(sim(107), tmp_path / "new") == []  # deals 107–206: none shared (500– is far)


def test_every_bounded_number_s_interval_stays_within_what_it_can_be() -> None:
    """A share's t interval over few deals runs below 0 (a tie share of 0.05 [-0.025, 0.125] was
    reported): intervals are cut to what the number can be (issue #54)."""
    from bodoge.arena.metrics import ranges
    from bodoge.arena.summary import summarize_variant

    bounds = ranges("hangover")
    assert bounds["tie"] == (0.0, 1.0) and bounds["snacks_flipped"] == (0.0, 1.0)
    assert bounds["tricks"][0] == 0.0 and bounds["lead_changes"][0] == 0.0
    config = arena.SimConfig("hangover", 4, ["heuristic:avoid=declare"] * 4, games=24, seed=3)
    summary = summarize_variant(arena.run(config), 4)
    cut = 0
    for name, est in [*summary["metrics"].items(), *summary["ends"].items()]:
        low, high = bounds.get(name, (0.0, 1.0))
        assert low <= est.low <= est.mean <= est.high <= high, (name, est)
        cut += est.low == low and est.mean > low
    assert cut  # some interval did reach a bound here, and was cut there


def test_the_profiles_command_plays_the_variant_s_options_with_the_free_agent() -> None:
    ctx = Context(
        "hangover", 4, ["heuristic:avoid=flip,at=flip/stop"] * 4, 200, 1, {"end_when_one_active": True}
    )
    command = findings.profiles_command(ctx, "declare")
    assert command == (
        "bodoge profiles hangover --players 4 --choice declare --agent heuristic --games 100 --seed 1 "
        "--set end_when_one_active=true --out results/profiles-hangover"
    )
