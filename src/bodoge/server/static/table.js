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
  "decision", "decision_ja", "scores", "legal_actions", "winners", "log",
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

function announce(text) {
  // The live region: screen readers say it (the decision when it is ours, others' moves).
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

function notice(text) {
  const node = document.getElementById("notice");
  node.textContent = text || "";
  node.hidden = !text;
}

function connect() {
  if (stopped) return;
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${scheme}//${location.host}/ws/tables/${encodeURIComponent(TABLE_ID)}`);
  socket.addEventListener("open", () => {
    const hello = { type: "hello", token: TOKEN };
    const name = localStorage.getItem(MY_NAME);
    if (TOKEN && name) {
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
      if (message.line.seat !== seat) announce(`${seatName(message.line.seat)}: ${message.line.text}`);
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
  const moved = message.seq !== seq;
  seq = message.seq;
  waiting = false;
  pending = "";
  render();
  if (moved) tellWhatHappened(from > 0 ? added : []);
}

function tellWhatHappened(added) {
  // Others' moves to the live region; on our turn, the decision, the page title and the sound.
  const mine = !!(view.legal_actions && view.legal_actions.length);
  const others = added.filter((event) => event.seat !== seat).map(eventText);
  if (mine) announce([...others.slice(-3), `${t("yourDecision")}: ${decisionText(view)}`].join(" "));
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
  const box = document.getElementById("action-error");
  box.textContent = `${t("error")} (${message.code}): ${message.message}`;
  box.hidden = false;
  renderActions();
  renderBoardPanel();
}

function send(actionId) {
  if (!socket || socket.readyState !== WebSocket.OPEN || waiting) return;
  waiting = true;
  document.getElementById("action-error").hidden = true;
  socket.send(JSON.stringify({ type: "action", action: actionId, seq }));
  pending = "";
  renderActions();
  renderBoardPanel();
}

function pendingText(text) {
  // A choice made so far, in the page's language: its verb is English (the engine parses it), the
  // rest are codes written alike in every language; Japanese shows the codes alone.
  return LANG === "ja" ? text.split(" ").slice(1).join(" ") : text;
}

function setPending(text) {
  pending = text;
  renderBoardPanel();
  renderActions();
}

// The game's own board, when there is one; the generic view stays below (folded) as the fallback.
function renderBoardPanel() {
  const panel = document.getElementById("board-panel");
  const before = boardSnapshot(document.getElementById("board")); // the pieces' places, for the motion
  const box = clear(document.getElementById("board"));
  const coming = !!view && boardComing(view.game, render); // see render()
  const drawn = view && BOARDS[view.game]
    ? renderBoard(view.game, view, { seatName, send, pending, setPending, readOnly: waiting, seatExtra })
    : null;
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
      : `${t("waitingFor")} ${seatName(view.current_player)}`;
  prompt.classList.toggle("my-turn", !!mine);
  const pend = clear(document.getElementById("board-pending"));
  pend.hidden = !pending;
  if (pending) {
    pend.append(
      el("span", {}, `${bt("chosen")}: `, el("strong", {}, pendingText(pending))),
      " ",
      el("button", { type: "button", class: "board-btn", id: "board-cancel", onclick: () => setPending("") }, bt("cancel")),
    );
  }
}

function renderTitle() {
  const title = table ? pick(table.title) : "";
  document.getElementById("title").textContent = title;
  const mine = !!(view && view.legal_actions && view.legal_actions.length);
  document.title = `${mine ? `▶ ${t("yourTurnTitle")} — ` : ""}${title} — bodoge`;
  const who = document.getElementById("who");
  who.textContent = seat == null ? t("spectating") : `${t("youAre")}: ${seatName(seat)}`;
  if (gameInfo) document.getElementById("rules").textContent = pick(gameInfo.rules);
}

function renderActions() {
  const box = clear(document.getElementById("actions"));
  const filter = document.getElementById("action-filter");
  const legal = (view && view.legal_actions) || [];
  filter.hidden = legal.length <= 12;
  const wanted = filter.hidden ? "" : filter.value.trim().toLowerCase();
  let n = 0;
  for (const action of legal) {
    if (wanted && !`${action.text} ${actionText(action)}`.toLowerCase().includes(wanted)) continue;
    if (pending && !(action.text === pending || action.text.startsWith(pending + " "))) continue;
    n += 1;
    box.append(
      el(
        "button",
        {
          type: "button",
          class: "action",
          disabled: waiting,
          dataset: { action: action.id },
          title: `#${action.id}`,
          onclick: () => send(action.id),
        },
        n <= 9 ? el("kbd", {}, String(n)) : null,
        actionText(action),
      ),
    );
  }
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
  if (!view) {
    title.textContent = t("connecting");
    decision.textContent = "";
  } else if (view.is_terminal) {
    title.textContent = t("gameOver");
    decision.textContent = "";
  } else if (mine) {
    title.textContent = t("yourDecision");
    decision.textContent = named(decisionText(view));
  } else {
    title.textContent = `${t("waitingFor")} ${seatName(view.current_player)}`;
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
  document.addEventListener("keydown", (e) => {
    if (e.target && (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA")) return;
    if (e.key === "Escape" && pending) {
      setPending("");
      return;
    }
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
