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
});
const MY_TABLES = "bodoge.tables"; // the links this browser joined: the lobby lists them to resume
const MY_NAME = "bodoge.name"; // the name the server last accepted from this browser, sent at every table
const NAME_ERRORS = { name_taken: "nameTaken", bad_name: "badName", name_rate: "nameRate" };
const MAX_MY_TABLES = 30;

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

function seatName(p) {
  const info = table && table.seats[p];
  return info && info.name && info.name !== `P${p}` ? `P${p} ${info.name}` : `P${p}`;
}

function actionText(action) {
  // An action's words in the page's language: the engine writes both.
  return LANG === "ja" && action.text_ja ? action.text_ja : action.text;
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

function setTable(summary) {
  table = summary;
  clockAt = performance.now();
  nameAccepted();
  renderSeats();
  renderPresence();
  renderResult();
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
    ? renderBoard(view.game, view, { seatName, send, pending, setPending, readOnly: waiting })
    : null;
  panel.hidden = !drawn;
  const stateBox = document.getElementById("state-box");
  if (drawn && !stateBox.dataset.folded) {
    stateBox.open = false;
    stateBox.dataset.folded = "1";
  }
  if (!drawn) return;
  box.append(drawn.node);
  animateBoard(before, box);
  box.dataset.ready = waiting ? "" : "1";
  const prompt = document.getElementById("board-prompt");
  const mine = view.legal_actions && view.legal_actions.length > 0;
  prompt.textContent = view.is_terminal
    ? t("gameOver")
    : mine
      ? `${t("yourDecision")}: ${drawn.prompt || decisionText(view)}`
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
    if (info.kind === "bot") tags.push(`${t("bot")}: ${info.spec}`);
    else tags.push(info.connected ? t("connected") : t("offline"));
    if (info.away) tags.push(t("away"));
    const current = view && view.current_player === p;
    box.append(
      el(
        "tr",
        { class: (current ? "current " : "") + (p === seat ? "mine" : "") + (info.away ? " away" : ""), dataset: { seat: p } },
        el("td", {}, `${current ? "▶ " : ""}${seatName(p)}`),
        el("td", { class: "score" }, scores ? compact(scores[p]) : ""),
        el("td", { class: "muted small" }, tags.join(" · ")),
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
    decision.textContent = decisionText(view);
  } else {
    title.textContent = `${t("waitingFor")} ${seatName(view.current_player)}`;
    decision.textContent = decisionText(view);
  }
  renderActions();
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
  if (!view) return;
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

function renderLog() {
  // Appends what is new (a long game's log is thousands of lines); redrawn whole only when the
  // language changes or the log was replaced.
  const box = document.getElementById("log");
  const events = (view && view.log) || [];
  const nearBottom = box.scrollTop + box.clientHeight >= box.scrollHeight - 40;
  let fresh = box.children.length > 0; // a redraw shows the log as it is; new lines light up
  if (box.dataset.lang !== LANG || box.children.length > events.length) {
    clear(box);
    box.dataset.lang = LANG;
    fresh = false;
  }
  const first = box.children.length;
  for (let i = first; i < events.length; i += 1) {
    // Several moves at once (bots in a row): they light up one after another, in order.
    const style = fresh ? { "animation-delay": `${Math.min(i - first, 8) * 0.35}s` } : null;
    box.append(el("li", { class: fresh ? "fresh" : null, style }, eventText(events[i])));
  }
  if (nearBottom) box.scrollTop = box.scrollHeight;
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
  if (!parts) return;
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
  box.classList.toggle("mine", clock.seat === seat);
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

function renderChat() {
  const box = clear(document.getElementById("chat-lines"));
  if (!chatLines.length) box.append(el("li", { class: "muted" }, t("chatEmpty")));
  for (const line of chatLines) {
    box.append(el("li", { class: line.seat === seat ? "own" : "" }, el("strong", {}, `${line.name}: `), line.text));
  }
  box.scrollTop = box.scrollHeight;
  document.getElementById("chat-form").hidden = seat == null;
}

function sendMessage(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function renderResult() {
  const box = document.getElementById("result");
  if (!view || !view.is_terminal) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const winners = (view.winners || []).map(seatName).join(", ") || t("nobody");
  const scores = (view.scores || []).map((s, p) => `${seatName(p)}: ${compact(s)}`).join(" · ");
  document.getElementById("winners").textContent = `${t("winners")}: ${winners} — ${scores}`;
  // The log's last words say why the game ended (a round limit, every player out, ...).
  const last = fullLog.length ? fullLog[fullLog.length - 1] : null;
  document.getElementById("end-reason").textContent = last ? `${t("endReason")}: ${eventText(last)}` : "";
  document.getElementById("play-again").hidden = seat == null || !!rematch;
  document.getElementById("rematch-offer").hidden = !rematch;
  if (rematch) document.getElementById("rematch-link").href = rematch.join_url;
  const link = document.getElementById("download-record");
  link.href = `/api/tables/${encodeURIComponent(TABLE_ID)}/record`;
  link.setAttribute("download", `bodoge-${view.game}-${TABLE_ID}.json`);
  document.getElementById("replay-link").href = `/r/${encodeURIComponent(TABLE_ID)}`;
  document.getElementById("review-link").href = `/r/${encodeURIComponent(TABLE_ID)}`;
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
    renderChat();
    renderPresence();
    renderNameError();
  });
  document.getElementById("im-back").addEventListener("click", () => sendMessage({ type: "back" }));
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
  setInterval(renderClock, 250);
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
