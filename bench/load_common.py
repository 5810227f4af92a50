"""What every part of bench/load.py shares: the clients' record of each table and of the load
(TableRun, Stats), percentiles, time windows, and a server's port as printed. Not a script: run
bench/load.py."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class TableRun:
    id: str
    token: str
    sent: dict[int, int] = field(default_factory=dict)  # seq -> action, every action sent
    acked: dict[int, int] = field(default_factory=dict)  # seq -> action, seen taken (a view of seq+1)
    refused: dict[int, int] = field(default_factory=dict)  # seq -> action, answered with an error
    final_seq: int = 0
    over: bool = False
    player: int = 0  # the client that made and plays it (its index: tables are routed by it)
    warm_seq: int = 0  # its last move seen during the warm-up (--warmup)


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    sent_at: list[float] = field(default_factory=list)  # when each of those actions was sent (perf_counter)
    # those of actions sent after the warm-up: picked out once the client processes' are merged
    steady: list[float] = field(default_factory=list)
    begun: float = 0.0  # when the clients set out (perf_counter)
    warm_at: float = float("inf")  # when the warm-up (--warmup) ends, on time.perf_counter
    warm_mono: float = float("inf")  # the same, on time.monotonic
    views: int = 0
    errors: list[str] = field(default_factory=list)
    tables: list[TableRun] = field(default_factory=list)


def port_of(url: str) -> str:
    return ":" + url.rpartition(":")[2]


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


Window = tuple[float, float]


def overlaps(start: float, end: float, windows: list[Window]) -> bool:
    return any(w_start < end and start < w_end for w_start, w_end in windows)
