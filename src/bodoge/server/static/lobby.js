// The lobby: the games and their rules, the new-table form, join links, and the list of tables.
"use strict";

// The lobby's own strings (the table page shares common.js's).
Object.assign(STRINGS.en, {
  clock: "Turn clock",
  clockHelp: "Seconds per decision (empty: no clock), and a reserve for the decisions that take longer. Out of time, or away longer than a minute, a stand-in bot plays for the person until they are back.",
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
  clock: "持ち時間",
  clockHelp: "1手あたりの秒数（空欄：時間制限なし）と、長考に使える予備の秒数。時間切れか1分以上の離席で、戻るまでボットが代わりに打ちます。",
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
        ` P${m.seat} · ${status} `,
        el("button", { type: "button", class: "forget", onclick: () => forgetTable(m.id) }, t("forget")),
      ),
    );
  });
}

let GAMES = [];
let AGENTS = [];

function gameByName(name) {
  return GAMES.find((g) => g.name === name);
}

function selectedGame() {
  return gameByName(document.getElementById("game").value);
}

function defaultBot() {
  return AGENTS.includes("heuristic") ? "heuristic" : AGENTS[0] || "random";
}

function firstLine(text) {
  const lines = (text || "").split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
  return lines[0] || "";
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
  document.getElementById("game-rules-short").textContent = firstLine(pick(game.rules));
}

function renderOptions() {
  const game = selectedGame();
  const box = document.getElementById("options");
  // Values typed so far are kept when the options are drawn again in another language.
  const typed = {};
  box.querySelectorAll(".option-input").forEach((input) => {
    if (input.value !== input.dataset.default) typed[input.name] = input.value;
  });
  clear(box);
  document.getElementById("options-box").hidden = !game || game.options.length === 0;
  if (!game) return;
  const sameGame = game.name === box.dataset.game;
  box.dataset.game = game.name;
  for (const option of game.options) {
    const id = "opt-" + option.name;
    box.append(
      el(
        "div",
        { class: "row option" },
        el("label", { for: id, title: optionHelp(option) }, option.name),
        el("input", {
          id,
          name: option.name,
          class: "option-input",
          value: sameGame && option.name in typed ? typed[option.name] : JSON.stringify(option.default),
          dataset: { default: JSON.stringify(option.default) },
        }),
        el("span", { class: "muted small" }, `${optionHelp(option)} — ${LANG === "ja" && option.allowed_ja ? option.allowed_ja : option.allowed}`),
      ),
    );
  }
}

function seatWords(s) {
  // A seat of a listed table as people read it: a bot by its name in words, a person by theirs.
  return s.kind === "bot" && (!s.name || s.name === s.spec) ? botName(s.spec) : s.name;
}

function optionHelp(option) {
  // An option's help in the page's language (the game's texts give the Japanese).
  return LANG === "ja" && option.help_ja ? option.help_ja : option.help;
}

function seatRow(i) {
  const kind = el(
    "select",
    { class: "seat-kind", dataset: { seat: i }, "aria-label": `${t("seat")} ${i}` },
    el("option", { value: "human" }, t("human")),
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

function parseOption(text) {
  try {
    return JSON.parse(text);
  } catch (e) {
    return text.trim();
  }
}

async function createTable(event) {
  event.preventDefault();
  const button = document.getElementById("create");
  const errorBox = document.getElementById("create-error");
  errorBox.hidden = true;
  const options = {};
  document.querySelectorAll(".option-input").forEach((input) => {
    if (input.value.trim() !== "" && input.value.trim() !== input.dataset.default) {
      options[input.name] = parseOption(input.value);
    }
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
  const select = clear(document.getElementById("standin"));
  for (const agent of AGENTS) select.append(el("option", { value: agent, selected: agent === "heuristic" }, agent));
}

function tableItem(table) {
  const seats = table.seats
    .map((s) => `${seatWords(s)}${s.kind === "bot" && s.name && s.name !== s.spec ? ` (${botName(s.spec)})` : ""}${s.connected ? " •" : ""}`)
    .join(", ");
  let result = "";
  if (table.result) {
    const winners = table.result.winners.map((w) => seatWords(table.seats[w])).join(", ") || t("nobody");
    result = ` — ${t("winners")}: ${winners} (${table.result.scores.join(" / ")})`;
  }
  return el(
    "li",
    { class: "table-item", dataset: { table: table.id } },
    el("a", { href: `/t/${table.id}` }, table.status === "over" ? t("view") : t("watch")),
    " ",
    el("strong", {}, pick(table.title)),
    ` ${table.players}P · ${table.moves} ${t("moves")}${table.paused ? ` · ${t("paused")}` : ""} · ${seats}${result}`,
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
  const box = clear(document.getElementById("game-list"));
  for (const game of GAMES) {
    box.append(
      el(
        "details",
        { class: "game-rules", dataset: { game: game.name } },
        el("summary", {}, el("strong", {}, pick(game.title)), ` — ${game.min_players}–${game.max_players} ${t("players")}`),
        el("p", { class: "learn-links" },
          el("a", { href: `/learn/${game.name}`, class: "learn-link" }, pick({ en: "Learn to play", ja: "遊び方を学ぶ" })),
          el("a", { href: `/rules/${game.name}` }, pick({ en: "Illustrated rules", ja: "図解ルール" }))),
        el("pre", { class: "rules" }, pick(game.rules)),
      ),
    );
  }
}

function renderAll() {
  renderGameSelect();
  renderPlayers();
  renderOptions();
  renderSeats();
  renderGameList();
  renderStandins();
}

async function start() {
  setupLangSwitch();
  [GAMES, AGENTS] = await Promise.all([api("/api/games"), api("/api/agents")]);
  renderAll();
  document.getElementById("game").addEventListener("change", () => {
    renderPlayers();
    renderOptions();
    renderSeats();
  });
  document.getElementById("players").addEventListener("change", renderSeats);
  document.getElementById("create-form").addEventListener("submit", createTable);
  onLangChange(() => {
    renderGameSelect();
    renderPlayers();
    renderOptions();
    renderSeats();
    renderGameList();
    refreshTables();
    renderMyTables();
  });
  refreshTables();
  renderMyTables();
  setInterval(refreshTables, 5000);
}

start();
