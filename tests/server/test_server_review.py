"""Game reviews at the server (issue #33, server/reviews.py): `POST /api/tables/{id}/review` starts a
finished game's review in the bot workers, `GET` gives its progress, then the result, stored with
the table and shared by everyone. Only a finished game is reviewed; two requests make one job; the
rate per address, the queue and the time limit hold; a review whose process is gone is taken over.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import TOY, ThreadServer, create_table, make_config

from bodoge.analysis import Budget, review_record
from bodoge.server.guard import Limits
from bodoge.server.reviews import SEED, STALE, Reviews, server_deals
from bodoge.server.storage import ReviewRow, Storage

BOTS = [{"kind": "bot", "spec": "heuristic"}] * 3
JSON = {"Content-Type": "application/json"}


def reviews_of(server: ThreadServer) -> Reviews:
    reviews: Reviews = server.server.config.app.state.reviews
    return reviews


def finished_table(
    http: httpx.Client, seats: list[dict[str, Any]] = BOTS, timeout: float = 240, game: str = "hangover"
) -> str:
    """A table of bots (Hangover unless told), played to its end (the bots play at once: no delay)."""
    table_id: str = create_table(http, game, seats)["id"]
    deadline = time.monotonic() + timeout
    while http.get(f"/api/tables/{table_id}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.1)
    return table_id


def ask(http: httpx.Client, table_id: str, body: str = "{}") -> httpx.Response:
    return http.post(f"/api/tables/{table_id}/review", content=body, headers=JSON)


def wait_review(http: httpx.Client, table_id: str, timeout: float = 120) -> dict[str, Any]:
    """The review's answer once it is done or failed; every answer before it is queued or running,
    with its progress never going back."""
    deadline = time.monotonic() + timeout
    done = 0
    while True:
        got: dict[str, Any] = http.get(f"/api/tables/{table_id}/review").json()
        if got["status"] in ("done", "failed"):
            return got
        assert got["status"] in ("queued", "running"), got
        assert got["done"] >= done and (got["total"] == 0 or got["done"] <= got["total"])
        done = got["done"]
        assert time.monotonic() < deadline, f"the review did not end: {got}"
        time.sleep(0.1)


def test_two_requests_make_one_review_which_is_the_librarys_and_is_stored(db_url: str) -> None:
    with ThreadServer(make_config(db_url)) as server, server.http() as http:
        table_id = finished_table(http)
        assert http.get(f"/api/tables/{table_id}/review").json() == {
            "table": table_id,
            "status": "none",
            "reviewable": True,
        }
        answers: list[httpx.Response] = []
        askers = [threading.Thread(target=lambda: answers.append(ask(http, table_id))) for _ in (0, 1)]
        for asker in askers:
            asker.start()
        for asker in askers:
            asker.join()
        assert sorted(a.status_code for a in answers) in ([202, 202], [200, 202], [200, 200])
        got = wait_review(http, table_id)
        assert got["status"] == "done", got
        assert reviews_of(server).started == 1  # one job for the two requests
        # Asking once more, or reading, starts nothing: the stored review is the answer.
        again = ask(http, table_id)
        assert again.status_code == 200 and again.json()["review"] == got["review"]
        assert reviews_of(server).started == 1
        record = http.get(f"/api/tables/{table_id}/record").json()
    review = got["review"]
    # Every seat's every decision, valued exactly as `bodoge review` values them with the same budget.
    assert review == review_record(record, budget=Budget(deals=server_deals(record, None)), seed=SEED, jobs=1)
    assert [d["move"] for d in review["decisions"]] == list(range(len(record["actions"])))
    assert got["done"] == got["total"] == len(record["actions"])
    # Stored with the table: another server on the same database answers it without a new job.
    with ThreadServer(make_config(db_url)) as server, server.http() as http:
        assert http.get(f"/api/tables/{table_id}/review").json()["review"] == review
        assert ask(http, table_id).status_code == 200
        assert reviews_of(server).started == 0


def test_a_game_not_finished_is_never_reviewed(tmp_path: Path) -> None:
    with ThreadServer(make_config(f"sqlite:///{tmp_path / 'r.db'}")) as server, server.http() as http:
        live = create_table(http, "hangover", [{"kind": "human"}, *BOTS[:2]])["id"]
        refused = ask(http, live)
        assert refused.status_code == 409 and "still being played" in refused.json()["detail"]
        assert http.get(f"/api/tables/{live}/review").json() == {
            "table": live,
            "status": "none",
            "reviewable": False,
        }
        assert ask(http, "nope").status_code == 404
        assert http.get("/api/tables/nope/review").status_code == 404
        # Asked as a new table is made: a JSON body, {} (a review has no options).
        done = finished_table(http)
        form = http.post(f"/api/tables/{done}/review", content="{}", headers={"Content-Type": "text/plain"})
        assert form.status_code == 415
        assert ask(http, done, '{"seats": [0]}').status_code == 422
        assert ask(http, done, "{").status_code == 422
        assert reviews_of(server).started == 0
        assert http.get(f"/api/tables/{done}/review").json()["status"] == "none"
        assert ask(http, done, "").status_code == 202  # no body at all is {}


def test_the_queue_the_time_limit_and_the_rate_per_address_hold(tmp_path: Path) -> None:
    # A review far too long for the time limit: each runs until it is stopped. The race ends a
    # decision early once its options are told apart, so the budget alone no longer makes it long: a
    # Tokkuri game (a hundred or more decisions, several seconds of review at the default budget).
    limits = Limits(review_queue=1, review_timeout=1.0, review_rate="2/hour")
    config = make_config(f"sqlite:///{tmp_path / 'r.db'}", limits=limits, review_deals=5000)
    with ThreadServer(config) as server, server.http() as http:
        a, b, c = (finished_table(http, game="tokkuri") for _ in range(3))
        assert ask(http, a).status_code == 202
        busy = ask(http, b)  # the queue holds one review: a's
        assert busy.status_code == 503 and int(busy.headers["Retry-After"]) > 0
        assert "at most 1 at once" in busy.json()["detail"]
        started = time.monotonic()
        failed = wait_review(http, a, timeout=30)
        assert failed["status"] == "failed"
        assert failed["error"] == "the review took longer than the server's limit of 1 s"
        assert time.monotonic() - started < 60  # stopped at its limit, not after its 5000 deals (minutes)
        assert ask(http, b).status_code == 202  # the address's second review
        assert wait_review(http, b, timeout=30)["status"] == "failed"
        too_many = ask(http, c)  # its third: past the rate
        assert too_many.status_code == 429 and int(too_many.headers["Retry-After"]) > 0
        assert "2/hour" in too_many.json()["detail"]
        assert ask(http, a).status_code == 429  # a failed review asked again is a new one
        assert http.get(f"/api/tables/{c}/review").json()["status"] == "none"
        assert reviews_of(server).started == 2
        # The bots still play: the workers stopped at the time limit were replaced.
        finished_table(http)


def test_a_review_whose_process_is_gone_is_taken_over(db_url: str) -> None:
    with ThreadServer(make_config(db_url)) as server, server.http() as http:
        gone_id, alive_id = finished_table(http), finished_table(http)
    # A server stopped while it ran a review: its row says running, its heartbeat is old.
    storage = Storage(db_url)
    try:
        now = time.time()
        gone = ReviewRow(
            gone_id, "running", "gone", done=3, total=24, asked_at=now, heartbeat=now - STALE - 1
        )
        assert storage.insert_review(gone)
        assert not storage.insert_review(gone)  # one row per table
        # One that another live process runs (its heartbeat is fresh), beside PostgreSQL's others.
        alive = ReviewRow(alive_id, "running", "alive", done=3, total=24, asked_at=now, heartbeat=now + 60)
        assert storage.insert_review(alive)
    finally:
        storage.close()
    with ThreadServer(make_config(db_url)) as server, server.http() as http:
        got = wait_review(http, gone_id)
        assert got["status"] == "done" and len(got["review"]["decisions"]) == got["total"]
        assert reviews_of(server).started == 1
        other = http.get(f"/api/tables/{alive_id}/review").json()
        if reviews_of(server).shared:  # left to the process that runs it
            assert (other["status"], other["done"]) == ("running", 3)
        else:  # with SQLite, this is the only process: whatever ran it before is gone
            assert wait_review(http, alive_id)["status"] == "done"


@pytest.fixture
def pg_url() -> Any:
    from conftest import postgres_schema_url

    yield from postgres_schema_url()


def test_two_processes_asked_at_once_make_one_review(pg_url: str) -> None:
    with ThreadServer(make_config(pg_url)) as one, ThreadServer(make_config(pg_url)) as two:
        with one.http() as http1, two.http() as http2:
            table_id = finished_table(http1)
            answers: list[httpx.Response] = []
            askers = [
                threading.Thread(target=lambda h=h: answers.append(ask(h, table_id))) for h in (http1, http2)
            ]
            for asker in askers:
                asker.start()
            for asker in askers:
                asker.join()
            assert all(a.status_code in (200, 202) for a in answers)
            here, there = wait_review(http1, table_id), wait_review(http2, table_id)
            assert here["status"] == "done" and here["review"] == there["review"]
        assert reviews_of(one).started + reviews_of(two).started == 1


def test_a_game_the_server_cannot_review_fails_with_its_reason(tmp_path: Path) -> None:
    with ThreadServer(make_config(f"sqlite:///{tmp_path / 'r.db'}")) as server, server.http() as http:
        # The tests' toy game has no bot heuristic, so no playouts: its review cannot be made.
        table_id = create_table(http, TOY, [{"kind": "bot", "spec": "random"}] * 2)["id"]
        deadline = time.monotonic() + 30
        while http.get(f"/api/tables/{table_id}").json()["status"] != "over":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert ask(http, table_id).status_code == 202
        got = wait_review(http, table_id, timeout=30)
        assert got["status"] == "failed" and got["error"] and "review" not in got
        assert reviews_of(server).pending == []  # nothing is left queued
