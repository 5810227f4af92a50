"""The per-connection and per-address rate limits (guard.AddressLimits) on limits' moving window."""

from __future__ import annotations

import threading
import time

from bodoge.server.guard import AddressLimits, Limits, TooMany


def test_hits_start_no_thread_and_the_sweep_forgets_what_expired() -> None:
    guard = AddressLimits(Limits(message_rate="3/second", create_rate="2/minute"))
    time.sleep(0.05)  # the timer that limits' own __init__ started, cancelled, has ended

    def timers() -> set[threading.Thread]:
        return {t for t in threading.enumerate() if isinstance(t, threading.Timer)}

    before = timers()
    for _round in range(3):  # limits' timer thread would be started again 10 ms after it ran
        assert [guard.hit_message(f"c{i}") for i in range(50)] == [True] * 50
        assert timers() <= before
        time.sleep(0.02)
    assert [guard.hit_message("c0") for _ in range(2)] == [False, False]  # 3 a second, 3 taken
    guard.hit_create("1.2.3.4")
    guard.hit_create("1.2.3.4")
    try:
        guard.hit_create("1.2.3.4")
    except TooMany as exc:
        assert 1 <= exc.retry_after <= 60
    else:
        raise AssertionError("a third table a minute from one address was not refused")

    time.sleep(1.05)
    guard.storage.sweep()
    remaining = {key for key, entries in guard.storage.events.items() if entries}
    assert remaining == set(guard.storage.events)  # no key left empty
    assert all("/create/" in key for key in remaining)  # the minute's creations are still counted
    assert guard.hit_message("c0") is True  # a new second
