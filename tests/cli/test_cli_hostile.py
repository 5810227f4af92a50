"""`bodoge` given bad input (issue #15): every refusal is one `error:` line naming what was wrong and
what is allowed, exit status 2, before any work starts and with nothing written; Ctrl-C and the end of
the input stop cleanly and keep what was done. Never a traceback, never a hang."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from interrupt import CHILD
from typer.testing import CliRunner

import bodoge
from bodoge import agents
from bodoge.arena.runner import MAX_GAMES, MAX_JOBS
from bodoge.cli import app
from bodoge.cli.common import console
from bodoge.core.game import MAX_SEED
from bodoge.core.options import Option, allowed_text
from bodoge.core.registry import game_class

runner = CliRunner()
TINY = "bodoge_tinygame:TinyGame"  # tests/agents/bodoge_tinygame.py, on the path by tests/conftest or below
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "agents"))

ENGINE_BOUNDS = "lo" in getattr(Option, "__dataclass_fields__", {})
needs_engine_bounds = pytest.mark.skipif(
    not ENGINE_BOUNDS, reason="the engine does not bound its options yet (Option.lo/hi)"
)


def refused(args: list[str], input: str | None = None, *must: str) -> str:
    """Run the command, expect a refusal, and return its one line."""
    start = time.perf_counter()
    result = runner.invoke(app, args, input=input)
    assert time.perf_counter() - start < 10, f"{args} took too long"
    assert result.exit_code == 2, (args, result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, (args, result.output)
    line = lines[0]
    assert line.startswith("error: "), line
    for text in must:
        assert text in line, (text, line)
    return line


def _cli_process(*args: str, **kwargs: object) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict", "COLUMNS": "80"}
    return subprocess.Popen(
        [sys.executable, "-c", CHILD, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
        **kwargs,  # type: ignore[arg-type]
    )


# -- the cases of the issue ------------------------------------------------------------------------


def test_a_negative_seed_is_refused_by_play_and_sim(tmp_path: Path) -> None:
    refused(["play", "troika", "--seed", "-1"], "quit\n", "--seed", f"from 0 to {MAX_SEED}")
    refused(["play", "troika", "--seed", str(MAX_SEED + 1)], "quit\n", "--seed")
    out = tmp_path / "run"
    refused(["sim", "troika", "--seed", "-1", "--games", "2", "--out", str(out)], None, "--seed", "from 0")
    assert not out.exists()


def test_a_record_path_that_cannot_be_written_is_refused_before_playing(tmp_path: Path) -> None:
    missing = tmp_path / "nonexistent" / "dir" / "g.json"
    line = refused(["play", "troika", "--record", str(missing)], "15\nquit\n", "--record", "does not exist")
    assert "nonexistent" in line
    refused(["play", "troika", "--record", str(tmp_path)], "quit\n", "--record", "is a folder")
    a_file = tmp_path / "file"
    a_file.write_text("x")
    refused(["play", "troika", "--record", str(a_file / "g.json")], "quit\n", "is not a folder")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"] and a_file.read_text() == "x"


def test_sim_out_must_be_a_folder(tmp_path: Path) -> None:
    a_file = tmp_path / "passwd"
    a_file.write_text("root:x:0:0\n")
    refused(["sim", "troika", "--games", "2", "--out", str(a_file)], None, "out", "not a folder")
    refused(["sim", "troika", "--games", "2", "--out", str(a_file / "run")], None, "out", "not a folder")
    assert a_file.read_text() == "root:x:0:0\n" and [p.name for p in tmp_path.iterdir()] == ["passwd"]


@pytest.mark.parametrize(
    ("args", "flag", "allowed"),
    [
        (["sim", "troika", "--games", "99999999999999999999999"], "--games", f"from 1 to {MAX_GAMES}"),
        (["sim", "troika", "--games", "0"], "--games", "from 1"),
        (["sim", "troika", "--jobs", "0"], "--jobs", f"from 1 to {MAX_JOBS}"),
        (["sim", "troika", "--jobs", "1000000"], "--jobs", f"from 1 to {MAX_JOBS}"),
        (["sim", "troika", "--games", "abc"], "--games", "integer"),
        (["sim", "troika", "--players", "99999999999999999999999"], "players", "from 2 to 5"),
        (["play", "troika", "--players", "-3"], "players", "from 2 to 5"),
        (["play", "troika", "--seat", "99999999999999999999999"], "seat", "from 0 to"),
        (["play", "troika", "--seat", "-1"], "seat", "from 0 to"),
        (["serve", "--port", "99999"], "--port", "from 1 to 65535"),
        (["serve", "--port", "0"], "--port", "from 1 to 65535"),
        (["serve", "--port", "-80"], "--port", "from 1 to 65535"),
        (["serve", "--bot-workers", "0"], "--bot-workers", "from 1 to"),
        (["serve", "--bot-workers", "100000"], "--bot-workers", "from 1 to"),
        (["serve", "--bot-time", "nan"], "--bot-time", "seconds above 0"),
        (["serve", "--bot-time", "inf"], "--bot-time", "seconds above 0"),
        (["serve", "--bot-time", "0"], "--bot-time", "seconds above 0"),
        (["serve", "--bot-time", "1e300"], "--bot-time", "at most"),
        (["serve", "--bot-delay", "-1"], "--bot-delay", "from 0 to"),
        (["serve", "--bot-delay", "nan"], "--bot-delay", "from 0 to"),
    ],
)
def test_every_number_flag_is_bounded(args: list[str], flag: str, allowed: str) -> None:
    refused(args, "quit\n", flag, allowed)


@needs_engine_bounds
def test_huge_option_values_are_refused_before_any_work(tmp_path: Path) -> None:
    huge = "99999999999999999999999"
    refused(["play", "troika", "--set", f'tile_counts={{"7":{huge}}}'], "quit\n", "tile_counts", "20")
    out = tmp_path / "run"
    for setting in (f"rounds={huge}", f'tile_counts={{"7":{huge}}}'):
        refused(["sim", "troika", "--games", "2", "--jobs", "2", "--out", str(out), "--set", setting])
    # Every variant is made before the first game: the bad one is the last.
    line = refused(
        ["sim", "hangover", "--games", "3", "--out", str(out), "--set", f"drunk_limit=11,12,{huge}"]
    )
    assert "drunk_limit" in line and huge in line
    assert not out.exists()


def test_too_many_variants_are_refused_before_they_are_made() -> None:
    many = ",".join(str(n) for n in range(1, 60))
    refused(
        ["sim", "troika", "--set", f"rounds={many}", "--set", f"hand_limit={many}"],
        None,
        "3481 combinations",
        "at most 100 variants",
    )


def test_serve_refuses_a_bad_database_host_or_port(tmp_path: Path) -> None:
    pytest.importorskip("bodoge.server", reason="the server extra is not installed", exc_type=ImportError)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free = str(probe.getsockname()[1])
    refused(["serve", "--db", "nonsense://x"], None, "--db", "nonsense", "allowed: a SQLAlchemy URL")
    refused(["serve", "--db", "not a url"], None, "--db", "is not a database URL")
    if importlib.util.find_spec("MySQLdb") is None:  # the driver of mysql:// URLs
        refused(["serve", "--db", "mysql://u:secret@x/y"], None, "--db", "not installed", "u:***@x")
    refused(
        ["serve", "--port", free, "--db", f"sqlite:///{tmp_path}/no/dir/b.db"], None, "--db", "cannot use"
    )
    not_a_db = tmp_path / "notes.txt"
    not_a_db.write_text("hello\n" * 100)
    refused(["serve", "--port", free, "--db", f"sqlite:///{not_a_db}"], None, "--db", "not a database")
    refused(["serve", "--host", ""], None, "--host", "allowed")
    refused(["serve", "--host", "   "], None, "--host", "allowed")
    refused(["serve", "--host", "no-such-host.invalid"], None, "cannot listen")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        refused(["serve", "--port", str(port), "--db", f"sqlite:///{tmp_path}/b.db"], None, "cannot listen")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_ctrl_c_in_play_writes_the_record_so_far(tmp_path: Path) -> None:
    record = tmp_path / "g.json"
    proc = _cli_process(
        "play", "troika", "--players", "3", "--seed", "3", "--record", str(record), stdin=subprocess.PIPE
    )
    assert proc.stdin is not None and proc.stdout is not None
    seen = b""

    def wait_for_prompt(count: int) -> None:
        nonlocal seen
        deadline = time.monotonic() + 30
        while seen.count(b"P0> ") < count:
            assert time.monotonic() < deadline, seen.decode(errors="replace")
            ready, _, _ = select.select([proc.stdout], [], [], 0.5)
            if ready:
                chunk = os.read(proc.stdout.fileno(), 65536)
                assert chunk, seen.decode(errors="replace")
                seen += chunk

    try:
        wait_for_prompt(1)
        proc.stdin.write(b"draw\n")  # legal at the first turn of seed 3 (its id is 15)
        proc.stdin.flush()
        wait_for_prompt(2)
        proc.send_signal(signal.SIGINT)
        rest, _ = proc.communicate(timeout=30)
    finally:
        proc.kill()
    text = (seen + rest).decode()
    assert proc.returncode == 130, text
    assert "Traceback" not in text and f"Interrupted: the game so far is in {record}." in text
    assert text.rstrip().endswith(f"Interrupted: the game so far is in {record}."), "no question after it"
    state = bodoge.replay(json.loads(record.read_text()))
    assert state.history[0] == 15 and len(state.history) >= 2 and not state.is_terminal


def test_end_of_input_in_play_writes_the_record(tmp_path: Path) -> None:
    record = tmp_path / "g.json"
    result = runner.invoke(
        app, ["play", "troika", "-p", "3", "--seed", "3", "--record", str(record)], input="draw\n"
    )
    assert result.exit_code == 0, result.output
    assert f"End of input: the game so far is in {record}." in result.output
    assert "Traceback" not in result.output
    assert bodoge.replay(json.loads(record.read_text())).history[0] == 15


def test_ctrl_c_on_serve_stops_it_without_a_traceback(tmp_path: Path) -> None:
    pytest.importorskip("bodoge.server", reason="the server extra is not installed", exc_type=ImportError)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = _cli_process(
        "serve", "--port", str(port), "--db", f"sqlite:///{tmp_path}/b.db", "--bot-workers", "1", cwd=tmp_path
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, proc.communicate()[0].decode()
            assert time.monotonic() < deadline, "the server did not start"
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.1)
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=30)
    finally:
        proc.kill()
    text = out.decode()
    assert proc.returncode in (0, 130), text
    assert "Traceback" not in text and "KeyboardInterrupt" not in text


# -- every other command and flag --------------------------------------------------------------------


@pytest.mark.parametrize("command", [["rules"], ["play"], ["sim"]])
def test_unknown_games_are_named(command: list[str]) -> None:
    refused([*command, "chess"], "quit\n", "'chess'", "troika")


@pytest.mark.parametrize(
    "game", ["os:getcwd", ":", ".relative:Game", "no_such_module:Game", "bodoge:nothing"]
)
def test_a_game_class_path_that_is_no_game_is_refused(game: str) -> None:
    refused(["sim", game, "--games", "1"], None, "game", "module:Class")


@pytest.mark.parametrize(
    ("spec", "named"),
    [
        ("ismcts:iterations=-5", "iterations"),
        ("ismcts:iterations=1000000000000000000000000000000", "iterations"),
        ("ismcts:seconds=NaN", "seconds"),
        ("ismcts:seconds=Infinity", "seconds"),
        ("ismcts:seconds=1e9", "seconds"),
        ("ismcts:c=Infinity", "'c'"),
        ("ismcts:z=NaN", "'z'"),
        ("ismcts:horizon=-1", "horizon"),
        ("ismcts:iterations", "key=value"),
        ("ismcts:wizardry=3", "parameters that ismcts takes"),
        ("random:x=1", "parameters that random takes"),
    ],
)
def test_bad_agent_specs_are_refused_by_play_and_sim(spec: str, named: str) -> None:
    refused(["play", "troika", "--bots", spec], "quit\n", named)
    refused(["sim", "troika", "--agents", spec, "--games", "1"], None, named)


def known_agents() -> str:
    """How a refusal names the agents registered now (other tests in this process may add some)."""
    return "one of " + ", ".join(agents.names())


def test_an_unknown_agent_is_refused_naming_the_known_ones() -> None:
    refused(["play", "troika", "--bots", "wizard"], "quit\n", known_agents())
    refused(["sim", "troika", "--agents", "wizard", "--games", "1"], None, known_agents())


@pytest.mark.parametrize(
    ("setting", "named"),
    [
        ("rounds", "name=value"),
        ("=3", "name=value"),
        ("rounds=", "rounds"),
        ("rounds=abc", "rounds"),
        ("nosuch=1", "no such option"),
        ("[/x]=1", "'[/x]'"),  # rich markup in the text is printed as it is
        ("rounds=" + "[" * 50000, "rounds"),  # JSON nested too deep for the parser
        ("players=3", "--players"),  # was a TypeError: make() got `players` twice
    ],
)
def test_bad_set_syntax_is_refused(setting: str, named: str) -> None:
    refused(["play", "troika", "--set", setting], "quit\n", named)
    refused(["sim", "troika", "--set", setting, "--games", "1"], None, named)


def test_an_option_given_twice_is_refused() -> None:
    refused(["play", "troika", "--set", "rounds=1", "--set", "rounds=2"], "quit\n", "rounds", "twice")
    refused(["sim", "troika", "--set", "rounds=1", "--set", "rounds=2"], None, "rounds", "twice")


def test_text_that_is_not_utf8_is_refused_or_escaped(tmp_path: Path) -> None:
    refused(["rules", "\udcff"], None, "\\udcff")
    refused(["play", "troika", "--bots", "\udcff"], "quit\n", "\\udcff")
    refused(["play", "troika", "--set", "rounds=\udcff"], "quit\n", "rounds")
    refused(["play", "troika", "--set", "\udcff=1"], "quit\n", "no such option")
    # Line breaks and terminal escapes in a path are shown as escapes: the error stays one plain line.
    refused(
        ["play", "troika", "--record", str(tmp_path / "a\nb\x1b[2J" / "g.json")], "quit\n", "a\\nb\\x1b[2J"
    )
    # A record path that is not UTF-8 and typed bytes that are not UTF-8, on a strict terminal.
    record = tmp_path / "\udcff.json"
    proc = _cli_process("play", "troika", "--seed", "1", "--record", str(record), stdin=subprocess.PIPE)
    out, _ = proc.communicate(b"\xff\xfe\nquit\n", timeout=60)
    text = out.decode("utf-8", "replace")
    assert proc.returncode == 0, text
    assert "Traceback" not in text and "not one of the choices" in text and "\\udcff.json" in text
    assert bodoge.replay(json.loads(record.read_bytes())).history == []


def test_a_very_long_argument_gives_a_short_error() -> None:
    line = refused(["play", "troika", "--bots", "x" * 100_000], "quit\n", "agent")
    assert len(line) < 1000 and known_agents() in line


def test_sim_flags_that_contradict_each_other(tmp_path: Path) -> None:
    out = tmp_path / "run"
    refused(["sim", "troika", "--resume", "--force", "--out", str(out)], None, "--resume", "--force")
    refused(["sim", "troika", "--resume"], None, "--resume needs --out")
    refused(["sim", "troika", "--address", "127.0.0.1:6379"], None, "--address", "--backend ray")
    refused(["sim", "troika", "--backend", "spark"], None, "pool or ray")
    refused(["sim", "troika", "--agents", " , "], None, "--agents")
    refused(["sim", "troika", "-p", "3", "--agents", "random,random,random,random"], None, "4 agents")
    assert not out.exists()


def _tiny_run(out: Path, *more: str) -> None:
    args = ["sim", TINY, "-p", "3", "--games", "3", "--out", str(out), "--no-progress", "--no-plots"]
    result = runner.invoke(app, [*args, *more])
    assert result.exit_code == 0, result.output


def test_resume_of_a_corrupt_or_foreign_run_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "run"
    _tiny_run(out)
    games = (out / "games.jsonl").read_bytes()
    resume = ["sim", TINY, "-p", "3", "--games", "3", "--out", str(out), "--resume", "--no-progress"]

    def refused_resume(run_json: str | None, games_jsonl: bytes, *must: str) -> None:
        if run_json is not None:
            (out / "run.json").write_text(run_json)
        (out / "games.jsonl").write_bytes(games_jsonl)
        refused(resume, None, *must)
        assert (out / "games.jsonl").read_bytes() == games_jsonl

    good_run = (out / "run.json").read_text()
    refused_resume("not json at all", games, "resume", "run.json cannot be read")
    refused_resume("[1, 2, 3]", games, "resume", "bodoge-sim/1")
    refused_resume('{"format": "bodoge-sim/1", "game": 3}', games, "resume", "run.json")
    refused_resume(json.dumps({**json.loads(good_run), "games": "many"}), games, "resume")
    first, *others = games.splitlines(keepends=True)
    refused_resume(good_run, first + b"garbage\n" + b"".join(others), "line 2", "not a game record")
    foreign = json.loads(first)
    foreign["arena"]["agents"] = ["wizard"] * 3
    refused_resume(good_run, json.dumps(foreign).encode() + b"\n", "resume", "agents differ")
    foreign["arena"]["variant"] = 7
    refused_resume(good_run, json.dumps(foreign).encode() + b"\n", "resume", "variant")
    # A half-written last line is what a killed run leaves: it is dropped and the run goes on.
    (out / "games.jsonl").write_bytes(games + b'{"format": "bodoge-rec')
    result = runner.invoke(app, resume)
    assert result.exit_code == 0, result.output
    assert (out / "games.jsonl").read_bytes() == games


def test_a_folder_with_a_foreign_games_file_is_not_appended_to(tmp_path: Path) -> None:
    (tmp_path / "games.jsonl").write_text("my own notes\n")
    refused(["sim", TINY, "-p", "3", "--games", "3", "--out", str(tmp_path)], None, "no run.json")
    assert (tmp_path / "games.jsonl").read_text() == "my own notes\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.jsonl"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "Missing command"),
        (["nosuch"], "No such command"),
        (["sim"], "Missing argument"),
        (["play", "troika", "--no-such-flag"], "No such option"),
    ],
)
def test_usage_errors_are_one_line_too(args: list[str], message: str) -> None:
    refused(args, "quit\n", message, "--help")


# -- rules: every option's name in full, and its bounds --------------------------------------------


@pytest.mark.parametrize("name", bodoge.games())
def test_rules_shows_whole_option_names_at_80_columns_and_the_bounds(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    specs = game_class(name).option_specs
    monkeypatch.setattr(console, "_width", 80)
    narrow = runner.invoke(app, ["rules", name])
    assert narrow.exit_code == 0, narrow.output
    for spec in specs:
        assert re.search(rf"│ {re.escape(spec.name)} +│", narrow.output), spec.name
    monkeypatch.setattr(console, "_width", 1000)
    wide = runner.invoke(app, ["rules", name]).output
    for spec in specs:
        row = next(line for line in wide.splitlines() if re.match(rf"│ {re.escape(spec.name)} +│", line))
        allowed = row.split("│")[3]
        for bound in (getattr(spec, "lo", None), getattr(spec, "hi", None)):
            if bound is not None:
                assert str(bound) in allowed or f"{bound:,}" in allowed, (spec.name, allowed)


def test_allowed_text_adds_bounds_the_text_does_not_name() -> None:
    class Spec:
        allowed = "an integer ≥ 1"
        lo, hi = 1, 50

    assert allowed_text(Spec()) == "an integer ≥ 1 (from 1 to 50)"
    Spec.allowed = "an integer from 1 to 50"
    assert allowed_text(Spec()) == "an integer from 1 to 50"
