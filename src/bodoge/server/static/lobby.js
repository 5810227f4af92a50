// The lobby: the games and their rules, the new-table form, join links, and the list of tables (open
// tables, quick match and the waiting panel are seating.js).
"use strict";

// The lobby's own strings (the table page shares common.js's).
Object.assign(STRINGS.en, {
  leaderboards: "Leaderboards",
  startTitle: "New here? Pick a game",
  startHelp: "Learn to play: a short lesson on the game's own board. Rules: the whole game, with pictures. Play against bots: a game of your own at once, with hints.",
  learnToPlay: "Learn to play",
  rulesLink: "Rules",
  playBots: "Play against bots",
  playingBots: "Setting up…",
  playersRange: "{min}–{max} players",
  playersN: "{n} players",
  newTableHelp: "To play with friends: choose the game and who sits where, then send each person their seat's link.",
  seatPerson: "Person (gets a join link)",
  yes: "Yes",
  no: "No",
  range: "{min} to {max}",
  emptyMeans: "empty: {words}",
  optionsKept: "The card lists and the tables by number of players stay as the game comes.",
  clock: "Turn clock",
  clockHelp: "Seconds per decision (empty: no clock), and a reserve for the decisions that take longer. Out of time, or away longer than {grace}, a stand-in bot plays for the person until they are back.",
  graceSeconds: "{n} seconds",
  graceSecond: "1 second",
  graceMinutes: "{n} minutes",
  graceMinute: "a minute",
  turnSeconds: "seconds a decision",
  reserveSeconds: "reserve seconds",
  standin: "Stand-in bot",
  myTables: "Your tables",
  myTablesHelp: "The seats this browser joined: resume one, or forget it here.",
  resume: "Resume",
  forget: "Forget",
  paused: "paused",
  over: "over",
  abandoned: "abandoned",
  gone: "no longer on this server",
});
Object.assign(STRINGS.ja, {
  leaderboards: "ランキング",
  startTitle: "はじめての方へ：ゲームを選んでください",
  startHelp: "遊び方を学ぶ：ゲームの盤面で進む短いレッスン。ルール：図解つきの全ルール。ボットと対戦：ヒントつきで今すぐ1ゲーム。",
  learnToPlay: "遊び方を学ぶ",
  rulesLink: "ルール",
  playBots: "ボットと対戦",
  playingBots: "準備中…",
  playersRange: "{min}〜{max}人",
  playersN: "{n}人",
  newTableHelp: "友だちと遊ぶには：ゲームと席を決めて、各席のリンクをその人に送ってください。",
  seatPerson: "人間（参加リンクで着席）",
  yes: "はい",
  no: "いいえ",
  range: "{min}〜{max}",
  emptyMeans: "空欄：{words}",
  optionsKept: "カードの一覧と人数ごとの表は、ゲームの標準のままです。",
  clock: "持ち時間",
  clockHelp: "1手あたりの秒数（空欄：時間制限なし）と、長考に使える予備の秒数。時間切れか{grace}以上の離席で、戻るまでボットが代わりに打ちます。",
  graceSeconds: "{n}秒",
  graceSecond: "1秒",
  graceMinutes: "{n}分",
  graceMinute: "1分",
  turnSeconds: "秒／手",
  reserveSeconds: "予備の秒数",
  standin: "代打ちボット",
  myTables: "あなたの卓",
  myTablesHelp: "このブラウザで参加した席です。続きを打つか、ここから消せます。",
  resume: "続きを打つ",
  forget: "消す",
  paused: "一時停止中",
  over: "終了",
  abandoned: "放棄",
  gone: "このサーバーにはもうありません",
});

// Each game in a line, for the lobby's first screen (the rules page tells the rest).
const PITCH = {
  hangover: {
    en: "A trick-taking game about drinking just enough: hit your drunk limit exactly, but a fifth trick is a hangover.",
    ja: "ちょうどよく酒を飲むトリックテイキング。泥酔値ぴったりを狙い、5回目のトリックでハングオーバー。",
  },
  tokkuri: {
    en: "Drink the sake, collect the empty tokkuri, and leave none of your own full.",
    ja: "お酒を飲んで空いたトックリを集め、自分のトックリは残さないように。",
  },
  tottarot: {
    en: "Fate deals each of you a tarot card; the strongest will may take someone else's, unseen.",
    ja: "配られた運命カードで勝敗が決まる。意志の強さで、相手の運命を奪うこともできます。",
  },
  troika: {
    en: "Mine ore tiles, fill your container with sets of three, and keep the fuel to fly home.",
    ja: "鉱石タイルを掘り、3枚ひと組のセットでコンテナを満たす。帰還の燃料もお忘れなく。",
  },
};

const MY_TABLES = "bodoge.tables"; // the links this browser joined (table.js keeps them)

function myTables() {
  try {
    const mine = JSON.parse(localStorage.getItem(MY_TABLES) || "[]");
    return Array.isArray(mine) ? mine.filter((m) => m && typeof m.id === "string" && typeof m.token === "string") : [];
  } catch (e) {
    return [];
  }
}

function forgetTable(id) {
  localStorage.setItem(MY_TABLES, JSON.stringify(myTables().filter((m) => m.id !== id)));
  renderMyTables();
}

async function renderMyTables() {
  const mine = myTables().slice(0, 10);
  const section = document.getElementById("my-tables");
  section.hidden = mine.length === 0;
  const box = clear(document.getElementById("my-table-list"));
  const summaries = await Promise.all(
    mine.map((m) => api(`/api/tables/${encodeURIComponent(m.id)}`).catch(() => null)),
  );
  mine.forEach((m, i) => {
    const summary = summaries[i];
    const status = !summary
      ? t("gone")
      : summary.status === "playing"
        ? `${summary.moves} ${t("moves")}${summary.paused ? ` · ${t("paused")}` : ""}`
        : t(summary.status);
    box.append(
      el(
        "li",
        { class: "table-item", dataset: { table: m.id } },
        summary ? el("a", { class: "resume", href: `/t/${encodeURIComponent(m.id)}#token=${encodeURIComponent(m.token)}` }, t("resume")) : null,
        " ",
        el("strong", {}, pick(summary ? summary.title : m.title)),
        ` ${summary ? seatLabel(summary.seats, m.seat) : `P${m.seat}`} · ${status} `,
        el("button", { type: "button", class: "forget", onclick: () => forgetTable(m.id) }, t("forget")),
      ),
    );
  });
}

let GAMES = [];
let AGENTS = [];
let GRACE = null; // seconds a person may be away before a stand-in plays (the server's setting)

function gameByName(name) {
  return GAMES.find((g) => g.name === name);
}

function selectedGame() {
  return gameByName(document.getElementById("game").value);
}

function defaultBot() {
  return AGENTS.includes("heuristic") ? "heuristic" : AGENTS[0] || "random";
}

function pitch(game) {
  // The game in a line: the lobby's own words where it has them, else the rules' first line.
  if (PITCH[game.name]) return pick(PITCH[game.name]);
  const lines = (pick(game.rules) || "").split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
  return lines[0] || "";
}

function seatLabel(seats, p) {
  // "P1 Heuristic bot B": a seat by its number and its name (common.js's seatNames: no two alike).
  const name = seatNames(seats)[p];
  return name === `P${p}` ? name : `P${p} ${name}`;
}

function renderGameSelect() {
  const select = document.getElementById("game");
  const keep = select.value;
  clear(select);
  for (const game of GAMES) {
    // The game's title in the page's language (its code, the API's name, only where they differ).
    const title = pick(game.title);
    select.append(el("option", { value: game.name }, LANG === "ja" || title.toLowerCase().startsWith(game.name) ? title : `${title} (${game.name})`));
  }
  if (keep && gameByName(keep)) select.value = keep;
}

function renderPlayers() {
  const game = selectedGame();
  const select = document.getElementById("players");
  const keep = Number(select.value);
  clear(select);
  if (!game) return;
  for (let n = game.min_players; n <= game.max_players; n++) {
    select.append(el("option", { value: n }, String(n)));
  }
  select.value = keep >= game.min_players && keep <= game.max_players ? keep : game.default_players;
  document.getElementById("game-rules-short").textContent = pitch(game);
}

function offered(option) {
  // The options the form offers, in words (the server's `kind` and `label`); the others (card
  // lists, tables by number of players) stay as the game comes.
  return ["integer", "boolean", "choice"].includes(option.kind) && option.label;
}

function optionControl(option, id, value) {
  // The control that chooses an option, its values in words; `value` is the JSON value shown.
  const attrs = { id, name: option.name, class: "option-input", dataset: { kind: option.kind, default: JSON.stringify(option.default) } };
  if (option.kind === "boolean") {
    const select = el("select", attrs, el("option", { value: "true" }, t("yes")), el("option", { value: "false" }, t("no")));
    select.value = String(!!value);
    return select;
  }
  if (option.kind === "choice") {
    const select = el("select", attrs, option.choices.map((c) => el("option", { value: c.value }, pick(c.words))));
    select.value = value;
    return select;
  }
  return el("input", Object.assign(attrs, {
    type: "number",
    inputmode: "numeric",
    step: 1,
    min: option.min,
    max: option.max,
    value: value == null ? "" : String(value),
    placeholder: option.none ? pick(option.none) : null,
  }));
}

function optionNote(option) {
  // Under an option: what it allows, in words ("1 to 100 · empty: until someone goes bankrupt").
  if (option.kind !== "integer") return "";
  const range = fmt("range", { min: Number(option.min).toLocaleString(), max: Number(option.max).toLocaleString() });
  return option.none ? `${range} · ${fmt("emptyMeans", { words: pick(option.none) })}` : range;
}

function optionValue(input) {
  // An option's chosen value as JSON (what the server takes).
  const kind = input.dataset.kind;
  if (kind === "boolean") return input.value === "true";
  if (kind === "choice") return input.value;
  const text = input.value.trim();
  if (text === "") return JSON.parse(input.dataset.default) === null ? null : undefined; // empty: no value, or the default
  return Number(text);
}

function renderOptions() {
  const game = selectedGame();
  const box = document.getElementById("options");
  // Values chosen so far are kept when the options are drawn again in another language.
  const chosen = {};
  box.querySelectorAll(".option-input").forEach((input) => {
    chosen[input.name] = optionValue(input);
  });
  clear(box);
  const shown = game ? game.options.filter(offered) : [];
  document.getElementById("options-box").hidden = shown.length === 0;
  document.getElementById("options-kept").hidden = !game || shown.length === game.options.length;
  if (!game) return;
  const sameGame = game.name === box.dataset.game;
  box.dataset.game = game.name;
  for (const option of shown) {
    const id = "opt-" + option.name;
    const value = sameGame && chosen[option.name] !== undefined ? chosen[option.name] : option.default;
    const note = optionNote(option);
    box.append(
      el(
        "div",
        { class: "row option", dataset: { option: option.name } },
        el("label", { for: id }, pick(option.label)),
        optionControl(option, id, value),
        note ? el("span", { class: "muted small" }, note) : null,
      ),
    );
  }
}

function optionWords(game, name, value) {
  // A table's option as people read it: "Rounds: 1" (null where the lobby has no words for it).
  const option = game && game.options.find((o) => o.name === name);
  if (!option || !offered(option)) return null;
  let words = String(value);
  if (option.kind === "boolean") words = value ? t("yes") : t("no");
  else if (option.kind === "choice") words = pick((option.choices.find((c) => c.value === value) || {}).words) || words;
  else if (value == null && option.none) words = pick(option.none);
  return `${pick(option.label)}: ${words}`;
}

function changedOptions(table) {
  // The options a listed table plays with that are not the game's own, in words.
  const game = gameByName(table.game);
  if (!game) return [];
  return Object.entries(table.options || {})
    .filter(([name, value]) => {
      const option = game.options.find((o) => o.name === name);
      return option && JSON.stringify(option.default) !== JSON.stringify(value);
    })
    .map(([name, value]) => optionWords(game, name, value))
    .filter(Boolean);
}

function seatRow(i) {
  const kind = el(
    "select",
    { class: "seat-kind", dataset: { seat: i }, "aria-label": `${t("seat")} ${i}` },
    el("option", { value: "human" }, t("seatPerson")),
    AGENTS.map((a) => el("option", { value: "bot:" + a }, botName(a))),
  );
  kind.value = i === 0 ? "human" : "bot:" + defaultBot();
  const name = el("input", {
    class: "seat-name",
    maxlength: 40,
    placeholder: i === 0 ? t("you") : "",
    "aria-label": `${t("name")} ${i}`,
  });
  return el("div", { class: "row seat-row", dataset: { seat: i } }, el("span", { class: "seat-label" }, `P${i}`), kind, name);
}

function renderSeats() {
  const n = Number(document.getElementById("players").value) || 0;
  const box = document.getElementById("seats");
  const old = [...box.querySelectorAll(".seat-row")].map((row) => ({
    kind: row.querySelector(".seat-kind").value,
    name: row.querySelector(".seat-name").value,
  }));
  clear(box);
  for (let i = 0; i < n; i++) {
    const row = seatRow(i);
    if (old[i]) {
      row.querySelector(".seat-kind").value = old[i].kind;
      row.querySelector(".seat-name").value = old[i].name;
    }
    box.append(row);
  }
}

async function createTable(event) {
  event.preventDefault();
  const button = document.getElementById("create");
  const errorBox = document.getElementById("create-error");
  errorBox.hidden = true;
  const options = {};
  document.querySelectorAll(".option-input").forEach((input) => {
    const value = optionValue(input);
    if (value !== undefined && JSON.stringify(value) !== input.dataset.default) options[input.name] = value;
  });
  const seats = [...document.querySelectorAll(".seat-row")].map((row) => {
    const kind = row.querySelector(".seat-kind").value;
    const name = row.querySelector(".seat-name").value.trim() || null;
    return kind === "human" ? { kind: "human", name } : { kind: "bot", spec: kind.slice(4), name };
  });
  const body = {
    game: document.getElementById("game").value,
    players: Number(document.getElementById("players").value),
    options,
    seats,
  };
  const turn = document.getElementById("turn-seconds").value.trim();
  if (turn) {
    body.clock = {
      turn_seconds: Number(turn),
      reserve_seconds: Number(document.getElementById("reserve-seconds").value.trim() || 0),
    };
  }
  body.standin = document.getElementById("standin").value;
  button.disabled = true;
  button.textContent = t("creating");
  if (formMode() === "open") {
    try {
      await createSeating(body);
    } catch (e) {
      errorBox.textContent = e.message;
      errorBox.hidden = !e.message;
    } finally {
      button.disabled = false;
      renderMode();
    }
    return;
  }
  try {
    const created = await api("/api/tables", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    showLinks(created);
    refreshTables();
  } catch (e) {
    errorBox.textContent = e.message;
    errorBox.hidden = false;
  } finally {
    button.disabled = false;
    button.textContent = t("create");
  }
}

function absolute(path) {
  return new URL(path, location.origin).href;
}

function linkRow(label, url, seat) {
  const input = el("input", { class: "link", readonly: true, value: url });
  const copy = el("button", { type: "button" }, t("copy"));
  copy.addEventListener("click", async () => {
    input.select();
    try {
      await navigator.clipboard.writeText(url);
    } catch (e) {
      document.execCommand("copy");
    }
    copy.textContent = t("copied");
  });
  return el(
    "div",
    { class: "link-row", dataset: seat == null ? {} : { seat } },
    el("span", { class: "link-label" }, label),
    input,
    copy,
    el("a", { class: seat == null ? "spectator-link" : "join-link", href: url, dataset: seat == null ? {} : { seat } },
      seat == null ? t("watch") : t("playHere")),
  );
}

function showLinks(created) {
  const box = clear(document.getElementById("links"));
  for (const seat of created.seats) {
    if (seat.join_url) {
      const who = seat.name && seat.name !== `P${seat.seat}` ? `P${seat.seat} ${seat.name}` : `P${seat.seat}`;
      box.append(linkRow(`${who} — ${t("joinLink")}`, absolute(seat.join_url), seat.seat));
    }
  }
  box.append(linkRow(t("spectatorLink"), absolute(created.spectator_url), null));
  document.getElementById("created").hidden = false;
  document.getElementById("created").scrollIntoView({ behavior: "smooth", block: "nearest" });
}

function renderStandins() {
  // The bots that may play for a person who is away, by their names in words.
  const select = document.getElementById("standin");
  const keep = select.value || defaultBot();
  clear(select);
  for (const agent of AGENTS) select.append(el("option", { value: agent }, botName(agent)));
  select.value = keep;
}

function graceWords(s) {
  // The server's grace for an away person in words: "a minute", "90 seconds", "2 minutes".
  if (s >= 60 && s % 60 === 0) return s === 60 ? t("graceMinute") : fmt("graceMinutes", { n: s / 60 });
  return s === 1 ? t("graceSecond") : fmt("graceSeconds", { n: String(s) });
}

function renderClockHelp() {
  document.getElementById("clock-help").textContent = GRACE == null ? "" : fmt("clockHelp", { grace: graceWords(GRACE) });
}

function tableItem(table) {
  const names = seatNames(table.seats);
  const seats = table.seats
    .map((s, p) => `${names[p]}${s.kind === "bot" && s.name && s.name !== s.spec ? ` (${botName(s.spec)})` : ""}${s.connected ? " •" : ""}`)
    .join(", ");
  let result = "";
  if (table.result) {
    const winners = table.result.winners.map((w) => names[w]).join(", ") || t("nobody");
    result = ` — ${t("winners")}: ${winners} (${table.result.scores.join(" / ")})`;
  }
  const options = changedOptions(table);
  return el(
    "li",
    { class: "table-item", dataset: { table: table.id } },
    el("a", { href: `/t/${table.id}` }, table.status === "over" ? t("view") : t("watch")),
    " ",
    el("strong", {}, pick(table.title)),
    ` ${fmt("playersN", { n: table.players })}${options.length ? ` · ${options.join(" · ")}` : ""} · ${table.moves} ${t("moves")}${table.paused ? ` · ${t("paused")}` : ""} · ${seats}${result}`,
  );
}

async function refreshTables() {
  try {
    const lists = await api("/api/tables?limit=30");
    for (const [key, id] of [["open", "open-tables"], ["recent", "recent-tables"]]) {
      const box = clear(document.getElementById(id));
      if (lists[key].length === 0) box.append(el("p", { class: "muted" }, t("none")));
      else box.append(el("ul", { class: "tables" }, lists[key].map(tableItem)));
    }
  } catch (e) {
    /* the next refresh tries again */
  }
}

function renderGameList() {
  // The first thing a newcomer sees: each game, and three ways in (learn, rules, play at once).
  const box = clear(document.getElementById("game-list"));
  for (const game of GAMES) {
    box.append(
      el(
        "li",
        { class: "game-entry game-rules", dataset: { game: game.name } },
        el("h3", {}, pick(game.title), " ", el("span", { class: "game-players" }, fmt("playersRange", { min: game.min_players, max: game.max_players }))),
        el("p", { class: "game-pitch" }, pitch(game)),
        el(
          "p",
          { class: "learn-links" },
          el("a", { href: `/learn/${game.name}`, class: "button primary learn-link" }, t("learnToPlay")),
          el("a", { href: `/rules/${game.name}`, class: "button rules-link" }, t("rulesLink")),
          el("button", { type: "button", class: "play-bots", onclick: (e) => playBots(game, e.currentTarget) }, t("playBots")),
        ),
        quickRow(game),
        el("p", { class: "error small play-error", hidden: true }),
      ),
    );
  }
}

async function playBots(game, button) {
  // A game of one's own at once: this browser's person and the game's bots, with hints (as the
  // lessons' practice game), then straight to the seat.
  const error = button.closest(".game-entry").querySelector(".play-error");
  error.hidden = true;
  button.disabled = true;
  button.textContent = t("playingBots");
  const players = game.default_players;
  const seats = [];
  for (let p = 0; p < players; p++) seats.push(p === 0 ? { kind: "human" } : { kind: "bot", spec: defaultBot() });
  try {
    const made = await api("/api/tables", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ game: game.name, players, seats, hints: true }),
    });
    location.href = made.seats[0].join_url;
  } catch (e) {
    error.textContent = e.message;
    error.hidden = false;
    button.disabled = false;
    button.textContent = t("playBots");
  }
}

function renderAll() {
  renderGameSelect();
  renderPlayers();
  renderOptions();
  renderSeats();
  renderGameList();
  renderStandins();
  renderClockHelp();
  renderBotsAfter();
  renderMode();
}

async function start() {
  setupLangSwitch();
  const health = api("/api/health").catch(() => ({}));
  [GAMES, AGENTS] = await Promise.all([api("/api/games"), api("/api/agents")]);
  const grace = Number((await health).away_grace);
  GRACE = Number.isFinite(grace) && grace >= 0 ? grace : null;
  renderAll();
  document.getElementById("game").addEventListener("change", () => {
    renderPlayers();
    renderOptions();
    renderSeats();
  });
  document.getElementById("players").addEventListener("change", renderSeats);
  document.getElementById("create-form").addEventListener("submit", createTable);
  document.querySelectorAll("input[name='mode']").forEach((radio) => radio.addEventListener("change", renderMode));
  document.getElementById("name-first-form").addEventListener("submit", nameChosen);
  document.getElementById("name-first-cancel").addEventListener("click", nameDeclined);
  onLangChange(() => {
    renderGameSelect();
    renderPlayers();
    renderOptions();
    renderSeats();
    renderGameList();
    renderStandins();
    renderClockHelp();
    renderBotsAfter();
    renderMode();
    renderWaiting();
    refreshTables();
    refreshSeatings();
    renderMyTables();
  });
  refreshTables();
  refreshSeatings();
  renderMyTables();
  findMySeatings();
  if (window.bodogeIdentity) bodogeIdentity.onChange(refreshSeatings);
  setInterval(tickWaiting, 1000);
  setInterval(() => {
    refreshTables();
    refreshSeatings();
  }, 5000);
}

start();
