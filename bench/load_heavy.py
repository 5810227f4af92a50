"""The heavy creates of bench/load.py: for each game, the largest table creation its options allow,
found by trying (each size option raised to the bound the game declares, searched down where the
server refuses), that body made and timed again, and one deliberately over-sized create that must be
refused at once; then their report, each with the health probe's latency while it ran. They run in
the observer process (load_health.Observer), beside the health probe. Not a script: run
bench/load.py."""

from __future__ import annotations

import asyncio
import copy
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx

from load_common import overlaps

FALLBACK = 1000  # the first value tried for a size whose game declares no bound (an older engine)
OVERSIZED = 80_000  # copies of each card type / tile in the deliberately over-sized creates
# Bounds written in an option's `allowed` text: a deck's copies per type, its cards in all, a list's length.
COPIES = r"copies'? \(?(?:an integer )?(?:from )?[01] to (\d+)"
CARDS_IN_ALL = r"(?:to|at most) (\d+) cards in all"
SNACK_CODES = r"(?:0 to|at most) (\d+) snack codes"
HINT = r"(?:from -?\d+ to|at most|up to|≤)\s*(\d+)"  # the bound a refusal of an integer names


@dataclass
class Knob:
    """One size option of a heavy create, raised as far as the server accepts it."""

    option: str  # the option the server names when it refuses this knob's value
    label: str  # what its value counts
    start: int  # a value known to be allowed (the default's)
    ceiling: int  # the first value tried: the game's declared bound, else FALLBACK
    declared: bool  # whether `ceiling` is a bound the game declares
    apply: Callable[[dict[str, Any], int], None]
    integer: bool = True  # a plain integer option: its refusal names the allowed range


@dataclass
class HeavyPlan:
    game: str
    players: int
    base: dict[str, Any]  # options set before the knobs
    knobs: list[Knob]
    oversized: dict[str, Any]  # options far past any sane bound
    oversized_label: str


def _spec(game: str, name: str) -> Any:
    from bodoge.core.registry import game_class

    return {spec.name: spec for spec in game_class(game).option_specs}[name]


def _text_bound(spec: Any, pattern: str) -> int | None:
    found = [int(n) for n in re.findall(pattern, spec.allowed)]
    return min(found) if found else None


def _int_knob(game: str, name: str) -> Knob:
    spec = _spec(game, name)
    hi = getattr(spec, "hi", None)
    if not isinstance(hi, int):
        hi = _text_bound(spec, r"from -?\d+ to (\d+)")
    return Knob(
        name,
        name,
        spec.default,
        FALLBACK if hi is None else hi,
        hi is not None,
        lambda o, k: o.update({name: k}),
    )


def _spread(
    deck: list[dict[str, Any]], total: int, fixed: Callable[[dict[str, Any]], bool], cap: int | None
) -> Any:
    """`deck` with `total` cards: fixed types keep their copies, the others share the rest evenly."""
    out = copy.deepcopy(deck)
    free = [t for t in out if not fixed(t)]
    each, extra = divmod(total - sum(t["copies"] for t in out if fixed(t)), len(free))
    for i, t in enumerate(free):
        t["copies"] = max(1, each + (i < extra))
        if cap is not None:
            t["copies"] = min(t["copies"], cap)
    return out


def _deck_knob(game: str, name: str, fixed: Callable[[dict[str, Any]], bool]) -> Knob:
    """A deck (a list of card types with copies): its cards in all, up to its deck-size bound."""
    spec = _spec(game, name)
    deck = spec.to_json(spec.convert(spec.default))
    kept = sum(t["copies"] for t in deck if fixed(t))
    free = sum(1 for t in deck if not fixed(t))
    per_type = _text_bound(spec, COPIES)
    bounds = [b for b in (_text_bound(spec, CARDS_IN_ALL), per_type and per_type * free + kept) if b]
    return Knob(
        name,
        f"{name} cards",
        sum(t["copies"] for t in deck),
        min(bounds) if bounds else FALLBACK,
        bool(bounds),
        lambda o, k: o.update({name: _spread(deck, k, fixed, per_type)}),
        integer=False,
    )


def _list_knob(game: str, name: str, pattern: str) -> Knob:
    """A list option (Hangover's snack deck): its default repeated up to the length bound."""
    spec = _spec(game, name)
    items = list(spec.to_json(spec.convert(spec.default)))
    bound = _text_bound(spec, pattern)
    return Knob(
        name,
        f"{name} length",
        len(items),
        FALLBACK if bound is None else bound,
        bound is not None,
        lambda o, k: o.update({name: [items[i % len(items)] for i in range(k)]}),
        integer=False,
    )


def _tiles_knob() -> Knob:
    """Troika's tile set: every number 1–15 with as many copies as one number may have."""
    bound = _text_bound(_spec("troika", "tile_counts"), COPIES)
    return Knob(
        "tile_counts",
        "tile_counts copies of each number",
        3,
        FALLBACK if bound is None else bound,
        bound is not None,
        lambda o, k: o.update(tile_counts={str(n): k for n in range(1, 16)}),
        integer=False,
    )


def _players(game: str) -> int:
    from bodoge.core.registry import game_class

    players: int = game_class(game).max_players  # the most seats: the most hands and views
    return players


def _oversized_deck(game: str, fixed: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
    spec = _spec(game, "deck")
    deck = spec.to_json(spec.convert(spec.default))
    return [t if fixed(t) else dict(t, copies=OVERSIZED) for t in deck]


def _trouble(t: dict[str, Any]) -> bool:
    return t.get("kind") == "trouble"  # Tokkuri allows one troublesome tokkuri at most


def heavy_plans() -> tuple[list[HeavyPlan], list[str]]:
    """For each game, the size options to raise (in order) and an over-sized body; notes on failures."""
    plans: list[HeavyPlan] = []
    notes: list[str] = []
    builders: dict[str, Callable[[], HeavyPlan]] = {
        "tokkuri": lambda: HeavyPlan(
            "tokkuri",
            _players("tokkuri"),
            {},
            [_deck_knob("tokkuri", "deck", _trouble), _int_knob("tokkuri", "hand_size")],
            {"deck": _oversized_deck("tokkuri", _trouble)},
            f"deck copies {OVERSIZED}",
        ),
        "hangover": lambda: HeavyPlan(
            "hangover",
            _players("hangover"),
            {"removed_numbers": []},  # every drink card in play: the largest hands
            [
                _list_knob("hangover", "snack_deck", SNACK_CODES),
                _int_knob("hangover", "hangover_trick"),
                _int_knob("hangover", "hand_size"),
                _int_knob("hangover", "snacks_per_player"),
            ],
            {"hangover_trick": 300_000},
            "hangover_trick 300000",
        ),
        "tottarot": lambda: HeavyPlan(
            "tottarot",
            _players("tottarot"),
            {"max_will": _int_knob("tottarot", "max_will").ceiling},  # lets turns_per_round be largest
            [_deck_knob("tottarot", "deck", lambda t: False), _int_knob("tottarot", "turns_per_round")],
            {"deck": _oversized_deck("tottarot", lambda t: False)},
            f"deck copies {OVERSIZED}",
        ),
        "troika": lambda: HeavyPlan(
            "troika",
            _players("troika"),
            {},
            [_tiles_knob()],
            {"tile_counts": {str(n): OVERSIZED for n in range(1, 16)}},
            f"tile_counts {OVERSIZED} of each",
        ),
    }
    for game, build in builders.items():
        try:
            plans.append(build())
        except Exception as exc:  # an engine in the middle of a change: measure the others
            notes.append(f"{game}: no heavy plan ({type(exc).__name__}: {exc})")
    return plans, notes


def describe(options: dict[str, Any]) -> str:
    """A create body's options, short: decks by their size, not their cards."""
    parts = []
    for name, value in options.items():
        if isinstance(value, list) and value and all(isinstance(t, dict) and "copies" in t for t in value):
            parts.append(f"{name} {len(value)} types/{sum(t['copies'] for t in value)} cards")
        elif isinstance(value, dict) and value and all(isinstance(v, int) for v in value.values()):
            parts.append(f"{name} {len(value)}×{max(value.values())} (={sum(value.values())})")
        elif isinstance(value, list) and value:
            parts.append(f"{name} {len(value)} items")
        else:
            parts.append(f"{name} {json.dumps(value)}")
    return ", ".join(parts) or "defaults"


class HeavyCreates:
    """The heavy creates, one at a time, timed on this process's own clock (time.monotonic, which is
    the same clock in every process of the machine)."""

    def __init__(self, base_url: str, settings: dict[str, Any]) -> None:
        self.base_url = base_url
        self.settings = settings
        self.creates: list[dict[str, Any]] = []
        self.notes: list[str] = []

    async def create(
        self,
        http: httpx.AsyncClient,
        plan: HeavyPlan,
        options: dict[str, Any],
        kind: str,
        timeout: float,
        step: str = "",
    ) -> dict[str, Any]:
        seats = [{"kind": "human", "name": f"heavy{i}"} for i in range(plan.players)]
        body = {"game": plan.game, "players": plan.players, "options": options, "seats": seats}
        start = time.monotonic()
        try:
            response = await http.post("/api/tables", json=body, timeout=timeout)
            status, detail = response.status_code, ""
            if status != 201:
                try:
                    detail = str(response.json().get("detail"))
                except ValueError:
                    detail = response.text[:500]
        except httpx.TimeoutException:
            status, detail = 0, f"no answer within {timeout:g} s"
        except httpx.HTTPError as exc:
            status, detail = 0, f"{type(exc).__name__}: {exc}"
        end = time.monotonic()
        record = {
            "game": plan.game,
            "players": plan.players,
            "kind": kind,  # search, heavy (the heaviest body, timed) or oversized
            "step": step,  # in a search: the value tried
            "describe": describe(options) if kind != "oversized" else plan.oversized_label,
            "status": status,
            "detail": detail,
            "start": start,
            "end": end,
        }
        self.creates.append(record)
        await asyncio.sleep(0.05)  # one create at a time, with a gap the probes can see
        return record

    async def search(self, http: httpx.AsyncClient, plan: HeavyPlan) -> dict[str, Any] | None:
        """The heaviest options the server accepts, one knob after another; None if a create failed."""
        timeout = self.settings["heavy_timeout"]
        options = copy.deepcopy(plan.base)
        for knob in plan.knobs:
            if not knob.declared:
                self.notes.append(
                    f"{plan.game}: {knob.label}: no bound declared; tried from {knob.ceiling} down"
                )
            # ok: the largest value known allowed; bad: the smallest refused. A refusal of an integer
            # option names its bound for these options ("an integer from 1 to 11 for 5 players"):
            # that is tried next, then one past it; else the gap is halved.
            ok, bad, value = knob.start, None, max(knob.start, knob.ceiling)
            hinted = False
            for _ in range(16):
                trial = copy.deepcopy(options)
                knob.apply(trial, value)
                record = await self.create(http, plan, trial, "search", timeout, f"{knob.label} {value}")
                if record["status"] == 201:
                    ok = value
                elif record["status"] == 400:
                    bad = value
                else:
                    return None
                if bad is None or bad - ok <= 1:
                    break
                value = ok + 1 if hinted and record["status"] == 201 else (ok + bad) // 2
                hinted = False
                if knob.integer and record["status"] == 400 and f"'{knob.option}'" in record["detail"]:
                    hints = [int(n) for n in re.findall(HINT, record["detail"]) if ok <= int(n) < bad]
                    if hints:
                        value, hinted = max(hints), True
                    if value == ok:  # the server's bound is the value already allowed
                        break
            knob.apply(options, ok)
        return options

    async def heavy(self, heavy_at: float) -> None:
        await asyncio.sleep(max(0.0, heavy_at - time.monotonic()))
        plans, notes = heavy_plans()
        self.notes += notes
        async with httpx.AsyncClient(base_url=self.base_url, timeout=60) as http:
            for plan in plans:
                options = await self.search(http, plan)
                if options is None:
                    continue
                for _ in range(self.settings["heavy_repeat"]):
                    await self.create(http, plan, options, "heavy", self.settings["heavy_timeout"])
            for plan in plans:
                await self.create(http, plan, plan.oversized, "oversized", self.settings["oversized_timeout"])


def _short(detail: str) -> str:
    """A refusal without the (long) value it repeats, nor what is allowed: its reason."""
    reason = detail.partition("; allowed:")[0]
    head, _, rest = reason.partition(": ")
    if rest[:1] in "[{(" and max(rest.rfind("]: "), rest.rfind("}: "), rest.rfind("): ")) > 0:
        rest = rest[0] + "…" + rest[max(rest.rfind("]: "), rest.rfind("}: "), rest.rfind("): ")) :]
    short = f"{head}: {rest}" if rest else head
    return short if len(short) <= 200 else short[:200] + "…"


def report_creates(observed: dict[str, Any], load_end: float) -> bool:
    """The heavy and over-sized creates, each with the health latency while it ran; True if one went
    wrong (a heavy create not answered 201 or 400, an over-sized one not refused)."""
    samples: list[tuple[float, float, int]] = observed["samples"]
    creates: list[dict[str, Any]] = observed["creates"]
    failed = False

    def ms(c: dict[str, Any]) -> float:
        return (c["end"] - c["start"]) * 1000

    def health_during(group: list[dict[str, Any]]) -> str:
        seen = [
            (e - s) * 1000 for s, e, _ in samples if overlaps(s, e, [(c["start"], c["end"]) for c in group])
        ]
        return f"{len(seen)} probes, max {max(seen):.1f} ms" if seen else "no probe overlapped"

    heavy_kinds = ("search", "heavy")
    games = list(dict.fromkeys(c["game"] for c in creates if c["kind"] in heavy_kinds))
    if games:
        print("heavy creates: the largest options each game allows, found by trying (all seats human):")
    for game in games:
        search = [c for c in creates if c["game"] == game and c["kind"] == "search"]
        heavy = [c for c in creates if c["game"] == game and c["kind"] == "heavy"]
        print(f"  {game}, {(search or heavy)[0]['players']} players:")
        if heavy:
            statuses = "/".join(str(c["status"] or "no answer") for c in heavy)
            print(f"    accepted: {heavy[0]['describe']}")
            print(
                f"    create {statuses} in {' / '.join(f'{ms(c):.1f}' for c in heavy)} ms; "
                f"GET /api/health meanwhile: {health_during(heavy)}"
            )
        tries = ", ".join(f"{c['step']} → {c['status'] or 'no answer'} ({ms(c):.0f} ms)" for c in search)
        print(f"    search: {tries}; health meanwhile: {health_during(search)}")
        wrong = [c for c in search if c["status"] not in (201, 400)] + [
            c for c in heavy if c["status"] != 201
        ]
        if wrong:
            failed = True
            print(f"    FAILED: {wrong[0]['status'] or 'no answer'}: {_short(wrong[0]['detail'])}")
    oversized = [c for c in creates if c["kind"] == "oversized"]
    if oversized:
        print("over-sized creates (past every bound): each must be refused, at once:")
    for c in oversized:
        refused = c["status"] in (400, 413, 422)
        failed |= not refused
        print(
            f"  {c['game']} {c['describe']}: {c['status'] or 'no answer'} in {ms(c):.1f} ms, "
            f"{'refused' if refused else 'NOT REFUSED'}; health meanwhile: {health_during([c])}"
        )
        if c["detail"]:
            print(f"    {_short(c['detail'])}")
    late = max((c["end"] for c in creates), default=load_end) - load_end
    if late > 0:
        print(
            f"  note: the creates ran {late:.1f} s past the end of the load (a longer --duration avoids that)"
        )
    for note in observed["notes"]:
        print(f"  note: {note}")
    return failed
