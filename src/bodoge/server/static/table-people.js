// The people at a table (table.js's page): their names, the Players list, presence and stand-ins,
// the clocks, the chat and, on a phone, the sheets that fold the log and the chat away. Uses
// table.js's state (`table`, `seat`, `view`, ...); its functions run only once the page has started.
"use strict";

let seatNamesKept = { seats: null, lang: null, names: [] }; // seatNames() of the table's seats, kept

function personName(p) {
  // The name a seat goes by, no two alike (common.js's seatNames): its person's name, a bot's
  // kind in words with a letter where there are more of it ("Heuristic bot B"), or P0.
  if (!table || !table.seats[p]) return `P${p}`;
  if (seatNamesKept.seats !== table.seats || seatNamesKept.lang !== LANG) {
    seatNamesKept = { seats: table.seats, lang: LANG, names: seatNames(table.seats) };
  }
  return seatNamesKept.names[p];
}

function seatName(p) {
  const name = personName(p);
  return name === `P${p}` ? name : `P${p} ${name}`;
}

function sayName(p) {
  // A seat as the page says it beyond the Players list (the board, the log, the live region): the
  // name the seat goes by, never a seat code: "Player 2" for a person who gave no name.
  const name = personName(p);
  return name === `P${p}` ? fmt("playerN", { n: p + 1 }) : name;
}

// Who reads the game's texts here (board-aids.js's engineWords): the seats by their names, our seat,
// the view shown. `levels`: false for the log (a tokkuri's level then is not its level now).
function speaker(levels) {
  return { name: sayName, players: table.seats.length, seat, view, levels };
}

function named(text, levels) {
  // A game's line in words: seats P0, P1, ... by their names ("P1 plays" -> "Ben plays"), Tokkuri's
  // tokkuri by owner ("T2.1" -> "Cho's tokkuri (level 4)"), a snack's "-1/+2" with a true minus.
  if (!table || !text) return text;
  return engineWords(text, speaker(levels));
}

function actionText(action) {
  // An action's words in the page's language: the engine writes both ("words": English for people;
  // "text" is the command it parses, with card codes such as R4^), put in words (named).
  return named(LANG === "ja" && action.text_ja ? action.text_ja : action.words || action.text);
}

// A name is kept in the browser only once the server has taken it (the table shows it as our seat's);
// one it refused is dropped, so that it is not sent again at every table, and the person is told why.
function nameAccepted() {
  const mine = seat != null && table && table.seats[seat];
  if (nameSent == null || !mine || mine.name !== nameSent) return;
  localStorage.setItem(MY_NAME, nameSent);
  nameSent = null;
  nameError = null;
  renderNameError();
}

function nameRefused(code) {
  if (code !== "name_rate" && nameSent != null && localStorage.getItem(MY_NAME) === nameSent) {
    localStorage.removeItem(MY_NAME);
  }
  nameError = { code, name: nameSent || "" };
  nameSent = null;
  renderNameError();
}

function renderNameError() {
  const box = document.getElementById("name-error");
  box.hidden = !nameError;
  box.textContent = nameError ? t(NAME_ERRORS[nameError.code]).replace("{name}", nameError.name) : "";
}

function renderSeats() {
  const box = clear(document.getElementById("seats"));
  if (!table) return;
  const scores = view ? view.scores : null;
  box.append(el("tr", {}, el("th", {}, t("seat")), el("th", {}, t("score")), el("th", {}, "")));
  table.seats.forEach((info, p) => {
    const tags = [];
    if (p === seat) tags.push(t("you"));
    if (info.kind === "bot") tags.push(t("bot"));
    else tags.push(info.connected ? t("connected") : t("offline"));
    if (info.away) tags.push(t("away"));
    const current = view && view.current_player === p;
    box.append(
      el(
        "tr",
        {
          class: (current ? "current " : "") + (p === seat ? "mine" : "") + (info.away ? " away" : ""),
          dataset: { seat: p, presenceSeat: p, presence: presenceOf(p) },
        },
        el("td", {}, `${current ? "▶ " : ""}${seatName(p)}`),
        el("td", { class: "score" }, scores ? compact(scores[p]) : ""),
        el("td", { class: "muted small" }, tags.join(" · "), " ", el("span", { class: "seat-clock", dataset: { seat: p } })),
      ),
    );
  });
}

function presenceOf(p) {
  // A seat's presence: a bot's seat, a person here, not here, or away (a stand-in bot plays).
  const info = table && table.seats[p];
  if (!info) return "";
  if (info.kind === "bot") return "bot";
  if (info.away) return "away";
  return info.connected ? "online" : "offline";
}

const PRESENCE_WORDS = { online: "online", offline: "offlineNow", away: "awayShort" };

function seatExtra(p) {
  // What the board's box of seat p shows beside the name (boards call opts.seatExtra): the person's
  // presence and the seat's clock, both kept up to date here without redrawing the board.
  return el(
    "span",
    { class: "seat-extra", dataset: { presenceSeat: p } },
    el("span", { class: "presence" }),
    " ",
    el("span", { class: "seat-clock", dataset: { seat: p }, role: "timer" }),
  );
}

function renderSeatMarks() {
  // Every seat's presence mark, where the board or the Players list shows one.
  document.querySelectorAll("[data-presence-seat]").forEach((node) => {
    const p = Number(node.dataset.presenceSeat);
    const presence = presenceOf(p);
    node.dataset.presence = presence;
    const mark = node.querySelector(".presence");
    if (mark) mark.textContent = PRESENCE_WORDS[presence] ? t(PRESENCE_WORDS[presence]) : "";
  });
  renderSeatClocks();
}

function renderSeatClocks() {
  // The seat clocks: the running seat's time left (amber when low, red when very low), the others'
  // reserve when the table has one.
  const clock = table && table.clock;
  const parts = clockParts();
  document.querySelectorAll(".seat-clock[data-seat]").forEach((node) => {
    const p = Number(node.dataset.seat);
    let text = "";
    let level = "";
    if (clock && parts && clock.seat === p) {
      text = clockText("clockShort", parts.turn > 0 ? parts.turn : parts.reserve);
      if (parts.turn <= 0) text = clockText("reserveShort", parts.reserve);
      level = parts.total <= 10 ? "low" : parts.total <= 20 ? "warn" : "running";
    } else if (clock && clock.reserve_seconds && clock.reserve_left && table.seats[p].kind === "human") {
      text = clockText("reserveShort", clock.reserve_left[p] || 0);
    }
    if (node.textContent !== text) node.textContent = text;
    node.dataset.level = level;
  });
}

function clockParts() {
  // The running turn's seconds left, counted down here from the table's last summary: the turn's own
  // time first, then the seat's reserve. (`left` is both together: shown as one number beside the
  // reserve, the reserve would count twice.)
  const clock = table && table.clock;
  if (!clock || clock.left == null || clock.seat == null) return null;
  const gone = clock.running ? (performance.now() - clockAt) / 1000 : 0;
  const total = Math.max(0, clock.left - gone);
  const reserveAt = (clock.reserve_left && clock.reserve_left[clock.seat]) || 0;
  const turnAt = clock.turn_left != null ? clock.turn_left : Math.max(0, clock.left - reserveAt);
  const turn = Math.min(total, Math.max(0, turnAt - gone));
  return { total, turn, reserve: Math.max(0, total - turn) };
}

function seconds(x) {
  return String(Math.ceil(x - 0.001)); // 29.9999 is 30, not 31
}

function clockText(key, x) {
  // "{s} s" filled in; an hour or more (a clock over days) in days and hours (attention.js).
  if (x < 3600) return t(key).replace("{s}", seconds(x));
  return key === "reserveShort" ? `${t("reserve")} ${durationText(x)}` : durationText(x);
}

function clockPart(part, x) {
  // One part of the clock: its seconds, or from an hour on its days and hours without the unit.
  part.querySelector(".clock-num").textContent = x < 3600 ? seconds(x) : durationText(x);
  part.querySelector("[data-i18n='seconds']").hidden = x >= 3600;
}

function renderClock() {
  const box = document.getElementById("clock");
  const parts = clockParts();
  box.hidden = parts == null;
  if (!parts) {
    renderSeatClocks();
    return;
  }
  const clock = table.clock;
  document.getElementById("clock-seat").textContent = sayName(clock.seat);
  const turn = document.getElementById("clock-turn");
  const reserve = document.getElementById("clock-reserve");
  clockPart(turn, parts.turn);
  clockPart(reserve, parts.reserve);
  reserve.hidden = !clock.reserve_seconds;
  // The part that runs now: the turn's own time, then the reserve.
  turn.classList.toggle("running", parts.turn > 0);
  reserve.classList.toggle("running", parts.turn <= 0);
  box.classList.toggle("low", parts.total <= 10);
  box.classList.toggle("warn", parts.total > 10 && parts.total <= 20);
  box.classList.toggle("mine", clock.seat === seat);
}

function tick() {
  renderClock();
  renderSeatClocks();
}

function renderPresence() {
  // Away (a stand-in plays for us: "I'm back"), paused (nobody here), our name, the clock.
  const away = seat != null && table && table.seats[seat] && table.seats[seat].away;
  document.getElementById("away-box").hidden = !away;
  document.getElementById("paused").hidden = !(table && table.paused);
  // A player's seat carries the player's own name (changed in the lobby, not here).
  document.getElementById("name-form").hidden = seat == null || Boolean(table && table.seats[seat] && table.seats[seat].player);
  const input = document.getElementById("name-input");
  if (seat != null && table && document.activeElement !== input) input.value = table.seats[seat].name || "";
  renderClock();
}

function isPhone() {
  return window.matchMedia("(max-width: 640px)").matches;
}

function chatVisible() {
  // On a desktop the chat is at the side; on a phone only while its sheet is open.
  return !isPhone() || sheet === "chat-panel";
}

function renderChat() {
  const box = clear(document.getElementById("chat-lines"));
  if (!chatLines.length) box.append(el("li", { class: "muted" }, t("chatEmpty")));
  // Lines of people this player muted are left out (table-safety.js); the footer says how many.
  const safety = typeof chatSafety === "undefined" ? null : chatSafety;
  for (const line of chatLines) {
    if (safety && safety.hidden(line)) continue;
    const actions = safety ? safety.actions(line) : null;
    box.append(el("li", { class: line.seat === seat ? "own" : "" }, el("strong", {}, `${line.name}: `), line.text, actions));
  }
  if (safety) box.append(...safety.footer(chatLines));
  box.scrollTop = box.scrollHeight;
  document.getElementById("chat-form").hidden = seat == null;
  renderUnread();
}

function renderUnread() {
  // The chat's unread mark: lines that came while it was folded away (a phone), others' only.
  if (chatVisible()) chatSeen = chatLines.length;
  const unread = chatLines.slice(chatSeen).filter((line) => line.seat !== seat).length;
  const mark = document.getElementById("chat-unread");
  mark.hidden = unread === 0;
  mark.textContent = unread ? String(unread) : "";
  mark.setAttribute("aria-label", t("unread").replace("{n}", unread));
  mark.title = t("unread").replace("{n}", unread);
}

function openSheet(id) {
  // A phone: the log or the chat over the table; the same button, or Close, folds it again.
  sheet = sheet === id ? null : id;
  for (const name of ["log-panel", "chat-panel"]) {
    document.getElementById(name).classList.toggle("open", sheet === name);
  }
  document.getElementById("show-log").setAttribute("aria-expanded", String(sheet === "log-panel"));
  document.getElementById("show-chat").setAttribute("aria-expanded", String(sheet === "chat-panel"));
  document.body.classList.toggle("sheet-open", !!sheet);
  if (sheet === "log-panel") {
    const log = document.getElementById("log");
    log.scrollTop = log.scrollHeight;
  }
  if (sheet === "chat-panel") {
    const lines = document.getElementById("chat-lines");
    lines.scrollTop = lines.scrollHeight;
  }
  renderUnread();
}
