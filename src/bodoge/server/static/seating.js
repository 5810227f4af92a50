// Open tables and quick match in the lobby (server/seating.py): a seating waits for people before its
// game exists. The lobby lists the public ones, "Quick match" sits the player at one of a game (or
// makes one), the new-table form makes one, and the waiting panel follows the player's own until their
// game starts, then takes them to their seat. Sitting down needs a player (identity.js). Loaded before
// lobby.js, whose helpers (AGENTS, defaultBot, absolute) these functions use when they run.
"use strict";

Object.assign(STRINGS.en, {
  quickMatch: "Quick match",
  quickMatching: "Finding a table…",
  quickPlayers: "players for quick match",
  whoPlays: "Who plays",
  modeLinks: "Friends I send links to",
  modeOpen: "Anyone: an open table",
  openTable: "Open table",
  openTableHelp: "You sit down at once; anyone may take the other seats. The game starts when every seat is taken.",
  listed: "Listed",
  listedYes: "In the lobby's open tables",
  listedNo: "Private: only who has its link",
  botsAfter: "Bots after",
  botsNever: "Never: wait for people",
  botsSeconds: "{n} seconds",
  botsMinutes: "{n} minutes",
  botsMinute: "1 minute",
  openBot: "Bot for free seats",
  openCreate: "Open the table",
  seatingsTitle: "Open tables",
  seatingsHelp: "Tables waiting for people. Take a free seat: the game starts when every seat is taken. Tables in play can be watched below.",
  join: "Join",
  joining: "Joining…",
  seatedHere: "You are seated",
  freeSeats: "{n} free",
  freeSeat: "1 free",
  botsIn: "bots in {n} s",
  botsSoon: "bots any moment",
  waitsForPeople: "waits for people",
  noClock: "no clock",
  clockWords: "{turn} s a move + {reserve} s reserve",
  quickTag: "quick match",
  privateTag: "private",
  waitingTitle: "Waiting for players",
  nameFirst: "Choose a name to sit at a table (no e-mail, no password):",
  nameFirstGo: "Sit down",
  seatedOf: "{taken} of {players} seated",
  creatorTag: "created it",
  leave: "Leave",
  cancelTable: "Cancel the table",
  removeSeat: "Remove",
  shareLink: "Link to this table",
  startingNow: "Starting…",
  startedGo: "The game has started: taking you to your seat…",
  goToSeat: "Go to your seat",
  cancelledNote: "This table was cancelled.",
  notSeated: "You are not seated here.",
  stillWaiting: "Waiting for {n} more",
  stillWaitingOne: "Waiting for 1 more",
  seatedList: "Seated",
  newTableOpenHelp: "To play with anyone: choose the game, its options and clock; the table is listed until its seats are taken.",
});
Object.assign(STRINGS.ja, {
  quickMatch: "クイックマッチ",
  quickMatching: "卓を探しています…",
  quickPlayers: "クイックマッチの人数",
  whoPlays: "遊ぶ人",
  modeLinks: "リンクを送る友だち",
  modeOpen: "誰でも：オープン卓",
  openTable: "オープン卓",
  openTableHelp: "あなたはすぐに着席し、残りの席には誰でも座れます。全席が埋まるとゲームが始まります。",
  listed: "公開",
  listedYes: "ロビーのオープン卓に載せる",
  listedNo: "非公開：リンクを知っている人だけ",
  botsAfter: "ボット補充",
  botsNever: "しない：人を待つ",
  botsSeconds: "{n}秒後",
  botsMinutes: "{n}分後",
  botsMinute: "1分後",
  openBot: "空席に入るボット",
  openCreate: "オープン卓を立てる",
  seatingsTitle: "オープン卓",
  seatingsHelp: "参加者を待っている卓です。空席に座ると、全席が埋まった時点でゲームが始まります。プレイ中の卓は下で観戦できます。",
  join: "座る",
  joining: "着席中…",
  seatedHere: "着席済み",
  freeSeats: "空席{n}",
  freeSeat: "空席1",
  botsIn: "{n}秒後にボット",
  botsSoon: "まもなくボット",
  waitsForPeople: "人がそろうまで待つ",
  noClock: "持ち時間なし",
  clockWords: "1手{turn}秒＋予備{reserve}秒",
  quickTag: "クイックマッチ",
  privateTag: "非公開",
  waitingTitle: "参加者を待っています",
  nameFirst: "卓に座るには名前を決めてください（メールもパスワードも要りません）：",
  nameFirstGo: "座る",
  seatedOf: "{players}席中{taken}席",
  creatorTag: "卓を立てた人",
  leave: "席を立つ",
  cancelTable: "卓をやめる",
  removeSeat: "外す",
  shareLink: "この卓へのリンク",
  startingNow: "開始中…",
  startedGo: "ゲームが始まりました。あなたの席へ移動します…",
  goToSeat: "自分の席へ",
  cancelledNote: "この卓は取りやめになりました。",
  notSeated: "この卓には座っていません。",
  stillWaiting: "あと{n}人",
  stillWaitingOne: "あと1人",
  seatedList: "着席",
  newTableOpenHelp: "誰とでも遊ぶには：ゲームとオプション、持ち時間を決めてください。席が埋まるまでロビーに載ります。",
});

function quickRow(game) {
  // Quick match: a table of strangers for this game, of the number of players chosen here.
  const counts = [];
  for (let n = Math.max(2, game.min_players); n <= game.max_players; n++) counts.push(n);
  if (counts.length === 0) return null;
  const players = el(
    "select",
    { class: "quick-players", "aria-label": t("quickPlayers") },
    counts.map((n) => el("option", { value: n }, fmt("playersN", { n }))),
  );
  players.value = String(counts.includes(game.default_players) ? game.default_players : counts[0]);
  const button = el("button", { type: "button", class: "quick-match" }, t("quickMatch"));
  button.addEventListener("click", () => {
    const error = button.closest(".game-entry").querySelector(".play-error");
    quickMatch(game, Number(players.value), button, error);
  });
  return el("p", { class: "learn-links quick-row" }, button, players);
}

const BOTS_AFTER = [null, 30, 60, 120, 300, 600]; // the form's choices, in seconds (null: never)
const WAIT_S = 20; // seconds one long poll of a seating may wait (the server's limit is 25)
const RETRY_MS = 3000; // after a failed ask
const FOLLOW_FOR_MS = 30 * 60 * 1000; // how long the panel follows its tables after the last click
const WAITING = new Map(); // seating id -> the seating as last read (the panel's tables)
let followUntil = 0;
let nameWanted = null; // {resolve, reject} while the panel asks for a name first

function authed(extra) {
  return window.bodogeIdentity ? bodogeIdentity.headers(extra) : extra || {};
}

function seatingCall(path, method, body) {
  const options = { method: method || "GET", headers: authed(body === undefined ? {} : { "Content-Type": "application/json" }) };
  if (body !== undefined) options.body = JSON.stringify(body);
  return api(path, options);
}

function needPlayer() {
  // The player, asking for a name first (in the waiting panel) where this browser has none.
  const me = window.bodogeIdentity && bodogeIdentity.player();
  if (me) return Promise.resolve(me);
  if (nameWanted) nameWanted.reject(new Error("asked again"));
  document.getElementById("name-first").hidden = false;
  renderWaiting();
  document.getElementById("name-first-error").hidden = true;
  document.getElementById("waiting").scrollIntoView({ behavior: "smooth", block: "nearest" });
  setTimeout(() => document.getElementById("name-first-input").focus(), 0);
  return new Promise((resolve, reject) => {
    nameWanted = { resolve, reject };
  });
}

async function nameChosen(event) {
  event.preventDefault();
  const input = document.getElementById("name-first-input");
  const problem = document.getElementById("name-first-error");
  problem.hidden = true;
  try {
    const me = await bodogeIdentity.signUp(input.value.trim());
    document.getElementById("name-first").hidden = true;
    renderWaiting();
    if (nameWanted) nameWanted.resolve(me);
    nameWanted = null;
  } catch (e) {
    problem.textContent = e.message;
    problem.hidden = false;
  }
}

function nameDeclined() {
  document.getElementById("name-first").hidden = true;
  if (nameWanted) nameWanted.reject(new Error(""));
  nameWanted = null;
  renderWaiting();
}

function clockWords(clock) {
  if (!clock) return t("noClock");
  return fmt("clockWords", { turn: clock.turn_seconds, reserve: clock.reserve_seconds || 0 });
}

function botsWords(seating) {
  // Counted down here from the server's `bots_in` when it was read (`seenAt`), so that the page
  // needs no clock of the server's.
  if (seating.bots_after == null) return t("waitsForPeople");
  const since = seating.seenAt ? (Date.now() - seating.seenAt) / 1000 : 0;
  const left = Math.ceil((seating.bots_in || 0) - since);
  return left > 0 ? fmt("botsIn", { n: left }) : t("botsSoon");
}

function freeWords(n) {
  return n === 1 ? t("freeSeat") : fmt("freeSeats", { n });
}

function seatingFacts(seating) {
  // "Troika 3 players · 60 s a move + 300 s reserve · Rounds: 1 · 1 free · bots in 42 s"
  const words = (seating.options_words && (seating.options_words[LANG] || seating.options_words.en)) || [];
  return [
    fmt("playersN", { n: seating.players }),
    clockWords(seating.clock),
    ...words,
    freeWords(seating.free),
    botsWords(seating),
  ].join(" · ");
}

function seatingItem(seating) {
  // A line of the lobby's open tables: the game, its facts, who sat down, and Join.
  const mine = seating.you && seating.you.seated;
  const join = el("button", { type: "button", class: mine ? "seated" : "primary join-seating", disabled: mine }, mine ? t("seatedHere") : t("join"));
  if (!mine) join.addEventListener("click", () => joinSeating(seating.id, join));
  const names = seating.seats.map((s) => s.name).join(", ");
  return el(
    "li",
    { class: "table-item seating-item", dataset: { seating: seating.id, game: seating.game } },
    join,
    " ",
    el("strong", {}, pick(seating.title)),
    seating.quick ? el("span", { class: "muted small" }, ` (${t("quickTag")})`) : null,
    el("div", { class: "small" }, seatingFacts(seating)),
    el("div", { class: "small muted seated-names" }, `${t("seatedList")}: ${names}`),
  );
}

async function refreshSeatings() {
  try {
    const { seatings } = await api("/api/seatings?limit=30", { headers: authed() });
    const box = clear(document.getElementById("open-seatings"));
    if (seatings.length === 0) box.append(el("p", { class: "muted" }, t("none")));
    else box.append(el("ul", { class: "tables" }, seatings.map(seatingItem)));
  } catch (e) {
    /* the next refresh tries again */
  }
}

async function joinSeating(id, button) {
  try {
    await needPlayer();
  } catch (e) {
    return;
  }
  if (button) {
    button.disabled = true;
    button.textContent = t("joining");
  }
  try {
    watchSeating(await seatingCall(`/api/seatings/${encodeURIComponent(id)}/join`, "POST"));
  } catch (e) {
    showWaitingError(e.message);
  } finally {
    refreshSeatings();
  }
}

async function quickMatch(game, players, button, error) {
  error.hidden = true;
  try {
    await needPlayer();
  } catch (e) {
    return;
  }
  button.disabled = true;
  button.textContent = t("quickMatching");
  try {
    watchSeating(await seatingCall("/api/quickmatch", "POST", { game: game.name, players }));
  } catch (e) {
    error.textContent = e.message;
    error.hidden = false;
  } finally {
    button.disabled = false;
    button.textContent = t("quickMatch");
    refreshSeatings();
  }
}

async function createSeating(body) {
  // The form's game, players, options and clock, as an open table.
  await needPlayer();
  const after = document.getElementById("bots-after").value;
  const seating = await seatingCall("/api/seatings", "POST", {
    game: body.game,
    players: body.players,
    options: body.options,
    clock: body.clock || null,
    public: document.getElementById("open-public").value === "true",
    bots_after: after === "" ? null : Number(after),
    bot: document.getElementById("open-bot").value,
  });
  watchSeating(seating);
  refreshSeatings();
}

function showWaitingError(message) {
  const panel = document.getElementById("waiting");
  panel.hidden = false;
  let box = document.getElementById("waiting-error");
  if (!box) {
    box = el("p", { id: "waiting-error", class: "error small", role: "alert" });
    panel.append(box);
  }
  box.textContent = message;
  box.hidden = false;
}

function watchSeating(seating) {
  // Show the seating in the waiting panel and follow it until its game starts.
  const followed = WAITING.has(seating.id);
  seating.seenAt = Date.now();
  WAITING.set(seating.id, seating);
  renderWaiting();
  followUntil = Date.now() + FOLLOW_FOR_MS;
  if (!goIfStarted(seating) && !followed) follow(seating.id);
}

function goIfStarted(seating) {
  const you = seating.you || {};
  if (seating.status === "started" && you.join_url) {
    location.href = you.join_url;
    return true;
  }
  return false;
}

async function follow(id) {
  // Ask for the seating again each time it changes (a long poll: the server answers at the change,
  // or after WAIT_S), while it waits and for FOLLOW_FOR_MS after the player's last click.
  while (WAITING.has(id) && Date.now() < followUntil) {
    const known = WAITING.get(id);
    if (known.status !== "waiting" && known.status !== "starting") return;
    try {
      const seating = await seatingCall(`/api/seatings/${encodeURIComponent(id)}?version=${known.version}&wait=${WAIT_S}`);
      if (!WAITING.has(id)) return;
      seating.seenAt = Date.now();
      WAITING.set(id, seating);
      renderWaiting();
      if (goIfStarted(seating)) return;
    } catch (e) {
      if (e.status === 404) {
        WAITING.delete(id);
        renderWaiting();
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS)); // the server is away: again soon
    }
  }
}

async function seatingAction(seating, path, method, body) {
  try {
    const changed = await seatingCall(path, method, body);
    if (changed) WAITING.set(seating.id, Object.assign(changed, { seenAt: Date.now() }));
    else WAITING.set(seating.id, Object.assign({}, seating, { status: "cancelled" }));
    if (method === "POST" && path.endsWith("/leave")) WAITING.delete(seating.id);
  } catch (e) {
    showWaitingError(e.message);
  }
  renderWaiting();
  refreshSeatings();
}

function waitingState(seating) {
  // "2 of 3 seated · Waiting for 1 more · bots in 42 s", or how it ended.
  const you = seating.you || {};
  if (seating.status === "waiting") {
    const more = seating.free === 1 ? t("stillWaitingOne") : fmt("stillWaiting", { n: seating.free });
    return `${fmt("seatedOf", { taken: seating.seats.length, players: seating.players })} · ${more} · ${botsWords(seating)}`;
  }
  if (seating.status === "starting") return t("startingNow");
  if (seating.status === "started") return you.join_url ? t("startedGo") : t("notSeated");
  return t("cancelledNote");
}

function tickWaiting() {
  // Each second: the countdowns to the bots (the rest changes only when the server says so).
  for (const seating of WAITING.values()) {
    const line = document.querySelector(`.waiting-item[data-seating="${CSS.escape(seating.id)}"] .waiting-state`);
    if (line) line.textContent = waitingState(seating);
  }
}

function waitingItem(seating) {
  // One of the player's tables in the panel: who sat down, how many more, when bots come, and what
  // the player may do (leave; the creator: remove a seat, cancel).
  const base = `/api/seatings/${encodeURIComponent(seating.id)}`;
  const you = seating.you || {};
  const people = el(
    "ul",
    { class: "seated-people" },
    seating.seats.map((s, i) => {
      const isCreator = s.player === seating.creator.player;
      const remove = you.creator && !isCreator && seating.status === "waiting"
        ? el("button", { type: "button", class: "remove-seat small", onclick: () => seatingAction(seating, `${base}/remove`, "POST", { seat: i, player: s.player }) }, t("removeSeat"))
        : null;
      return el("li", {}, s.name, isCreator ? el("span", { class: "muted small" }, ` (${t("creatorTag")})`) : null, remove ? " " : null, remove);
    }),
  );
  const state = waitingState(seating);
  const actions = el("p", { class: "learn-links" });
  if (seating.status === "waiting") {
    if (you.seated) actions.append(el("button", { type: "button", class: "leave-seating", onclick: () => seatingAction(seating, `${base}/leave`, "POST") }, t("leave")));
    else actions.append(el("button", { type: "button", class: "primary join-seating", onclick: (e) => joinSeating(seating.id, e.currentTarget) }, t("join")));
    if (you.creator) actions.append(" ", el("button", { type: "button", class: "cancel-seating", onclick: () => seatingAction(seating, base, "DELETE") }, t("cancelTable")));
  }
  if (seating.status === "started" && you.join_url) actions.append(el("a", { class: "button primary", href: you.join_url }, t("goToSeat")));
  const share = seating.status === "waiting"
    ? el("div", { class: "link-row" }, el("span", { class: "link-label" }, t("shareLink")), el("input", { class: "link", readonly: true, value: absolute(seating.url) }))
    : null;
  return el(
    "li",
    { class: "table-item waiting-item", dataset: { seating: seating.id, status: seating.status } },
    el("strong", {}, pick(seating.title)),
    seating.public ? null : el("span", { class: "muted small" }, ` (${t("privateTag")})`),
    ` ${fmt("playersN", { n: seating.players })} · ${clockWords(seating.clock)}`,
    el("p", { class: "waiting-state" }, state),
    people,
    actions,
    share,
  );
}

function renderWaiting() {
  const panel = document.getElementById("waiting");
  const box = clear(document.getElementById("waiting-list"));
  for (const seating of WAITING.values()) box.append(waitingItem(seating));
  // Only the name asked for (no table yet): the panel is titled by that.
  document.getElementById("waiting-title").textContent = WAITING.size ? t("waitingTitle") : t("idChoose");
  panel.hidden = WAITING.size === 0 && document.getElementById("name-first").hidden;
}

async function findMySeatings() {
  // The tables this player waits at (another tab, a reload), and one a link opened (#open=ID).
  const opened = /(?:^#|&)open=([\w-]{1,16})/.exec(location.hash);
  if (opened) {
    try {
      watchSeating(await seatingCall(`/api/seatings/${encodeURIComponent(opened[1])}`));
    } catch (e) {
      showWaitingError(e.message);
    }
  }
  const me = window.bodogeIdentity && (await bodogeIdentity.ready);
  if (!me) return;
  try {
    const { seatings } = await seatingCall("/api/seatings/mine");
    for (const seating of seatings) if (seating.status !== "started") watchSeating(seating);
  } catch (e) {
    /* shown again on the next visit */
  }
}

function renderBotsAfter() {
  const select = document.getElementById("bots-after");
  const keep = select.value;
  clear(select);
  for (const s of BOTS_AFTER) {
    let words = t("botsNever");
    if (s != null) words = s < 60 ? fmt("botsSeconds", { n: s }) : s === 60 ? t("botsMinute") : fmt("botsMinutes", { n: s / 60 });
    select.append(el("option", { value: s == null ? "" : String(s) }, words));
  }
  select.value = keep || "60";
  const bot = document.getElementById("open-bot");
  const keepBot = bot.value || defaultBot();
  clear(bot);
  for (const agent of AGENTS) bot.append(el("option", { value: agent }, botName(agent)));
  bot.value = keepBot;
}

function formMode() {
  return document.querySelector("input[name='mode']:checked").value;
}

function renderMode() {
  const open = formMode() === "open";
  document.getElementById("seats-box").hidden = open;
  document.getElementById("open-box").hidden = !open;
  document.getElementById("create").textContent = open ? t("openCreate") : t("create");
  document.getElementById("new-table-help").textContent = open ? t("newTableOpenHelp") : t("newTableHelp");
}
