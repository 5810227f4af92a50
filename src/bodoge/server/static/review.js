// The replay page's game review (issue #33; docs/review.md): ask the server for it
// (POST /api/tables/{id}/review), follow its progress (GET), then draw each seat's win chance under
// the board as an SVG graph (click to jump to a move; marks at inaccuracies, mistakes, blunders),
// each seat's figures, and the options of the decision at the move shown, with their values. The
// panel opens with each seat's biggest mistake (issue #55), one click from its move; the graph shades
// how sure each point is (the 95% interval of the win chance).
// Uses replay.js's REPLAY_ID, rMove, rMoves, rSeat, rSeatName and load().
"use strict";

const RV_SVG_NS = "http://www.w3.org/2000/svg";
const REVIEW_POLL_MS = 1500;
const RV_MISTAKES = ["inaccuracy", "mistake", "blunder"];
// Each class's sign beside its colour (chess's annotation marks, "∞" unclear and "=" equal among them):
// told apart without colour too.
const RV_SIGN = { best: "★", good: "✓", inaccuracy: "?!", mistake: "?", blunder: "??", unclear: "∞", even: "=", forced: "→" };
let rvAnswer = null; // the server's last answer (GET /api/tables/{id}/review)
let rvReview = null; // the review once done
let rvByMove = new Map(); // move -> its decision
let rvPoll = null;

function rvSvg(tag, attrs, ...children) {
  const node = document.createElementNS(RV_SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value != null) node.setAttribute(key, String(value));
  }
  children.forEach((child) => node.append(child instanceof Node ? child : document.createTextNode(String(child))));
  return node;
}

// An option in words: its Japanese text, else its English words where the review gives them (a code
// such as Hangover's "play R4^" is the command, not words), else its text; never its action number.
function rvOptionText(option) {
  if (LANG === "ja" && option.text_ja) return option.text_ja;
  return option.words || option.text;
}

// The biggest mistake's (or decision's) chosen and best moves in words, as rvOptionText.
function rvMoveText(d, which) {
  if (LANG === "ja" && d[`${which}_text_ja`]) return d[`${which}_text_ja`];
  return d[`${which}_words`] || d[`${which}_text`];
}

function rvMoveName(move) {
  return fmt("moveN", { move });
}

// Points of win chance lost (0.073 -> "7.3"); an interval's low end below 0 (the move may have been
// no worse) is said as 0: a loss is never negative.
function rvPoints(x) {
  return (Math.max(0, x) * 100).toFixed(1);
}

// Go to a move from a button of the review: the autoplay stops there.
function rvJump(move) {
  stopAutoplay();
  load(move);
}

// The biggest mistake's button, at the top of the review under the board: the board is brought into
// view too, to show the position where it was made.
function rvJumpToBoard(move) {
  rvJump(move);
  const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  document.getElementById("replay-board").scrollIntoView({ block: "start", behavior: still ? "auto" : "smooth" });
}

function rvRequest(method) {
  const options = method === "POST" ? { method, headers: { "Content-Type": "application/json" }, body: "{}" } : {};
  return api(`/api/tables/${encodeURIComponent(REPLAY_ID)}/review`, options);
}

function rvTook(answer) {
  rvAnswer = answer;
  if (answer.status === "done" && answer.review) {
    rvReview = answer.review;
    rvByMove = new Map(rvReview.decisions.map((d) => [d.move, d]));
  }
  if (rvPoll != null) clearTimeout(rvPoll);
  rvPoll = answer.status === "queued" || answer.status === "running" ? setTimeout(pollReview, REVIEW_POLL_MS) : null;
  drawReview();
}

async function pollReview() {
  rvPoll = null;
  try {
    rvTook(await rvRequest("GET"));
  } catch (e) {
    rvPoll = setTimeout(pollReview, REVIEW_POLL_MS * 2); // a passing failure: ask again, later
  }
}

async function askReview() {
  const button = document.getElementById("review-ask");
  if (button) button.disabled = true;
  try {
    rvTook(await rvRequest("POST"));
  } catch (e) {
    rvAnswer = { status: "refused", error: String(e.message || e) };
    drawReview();
  }
}

async function setupReview(table) {
  if (table.status !== "over") return; // only a finished game is reviewed
  document.getElementById("review-panel").hidden = false;
  let resized = null;
  window.addEventListener("resize", () => {
    clearTimeout(resized);
    resized = setTimeout(drawReview, 150);
  });
  try {
    rvTook(await rvRequest("GET"));
  } catch (e) {
    rvAnswer = { status: "refused", error: String(e.message || e) };
    drawReview();
  }
}

// -- drawing -------------------------------------------------------------------------------------

function drawReview() {
  if (!rvAnswer) return;
  const focused = document.activeElement && document.activeElement.id; // drawn anew: focus stays there
  drawReviewState();
  const done = !!rvReview;
  document.getElementById("review-body").hidden = !done;
  document.getElementById("review-move-panel").hidden = !done;
  if (done) {
    drawReviewBiggest();
    drawReviewGraph();
    drawReviewSeats();
    drawReviewDecision();
  }
  rvKeepFocus(focused);
}

// The review's buttons are drawn anew at every move: the keyboard's focus, on one of them, stays on
// the button of the same id, or the other mistake button where that one has no mistake left (at the
// first or the last), or the replay's own step button; never the page's body.
function rvKeepFocus(id) {
  const active = document.activeElement;
  if (!id || (active && active !== document.body && active.isConnected)) return;
  const usable = (node) => node && !node.disabled && !node.hidden && node.checkVisibility();
  const order = [id];
  if (id === "review-next-mistake") order.push("review-prev-mistake", "replay-next");
  else if (id === "review-prev-mistake") order.push("review-next-mistake", "replay-prev");
  else order.push("replay-next");
  const target = order.map((k) => document.getElementById(k)).find(usable);
  if (target) target.focus({ preventScroll: true });
}

function drawReviewState() {
  const box = clear(document.getElementById("review-state"));
  const status = rvAnswer.status;
  if (status === "done") {
    const r = rvReview.review;
    box.append(el("p", { class: "muted small" }, fmt("reviewAbout", { deals: r.deals })));
    return;
  }
  if (status === "queued" || status === "running") {
    const total = rvAnswer.total || 0;
    const text = status === "queued" || !total ? t("reviewQueued") : fmt("reviewRunning", { done: rvAnswer.done, total });
    box.append(
      el("p", { role: "status" }, text),
      el("progress", { id: "review-progress", max: String(total || 1), value: status === "running" && total ? String(rvAnswer.done) : null }),
    );
    return;
  }
  if (status === "failed" || status === "refused") {
    box.append(el("p", { class: "error" }, `${t("reviewFailed")} ${rvAnswer.error || ""}`));
  }
  box.append(
    el("p", { class: "muted small" }, t("reviewHelp")),
    el("button", { type: "button", id: "review-ask", class: "primary", onclick: askReview }, status === "none" ? t("reviewAsk") : t("reviewRetry")),
  );
}

// The panel's first word: the biggest mistake of the seat chosen above the board (of each seat when
// all are shown): the move, what was played, what was better, what it cost, and a button to its move.
function drawReviewBiggest() {
  const box = clear(document.getElementById("review-biggest"));
  const chosen = rSeat === "all" ? null : Number(rSeat);
  const list = el("ul", { class: "rv-biggest-list" });
  for (const s of rvReview.seats) if (chosen == null || s.seat === chosen) list.append(rvBiggestItem(s));
  box.append(el("h3", { class: "rv-sub" }, t("biggestTitle")), list);
}

function rvBiggestItem(s) {
  const b = rvBiggest(s);
  const who = el("strong", { class: "rv-who" }, rSeatName(s.seat));
  if (!b) {
    const judged = s.judged ?? 0;
    const text = judged > 1 ? fmt("biggestNone", { judged }) : judged === 1 ? t("biggestNoneOne") : t("biggestNoneJudged");
    return el("li", { class: "rv-clean", dataset: { seat: s.seat } }, who, " ", el("span", { class: "rv-said" }, text));
  }
  const said = fmt("biggestOne", {
    move: b.move,
    chosen: rvMoveText(b, "chosen"),
    best: rvMoveText(b, "best"),
    points: rvPoints(b.loss),
    low: rvPoints(b.loss_low),
    high: rvPoints(b.loss_high),
  });
  return el(
    "li",
    { dataset: { seat: s.seat, move: b.move } },
    el("span", { class: `rv-class rv-${b.class}` }, `${RV_SIGN[b.class] || ""} ${t("cls_" + b.class)}`),
    " ",
    who,
    " ",
    el("span", { class: "rv-said" }, said),
    " ",
    el("button", { type: "button", class: "rv-jump", id: `review-biggest-${s.seat}`, onclick: () => rvJumpToBoard(b.move) }, fmt("biggestJump", { move: b.move })),
  );
}

// A seat's biggest mistake as the server says it; a review kept from before it said one: the largest
// loss among the seat's inaccuracies, mistakes and blunders.
function rvBiggest(s) {
  if (s.biggest_mistake !== undefined) return s.biggest_mistake;
  const mine = rvReview.decisions.filter((d) => d.seat === s.seat && RV_MISTAKES.includes(d.class));
  return mine.reduce((worst, d) => (!worst || d.loss > worst.loss ? d : worst), null);
}

// The win-chance graph: x the move (0 to the game's length), y the seat's win chance at its own
// decisions (the best option's value), one line per seat, told apart by colour and dash pattern.
function drawReviewGraph() {
  const box = clear(document.getElementById("review-graph"));
  const width = Math.max(280, Math.floor(box.clientWidth || 600));
  const phone = width < 520;
  const height = phone ? 190 : 210;
  const left = 38;
  const right = 34;
  const top = 14;
  const bottom = 24;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const moves = Math.max(1, rvReview.actions);
  const x = (move) => left + (move / moves) * plotW;
  const y = (chance) => top + (1 - chance) * plotH;
  const graph = rvSvg("svg", {
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    class: "rv-svg",
    role: "img",
    "aria-label": `${t("winChance")}: ${rvReview.seats.map((s) => `${rSeatName(s.seat)} ${percent(rvLastChance(s.seat))}`).join(", ")}`,
  });
  graph.append(rvSvg("rect", { x: left, y: top, width: plotW, height: plotH, class: "rv-plot" }));
  for (const chance of [0, 0.25, 0.5, 0.75, 1]) {
    graph.append(rvSvg("line", { x1: left, x2: left + plotW, y1: y(chance), y2: y(chance), class: chance === 0.5 ? "rv-grid rv-half" : "rv-grid" }));
    if (chance % 0.5 === 0) graph.append(rvSvg("text", { x: left - 5, y: y(chance) + 4, class: "rv-axis", "text-anchor": "end" }, percent(chance)));
  }
  const step = rvStep(moves, phone ? 4 : 8);
  for (let m = 0; m <= moves; m += step) {
    graph.append(rvSvg("text", { x: x(m), y: height - 7, class: "rv-axis", "text-anchor": "middle" }, String(m)));
  }
  graph.append(rvSvg("text", { x: left + 4, y: top - 3, class: "rv-axis" }, t("winChance")));
  const chosen = rSeat === "all" ? null : Number(rSeat);
  const ends = []; // each line's P-number, at its last point
  const order = rvReview.seats.map((s) => s.seat).sort((a, b) => (a === chosen) - (b === chosen)); // the chosen seat on top
  // How sure each point is: a band from the low to the high end of its 95% interval, behind every
  // line; the chosen seat's alone when one is chosen (four overlapping bands would say nothing).
  let banded = false;
  for (const seat of order) {
    const mine = rvReview.decisions.filter((d) => d.seat === seat && d.win_low != null && d.win_high != null);
    if (!mine.length || (chosen != null && seat !== chosen)) continue;
    const upper = mine.map((d) => `${x(d.move).toFixed(1)},${y(d.win_high).toFixed(1)}`);
    const lower = mine.map((d) => `${x(d.move).toFixed(1)},${y(d.win_low).toFixed(1)}`).reverse();
    const faint = chosen == null ? " rv-band-faint" : "";
    graph.append(rvSvg("polygon", { points: [...upper, ...lower].join(" "), class: `rv-band rv-f${seat % 6}${faint}`, "data-seat": seat }));
    banded = true;
  }
  for (const seat of order) {
    const mine = rvReview.decisions.filter((d) => d.seat === seat);
    if (!mine.length) continue;
    const dim = chosen != null && seat !== chosen ? " rv-dim" : "";
    const points = mine.map((d) => `${x(d.move).toFixed(1)},${y(d.win_chance).toFixed(1)}`).join(" ");
    graph.append(rvSvg("polyline", { points, class: `rv-line rv-s${seat % 6}${dim}` }));
    const last = mine[mine.length - 1];
    ends.push({ seat, dim, x: x(last.move) + 4, y: y(last.win_chance) + 4 });
    for (const d of mine.filter((d) => RV_MISTAKES.includes(d.class))) {
      const mark = rvSvg("g", { class: `rv-mark rv-${d.class}${dim}` });
      mark.append(
        rvSvg("circle", { cx: x(d.move), cy: y(d.win_chance), r: d.class === "blunder" ? 5 : 4 }),
        rvSvg("text", { x: x(d.move), y: y(d.win_chance) - 8, "text-anchor": "middle" }, RV_SIGN[d.class]),
        rvSvg("title", {}, `${rvMoveName(d.move)}: ${rSeatName(d.seat)} ${t("cls_" + d.class)}`),
      );
      graph.append(mark);
    }
  }
  // Lines that end near one another: their numbers are moved apart, never drawn over each other.
  ends.sort((a, b) => a.y - b.y);
  ends.forEach((end, i) => {
    for (const other of ends.slice(0, i)) {
      if (Math.abs(other.x - end.x) < 24 && end.y - other.y < 11) end.y = other.y + 11;
    }
  });
  const lowest = top + plotH + 4; // and kept above the move numbers
  const over = Math.max(0, ...ends.map((end) => end.y - lowest));
  for (const end of ends) {
    const low = end.y > lowest - 40 && ends.some((o) => o.y > lowest && Math.abs(o.x - end.x) < 24);
    const y0 = low ? end.y - over : end.y;
    graph.append(rvSvg("text", { x: end.x, y: y0, class: `rv-end rv-t${end.seat % 6}${end.dim}` }, `P${end.seat}`));
  }
  graph.append(rvSvg("line", { x1: x(rMove), x2: x(rMove), y1: top, y2: top + plotH, class: "rv-cursor", id: "review-cursor" }));
  // Click (or tap) anywhere on the graph: the position at the nearest move.
  graph.addEventListener("click", (event) => {
    const rect = graph.getBoundingClientRect();
    const px = ((event.clientX - rect.left) / rect.width) * width;
    const move = Math.round(((px - left) / plotW) * moves);
    stopAutoplay();
    load(Math.max(0, Math.min(moves, move)));
  });
  box.append(graph);
  drawReviewLegend(banded);
}

function rvLastChance(seat) {
  const mine = rvReview.decisions.filter((d) => d.seat === seat);
  return mine.length ? mine[mine.length - 1].win_chance : 0;
}

function rvStep(moves, ticks) {
  const raw = moves / ticks;
  for (const step of [1, 2, 5, 10, 20, 25, 50, 100, 200, 500]) if (step >= raw) return step;
  return 1000;
}

function drawReviewLegend(banded) {
  const legend = clear(document.getElementById("review-legend"));
  for (const s of rvReview.seats) {
    const sample = rvSvg("svg", { viewBox: "0 0 28 10", width: 28, height: 10, "aria-hidden": "true" });
    sample.append(rvSvg("line", { x1: 1, x2: 27, y1: 5, y2: 5, class: `rv-line rv-s${s.seat % 6}` }));
    legend.append(el("li", {}, sample, ` ${rSeatName(s.seat)}`));
  }
  for (const cls of RV_MISTAKES) {
    const sample = rvSvg("svg", { viewBox: "0 0 14 14", width: 14, height: 14, "aria-hidden": "true" });
    sample.append(rvSvg("circle", { cx: 7, cy: 7, r: 4, class: `rv-dot rv-${cls}` }));
    legend.append(el("li", { class: "rv-key" }, sample, ` ${RV_SIGN[cls]} ${t("cls_" + cls)}`));
  }
  if (banded) {
    const chosen = rSeat === "all" ? 0 : Number(rSeat);
    const sample = rvSvg("svg", { viewBox: "0 0 28 12", width: 28, height: 12, "aria-hidden": "true" });
    sample.append(rvSvg("rect", { x: 1, y: 1, width: 26, height: 10, class: `rv-band rv-f${chosen % 6}` }));
    legend.append(el("li", { class: "rv-key", id: "review-band-key" }, sample, ` ${t("bandHelp")}`));
  }
}

// Each seat's figures (docs/review.md, "What a seat says"), and buttons to its mistakes.
function drawReviewSeats() {
  const body = clear(document.getElementById("review-seats"));
  for (const s of rvReview.seats) {
    const c = s.classes;
    const row = el(
      "tr",
      { class: String(s.seat) === rSeat ? "mine" : null },
      el("td", {}, rSeatName(s.seat)),
      el("td", { class: "score" }, s.accuracy == null ? "–" : s.accuracy.toFixed(1), el("span", { class: "rv-judged" }, rvJudged(s))),
      el("td", { class: "score" }, s.mean_loss == null ? "–" : (s.mean_loss * 100).toFixed(1)),
      el("td", { class: "score" }, `${c.inaccuracy} / ${c.mistake} / ${c.blunder}`),
      el("td", { class: "score" }, s.bot_agreement == null ? "–" : percent(s.bot_agreement)),
    );
    body.append(row);
  }
  const help = t("accuracyHelp");
  document.querySelectorAll("#review-body th[data-i18n='accuracy']").forEach((th) => th.setAttribute("title", help));
  const mistakes = rvReview.decisions.filter((d) => RV_MISTAKES.includes(d.class));
  const before = [...mistakes].reverse().find((d) => d.move < rMove);
  const after = mistakes.find((d) => d.move > rMove);
  const jump = (id, label, d) => el("button", { type: "button", id, disabled: !d, onclick: d ? () => rvJump(d.move) : null }, label);
  clear(document.getElementById("review-jumps")).append(
    jump("review-prev-mistake", `◀ ${t("prevMistake")}`, before),
    jump("review-next-mistake", `${t("nextMistake")} ▶`, after),
  );
}

// "12/20 judged", under the accuracy it is taken over: the decisions judged among those not forced
// (an unclear or even one is not judged).
function rvJudged(s) {
  if (s.judged == null) return ""; // a review kept from before it counted them
  return fmt("judgedOf", { judged: s.judged, total: s.judged + (s.not_judged ?? 0) });
}

// The decision taken at the move shown (position k: before the record's action k).
function drawReviewDecision() {
  const box = clear(document.getElementById("review-move"));
  const d = rvByMove.get(rMove);
  if (!d) {
    box.append(el("p", { class: "muted small" }, rMove >= rvReview.actions ? t("reviewEnd") : t("reviewNoDecision")));
    return;
  }
  const best = d.options.find((o) => o.action === d.best);
  box.append(
    el(
      "p",
      { class: "rv-head" },
      el("span", { class: `rv-class rv-${d.class}` }, `${RV_SIGN[d.class] || ""} ${t("cls_" + d.class)}`),
      " ",
      el("strong", {}, rSeatName(d.seat)),
      ` — ${t("winChance")} ${percent(d.win_chance)}`,
      d.win_low != null && d.win_high != null ? el("span", { class: "muted" }, ` (${percent(d.win_low)}–${percent(d.win_high)})`) : null,
    ),
  );
  const said = rvDecisionSaid(d, best);
  if (said) box.append(el("p", { class: "small rv-said", id: "review-said" }, said));
  const list = el("ol", { class: "rv-options", "aria-label": t("reviewOptions") });
  // The best first (an option dropped from the race early may show a higher mean, on fewer deals),
  // then by win chance.
  const sorted = [...d.options].sort((a, b) => (b.action === d.best) - (a.action === d.best) || b.value - a.value || a.action - b.action);
  const most = Math.max(...d.options.map((o) => o.deals || 0));
  for (const o of sorted) {
    // An option dropped from the race early was played on fewer deals: said beside it.
    const fewer = o.deals && o.deals < most ? el("span", { class: "rv-deals muted" }, fmt("optionDeals", { n: o.deals })) : null;
    const range = fmt("optionRange", { value: percent(o.value), low: percent(o.low), high: percent(o.high), n: o.deals ?? d.deals });
    const bar = el("span", { class: "rv-bar" }, el("span", { class: "rv-fill", style: { width: percent(o.value) } }));
    const tags = [];
    if (o.action === d.best && d.class !== "even") tags.push(el("span", { class: "rv-tag rv-tag-best" }, t("bestMove")));
    if (o.action === d.chosen) tags.push(el("span", { class: "rv-tag rv-tag-played" }, t("played")));
    list.append(
      el(
        "li",
        { class: o.action === d.chosen ? "rv-played" : null },
        el("span", { class: "rv-text" }, rvOptionText(o), ...tags, fewer),
        bar,
        el("span", { class: "rv-value", title: range }, percent(o.value)),
      ),
    );
  }
  box.append(el("p", { class: "small muted" }, t("reviewOptions")), list);
}

// What the decision cost, in words: an unclear one by its loss interval (the deals could not tell
// whether it lost), an even one as nothing to judge, any other move that was not the best by its loss.
function rvDecisionSaid(d, best) {
  const low = rvPoints(d.loss_low);
  const high = rvPoints(d.loss_high);
  if (d.class === "unclear") return fmt("reviewUnclear", { low, high });
  if (d.class === "even") return t("reviewEven");
  if (d.class === "forced" || d.chosen === d.best) return "";
  return fmt("reviewLoss", { points: rvPoints(d.loss), best: best ? rvOptionText(best) : rvMoveText(d, "best"), low, high });
}
