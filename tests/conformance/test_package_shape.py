"""Every game package has the one shape of docs/adding-a-game.md (issue #19), so that drift is caught
when it starts: the agreed modules, words in both languages, and imports in one direction."""

from __future__ import annotations

import ast
import importlib
from importlib import resources
from pathlib import Path

import pytest
from conformance_games import CLASSES, TOY

from bodoge.core.text import LANGUAGES, Texts

#: What every game package has: the protocol's parts, which core reaches by name.
PARTS = ("rules", "information", "text", "sampling", "heuristic", "observation")
#: ... and what bodoge's own games, whose rules are long, split along their spec's sections, with
#: the state (and the game's parameters) in a module of its own beneath them.
SECTIONS = ("cards", "options", "state", "setup", "play", "scoring")
#: The modules of the rules, which the state's module must not import: it is what they import.
RULES = ("rules", "setup", "play", "scoring")
#: Modules the rules must not import: words, what seats know, determinization, bots, and the outside.
NOT_FROM_RULES = ("text", "information", "sampling", "observation", "heuristic", "rollout")
OUTSIDE = ("bodoge.server", "bodoge.agents", "bodoge.arena", "bodoge.rl", "bodoge.cli")
LONGEST = 500  # lines: a longer module is two sections in one file


def package_of(name: str) -> str:
    module = CLASSES[name].__module__
    return module.rpartition(".")[0]


BODOGE_GAMES = [name for name in CLASSES if package_of(name).startswith("bodoge.games.")]


def modules(package: str) -> dict[str, Path]:
    folder = Path(importlib.import_module(package).__file__ or "").parent
    return {path.stem: path for path in folder.glob("*.py")}


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_the_package_has_its_parts(name: str) -> None:
    package = package_of(name)
    wanted = PARTS + (SECTIONS if name in BODOGE_GAMES else ())
    missing = [part for part in wanted if part not in modules(package)]
    assert not missing, f"{package} lacks {missing} (docs/adding-a-game.md)"
    for part in PARTS:
        assert CLASSES[name].part(part) is not None
    folder = resources.files(package).joinpath("texts")
    for lang in LANGUAGES:
        assert folder.joinpath(f"{lang}.toml").is_file(), f"{package} has no texts/{lang}.toml"


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_every_text_is_in_both_languages(name: str) -> None:
    texts = Texts(package_of(name))
    assert texts.problems() == []
    assert "rules.summary" in texts.tables["en"]
    assert CLASSES[name].rules_summary("ja") == texts.say("ja", "rules.summary")


def imported(path: Path) -> list[str]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            out += [f"{base}.{alias.name}" for alias in node.names] if node.level == 0 else [base]
    return out


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_the_rules_import_in_one_direction(name: str) -> None:
    """The rules and their sections know nothing of words, views, sampling or bots (core reaches
    those), nor of the server, agents, arena or RL adapters."""
    package = package_of(name)
    found = modules(package)
    rules_side = ["rules", *(s for s in SECTIONS if s in found)]
    for stem in rules_side:
        for target in imported(found[stem]):
            assert not target.startswith(OUTSIDE), f"{package}.{stem} imports {target}"
            inside = target.removeprefix(package + ".").split(".")[0]
            assert inside not in NOT_FROM_RULES, f"{package}.{stem} imports {target}"
            if stem == "state":  # the state holds data and its invariants; the rules import it
                assert inside not in RULES, f"{package}.state imports {target}, a module of the rules"


@pytest.mark.parametrize("name", BODOGE_GAMES)
def test_no_rules_module_is_two_sections_long(name: str) -> None:
    found = modules(package_of(name))
    for stem in ["rules", *SECTIONS, "text"]:
        lines = len(found[stem].read_text().splitlines())
        assert lines <= LONGEST, f"{package_of(name)}.{stem} has {lines} lines; split it along the spec"


def test_the_toy_is_checked_too() -> None:
    assert TOY.name in CLASSES and TOY.name not in BODOGE_GAMES


def package_imports(path: Path, package: str) -> set[str]:
    """The package's own modules that `path` imports, those under TYPE_CHECKING included: a circle
    that only a type checker follows is still one for the reader."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == package:  # from bodoge.games.troika import play, setup
                out |= {alias.name for alias in node.names}
            elif node.module.startswith(package + "."):
                out.add(node.module.removeprefix(package + ".").split(".")[0])
    return out


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_no_import_cycle_inside_a_package(name: str) -> None:
    """Imports inside a game package go one way (docs/adding-a-game.md), so no module half-exists while
    another reads it, and a reader (and a type checker) can follow the package from its cards up."""
    package = package_of(name)
    found = modules(package)
    graph = {stem: package_imports(path, package) & set(found) for stem, path in found.items()}
    done: set[str] = set()

    def visit(stem: str, path: list[str]) -> None:
        assert stem not in path, f"{package}: import cycle {' -> '.join([*path, stem])}"
        if stem in done:
            return
        for other in sorted(graph[stem]):
            visit(other, [*path, stem])
        done.add(stem)

    for stem in sorted(graph):
        visit(stem, [])
