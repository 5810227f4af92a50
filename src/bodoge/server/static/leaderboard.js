// The leaderboards (/leaderboard, /leaderboard#GAME): a tab per game, its best players by rating, with
// the bots' fixed ratings among them in grey for scale. GET /api/leaderboard/GAME (server/ratings.py).
"use strict";

const BOARD_SIZE = 100; // the most the server lists
let games = []; // [{name, title}] as GET /api/games answers
let current = null; // the game shown
let board = null; // its answer
let asking = 0; // the newest request's number: an older answer arriving late is dropped

function chosen() {
  const wanted = decodeURIComponent(location.hash.slice(1));
  return games.some((g) => g.name === wanted) ? wanted : games.length ? games[0].name : null;
}

function drawTabs() {
  const tabs = clear(document.getElementById("board-tabs"));
  for (const game of games) {
    const selected = game.name === current;
    tabs.append(
      el(
        "a",
        {
          role: "tab",
          id: `tab-${game.name}`,
          href: `#${encodeURIComponent(game.name)}`,
          class: "board-tab",
          "aria-selected": selected ? "true" : "false",
          "aria-controls": "board",
          tabindex: selected ? "0" : "-1",
        },
        pick(game.title),
      ),
    );
  }
  document.getElementById("board").setAttribute("aria-labelledby", current ? `tab-${current}` : "");
}

// The players and the bots' reference rows in one order: by rating, best first.
function rowsOf(answer) {
  const people = answer.players.map((p) => ({ kind: "player", ordinal: p.ordinal, entry: p }));
  const bots = answer.players.length ? answer.anchors.map((a) => ({ kind: "bot", ordinal: a.ordinal, entry: a })) : [];
  return [...people, ...bots].sort((a, b) => b.ordinal - a.ordinal || (a.kind === "bot") - (b.kind === "bot"));
}

function drawBoard() {
  const body = clear(document.getElementById("board-rows"));
  if (!board) return;
  document.getElementById("board-empty").hidden = board.players.length > 0;
  document.querySelector(".board-table").hidden = board.players.length === 0;
  for (const row of rowsOf(board)) {
    const e = row.entry;
    const range = `${ratingText(e.mu - 2 * e.sigma)} – ${ratingText(e.mu + 2 * e.sigma)}`;
    if (row.kind === "bot") {
      body.append(
        el(
          "tr",
          { class: "anchor-row" },
          el("td", {}, ""),
          el("td", {}, botName(e.bot), " ", el("span", { class: "small" }, `(${t("fixed")})`)),
          el("td", { class: "num" }, ratingText(e.ordinal)),
          el("td", { class: "num range-col" }, range),
          el("td", { class: "num" }, "–"),
        ),
      );
      continue;
    }
    body.append(
      el(
        "tr",
        { dataset: { player: e.player.id } },
        el("td", { class: `rank rank-${Math.min(e.rank, 4)}` }, String(e.rank)),
        el("td", {}, el("a", { href: `/p/${encodeURIComponent(e.player.id)}` }, e.player.name)),
        el("td", { class: "num rating-cell" }, ratingText(e.ordinal)),
        el("td", { class: "num range-col" }, range),
        el("td", { class: "num" }, String(e.games)),
      ),
    );
  }
}

async function show(game) {
  current = game;
  drawTabs();
  if (!game) return;
  const mine = ++asking;
  try {
    const answer = await api(`/api/leaderboard/${encodeURIComponent(game)}?limit=${BOARD_SIZE}`);
    if (mine !== asking) return;
    board = answer;
    notice("");
  } catch (error) {
    if (mine !== asking) return;
    board = null;
    notice(`${t("loadFailed")} ${error.message}`);
  }
  drawBoard();
}

// Arrow keys move between the tabs (the ARIA tabs pattern); the address keeps the game shown.
function onTabKey(event) {
  const i = games.findIndex((g) => g.name === current);
  const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
  if (step === undefined || i < 0) return;
  event.preventDefault();
  const next = games[(i + step + games.length) % games.length];
  location.hash = encodeURIComponent(next.name);
  document.getElementById(`tab-${next.name}`).focus();
}

async function load() {
  try {
    games = (await api("/api/games")).map((g) => ({ name: g.name, title: g.title }));
  } catch (error) {
    notice(`${t("loadFailed")} ${error.message}`);
    return;
  }
  await show(chosen());
}

setupLangSwitch();
onLangChange(() => {
  drawTabs();
  drawBoard();
});
window.addEventListener("hashchange", () => show(chosen()));
document.getElementById("board-tabs").addEventListener("keydown", onTabKey);
load();
