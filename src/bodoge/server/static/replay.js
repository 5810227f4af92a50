// The replay viewer: step through a finished game's record, from any seat's view or with all cards
// shown on one board, by hand or playing by itself. The server computes the views (GET
// /api/tables/{id}/replay?move=k&seat=p|all); each step is fetched once and kept here.
"use strict";

Object.assign(STRINGS.en, {
  play: "Play",
  pause: "Pause",
  speed: "Speed",
  hands: "Every hand",
  chat: "Chat",
  running: "This game is still being played: its replay opens once it is over.",
  watchLive: "Watch it live",
});
Object.assign(STRINGS.ja, {
  play: "再生",
  pause: "一時停止",
  speed: "速さ",
  hands: "全員の手",
  chat: "チャット",
  running: "この対局はまだ続いています。終わるとリプレイを見られます。",
  watchLive: "観戦する",
});
const STEPS = new Map(); // "seat:move" -> the server's answer: a step is fetched once
const PREFETCH = 3; // steps fetched ahead of the one shown
let rTimer = null; // the autoplay's interval

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

function fetchStep(move, seat) {
  // The step's answer, from the cache after the first time (a promise, so a step asked twice while
  // it loads is fetched once).
  const key = `${seat}:${move}`;
  if (!STEPS.has(key)) {
    const url = `/api/tables/${encodeURIComponent(REPLAY_ID)}/replay?move=${move}&seat=${encodeURIComponent(seat)}`;
    const pending = api(url);
    pending.catch(() => STEPS.delete(key)); // a failure is asked again next time
    STEPS.set(key, pending);
  }
  return STEPS.get(key);
}

async function load(move) {
  rMove = Math.max(0, Math.min(rMoves || move, move));
  const token = ++rToken;
  const seat = rSeat;
  try {
    const data = await fetchStep(rMove, seat);
    if (token !== rToken) return;
    rData = data;
    rMoves = data.moves;
    rNotice("");
    draw();
    for (let k = 1; k <= PREFETCH && rMove + k <= rMoves; k += 1) fetchStep(rMove + k, seat).catch(() => {});
  } catch (e) {
    stopAutoplay();
    rNotice(String(e.message || e));
  }
}

function autoplayDelay() {
  return 800 / Number(document.getElementById("replay-speed").value || 1);
}

function startAutoplay() {
  if (rMove >= rMoves) load(0);
  stopAutoplay();
  rTimer = setInterval(() => {
    if (rMove >= rMoves) stopAutoplay();
    else load(rMove + 1);
  }, autoplayDelay());
  renderPlayButton();
}

function stopAutoplay() {
  if (rTimer != null) clearInterval(rTimer);
  rTimer = null;
  renderPlayButton();
}

function renderPlayButton() {
  const button = document.getElementById("replay-play");
  button.textContent = rTimer == null ? `▶ ${t("play")}` : `⏸ ${t("pause")}`;
  button.setAttribute("aria-pressed", rTimer == null ? "false" : "true");
}

// Every seat's own things that the spectator does not see (hands, snack cards, own tokkuri faces),
// beside the one board: with `seat=all`, one board shows the table and this shows every hand.
function handsOf(data) {
  const open = data.view;
  const rows = [];
  (data.views || []).forEach((view, p) => {
    const own = Object.entries(view).filter(
      ([key, value]) =>
        value != null && !["legal_actions", "log", "seat"].includes(key) && JSON.stringify(value) !== JSON.stringify(open[key]),
    );
    if (own.length) rows.push(el("li", {}, el("strong", {}, `${rSeatName(p)}: `), own.map(([key, value]) => `${key.replace(/_/g, " ")} ${compact(value)}`).join(" · ")));
  });
  return rows.length ? section(t("hands"), el("ul", { class: "hands" }, rows)) : null;
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
  // One board: the seat's view, or with every card shown the table as all see it and every hand.
  const view = rData.view;
  const drawn = renderBoard(rData.game, view, { seatName: rSeatName, send: noop, setPending: noop, readOnly: true });
  box.append(el("div", { class: "replay-seat" }, drawn ? drawn.node : el("pre", {}, compact(view)), rData.views ? handsOf(rData) : null));
  box.dataset.seat = rSeat;
  const chat = clear(document.getElementById("replay-chat"));
  (rData.chat || []).forEach((line) => chat.append(el("li", {}, el("strong", {}, `${line.name}: `), line.text)));
  document.getElementById("replay-chat-panel").hidden = !(rData.chat || []).length;
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
    renderPlayButton();
  });
  try {
    rTable = await api(`/api/tables/${encodeURIComponent(REPLAY_ID)}`);
  } catch (e) {
    rNotice(t("noTable"));
    return;
  }
  if (rTable.status === "playing") {
    // No replay of a game in play (it would show the deal to its players): say so, and where to watch.
    const node = document.getElementById("notice");
    clear(node).append(t("running"), " ", el("a", { href: `/t/${encodeURIComponent(REPLAY_ID)}`, id: "watch-live" }, t("watchLive")));
    node.hidden = false;
    document.getElementById("title").textContent = pick(rTable.title);
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
  document.getElementById("replay-play").addEventListener("click", () => (rTimer == null ? startAutoplay() : stopAutoplay()));
  document.getElementById("replay-speed").addEventListener("change", () => rTimer != null && startAutoplay());
  renderPlayButton();
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
