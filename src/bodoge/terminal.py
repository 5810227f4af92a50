"""Playing one game in a terminal against bots: the loop behind `bodoge play`.

Each decision of the person shows the board once and its choices once, numbered 1…k by their place in the
list, as the web page's keys are (an action's global id is never typed: next to `take 12` it was misread
as a tile). A decision whose action texts have several parts (Hangover's `arrange` of four snacks, 24
orderings) is offered part by part, the way the web board keeps a pending choice: the texts that start
with what was chosen so far (`arrange +1/+3`) are narrowed by their next word, and `back` undoes a step.
Nothing here names a game: the steps come from the texts alone.

Bad entries change nothing and are answered with what is allowed. Ctrl-C, the end of the input and
`quit` end the loop with the game as it stands, and the caller keeps its record.
"""

from __future__ import annotations

import contextlib
import enum
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console

from bodoge.core.game import Game, State
from bodoge.errors import IllegalAction

#: What the person may type, shown on `?` and `help`.
HELP = """\
What you can type:
  1, 2, …      the choice with that number in the list (its place there, never an id)
  take 12      a choice, or any legal action, by its text; first words (return) narrow the list
  back         undo the last part of a choice taken part by part
  (empty)      the board and the choices again
  legend       what the board's symbols mean
  rules        the rules in short
  ?, help      this help and the legend
  quit         stop (so do Ctrl-C and the end of the input); the game so far is kept"""

QUIT = ("quit", "q", "exit")
HELP_WORDS = ("?", "help")


class Ending(enum.Enum):
    """How the loop ended: the game's end, or the person leaving it unfinished (the record is kept)."""

    FINISHED = "finished"
    QUIT = "Stopped"
    END_OF_INPUT = "End of input"
    INTERRUPTED = "Interrupted"


@dataclass(frozen=True)
class Choice:
    """One line of the numbered list: a label to show and type, and what choosing it does."""

    label: str
    action: int | None  # the legal action it takes; None where it narrows to `then`
    then: tuple[str, ...] = ()  # the words chosen after this step (a narrowing choice only)


class Refused(Exception):
    """An entry that changes nothing; the message says why and what is allowed."""


class Decision:
    """One decision of the person: the legal actions, by the words of their texts, and the steps taken."""

    def __init__(self, state: State) -> None:
        self.actions = state.legal_actions()
        self.words = [state.action_text(a).split() for a in self.actions]
        self.steps: list[list[str]] = []  # the words chosen so far, one entry per step (`back` pops one)

    def offer(self) -> tuple[str, list[Choice]]:
        """What is chosen so far (words every candidate shares included) and the choices after it."""
        chosen = list(self.steps[-1]) if self.steps else []
        candidates = [i for i, w in enumerate(self.words) if w[: len(chosen)] == chosen]
        # Words that every candidate shares are no choice: take them at once ('arrange', or 'play').
        while len(candidates) > 1:
            nexts = {tuple(self.words[i][len(chosen) : len(chosen) + 1]) for i in candidates}
            if len(nexts) != 1 or () in nexts:
                break
            chosen += nexts.pop()
        # Texts that share their first words and go on for several more are offered a word at a time
        # (Hangover's 'arrange' of four snacks); texts with nothing in common stay whole ('take 7', 'draw').
        if chosen and len(candidates) > 1 and all(len(self.words[i]) >= len(chosen) + 2 for i in candidates):
            return " ".join(chosen), self._next_words(candidates, chosen)
        return " ".join(chosen), [Choice(" ".join(self.words[i]), self.actions[i]) for i in candidates]

    def _next_words(self, candidates: list[int], chosen: list[str]) -> list[Choice]:
        """The candidates by their next word, in the order of the legal list; a word that only one
        action continues is that action, shown with the rest of its text."""
        n = len(chosen)
        groups: dict[str, list[int]] = {}
        for i in candidates:
            groups.setdefault(self.words[i][n], []).append(i)
        choices = []
        for word, members in groups.items():
            if len(members) == 1:
                choices.append(Choice(" ".join(self.words[members[0]][n:]), self.actions[members[0]]))
            else:
                choices.append(Choice(f"{word} …", None, (*chosen, word)))
        return choices

    def answer(self, typed: str) -> int | None:
        """The action an entry takes, or None where it took a step (narrowed the list, or went back).
        Refused, changing nothing, where it is none of the choices."""
        wanted = typed.lower().split()
        chosen, choices = self.offer()
        if wanted == ["back"]:
            if not self.steps:
                raise Refused("nothing to go back from: no part of a choice is taken yet")
            self.steps.pop()
            return None
        if len(wanted) == 1 and wanted[0].isascii() and wanted[0].isdigit():
            k = int(wanted[0])
            if not 1 <= k <= len(choices):
                raise Refused(f"there is no choice {k}; " + _allowed(choices, bool(self.steps)))
            return self._take(choices[k - 1])
        # A text continues what is chosen so far, or is a whole action text, or the first words of some.
        for text in ([*chosen.lower().split(), *wanted], wanted) if chosen else (wanted,):
            matches = [i for i, w in enumerate(self.words) if [x.lower() for x in w[: len(text)]] == text]
            whole = [i for i in matches if len(self.words[i]) == len(text)]
            if whole:
                return self.actions[whole[0]]
            if matches and wanted:
                self.steps.append(self.words[matches[0]][: len(text)])  # as the texts spell it: R5^
                return None
        shown = typed.strip() if len(typed.strip()) <= 60 else typed.strip()[:60] + "…"
        raise Refused(f"{shown!r} is not one of the choices; " + _allowed(choices, bool(self.steps)))

    def _take(self, choice: Choice) -> int | None:
        if choice.action is not None:
            return choice.action
        self.steps.append(list(choice.then))
        return None


def _allowed(choices: Sequence[Choice], can_go_back: bool) -> str:
    listed = " · ".join(f"{k} {c.label}" for k, c in enumerate(choices, 1))
    commands = ", ".join(["back"] * can_go_back + ["?", "legend", "rules", "quit"])
    return f"allowed: a number from 1 to {len(choices)} ({listed}), a choice's text, or {commands}"


def event_line(event: dict[str, Any], lang: str = "en") -> str:
    """One log event as a line of text: its own text in `lang` where the game gives one."""
    key = "text" if lang == "en" else f"text_{lang}"
    if key in event:
        return str(event[key])
    if "text" in event:
        return str(event["text"])
    return ", ".join(f"{k}={v}" for k, v in event.items() if not k.startswith("text"))


def read_any_bytes(stream: Any) -> None:
    """Typed bytes that are not UTF-8 become an entry like any other (refused), not a UnicodeDecodeError."""
    reconfigure: Callable[..., None] | None = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        with contextlib.suppress(ValueError, OSError):  # a stream that cannot change now: leave it
            reconfigure(errors="surrogateescape")


class Session:
    """The person at seat `seat` and the bots around them, on one console."""

    def __init__(self, console: Console, state: State, seat: int, bot: Any, lang: str = "en") -> None:
        self.console = console
        self.state = state
        self.game: Game = state.game
        self.seat = seat
        self.bot = bot
        self.lang = lang
        self.seen = 0  # log events printed so far

    def play(self) -> Ending:
        """Play to the end of the game, or until the person leaves it (quit, end of input, Ctrl-C)."""
        try:
            return self._play()
        except KeyboardInterrupt:
            self.say("")  # past the ^C the terminal shows at the prompt
            return Ending.INTERRUPTED

    def _play(self) -> Ending:
        state = self.state
        self.show_legend()
        self.say(f"You are P{self.seat}. Type a choice's number or text; ? lists what else you can type.")
        bot_rng = random.Random(state.seed)
        while not state.is_terminal:
            self.show_log()
            mover = state.current_player
            if mover != self.seat:
                state.apply(self.bot.act(self.game, state.view(mover), bot_rng), seat=mover)
                continue
            action = self.decide()
            if isinstance(action, Ending):
                return action
            state.apply(action, seat=self.seat)
        self.show_log()
        self.say("\n" + state.render(self.seat))
        self.say("Scores: " + ", ".join(f"P{p} {s}" for p, s in enumerate(state.scores())))
        self.say("Winner(s): " + (", ".join(f"P{w}" for w in state.winners()) or "nobody"))
        return Ending.FINISHED

    def decide(self) -> int | Ending:
        """The person's action at this decision, read part by part (or how they left it)."""
        decision = Decision(self.state)
        self.say("\n" + self.state.render(self.seat))
        self.show_choices(decision)
        while True:
            try:
                typed = input(f"P{self.seat}> ")
            except EOFError:
                self.say("")
                return Ending.END_OF_INPUT
            word = typed.strip().lower()
            if word in QUIT:
                return Ending.QUIT
            if self.command(word, decision):
                continue
            try:
                action = decision.answer(typed)
            except Refused as exc:
                self.console.print(str(exc), style="red", markup=False, highlight=False, soft_wrap=True)
                continue
            if action is not None:
                return action
            self.show_choices(decision)

    def command(self, word: str, decision: Decision) -> bool:
        """Carry out a command that takes no action (help, legend, rules, the board again); False
        where `word` is none."""
        if word in HELP_WORDS:
            self.say(HELP)
            self.show_legend()
        elif word == "legend":
            self.show_legend()
        elif word == "rules":
            self.say(self.game.rules_summary(self.lang))
        elif word == "":
            self.say(self.state.render(self.seat))
            self.show_choices(decision)
        else:
            return False
        return True

    def show_choices(self, decision: Decision) -> None:
        chosen, choices = decision.offer()
        if decision.steps:
            self.say(f"Chosen so far: {chosen} (back undoes the last part). Next:")
        elif any(c.action is None for c in choices):
            self.say(f"Choose {chosen} … a part at a time:")
        else:
            self.say("Choices:")
        self.say(_columns([f"{k:>3}  {c.label}" for k, c in enumerate(choices, 1)], self.console.width))

    def show_legend(self) -> None:
        legend = self.game.legend(self.lang)
        if legend:
            self.say(legend)

    def show_log(self) -> None:
        log = self.state.log(self.seat)
        for event in log[self.seen :]:
            self.say(f"  · {event_line(event, self.lang)}")
        self.seen = len(log)

    def say(self, text: str) -> None:
        self.console.print(text, markup=False, highlight=False, soft_wrap=True)  # the terminal wraps


def _columns(items: list[str], width: int) -> str:
    """Items in as many columns as fit, read row by row (1 2 3 / 4 5 6)."""
    cell = max(len(item) for item in items) + 3
    per_row = max(1, min(len(items), width // cell))
    rows = [items[i : i + per_row] for i in range(0, len(items), per_row)]
    return "\n".join("".join(item.ljust(cell) for item in row).rstrip() for row in rows)


def record_so_far(state: State) -> dict[str, Any]:
    """The record of the actions taken so far, rebuilt by replaying them on a new state: an interrupt
    may have stopped `apply` halfway, and the record must replay all the same."""
    fresh = state.game.new_state(seed=state.seed, deck=state.deck, rules_version=state.rules_version)
    for action in list(state.history):
        try:
            fresh.apply(action)
        except IllegalAction:
            break
    return fresh.to_record()


def default_record_path(state: State, folder: Path | None = None) -> Path:
    """Where a game left unfinished is kept when no --record was given: bodoge-GAME-SEED.json in the
    current folder, or -2, -3, … beside it, so that no earlier record is overwritten."""
    folder = folder if folder is not None else Path.cwd()
    stem = f"bodoge-{state.game.name}-{state.seed}"
    path = folder / f"{stem}.json"
    k = 1
    while path.exists():
        k += 1
        path = folder / f"{stem}-{k}.json"
    return path
