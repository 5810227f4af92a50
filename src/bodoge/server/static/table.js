// A table: one websocket; render whatever view the server sends, offer its legal actions as buttons,
// and keep the people at the table together: names, the clock, away seats, chat, the rematch.
// The page's scripts, one concern each, loaded in this order (the page shell lists them): the words
// (table-words.js), the people (table-people.js), the log and raw view (table-log.js), the end of a
// game (table-end.js), then this one, which holds the page's state, the connection and the
// decision, and starts the page; then practice.js. The game's board comes once its name is known.
"use strict";

const MY_TABLES = "bodoge.tables"; // the links this browser joined: the lobby lists them to resume
const MY_NAME = "bodoge.name"; // the name the server last accepted from this browser, sent at every table
const NAME_ERRORS = { name_taken: "nameTaken", bad_name: "badName", name_rate: "nameRate" };
const MAX_MY_TABLES = 30;

// The raw view (every key of it, as data) is for developers: shown only with ?debug in the URL.
const DEBUG = new URLSearchParams(location.search).has("debug");
const TABLE_ID = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const TOKEN = new URLSearchParams(location.hash.slice(1)).get("token");

// Keys of a view that the page shows in their own places; the rest is the game's own state.
const OWN_PLACES = new Set([
  "game", "rules_version", "players", "options", "seat", "current_player", "is_terminal",
  "decision", "decision_ja", "scores", "legal_actions", "winners", "log", "places",
]);

let socket = null;
let retryDelay = 500;
let seat = null; // our seat, or null when watching
let table = null; // the table summary (names, seats, who is online)
let view = null; // the last view
let seq = -1; // its move number
let waiting = false; // an action sent, its answer not yet seen
let gameInfo = null;
let stopped = false;
let pending = ""; // a multi-step choice on the board, its text so far
// A move of several actions chosen before any is sent (a board's `continues`: Tokkuri's drink, then its
// tokkuri one by one), so that each part can be taken back: the actions chosen so far ({text, words,
// text_ja}), and, once the move is whole, the texts still to send, each once the table took the last.
let plan = [];
let outbox = [];
let focusArea = null; // where the keyboard's focus last was: "board", "pending", "actions" or null
let fullLog = []; // the whole log: views carry only the entries this connection lacks
let chatLines = []; // the table's chat, oldest first
let rematch = null; // the `rematch` message: our seat at the next table
let replaced = false; // our seat was opened elsewhere: do not reconnect
let clockAt = 0; // performance.now() when the table's clock was last received
let wasMyTurn = false;
let welcomed = false; // a new connection: its first view is the table as it is, whatever we saw
let nameSent = null; // the name we asked for, kept in the browser once the table shows it as ours
let nameError = null; // {code, name}: the server refused the name we asked for
let audio = null; // the page's one AudioContext for the turn sound (see wakeAudio)
let sheet = null; // on a phone: the panel ("log-panel", "chat-panel") opened over the table, if any
let chatSeen = 0; // chat lines seen (the chat shown); the rest are unread
let endShown = false; // the results banner was brought into view once

Object.assign(STRINGS.en, {
  playerN: "Player {n}",
  keysHelp: "Keys: 1–9 choose the action with that number · Backspace takes back the last part · Esc cancels it all.",
});
Object.assign(STRINGS.ja, {
  playerN: "プレイヤー{n}",
  keysHelp: "キー：1〜9でその番号の行動を選択・バックスペースで最後の一手を戻す・エスケープで選択をすべて取り消し。",
});

function spoken(text) {
  // A game's line for the live region: its seats (P0, P1, ...) by their names, its codes in words.
  return named(text, false);
}

function announce(text) {
  // The live region: screen readers say it (the decision when it is ours, others' moves: spoken()).
  const box = document.getElementById("announce");
  if (text) box.textContent = text;
}

function rememberTable() {
  // Keep this seat's link in the browser, so that the lobby can offer to resume it.
  if (seat == null || !TOKEN || !table) return;
  let mine = [];
  try {
    mine = JSON.parse(localStorage.getItem(MY_TABLES) || "[]");
  } catch (e) {
    mine = [];
  }
  if (!Array.isArray(mine)) mine = [];
  mine = mine.filter((entry) => entry && entry.id !== TABLE_ID);
  mine.unshift({ id: TABLE_ID, token: TOKEN, seat, title: table.title, at: Date.now() });
  localStorage.setItem(MY_TABLES, JSON.stringify(mine.slice(0, MAX_MY_TABLES)));
}

function setStatus(state) {
  const node = document.getElementById("status");
  node.dataset.state = state;
  node.textContent = t({ connecting: "connecting", live: "live", reconnecting: "reconnecting" }[state] || state);
}

function connect() {
  if (stopped) return;
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${scheme}//${location.host}/ws/tables/${encodeURIComponent(TABLE_ID)}`);
  socket.addEventListener("open", () => {
    const hello = { type: "hello", token: TOKEN };
    const name = localStorage.getItem(MY_NAME);
    const mine = table && seat != null && table.seats[seat];
    if (TOKEN && name && !(mine && mine.player)) {
      hello.name = name;
      nameSent = name;
    }
    socket.send(JSON.stringify(hello));
  });
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch (e) {
      return;
    }
    handle(message);
  });
  socket.addEventListener("close", (event) => {
    socket = null;
    waiting = false;
    if (event.code === 4404) {
      stopped = true;
      notice(t("noTable"));
      setStatus("closed");
      return;
    }
    if (event.code === 4409 || replaced) {
      stopped = true;
      showReplaced();
      return;
    }
    setStatus("reconnecting");
    setTimeout(connect, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 5000);
  });
}

function handle(message) {
  switch (message.type) {
    case "welcome":
      welcomed = true;
      retryDelay = 500;
      seat = message.seat;
      setTable(message.table);
      chatLines = message.chat || [];
      setStatus("live");
      rememberTable();
      renderTitle();
      renderChat();
      break;
    case "table":
      setTable(message.table);
      break;
    case "view":
      takeView(message);
      break;
    case "chat":
      chatLines.push(message.line);
      renderChat();
      if (message.line.seat !== seat) announce(`${sayName(message.line.seat)}: ${message.line.text}`);
      break;
    case "rematch":
      rematch = message;
      renderResult();
      break;
    case "replaced":
      replaced = true;
      showReplaced();
      break;
    case "error":
      if (NAME_ERRORS[message.code]) nameRefused(message.code);
      else if (message.code === "bad_token") notice(t("badToken"));
      else if (message.code === "no_table") notice(t("noTable"));
      else showActionError(message);
      break;
    default:
      break;
  }
}

function takeView(message) {
  // Put the whole log back together: the server sends only the entries after `log_from`.
  // An older view is ignored, except the first of a connection: after a database was restored to
  // an earlier move, the table really is at that move.
  if (message.seq < seq && !welcomed) return;
  welcomed = false;
  const from = message.log_from || 0;
  if (from > fullLog.length) {
    sendMessage({ type: "sync" }); // a gap (never expected): ask for a whole view
    return;
  }
  const added = message.view.log || [];
  fullLog = fullLog.slice(0, from).concat(added);
  view = Object.assign({}, message.view, { log: fullLog });
  if (message.places) view.places = message.places; // the server's order at the end (table-end.js)
  const moved = message.seq !== seq;
  seq = message.seq;
  pending = "";
  if (moved) plan = [];
  // A planned move goes on: its next action is sent at once, if the table still offers it (else the
  // table's own choices are shown).
  const next = moved && outbox.length ? (view.legal_actions || []).find((a) => a.text === outbox[0]) : null;
  if (!next) outbox = [];
  waiting = !!next;
  render();
  if (next) {
    outbox.shift();
    sendMessage({ type: "action", action: next.id, seq });
  }
  if (moved) tellWhatHappened(from > 0 ? added : []);
}

function tellWhatHappened(added) {
  // Others' moves to the live region; on our turn, the decision, the page title and the sound.
  const mine = !!(view.legal_actions && view.legal_actions.length);
  const others = added.filter((event) => event.seat !== seat).map((event) => spoken(eventText(event)));
  const prompt = document.getElementById("board-prompt");
  const said = !document.getElementById("board-panel").hidden && prompt.textContent
    ? prompt.textContent
    : `${t("yourDecision")}: ${decisionText(view)}`;
  if (mine && !waiting) announce([...others.slice(-3), spoken(said)].join(" "));
  else if (others.length) announce(others.slice(-3).join(" "));
  if (mine && !wasMyTurn) beep();
  wasMyTurn = mine;
  renderTitle();
}

// The turn sound plays on one AudioContext for the page. A browser lets a page start sound only after
// a gesture of its user (a click, a key): the context is made, or resumed, on one; a beep before any
// (after a reload) stays silent rather than leave a suspended context behind.
function wakeAudio() {
  if (localStorage.getItem("bodoge.sound") !== "1") return;
  try {
    if (!audio) audio = new AudioContext();
    if (audio.state === "suspended") audio.resume().catch(() => {});
  } catch (e) {
    audio = null; /* no audio here: the title still says it */
  }
}

function beep() {
  if (localStorage.getItem("bodoge.sound") !== "1" || !audio || audio.state !== "running") return;
  try {
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.35);
  } catch (e) {
    /* no audio here: the title still says it */
  }
}

function namesOf(summary) {
  return summary ? summary.seats.map((info) => `${info.kind}:${info.name}:${info.spec}`).join("|") : "";
}

function setTable(summary) {
  const renamed = namesOf(table) !== namesOf(summary);
  table = summary;
  clockAt = performance.now();
  nameAccepted();
  renderSeats();
  renderPresence();
  renderResult();
  if (renamed && view) render(); // the names the board, the log and the banner say
  else if (!(view && boardComing(view.game, render))) {
    // (While the board's script is on its way, render() draws the log with the rest once it has come.)
    renderSeatMarks();
    renderLog();
  }
}

function showReplaced() {
  setStatus("closed");
  const node = document.getElementById("notice");
  clear(node).append(
    t("replaced"),
    " ",
    el("button", { type: "button", id: "use-here", onclick: () => location.reload() }, t("useHere")),
  );
  node.hidden = false;
}

function showActionError(message) {
  waiting = false;
  outbox = []; // a planned move stops at a refused action: the table's own choices are shown
  const box = document.getElementById("action-error");
  box.textContent = `${t("error")} (${message.code}): ${message.message}`;
  box.hidden = false;
  renderActions();
  renderBoardPanel();
  settleFocus();
}

function send(actionId) {
  if (!socket || socket.readyState !== WebSocket.OPEN || waiting) return;
  const action = (shownView().legal_actions || []).find((a) => a.id === actionId);
  if (!action) return;
  const texts = [...plan.map((part) => part.text), action.text];
  const board = BOARDS[view.game];
  const more = board && board.continues ? board.continues(view, texts) : null;
  pending = "";
  if (more && more.length) {
    // Not the whole move yet: kept here, the next part's choices offered.
    plan.push({ text: action.text, words: action.words, text_ja: action.text_ja });
    redrawChoice();
    return;
  }
  // The whole move: its actions go one by one, each once the table has taken the one before.
  plan = [];
  const first = (view.legal_actions || []).find((a) => a.text === texts[0]);
  if (!first) {
    redrawChoice();
    return;
  }
  outbox = texts.slice(1);
  sendNow(first.id);
}

function sendNow(actionId) {
  waiting = true;
  document.getElementById("action-error").hidden = true;
  socket.send(JSON.stringify({ type: "action", action: actionId, seq }));
  renderActions();
  renderBoardPanel();
  settleFocus();
}

// The view the board and the buttons offer: the table's own or, while a move of several actions is
// chosen, the same position with the next part's choices (ids below 0: nothing is sent for them).
function shownView() {
  if (!plan.length || !view) return view;
  const board = BOARDS[view.game];
  const next = (board && board.continues && board.continues(view, plan.map((part) => part.text))) || [];
  return Object.assign({}, view, { legal_actions: next.map((choice, i) => Object.assign({ id: -1 - i }, choice)) });
}

function redrawChoice() {
  renderBoardPanel();
  if (view && !view.is_terminal && view.legal_actions && view.legal_actions.length) {
    document.getElementById("decision").textContent = decisionWords();
  }
  renderActions();
  settleFocus();
}

// Our decision in words: the table's, or while a move of several actions is chosen, its next part's
// (the board's prompt for it: "Choose the tokkuri to drink from.").
function decisionWords() {
  const prompt = plan.length ? document.getElementById("board-prompt").dataset.prompt : "";
  return prompt || named(decisionText(view));
}

// The parts of a move chosen so far, in words: the board's own pick (a card chosen before its use),
// the planned actions, the prefix of the next.
function chosenParts() {
  const board = view && BOARDS[view.game];
  const picked = board && board.picked ? board.picked(view) : null;
  return [picked, ...plan.map(actionText), pending ? named(pendingWords(pending)) : null].filter(Boolean);
}

// Take back the last part of the move being chosen (the button, the Backspace key), or all of it.
function takeBack() {
  const board = view && BOARDS[view.game];
  if (pending) pending = takeBackText(pending);
  else if (plan.length) plan.pop();
  else if (board && board.unpick) board.unpick();
  redrawChoice();
}

function cancelChoice() {
  const board = view && BOARDS[view.game];
  pending = "";
  plan = [];
  if (board && board.unpick) board.unpick();
  redrawChoice();
}

// After a move, or a part of one, the keyboard's focus goes where the next step is (never to the
// page's body, where a redraw would drop it): on our decision the first action (the board's first
// legal piece where the last focus was on the board, the take-back button where it was in the bar),
// else the decision's heading, parked there until the decision is ours again.
function settleFocus() {
  const active = document.activeElement;
  const heading = document.getElementById("decision-title");
  const parked = active === heading || (active && active.id === "board-prompt");
  if (active && active !== document.body && active.isConnected && !parked) return;
  if (active && active.closest && active.closest("input, textarea, select")) return;
  const shown = shownView();
  const mine = !waiting && !!(shown && shown.legal_actions && shown.legal_actions.length);
  const visible = (node) => node && !node.disabled && node.checkVisibility();
  let target = null;
  if (mine) {
    const candidates = [];
    if (focusArea === "pending") candidates.push(document.getElementById("board-takeback"));
    if (focusArea === "board") candidates.push(document.querySelector("#board .legal[tabindex]"));
    candidates.push(
      document.querySelector("#actions button.action:not([disabled])"),
      document.querySelector("#board .legal[tabindex]"),
    );
    target = candidates.find(visible) || null;
  }
  if (!target && parked && visible(heading)) return;
  // Not ours: the decision's heading, or at the end (the panel folded away) the result's, or the board's.
  target = target || [heading, document.getElementById("result-title"), document.getElementById("board-prompt")].find(visible);
  if (!target) return;
  if (!target.matches("button, [tabindex]")) target.setAttribute("tabindex", "-1");
  target.focus({ preventScroll: true });
}

function setPending(text) {
  pending = text;
  redrawChoice();
}

// The game's own board, when there is one; the generic view stays below (folded) as the fallback.
function renderBoardPanel() {
  const panel = document.getElementById("board-panel");
  const before = boardSnapshot(document.getElementById("board")); // the pieces' places, for the motion
  const box = clear(document.getElementById("board"));
  const coming = !!view && boardComing(view.game, render); // see render()
  const drawn = view && BOARDS[view.game]
    ? renderBoard(view.game, shownView(), { seatName: sayName, send, pending, setPending, readOnly: waiting, seatExtra, plan: plan.map((part) => part.text) })
    : null;
  // The board's texts from the engine (a round's end, a judgement) name seats P0, P1, …: by name here.
  if (drawn && table) nameSeatsIn(drawn.node, speaker());
  panel.hidden = !drawn;
  const stateBox = document.getElementById("state-box");
  // The raw view: only with ?debug, or for a game without a board. Before the first view (or the
  // board) comes there is nothing to show either way (it flashed in before, between "live" and the
  // first view).
  stateBox.hidden = !(DEBUG || (view && !drawn && !coming));
  if (drawn && !stateBox.dataset.folded) {
    stateBox.open = false;
    stateBox.dataset.folded = "1";
  }
  if (!drawn) return;
  box.append(drawn.node);
  // The board's player boxes tell who is here and the clock (seatExtra): the Players list is then
  // folded away on a phone.
  document.body.classList.toggle("boxes-tell", !!box.querySelector(".seat-extra"));
  renderSeatMarks();
  animateBoard(before, box);
  box.dataset.ready = waiting ? "" : "1";
  const prompt = document.getElementById("board-prompt");
  const mine = view.legal_actions && view.legal_actions.length > 0;
  prompt.textContent = view.is_terminal
    ? t("gameOver")
    : mine
      ? `${t("yourDecision")}: ${named(drawn.prompt || decisionText(view))}`
      : `${t("waitingFor")} ${sayName(view.current_player)}`;
  prompt.classList.toggle("my-turn", !!mine);
  prompt.dataset.prompt = drawn.prompt ? named(drawn.prompt) : "";
  pendingBar(document.getElementById("board-pending"), chosenParts(), takeBack, cancelChoice);
}

function renderTitle() {
  const title = table ? pick(table.title) : "";
  document.getElementById("title").textContent = title;
  const mine = !!(view && view.legal_actions && view.legal_actions.length);
  document.title = `${mine ? `▶ ${t("yourTurnTitle")} — ` : ""}${title} — bodoge`;
  const who = document.getElementById("who");
  who.textContent = seat == null ? t("spectating") : `${t("youAre")}: ${sayName(seat)}`;
  if (gameInfo) document.getElementById("rules").textContent = pick(gameInfo.rules);
}

function renderActions() {
  const box = clear(document.getElementById("actions"));
  const filter = document.getElementById("action-filter");
  const shown = shownView();
  const legal = (shown && shown.legal_actions) || [];
  // A move of several parts (Hangover's arrangement: 24 orders of four snacks) is offered a part at a
  // time, as the board takes it (board-aids.js's choiceOffer): a part sets the pending text as a click
  // on the board does; the last part is the move. Each button in words, never the engine's codes.
  const offer = choiceOffer(legal, pending, (text) => named(text));
  filter.hidden = offer.items.length <= 12;
  const wanted = filter.hidden ? "" : filter.value.trim().toLowerCase();
  let n = 0;
  for (const item of offer.items) {
    const words = item.label || actionText(item.action);
    const text = item.action ? item.action.text : item.prefix;
    if (wanted && !`${text} ${words}`.toLowerCase().includes(wanted)) continue;
    n += 1;
    box.append(
      el(
        "button",
        {
          type: "button",
          class: item.action ? "action" : "action action-part",
          disabled: waiting,
          dataset: item.action ? { action: item.action.id } : { part: item.prefix },
          title: item.action ? `#${item.action.id}` : null,
          // The key that chooses it: named as the button's shortcut, its badge shown but not read
          // into the name ("take 7", never "1take 7").
          "aria-keyshortcuts": n <= 9 ? String(n) : null,
          onclick: item.action ? () => send(item.action.id) : () => setPending(item.prefix),
        },
        n <= 9 ? el("kbd", { "aria-hidden": "true" }, String(n)) : null,
        el("span", { class: "action-words" }, words),
      ),
    );
  }
  // The keys, said where they are used (a keyboard's keys; a phone's page hides the line: app.css).
  let help = document.getElementById("keys-help");
  if (!help) {
    help = el("p", { id: "keys-help", class: "keys-help" });
    box.after(help);
  }
  help.textContent = t("keysHelp");
  help.hidden = n === 0;
}

function updateDock() {
  // How much of a phone's screen the docked decision panel takes (0 where it is not docked).
  const dock = document.getElementById("decision-panel");
  const docked = isPhone() && getComputedStyle(dock).position === "sticky";
  const height = `${docked ? Math.ceil(dock.offsetHeight) : 0}px`;
  if (document.documentElement.style.getPropertyValue("--dock") !== height) {
    document.documentElement.style.setProperty("--dock", height);
  }
}

function renderDecision() {
  const title = document.getElementById("decision-title");
  const decision = document.getElementById("decision");
  const mine = view && view.legal_actions && view.legal_actions.length > 0;
  document.getElementById("decision-panel").classList.toggle("my-turn", !!mine);
  // At the end the banner says it (issue #56: the result said once): no empty "game over" panel.
  document.getElementById("decision-panel").hidden = !!(view && view.is_terminal);
  if (!view) {
    title.textContent = t("connecting");
    decision.textContent = "";
  } else if (view.is_terminal) {
    title.textContent = t("gameOver");
    decision.textContent = "";
  } else if (mine) {
    title.textContent = t("yourDecision");
    decision.textContent = decisionWords();
  } else {
    title.textContent = `${t("waitingFor")} ${sayName(view.current_player)}`;
    decision.textContent = named(decisionText(view));
  }
  renderActions();
  updateDock();
}

function sendMessage(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function render() {
  // The game's board script is loaded once the first view names the game: until it has come the page
  // stays as it was (connecting), then draws everything at once, as if the board had been there.
  if (view && boardComing(view.game, render)) return;
  renderTitle();
  renderBoardPanel();
  renderDecision();
  renderResult();
  renderView();
  renderSeats();
  renderLog();
  settleFocus();
}

async function start() {
  setupLangSwitch();
  onLangChange(() => {
    render();
    renderSeatMarks();
    renderChat();
    renderPresence();
    renderNameError();
  });
  document.getElementById("im-back").addEventListener("click", () => sendMessage({ type: "back" }));
  document.getElementById("show-log").addEventListener("click", () => openSheet("log-panel"));
  document.getElementById("show-chat").addEventListener("click", () => openSheet("chat-panel"));
  document.querySelectorAll("[data-close]").forEach((button) => {
    button.addEventListener("click", () => openSheet(button.dataset.close));
  });
  window.matchMedia("(max-width: 640px)").addEventListener("change", renderUnread);
  // A phone: the decision panel is docked at the bottom; the page keeps that much room below its
  // last item and scrolls items into view above it, so that it never covers one to tap.
  new ResizeObserver(updateDock).observe(document.getElementById("decision-panel"));
  document.getElementById("play-again").addEventListener("click", () => sendMessage({ type: "rematch" }));
  document.getElementById("review-link").addEventListener("click", askReview);
  document.getElementById("chat-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const input = document.getElementById("chat-input");
    const text = input.value.trim();
    if (!text) return;
    sendMessage({ type: "chat", text });
    input.value = "";
  });
  document.getElementById("name-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const name = document.getElementById("name-input").value.trim();
    if (!name) return;
    nameError = null;
    renderNameError();
    nameSent = name; // kept once the table shows it (nameAccepted), dropped if refused
    sendMessage({ type: "name", name });
    nameAccepted(); // our name already: nothing changes at the table
  });
  const sound = document.getElementById("sound");
  sound.checked = localStorage.getItem("bodoge.sound") === "1";
  sound.addEventListener("change", () => {
    localStorage.setItem("bodoge.sound", sound.checked ? "1" : "0");
    if (sound.checked) wakeAudio();
    else if (audio) audio.suspend().catch(() => {});
  });
  for (const type of ["pointerdown", "keydown", "touchend"]) {
    document.addEventListener(type, wakeAudio, { capture: true, passive: true });
  }
  window.addEventListener("pagehide", () => {
    if (audio) audio.close().catch(() => {});
    audio = null;
  });
  setInterval(tick, 250);
  document.getElementById("action-filter").addEventListener("input", renderActions);
  // Where the keyboard's focus is, for settleFocus (a redraw replaces the board and the buttons).
  document.addEventListener("focusin", (e) => {
    const node = e.target instanceof Element ? e.target : null;
    focusArea = !node ? null : node.closest("#board-pending") ? "pending" : node.closest("#board") ? "board" : node.closest("#actions") ? "actions" : null;
  });
  document.getElementById("decision-title").setAttribute("tabindex", "-1");
  document.addEventListener("keydown", (e) => {
    if (e.target && (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA")) return;
    // (Backspace and Escape take back a part of a move, or all of it: board-aids.js's pendingBar.)
    if (/^[1-9]$/.test(e.key) && !e.ctrlKey && !e.metaKey && !e.altKey) {
      const buttons = document.querySelectorAll("#actions button.action:not([disabled])");
      const button = buttons[Number(e.key) - 1];
      if (button) {
        e.preventDefault();
        button.click();
      }
    }
  });
  setStatus("connecting");
  render();
  connect();
  try {
    const summary = await api(`/api/tables/${encodeURIComponent(TABLE_ID)}`);
    gameInfo = (await api("/api/games")).find((g) => g.name === summary.game) || null;
    if (!table) table = summary;
    renderTitle();
  } catch (e) {
    /* the websocket says if the table does not exist */
  }
}

start();
