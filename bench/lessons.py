"""How long a scripted learner takes to finish each lesson in the browser: seconds per lesson, in
English on a desktop screen (1280x800) and in Japanese on a phone's (390x844).

Run by hand (needs Chromium at /usr/bin/chromium and the playwright package):

    python bench/lessons.py                        # every packaged lesson, both screens
    python bench/lessons.py troika --reduced-motion

It starts `bodoge serve` on a loopback port with a fresh SQLite file and plays every lesson with the
scripted learner of tests/learn/learner.py (the one tests/learn/test_every_lesson_browser.py uses):
it reads the page, presses Next, tries a wrong move where it can, then plays the lesson's move. The
time is the page's, from the lesson shown to "Play a practice game" offered: the server's steps, the
redraws and (unless --reduced-motion) the pieces' motion that a click waits out. A person reading
the coach's words takes far longer; this is what the page adds.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from bodoge.core.registry import games
from bodoge.learn.lessons import PACKAGED, load_lessons
from screenshots import ARGS, CHROMIUM, Server  # bench/screenshots.py: the server and Chromium's flags

sys.path.insert(0, str(Path(__file__).parent.parent / "tests" / "learn"))
from learner import follow_lesson  # the tests' scripted learner

SCREENS = {"en": {"width": 1280, "height": 800}, "ja": {"width": 390, "height": 844}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", default=games(), help="the games (default: all)")
    parser.add_argument("--reduced-motion", action="store_true", help="as a page asked for no motion")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    motion = "reduce" if args.reduced_motion else "no-preference"
    print(f"{'lesson':36} {'en 1280px':>10} {'ja 390px':>10}   (seconds; motion: {motion})")
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp), bot_delay=0.0)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                total = dict.fromkeys(SCREENS, 0.0)
                for game in args.games:
                    for lesson in load_lessons(game, PACKAGED):
                        took = {}
                        for lang, screen in SCREENS.items():
                            ctx = browser.new_context(viewport=screen, reduced_motion=motion)
                            ctx.add_init_script(f"localStorage.setItem('bodoge.lang', '{lang}')")
                            page = ctx.new_page()
                            page.goto(f"{server.url}/learn/{game}?lesson={lesson.id}")
                            page.locator("#board[data-step='0']").wait_for()
                            started = time.perf_counter()
                            follow_lesson(page, lesson, lang)
                            took[lang] = time.perf_counter() - started
                            total[lang] += took[lang]
                            ctx.close()
                        name = f"{game}/{lesson.id} ({len(lesson.steps)} steps)"
                        print(f"{name:36} {took['en']:10.1f} {took['ja']:10.1f}", flush=True)
                print(f"{'all':36} {total['en']:10.1f} {total['ja']:10.1f}")
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
