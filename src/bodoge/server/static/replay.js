// The replay viewer: step through a finished game's record, from any seat's view or with all cards
// shown. The server computes the views (GET /api/tables/{id}/replay?move=k&seat=p|all).
"use strict";

const REPLAY_ID = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
let rTable = null;
let rMove = 0;
let rMoves = 0;
let rSeat = "0";
let rData = null;
let rToken = 0;

function rSeatName(p) {
  const info = rTable && rTable.seats[p];
  return info && info.name && info.name !== `P${p}` ? `P${p} ${info.name}` : `P${p}`;
}

function rNotice(text) {
  const node = document.getElementById("notice");
  node.textContent = text || "";
  node.hidden = !text;
}

async function load(move) {
  rMove = Math.max(0, Math.min(rMoves || move, move));
  const token = ++rToken;
  try {
    const data = await api(
      `/api/tables/${encodeURIComponent(REPLAY_ID)}/replay?move=${rMove}&seat=${encodeURIComponent(rSeat)}`,
    );
    if (token !== rToken) return;
    rData = data;
    rMoves = data.moves;
    rNotice("");
    draw();
  } catch (e) {
    rNotice(String(e.message || e));
  }
}

function draw() {
  if (!rData) return;
  const slider = document.getElementById("replay-move");
  slider.max = String(rMoves);
  slider.value = String(rData.move);
  const pos = document.getElementById("replay-pos");
  pos.textContent = `${t("move")} ${rData.move} / ${rMoves}`;
  pos.dataset.move = String(rData.move);
  const box = clear(document.getElementById("replay-board"));
  const noop = () => {};
  const views = rData.views || [rData.view];
  views.forEach((view) => {
    const drawn = renderBoard(rData.game, view, { seatName: rSeatName, send: noop, setPending: noop, readOnly: true });
    const title = view.seat == null ? t("spectating") : rSeatName(view.seat);
    box.append(el("div", { class: "replay-seat" }, rData.views ? el("div", { class: "bsec-title" }, title) : null, drawn ? drawn.node : el("pre", {}, compact(view))));
  });
  box.dataset.seat = rSeat;
  document.getElementById("replay-decision").textContent = decisionText(rData.view);
  const log = clear(document.getElementById("log"));
  (rData.view.log || []).forEach((event) => log.append(el("li", {}, eventText(event))));
  log.scrollTop = log.scrollHeight;
}

async function startReplay() {
  setupLangSwitch();
  onLangChange(() => {
    fillSeats();
    draw();
  });
  try {
    rTable = await api(`/api/tables/${encodeURIComponent(REPLAY_ID)}`);
  } catch (e) {
    rNotice(t("noTable"));
    return;
  }
  document.getElementById("title").textContent = pick(rTable.title);
  rMoves = rTable.moves;
  fillSeats();
  const seatSelect = document.getElementById("replay-seat");
  seatSelect.addEventListener("change", () => {
    rSeat = seatSelect.value;
    load(rMove);
  });
  document.getElementById("replay-first").addEventListener("click", () => load(0));
  document.getElementById("replay-prev").addEventListener("click", () => load(rMove - 1));
  document.getElementById("replay-next").addEventListener("click", () => load(rMove + 1));
  document.getElementById("replay-last").addEventListener("click", () => load(rMoves));
  document.getElementById("replay-move").addEventListener("input", (e) => load(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (e.target && e.target.tagName === "INPUT") return;
    if (e.key === "ArrowRight") load(rMove + 1);
    else if (e.key === "ArrowLeft") load(rMove - 1);
  });
  load(0);
}

function fillSeats() {
  const select = document.getElementById("replay-seat");
  if (!rTable) return;
  const value = select.value || rSeat;
  clear(select);
  rTable.seats.forEach((_, p) => select.append(el("option", { value: String(p) }, rSeatName(p))));
  select.append(el("option", { value: "all" }, t("allCards")));
  select.value = value;
}

startReplay();
