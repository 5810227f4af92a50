// A table: one websocket; render whatever view the server sends, offer its legal actions as buttons,
// and keep the people at the table together: names, the clock, away seats, chat, the rematch.
"use strict";

// The table page's own strings (the lobby shares common.js's).
Object.assign(STRINGS.en, {
  people: "Players",
  away: "away: a bot plays for now",
  awaySelf: "You were away (out of time, or not at the table): a stand-in bot is playing for you.",
  imBack: "I'm back",
  paused: "Paused: nobody is at the table.",
  clockLeft: "Time left",
  clockTurn: "this turn",
  seconds: "s",
  reserve: "reserve",
  yourName: "Your name",
  saveName: "Save",
  nameTaken: "“{name}” is already the name of another seat at this table: choose another name.",
  badName: "That name cannot be used: a name is 1 to 40 characters on one line, without control characters.",
  nameRate: "Too many renames and chat lines at once: wait a moment, then try again.",
  chat: "Chat",
  say: "Send",
  chatPlaceholder: "Say something to the table",
  chatEmpty: "No messages yet.",
  playAgain: "Play again",
  rematchReady: "A new table is ready: same game, seats moved on by one.",
  joinRematch: "Take your seat at the new table",
  replaced: "This seat was opened in another window or device; this page no longer plays it.",
  useHere: "Play here instead",
  yourTurnTitle: "Your turn",
  sound: "Sound on your turn",
  endReason: "How it ended",
  close: "Close",
  online: "online",
  offlineNow: "offline",
  awayShort: "away: a bot plays",
  botSeat: "bot",
  story_left: "{name} left the table.",
  story_away_gone: "A bot plays for {name} (not at the table).",
  story_away_time: "A bot plays for {name} (out of time).",
  story_back: "{name} is back.",
  story_resumed: "{name} plays again: the bot stops.",
  story_joined_next: "{name} joined the new table.",
  youWin: "You win!",
  wins: "{names} wins!",
  shareWin: "{names} share the win.",
  noWinner: "Nobody wins.",
  place: "Place",
  player: "Player",
  joinedNew: "At the new table: {names}",
  joinedNone: "Nobody has joined the new table yet.",
  unread: "{n} new",
  clockShort: "{s} s",
  reserveShort: "reserve {s} s",
});
Object.assign(STRINGS.ja, {
  people: "プレイヤー",
  away: "離席中：ボットが代打ち",
  awaySelf: "離席中です（時間切れか、卓にいなかったため）。代わりにボットが打っています。",
  imBack: "戻りました",
  paused: "一時停止中：卓に誰もいません。",
  clockLeft: "残り時間",
  clockTurn: "この手",
  seconds: "秒",
  reserve: "持ち時間",
  yourName: "あなたの名前",
  saveName: "保存",
  nameTaken: "「{name}」はこの卓の別の席の名前です。ほかの名前にしてください。",
  badName: "その名前は使えません。名前は1行で1〜40文字、制御文字なしです。",
  nameRate: "名前の変更とチャットが続きすぎました。少し待ってからもう一度どうぞ。",
  chat: "チャット",
  say: "送信",
  chatPlaceholder: "卓のみんなにひとこと",
  chatEmpty: "まだメッセージはありません。",
  playAgain: "もう一度遊ぶ",
  rematchReady: "新しい卓ができました。同じゲームで、席をひとつずつずらします。",
  joinRematch: "新しい卓の席に着く",
  replaced: "この席は別のウィンドウか端末で開かれました。このページではもう打てません。",
  useHere: "こちらで打つ",
  yourTurnTitle: "あなたの番",
  sound: "手番を音で知らせる",
  endReason: "終わり方",
  close: "閉じる",
  online: "接続中",
  offlineNow: "未接続",
  awayShort: "離席中：ボットが代打ち",
  botSeat: "ボット",
  story_left: "{name}が席を離れました。",
  story_away_gone: "{name}の代わりにボットが打ちます（離席中）。",
  story_away_time: "{name}の代わりにボットが打ちます（時間切れ）。",
  story_back: "{name}が戻りました。",
  story_resumed: "{name}が自分で打ちます。ボットは交代しました。",
  story_joined_next: "{name}が新しい卓に着きました。",
  youWin: "あなたの勝ち！",
  wins: "{names}の勝ち！",
  shareWin: "{names}が勝ちを分け合いました。",
  noWinner: "勝者なし。",
  place: "順位",
  player: "プレイヤー",
  joinedNew: "新しい卓に着いた人：{names}",
  joinedNone: "新しい卓にはまだ誰も着いていません。",
  unread: "新着{n}件",
  clockShort: "{s}秒",
  reserveShort: "持ち時間{s}秒",
});
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

function personName(p) {
  // The name a seat goes by: its person's name, a bot's name in words, or P0.
  const info = table && table.seats[p];
  if (!info) return `P${p}`;
  if (info.kind === "bot" && (!info.name || info.name === info.spec)) return botName(info.spec);
  return info.name && info.name !== `P${p}` ? info.name : `P${p}`;
}

function seatName(p) {
  const name = personName(p);
  return name === `P${p}` ? name : `P${p} ${name}`;
}

function named(text) {
  // A game's line names seats P0, P1, ...: the page says their names ("P1 plays" -> "Ben plays").
  if (!table || !text) return text;
  return text.replace(/\bP(\d)(?!\d)/g, (all, d) => (Number(d) < table.seats.length ? personName(Number(d)) : all));
}

function actionText(action) {
  // An action's words in the page's language: the engine writes both ("words": English for people;
  // "text" is the command it parses, with card codes such as R4^).
  if (LANG === "ja" && action.text_ja) return action.text_ja;
  return action.words || action.text;
}

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
  else {
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
  const drawn = view && BOARDS[view.game]
    ? renderBoard(view.game, view, { seatName, send, pending, setPending, readOnly: waiting, seatExtra })
    : null;
  panel.hidden = !drawn;
  const stateBox = document.getElementById("state-box");
  // The raw view: only with ?debug, or for a game without a board. Before the first view comes there
  // is nothing to show either way (it flashed in before, between "live" and the first view).
  stateBox.hidden = !(DEBUG || (view && !drawn));
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

function isPrimitive(v) {
  return v == null || typeof v !== "object";
}

function primitiveText(v) {
  if (v == null) return "–";
  if (typeof v === "boolean") return v ? "✓" : "✗";
  return String(v);
}

// Render any JSON value of a view, generically: lists as chips or numbered items, small records on
// one line, larger objects as key/value lists. (The page does not guess what a list means.)
function renderValue(value, depth) {
  if (isPrimitive(value)) return el("span", { class: value == null ? "muted" : "" }, primitiveText(value));
  if (Array.isArray(value)) {
    if (value.length === 0) return el("span", { class: "muted" }, "∅");
    if (value.every(isPrimitive)) {
      return el(
        "span",
        { class: "chips" },
        value.map((v) => el("span", { class: "chip" }, primitiveText(v))),
      );
    }
    return el(
      "ol",
      { class: "items" },
      value.map((v, i) => el("li", {}, el("span", { class: "idx" }, `#${i}`), renderValue(v, depth + 1))),
    );
  }
  const entries = Object.entries(value);
  if (entries.length && entries.every(([, v]) => isPrimitive(v))) {
    // A small record: one line, "key value · key value".
    return el(
      "span",
      { class: "record" },
      entries.map(([k, v], i) => [i ? " · " : "", el("span", { class: "key" }, k.replace(/_/g, " ")), " ", primitiveText(v)]),
    );
  }
  return el(
    "dl",
    { class: "obj" },
    entries.map(([k, v]) => [el("dt", {}, k.replace(/_/g, " ")), el("dd", {}, renderValue(v, depth + 1))]),
  );
}

function renderView() {
  const box = clear(document.getElementById("view"));
  if (!view || document.getElementById("state-box").hidden) return;
  const rest = {};
  for (const [key, value] of Object.entries(view)) if (!OWN_PLACES.has(key)) rest[key] = value;
  box.append(renderValue(rest, 0));
  const options = view.options || {};
  if (Object.keys(options).length) {
    box.append(
      el("details", { class: "muted small" }, el("summary", {}, t("options")), el("div", {}, renderValue(options, 0))),
    );
  }
  box.append(el("p", { class: "muted small" }, `${t("move")}: ${seq}`));
}

function storyText(entry) {
  // A table event (the server's `story`: who left, came back, joined the new table) in words.
  const key = entry.what === "away" ? `story_away_${entry.why === "time" ? "time" : "gone"}` : `story_${entry.what}`;
  return STRINGS.en[key] ? t(key).replace("{name}", personName(entry.seat)) : "";
}

function logItems() {
  // The game's log with the table's story among its lines, in order: a story entry comes after the
  // lines this seat's log had when it happened. Keys tell the lines apart (to append only what is new).
  const events = (view && view.log) || [];
  const story = ((table && table.story) || []).filter((entry) => storyText(entry));
  const column = seat == null ? (table ? table.seats.length : 0) : seat;
  const items = [];
  let k = 0;
  const storyUpTo = (n) => {
    while (k < story.length && ((story[k].log || [])[column] || 0) <= n) {
      items.push({ key: `s${story[k].n}`, story: story[k] });
      k += 1;
    }
  };
  for (let i = 0; i < events.length; i += 1) {
    storyUpTo(i);
    items.push({ key: `g${i}`, event: events[i] });
  }
  storyUpTo(Infinity);
  return items;
}

function renderLog() {
  // Appends what is new (a long game's log is thousands of lines); redrawn whole only when the
  // language changes or an earlier line changed (the log was replaced, a story entry came late).
  const box = document.getElementById("log");
  const items = logItems();
  const nearBottom = box.scrollTop + box.clientHeight >= box.scrollHeight - 40;
  let fresh = box.children.length > 0; // a redraw shows the log as it is; new lines light up
  const shown = Array.from(box.children, (li) => li.dataset.key);
  const prefix = shown.length <= items.length && shown.every((key, i) => items[i].key === key);
  let stick = nearBottom || !shown.length;
  if (box.dataset.lang !== LANG || box.dataset.names !== namesOf(table) || !prefix) {
    clear(box);
    box.dataset.lang = LANG;
    box.dataset.names = namesOf(table);
    fresh = false;
    stick = true; // drawn again: it shows its newest lines
  }
  const first = box.children.length;
  for (let i = first; i < items.length; i += 1) {
    // Several moves at once (bots in a row): they light up one after another, in order.
    const style = fresh ? { "animation-delay": `${Math.min(i - first, 8) * 0.35}s` } : null;
    const item = items[i];
    const classes = [fresh ? "fresh" : "", item.story ? "story" : ""].join(" ").trim() || null;
    const text = item.story ? storyText(item.story) : named(eventText(item.event));
    box.append(el("li", { class: classes, style, dataset: { key: item.key } }, text));
  }
  if (stick) box.scrollTop = box.scrollHeight;
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
      text = t("clockShort").replace("{s}", seconds(parts.turn > 0 ? parts.turn : parts.reserve));
      if (parts.turn <= 0) text = t("reserveShort").replace("{s}", seconds(parts.reserve));
      level = parts.total <= 10 ? "low" : parts.total <= 20 ? "warn" : "running";
    } else if (clock && clock.reserve_seconds && clock.reserve_left && table.seats[p].kind === "human") {
      text = t("reserveShort").replace("{s}", seconds(clock.reserve_left[p] || 0));
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

function renderClock() {
  const box = document.getElementById("clock");
  const parts = clockParts();
  box.hidden = parts == null;
  if (!parts) {
    renderSeatClocks();
    return;
  }
  const clock = table.clock;
  document.getElementById("clock-seat").textContent = seatName(clock.seat);
  const turn = document.getElementById("clock-turn");
  const reserve = document.getElementById("clock-reserve");
  turn.querySelector(".clock-num").textContent = seconds(parts.turn);
  reserve.querySelector(".clock-num").textContent = seconds(parts.reserve);
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
  document.getElementById("name-form").hidden = seat == null;
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
  for (const line of chatLines) {
    box.append(el("li", { class: line.seat === seat ? "own" : "" }, el("strong", {}, `${line.name}: `), line.text));
  }
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

function sendMessage(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function ranking() {
  // The seats by score, best first; equal scores share a place.
  const scores = (view && view.scores) || [];
  const order = scores.map((score, p) => ({ p, score })).sort((a, b) => Number(b.score) - Number(a.score) || a.p - b.p);
  let place = 0;
  return order.map((row, i) => {
    if (i === 0 || Number(row.score) !== Number(order[i - 1].score)) place = i + 1;
    return Object.assign(row, { place });
  });
}

function listNames(names) {
  return names.join(LANG === "ja" ? "、" : ", ");
}

function renderResult() {
  const box = document.getElementById("result");
  if (!view || !view.is_terminal) {
    box.hidden = true;
    endShown = false;
    return;
  }
  box.hidden = false;
  const winners = view.winners || [];
  const title = document.getElementById("result-title");
  if (seat != null && winners.length === 1 && winners[0] === seat) title.textContent = t("youWin");
  else if (winners.length === 1) title.textContent = t("wins").replace("{names}", personName(winners[0]));
  else if (winners.length) title.textContent = t("shareWin").replace("{names}", listNames(winners.map(personName)));
  else title.textContent = t("noWinner");
  document.getElementById("winners").textContent = `${t("gameOver")} ${t("winners")}: ${listNames(winners.map(seatName)) || t("nobody")}`;
  const list = clear(document.getElementById("ranking"));
  for (const row of ranking()) {
    const won = winners.includes(row.p);
    list.append(
      el(
        "li",
        { class: [won ? "won" : "", row.p === seat ? "mine" : ""].join(" ").trim() || null, dataset: { seat: row.p } },
        el("span", { class: "place", "aria-label": won ? t("winners") : null }, won ? "★" : String(row.place)),
        el("span", { class: "who" }, seatName(row.p), el("span", { class: "presence-note" }, presenceNote(row.p))),
        el("span", { class: "score" }, compact(row.score)),
      ),
    );
  }
  // Why it ended, in the game's own words: its `game_end` event (else the log's last line).
  const end = [...fullLog].reverse().find((event) => event.type === "game_end") || fullLog[fullLog.length - 1];
  document.getElementById("end-reason").textContent = end ? named(eventText(end)) : "";
  document.getElementById("play-again").hidden = seat == null || !!rematch;
  document.getElementById("rematch-offer").hidden = !rematch;
  if (rematch) document.getElementById("rematch-link").href = rematch.join_url;
  // Who has taken their seat at the new table (the story says so).
  const joined = [...new Set(((table && table.story) || []).filter((e) => e.what === "joined_next").map((e) => e.seat))];
  const hasNext = !!(rematch || (table && table.next_table));
  const joinedBox = document.getElementById("rematch-joined");
  joinedBox.hidden = !hasNext;
  joinedBox.textContent = joined.length ? t("joinedNew").replace("{names}", listNames(joined.map(personName))) : t("joinedNone");
  const link = document.getElementById("download-record");
  link.href = `/api/tables/${encodeURIComponent(TABLE_ID)}/record`;
  link.setAttribute("download", `bodoge-${view.game}-${TABLE_ID}.json`);
  document.getElementById("replay-link").href = `/r/${encodeURIComponent(TABLE_ID)}`;
  document.getElementById("review-link").href = `/r/${encodeURIComponent(TABLE_ID)}`;
  if (!endShown) {
    // The end is an event: the banner comes into view at once, wherever the page was scrolled.
    endShown = true;
    window.scrollTo({ top: 0 });
  }
}

function presenceNote(p) {
  const presence = presenceOf(p);
  return presence === "bot" || presence === "online" ? "" : ` · ${t(PRESENCE_WORDS[presence])}`;
}

// "Review this game": ask the server for the review (made once per table, shared by everyone), then
// follow the replay page, which shows its progress and then the graph. A refusal (too many reviews
// asked from here, a full queue) is shown there too, with its button to ask again.
async function askReview(event) {
  event.preventDefault();
  const link = event.currentTarget;
  try {
    await fetch(`/api/tables/${encodeURIComponent(TABLE_ID)}/review`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
  } catch {
    // offline for a moment: the replay page asks again
  }
  window.location.href = link.href;
}

function render() {
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
