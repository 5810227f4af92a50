// The replay viewer: step through a finished game's record, from any seat's view or with all cards
// shown on one board. The server computes the views (GET /api/tables/{id}/replay?move=k&seat=p|all);
// every answer is kept, so stepping back and forth, and autoplay, fetch each position once.
"use strict";

const REPLAY_ID = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const PREFETCH = 3; // positions fetched ahead of the one shown
const STEP_MS = 1000; // one autoplay step at speed 1
let rTable = null;
let rMove = 0;
let rMoves = 0;
let rSeat = "all";
let rData = null;
let rToken = 0;
let rTimer = null;
let rProblem = ""; // an i18n key: why no position can be shown
const rCache = new Map(); // `${seat}:${move}` -> promise of the server's answer

function rPersonName(p) {
  // The name a seat goes by, no two alike, as at the table (common.js's seatNames).
  return rTable && rTable.seats[p] ? seatNames(rTable.seats)[p] : `P${p}`;
}

function rSeatName(p) {
  // A seat as people read it: "P1 Heuristic bot B", "P0 Aki" (P0 alone where it has no name).
  const name = rPersonName(p);
  return name === `P${p}` ? name : `P${p} ${name}`;
}

function rNamed(text) {
  // A game's line names seats P0, P1, ...: the page says their names, as the table page does.
  if (!rTable || !text) return text;
  const names = seatNames(rTable.seats);
  return text.replace(/\bP(\d)(?!\d)/g, (all, d) => (Number(d) < names.length ? names[Number(d)] : all));
}

// One position of the game as a seat saw it (api's error keeps the status: 409, a game in play).
function fetchPosition(seat, move) {
  return api(`/api/tables/${encodeURIComponent(REPLAY_ID)}/replay?move=${move}&seat=${encodeURIComponent(seat)}`);
}

function position(seat, move) {
  const key = `${seat}:${move}`;
  if (!rCache.has(key)) {
    const answer = fetchPosition(seat, move);
    // A failed fetch is forgotten, so a later look tries again.
    answer.catch(() => rCache.delete(key));
    rCache.set(key, answer);
  }
  return rCache.get(key);
}

function prefetch(move) {
  for (let k = move + 1; k <= Math.min(rMoves, move + PREFETCH); k++) position(rSeat, k).catch(() => {});
}

async function load(move) {
  rMove = Math.max(0, Math.min(rMoves, move));
  const token = ++rToken;
  try {
    const data = await position(rSeat, rMove);
    if (token !== rToken) return;
    rData = data;
    rMoves = data.moves;
    rProblem = "";
    notice("");
    draw();
    prefetch(rMove);
  } catch (e) {
    if (token !== rToken) return;
    stopAutoplay();
    rProblem = e.status === 409 ? "replayUnfinished" : "";
    notice(rProblem ? t(rProblem) : String(e.message || e));
    if (rProblem) {
      // A game in play: where to watch it instead.
      const link = el("a", { href: `/t/${encodeURIComponent(REPLAY_ID)}`, id: "watch-live" }, t("watchLive"));
      document.getElementById("notice").append(" ", link);
    }
  }
}

function drawBoard() {
  const before = boardSnapshot(document.getElementById("replay-board")); // the pieces' places, for the motion
  const box = clear(document.getElementById("replay-board"));
  const noop = () => {};
  const opts = { seatName: rSeatName, send: noop, setPending: noop, readOnly: true };
  const omniscient = !!rData.views;
  const view = omniscient ? omniscientView(rData.game, rData.view, rData.views) : rData.view;
  const drawn = renderBoard(rData.game, view, omniscient ? { ...opts, seatViews: rData.views } : opts);
  box.append(drawn ? drawn.node : el("pre", {}, compact(view)));
  animateBoard(before, box);
  box.dataset.seat = rSeat;
}

function draw() {
  if (!rData) return;
  const slider = document.getElementById("replay-move");
  slider.max = String(rMoves);
  slider.value = String(rData.move);
  const pos = document.getElementById("replay-pos");
  pos.textContent = `${t("move")} ${rData.move} / ${rMoves}`;
  pos.dataset.move = String(rData.move);
  drawBoard();
  const chat = clear(document.getElementById("replay-chat"));
  (rData.chat || []).forEach((line) => chat.append(el("li", {}, el("strong", {}, `${line.name}: `), line.text)));
  document.getElementById("replay-chat-panel").hidden = !(rData.chat || []).length;
  document.getElementById("replay-decision").textContent = rNamed(decisionText(rData.view));
  const log = clear(document.getElementById("log"));
  (rData.view.log || []).forEach((event) => log.append(el("li", {}, rNamed(eventText(event)))));
  log.scrollTop = log.scrollHeight;
  drawReview(); // review.js: the graph's cursor, this move's decision
}

// Autoplay: one move per step at the chosen speed; it stops at the last move.
function speed() {
  return Number(document.getElementById("replay-speed").value) || 1;
}

function playing() {
  return rTimer != null;
}

function stopAutoplay() {
  if (rTimer != null) clearTimeout(rTimer);
  rTimer = null;
  drawPlayButton();
}

function autoplayStep() {
  if (rMove >= rMoves) return stopAutoplay();
  load(rMove + 1).then(() => {
    if (!playing()) return;
    if (rMove >= rMoves) return stopAutoplay(); // at the last move now, not a step later
    rTimer = setTimeout(autoplayStep, STEP_MS / speed());
  });
}

function toggleAutoplay() {
  if (playing()) return stopAutoplay();
  if (rMove >= rMoves) load(0);
  rTimer = setTimeout(autoplayStep, STEP_MS / speed());
  drawPlayButton();
}

function drawPlayButton() {
  const button = document.getElementById("replay-play");
  button.textContent = playing() ? t("pause") : t("play");
  button.setAttribute("aria-pressed", playing() ? "true" : "false");
}

async function startReplay() {
  setupLangSwitch();
  onLangChange(() => {
    fillSeats();
    drawPlayButton();
    if (rProblem) notice(t(rProblem));
    draw();
  });
  drawPlayButton();
  try {
    rTable = await api(`/api/tables/${encodeURIComponent(REPLAY_ID)}`);
  } catch (e) {
    rProblem = "noTable";
    notice(t("noTable"));
    return;
  }
  document.getElementById("title").textContent = pick(rTable.title);
  // The game's board (the raw view is drawn instead for a game without one), loaded while the page is set up.
  const board = loadBoard(rTable.game).catch((e) => console.warn(e.message));
  rMoves = rTable.moves;
  fillSeats();
  const seatSelect = document.getElementById("replay-seat");
  seatSelect.addEventListener("change", () => {
    rSeat = seatSelect.value;
    load(rMove);
  });
  const manual = (move) => () => {
    stopAutoplay();
    load(move());
  };
  document.getElementById("replay-first").addEventListener("click", manual(() => 0));
  document.getElementById("replay-prev").addEventListener("click", manual(() => rMove - 1));
  document.getElementById("replay-next").addEventListener("click", manual(() => rMove + 1));
  document.getElementById("replay-last").addEventListener("click", manual(() => rMoves));
  setupReview(rTable);
  document.getElementById("replay-play").addEventListener("click", toggleAutoplay);
  document.getElementById("replay-move").addEventListener("input", (e) => manual(() => Number(e.target.value))());
  document.addEventListener("keydown", (e) => {
    if (e.target && ["INPUT", "SELECT"].includes(e.target.tagName)) return;
    if (e.key === "ArrowRight") manual(() => rMove + 1)();
    else if (e.key === "ArrowLeft") manual(() => rMove - 1)();
  });
  await board;
  load(0);
}

function fillSeats() {
  const select = document.getElementById("replay-seat");
  if (!rTable) return;
  clear(select);
  select.append(el("option", { value: "all" }, t("allCards")));
  rTable.seats.forEach((_, p) => select.append(el("option", { value: String(p) }, rSeatName(p))));
  select.value = rSeat;
}

startReplay();
