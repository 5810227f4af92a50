// The replay page's game review (issue #33; docs/review.md): ask the server for it
// (POST /api/tables/{id}/review), follow its progress (GET), then draw each seat's win chance under
// the board as an SVG graph (click to jump to a move; marks at inaccuracies, mistakes, blunders),
// each seat's figures, and the options of the decision at the move shown, with their values.
// Uses replay.js's REPLAY_ID, rMove, rMoves, rSeat, rSeatName and load().
"use strict";

const RV_SVG_NS = "http://www.w3.org/2000/svg";
const REVIEW_POLL_MS = 1500;
const RV_MISTAKES = ["inaccuracy", "mistake", "blunder"];
// Each class's sign beside its colour (chess's annotation marks): told apart without colour too.
const RV_SIGN = { best: "★", good: "✓", inaccuracy: "?!", mistake: "?", blunder: "??", forced: "→" };
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

function rvFill(template, values) {
  return template.replace(/\{(\w+)\}/g, (_, key) => String(values[key]));
}

function rvPercent(x) {
  return `${Math.round(x * 100)}%`;
}

function rvOptionText(option) {
  return LANG === "ja" && option.text_ja ? option.text_ja : option.text;
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
  drawReviewState();
  const done = !!rvReview;
  document.getElementById("review-body").hidden = !done;
  document.getElementById("review-move-panel").hidden = !done;
  if (!done) return;
  drawReviewGraph();
  drawReviewSeats();
  drawReviewDecision();
}

function drawReviewState() {
  const box = clear(document.getElementById("review-state"));
  const status = rvAnswer.status;
  if (status === "done") {
    const r = rvReview.review;
    box.append(el("p", { class: "muted small" }, rvFill(t("reviewAbout"), { deals: r.deals })));
    return;
  }
  if (status === "queued" || status === "running") {
    const total = rvAnswer.total || 0;
    const text = status === "queued" || !total ? t("reviewQueued") : rvFill(t("reviewRunning"), { done: rvAnswer.done, total });
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
    "aria-label": `${t("winChance")}: ${rvReview.seats.map((s) => `${rSeatName(s.seat)} ${rvPercent(rvLastChance(s.seat))}`).join(", ")}`,
  });
  graph.append(rvSvg("rect", { x: left, y: top, width: plotW, height: plotH, class: "rv-plot" }));
  for (const chance of [0, 0.25, 0.5, 0.75, 1]) {
    graph.append(rvSvg("line", { x1: left, x2: left + plotW, y1: y(chance), y2: y(chance), class: chance === 0.5 ? "rv-grid rv-half" : "rv-grid" }));
    if (chance % 0.5 === 0) graph.append(rvSvg("text", { x: left - 5, y: y(chance) + 4, class: "rv-axis", "text-anchor": "end" }, rvPercent(chance)));
  }
  const step = rvStep(moves, phone ? 4 : 8);
  for (let m = 0; m <= moves; m += step) {
    graph.append(rvSvg("text", { x: x(m), y: height - 7, class: "rv-axis", "text-anchor": "middle" }, String(m)));
  }
  graph.append(rvSvg("text", { x: left + 4, y: top - 3, class: "rv-axis" }, t("winChance")));
  const chosen = rSeat === "all" ? null : Number(rSeat);
  const ends = []; // each line's P-number, at its last point
  const order = rvReview.seats.map((s) => s.seat).sort((a, b) => (a === chosen) - (b === chosen)); // the chosen seat on top
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
        rvSvg("title", {}, `${t("move")} ${d.move}: ${rSeatName(d.seat)} ${t("cls_" + d.class)}`),
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
  drawReviewLegend();
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

function drawReviewLegend() {
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
      el("td", { class: "score" }, s.accuracy == null ? "–" : s.accuracy.toFixed(1)),
      el("td", { class: "score" }, s.mean_loss == null ? "–" : (s.mean_loss * 100).toFixed(1)),
      el("td", { class: "score" }, `${c.inaccuracy} / ${c.mistake} / ${c.blunder}`),
      el("td", { class: "score" }, s.bot_agreement == null ? "–" : rvPercent(s.bot_agreement)),
    );
    body.append(row);
  }
  const mistakes = rvReview.decisions.filter((d) => RV_MISTAKES.includes(d.class));
  const before = [...mistakes].reverse().find((d) => d.move < rMove);
  const after = mistakes.find((d) => d.move > rMove);
  const jump = (id, label, d) =>
    el("button", { type: "button", id, disabled: !d, onclick: d ? () => { stopAutoplay(); load(d.move); } : null }, label);
  clear(document.getElementById("review-jumps")).append(
    jump("review-prev-mistake", `◀ ${t("prevMistake")}`, before),
    jump("review-next-mistake", `${t("nextMistake")} ▶`, after),
  );
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
      el("span", { class: `rv-class rv-${d.class}` }, `${RV_SIGN[d.class]} ${t("cls_" + d.class)}`),
      " ",
      el("strong", {}, rSeatName(d.seat)),
      ` — ${t("winChance")} ${rvPercent(d.win_chance)}`,
    ),
  );
  if (d.class !== "forced" && d.chosen !== d.best) {
    box.append(
      el("p", { class: "small" }, rvFill(t("reviewLoss"), { points: (d.loss * 100).toFixed(1), best: rvOptionText(best), low: (d.loss_low * 100).toFixed(1), high: (d.loss_high * 100).toFixed(1) })),
    );
  }
  const list = el("ol", { class: "rv-options", "aria-label": t("reviewOptions") });
  const sorted = [...d.options].sort((a, b) => b.value - a.value || a.action - b.action);
  for (const o of sorted) {
    const bar = el("span", { class: "rv-bar" }, el("span", { class: "rv-fill", style: { width: rvPercent(o.value) } }));
    const tags = [];
    if (o.action === d.best) tags.push(el("span", { class: "rv-tag rv-tag-best" }, t("bestMove")));
    if (o.action === d.chosen) tags.push(el("span", { class: "rv-tag rv-tag-played" }, t("played")));
    list.append(
      el(
        "li",
        { class: o.action === d.chosen ? "rv-played" : null },
        el("span", { class: "rv-text" }, rvOptionText(o), ...tags),
        bar,
        el("span", { class: "rv-value", title: `${rvPercent(o.low)}–${rvPercent(o.high)}` }, rvPercent(o.value)),
      ),
    );
  }
  box.append(el("p", { class: "small muted" }, t("reviewOptions")), list);
}
