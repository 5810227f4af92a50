// A table: one websocket; render whatever view the server sends, offer its legal actions as buttons.
// The page knows no game: it shows the view generically (proper boards per game come later).
"use strict";

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

function seatName(p) {
  const info = table && table.seats[p];
  return info && info.name && info.name !== `P${p}` ? `P${p} ${info.name}` : `P${p}`;
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
    socket.send(JSON.stringify({ type: "hello", token: TOKEN }));
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
    setStatus("reconnecting");
    setTimeout(connect, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 5000);
  });
}

function handle(message) {
  switch (message.type) {
    case "welcome":
      retryDelay = 500;
      seat = message.seat;
      table = message.table;
      setStatus("live");
      renderTitle();
      renderSeats();
      break;
    case "table":
      table = message.table;
      renderSeats();
      break;
    case "view":
      if (message.seq < seq) return; // an older view (never expected; harmless)
      view = message.view;
      seq = message.seq;
      waiting = false;
      pending = "";
      render();
      break;
    case "error":
      if (message.code === "bad_token") notice(t("badToken"));
      else if (message.code === "no_table") notice(t("noTable"));
      else showActionError(message);
      break;
    default:
      break;
  }
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

function setPending(text) {
  pending = text;
  renderBoardPanel();
  renderActions();
}

// The game's own board, when there is one; the generic view stays below (folded) as the fallback.
function renderBoardPanel() {
  const panel = document.getElementById("board-panel");
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
      el("span", {}, `${bt("chosen")}: `, el("strong", {}, pending)),
      " ",
      el("button", { type: "button", class: "board-btn", id: "board-cancel", onclick: () => setPending("") }, bt("cancel")),
    );
  }
}

function renderTitle() {
  const title = table ? pick(table.title) : "";
  document.getElementById("title").textContent = title;
  document.title = `${title} — bodoge`;
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
    const current = view && view.current_player === p;
    box.append(
      el(
        "tr",
        { class: (current ? "current " : "") + (p === seat ? "mine" : ""), dataset: { seat: p } },
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
    if (wanted && !action.text.toLowerCase().includes(wanted)) continue;
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
        action.text,
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
  const box = document.getElementById("log");
  const events = (view && view.log) || [];
  const nearBottom = box.scrollTop + box.clientHeight >= box.scrollHeight - 40;
  clear(box);
  events.forEach((event) => box.append(el("li", {}, eventText(event))));
  if (nearBottom) box.scrollTop = box.scrollHeight;
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
  const link = document.getElementById("download-record");
  link.href = `/api/tables/${encodeURIComponent(TABLE_ID)}/record`;
  link.setAttribute("download", `bodoge-${view.game}-${TABLE_ID}.json`);
  document.getElementById("replay-link").href = `/r/${encodeURIComponent(TABLE_ID)}`;
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
  onLangChange(render);
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
