"""`review.html`: a review as one self-contained page (no script, no file or address beside it).

Each seat's biggest mistake in words, a win-chance graph per seat (inline SVG, each point's 95% interval
a band behind its line), the seats' figures, the moves called inaccuracies or worse, then every
reviewed decision with its options' values and intervals, the chosen and the best marked.
"""

from __future__ import annotations

import html
from typing import Any

COLOURS = ("#3b5bdb", "#e8590c", "#2b8a3e", "#c2255c", "#5f3dc4", "#0b7285")
CLASS_COLOURS = {
    "best": "#2b8a3e",
    "good": "#5c940d",
    "inaccuracy": "#e67700",
    "mistake": "#d9480f",
    "blunder": "#c92a2a",
    "unclear": "#495057",
    "even": "#868e96",
    "forced": "#868e96",
}
STYLE = """
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:60em;padding:0 1em;color:#212529}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ced4da;padding:.25em .6em;text-align:right}
th{background:#f1f3f5}td.text{text-align:left}.cls{font-weight:600}
details{margin:.3em 0}summary{cursor:pointer}.bar{display:inline-block;height:.8em;background:#adb5bd}
.chosen{background:#fff3bf}.best td:first-child{font-weight:700}figure{margin:1em 0}
"""


def _e(value: Any) -> str:
    return html.escape(str(value))


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def graph(review: dict[str, Any], width: int = 720, height: int = 220) -> str:
    """Each reviewed seat's win chance (before each of its moves) over the record's moves, as SVG."""
    moves = max(1, review["actions"])
    pad = 32
    w, h = width - 2 * pad, height - 2 * pad
    parts = [
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' role='img' "
        "aria-label='win chance by move'>",
        f"<rect x='{pad}' y='{pad}' width='{w}' height='{h}' fill='none' stroke='#ced4da'/>",
    ]
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = pad + h * (1 - tick)
        parts.append(f"<line x1='{pad}' x2='{pad + w}' y1='{y:.1f}' y2='{y:.1f}' stroke='#f1f3f5'/>")
        parts.append(f"<text x='2' y='{y + 4:.1f}' font-size='10'>{int(tick * 100)}%</text>")
    parts.append(f"<text x='{pad + w - 60}' y='{height - 6}' font-size='10'>move → {moves}</text>")
    for i, seat in enumerate(review["review"]["seats"]):
        colour = COLOURS[i % len(COLOURS)]
        points = [
            (pad + w * d["move"] / moves, pad + h * (1 - d["win_chance"]))
            for d in review["decisions"]
            if d["seat"] == seat
        ]
        mine = [d for d in review["decisions"] if d["seat"] == seat]
        if mine:  # how sure each point is: its interval, a band behind the line
            upper = [
                (pad + w * d["move"] / moves, pad + h * (1 - d.get("win_high", d["win_chance"])))
                for d in mine
            ]
            lower = [
                (pad + w * d["move"] / moves, pad + h * (1 - d.get("win_low", d["win_chance"]))) for d in mine
            ]
            band = " ".join(f"{x:.1f},{y:.1f}" for x, y in [*upper, *reversed(lower)])
            parts.append(f"<polygon points='{band}' fill='{colour}' fill-opacity='0.12' stroke='none'/>")
        if points:
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
            parts.append(f"<polyline points='{path}' fill='none' stroke='{colour}' stroke-width='1.5'/>")
        parts.append(
            f"<text x='{pad + 8 + 48 * i}' y='{pad - 8}' font-size='11' fill='{colour}'>P{seat}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def _seats_table(review: dict[str, Any]) -> str:
    head = "<tr><th>seat</th><th>decisions</th><th>judged</th><th>mean loss</th><th>accuracy</th>"
    head += "".join(f"<th>{c}</th>" for c in CLASS_COLOURS) + "<th>agrees with bot</th><th>result</th></tr>"
    rows = []
    for s in review["seats"]:
        counts = "".join(f"<td>{s['classes'][c]}</td>" for c in CLASS_COLOURS)
        rows.append(
            f"<tr><td>P{s['seat']}</td><td>{s['decisions']}</td><td>{s['judged']} of {s['reviewed']}</td>"
            f"<td>{_pct(s['mean_loss'])}</td><td>{'–' if s['accuracy'] is None else s['accuracy']}</td>"
            f"{counts}<td>{_pct(s['bot_agreement'])}</td><td>{s['return']:g}</td></tr>"
        )
    return f"<table>{head}{''.join(rows)}</table>"


def _biggest(review: dict[str, Any]) -> str:
    """Each seat's biggest mistake, in words, with a link to the decision."""
    items = []
    for s in review["seats"]:
        worst = s.get("biggest_mistake")
        if worst is None:
            items.append(
                f"<li>P{s['seat']}: no inaccuracy or worse among its {s['judged']} judged decisions.</li>"
            )
            continue
        items.append(
            f"<li>P{s['seat']}, <a href='#m{worst['move']}'>move {worst['move']}</a> ({worst['class']}): "
            f"played <b>{_e(worst['chosen_words'])}</b>; <b>{_e(worst['best_words'])}</b> was better by "
            f"{_pct(worst['loss'])} of win chance (between {_pct(worst['loss_low'])} and "
            f"{_pct(worst['loss_high'])}).</li>"
        )
    return f"<ul>{''.join(items)}</ul>"


def _mistakes(review: dict[str, Any]) -> str:
    bad = [d for d in review["decisions"] if d["class"] in ("inaccuracy", "mistake", "blunder")]
    if not bad:
        return "<p>No move was found worse than the best by more than the noise and the thresholds.</p>"
    rows = []
    for d in bad:
        best = next(o for o in d["options"] if o["action"] == d["best"])
        rows.append(
            f"<tr><td><a href='#m{d['move']}'>{d['move']}</a></td><td>P{d['seat']}</td>"
            f"<td class='text'>{_e(d['chosen_text'])}</td><td class='text'>{_e(best['text'])}</td>"
            f"<td>{_pct(d['loss'])}</td>"
            f"<td class='cls' style='color:{CLASS_COLOURS[d['class']]}'>{d['class']}</td></tr>"
        )
    head = "<tr><th>move</th><th>seat</th><th>played</th><th>best</th><th>loss</th><th>class</th></tr>"
    return f"<table>{head}{''.join(rows)}</table>"


def _decision(d: dict[str, Any]) -> str:
    colour = CLASS_COLOURS[d["class"]]
    summary = (
        f"move {d['move']} · P{d['seat']} · {_e(d['chosen_text'])} · "
        f"<span class='cls' style='color:{colour}'>{d['class']}</span> · win chance {_pct(d['win_chance'])}"
        + (
            f" · loss {_pct(d['loss'])} ({_pct(d['loss_low'])} – {_pct(d['loss_high'])})"
            if d["class"] != "forced"
            else ""
        )
    )
    rows = []
    for o in sorted(d["options"], key=lambda o: (-o["value"], o["action"])):
        marks = []
        if o["action"] == d["chosen"]:
            marks.append("played")
        if o["action"] == d["best"]:
            marks.append("best")
        if o["action"] == d.get("bot"):
            marks.append("bot")
        cls = " class='chosen'" if o["action"] == d["chosen"] else ""
        rows.append(
            f"<tr{cls}><td class='text'>{_e(o['text'])}</td><td>{_pct(o['value'])}</td>"
            f"<td>{_pct(o['low'])} – {_pct(o['high'])}</td>"
            f"<td class='text'><span class='bar' style='width:{100 * o['value']:.0f}px'></span></td>"
            f"<td class='text'>{', '.join(marks)}</td></tr>"
        )
    head = "<tr><th>option</th><th>value</th><th>95% interval</th><th></th><th></th></tr>"
    decision = f"<p>{_e(d['decision'])}</p>" if d.get("decision") else ""
    return (
        f"<details id='m{d['move']}'><summary>{summary}</summary>{decision}"
        f"<table>{head}{''.join(rows)}</table></details>"
    )


def review_html(review: dict[str, Any]) -> str:
    """The page (see the module docstring)."""
    settings = review["review"]
    budget = (
        f"{settings['deals']} deals" if settings["deals"] is not None else f"{settings['seconds']:g} s"
    ) + " per decision"
    title = f"bodoge review: {review['game']}, {review['players']} players, seed {review['record_seed']}"
    winners = ", ".join(f"P{w}" for w in review["winners"]) or "nobody"
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{_e(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
        f"<p>{review['actions']} moves; won by {winners}. Values are each seat's expected win share from "
        f"its own view at that moment ({_e(budget)}, {_e(settings['rollout'])} playouts"
        f"{', valued by the network at the seat’s next decision' if settings.get('leaf') == 'nn' else ''}, "
        f"review seed {settings['seed']}). Classes: loss ≥ {_pct(settings['thresholds']['inaccuracy'])} "
        f"inaccuracy, ≥ {_pct(settings['thresholds']['mistake'])} mistake, ≥ "
        f"{_pct(settings['thresholds']['blunder'])} blunder, each only where the loss's interval supports "
        "it; unclear where the deals could not tell; even where every option came to the same. Accuracy: "
        "the share of the win chance at stake in the judged decisions that the seat kept.</p>",
        "<h2>Biggest mistakes</h2>",
        _biggest(review),
        "<h2>Win chance</h2><figure>",
        graph(review),
        "<figcaption>Each seat's win chance before each of its moves (the best option's value).</figcaption>",
        "</figure><h2>Seats</h2>",
        _seats_table(review),
        "<h2>Inaccuracies, mistakes and blunders</h2>",
        _mistakes(review),
        "<h2>Every decision</h2>",
        *(_decision(d) for d in review["decisions"]),
        "</body></html>\n",
    ]
    return "".join(parts)
