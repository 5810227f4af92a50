"""A lesson in the terminal: the loop behind `bodoge learn GAME`.

The same coach as the web page (`Coach`), the board the terminal draws for `bodoge play` (in English
symbols whatever the language, with the game's legend in the lesson's language first), and the
same numbered choices (`bodoge.terminal.Decision`). Each step's words come first; at the learner's
step the choices are listed and another move than the lesson's is refused with its hint; the other
seats' moves and the explaining steps go by on their own, so that a lesson can be followed by piping
its moves in.
"""

from __future__ import annotations

from rich.console import Console

from bodoge.learn.coach import Coach
from bodoge.learn.lessons import seat_names
from bodoge.terminal import QUIT, Decision, Ending, Refused, event_line

#: The lesson's own words, by language.
WORDS = {
    "en": {
        "step": "Step {i} of {n}",
        "rules": "Rules: {rules}",
        "your_move": "Your move (a number or a move's text; quit stops).",
        "done": "Lesson complete! Play a practice game: bodoge play {game} --bots heuristic",
        "refused": "Not the lesson's move",
        "seats": "At the table (the board's P0, P1, …): {seats}.",
        "seat": "{name} is P{p}",
        "you": "you are P{p}",
    },
    "ja": {
        "step": "ステップ {i} / {n}",
        "rules": "ルール: {rules}",
        "your_move": "あなたの番です（番号か手の文字を入力。quit で終了）。",
        "done": "レッスン完了！ 練習対局: bodoge play {game} --bots heuristic",
        "refused": "このレッスンの手ではありません",
        "seats": "席（盤面の P0、P1、…）：{seats}。",
        "seat": "{name}は P{p}",
        "you": "あなたは P{p}",
    },
}


class LessonSession:
    def __init__(self, console: Console, coach: Coach, lang: str = "en") -> None:
        self.console = console
        self.coach = coach
        self.lang = lang
        self.words = WORDS[lang]
        self.seen = 0

    def run(self) -> Ending:
        """Walk the lesson to its end, or until the learner leaves (quit, the end of input, Ctrl-C)."""
        coach = self.coach
        lesson = coach.lesson
        self.say(lesson.title[self.lang])
        # The lesson's words name the seats as the web page's board does; the terminal's board says
        # P0, P1, …: which is who, once.
        names = seat_names(lesson.players, lesson.seat)[self.lang]
        seats = [
            self.words["you"].format(p=p) if p == lesson.seat else self.words["seat"].format(name=name, p=p)
            for p, name in enumerate(names)
        ]
        self.say(
            self.words["seats"].format(seats=", ".join(seats) if self.lang == "en" else "、".join(seats))
        )
        # The board is drawn in English symbols for every language (the games' text render has no
        # other); its legend, as `bodoge play` shows it, says in the lesson's language how to read it.
        legend = coach.state.game.legend(self.lang)
        if legend:
            self.say(legend)
        n = len(lesson.steps)
        try:
            while not coach.done:
                step = coach.step
                assert step is not None
                self.say("")
                self.say(self.words["step"].format(i=coach.index + 1, n=n) + " — " + step.say[self.lang])
                if step.rules:
                    self.say(self.words["rules"].format(rules=", ".join(step.rules)))
                if coach.learners_turn:
                    ending = self.learner_move()
                    if ending is not None:
                        return ending
                else:
                    coach.next()
                self.show_log()
        except KeyboardInterrupt:
            self.say("")
            return Ending.INTERRUPTED
        self.say("")
        self.say(self.words["done"].format(game=lesson.game))
        return Ending.FINISHED

    def learner_move(self) -> Ending | None:
        coach = self.coach
        seat = coach.lesson.seat
        self.say(coach.state.render(seat))
        self.say(self.words["your_move"])
        decision = Decision(coach.state)
        self.show_choices(decision)
        while True:
            try:
                typed = input(f"P{seat}> ")
            except EOFError:
                self.say("")
                return Ending.END_OF_INPUT
            if typed.strip().lower() in QUIT:
                return Ending.QUIT
            try:
                action = decision.answer(typed)
            except Refused as exc:
                self.console.print(str(exc), style="red", markup=False, highlight=False, soft_wrap=True)
                continue
            if action is None:  # a part of a choice taken part by part
                self.show_choices(decision)
                continue
            said = coach.try_move(action)
            if said.ok:
                return None
            self.console.print(
                f"{self.words['refused']}: {said.message[self.lang]}",
                style="yellow",
                markup=False,
                highlight=False,
                soft_wrap=True,
            )
            decision = Decision(coach.state)
            self.show_choices(decision)

    def show_choices(self, decision: Decision) -> None:
        chosen, choices = decision.offer()
        if decision.steps:
            self.say(f"{chosen} …")
        for k, choice in enumerate(choices, 1):
            self.say(f"{k:>3}  {choice.label}")

    def show_log(self) -> None:
        log = self.coach.state.log(self.coach.lesson.seat)
        for event in log[self.seen :]:
            self.say(f"  · {event_line(event, self.lang)}")
        self.seen = len(log)

    def say(self, text: str) -> None:
        self.console.print(text, markup=False, highlight=False, soft_wrap=True)
