// A player's profile (/p/ID): their name, each game's rating with its plot over their games, and the
// games they played (place, how it counted, the rating's change, who else played, replay and review).
// GET /api/players/ID and /api/players/ID/history (server/ratings.py).
"use strict";

const PLAYER_ID = decodeURIComponent(location.pathname.split("/")[2] || "");
let profile = null;
let history = [];
let scale = null;
let gameTitles = {}; // game -> {en, ja}, for games this server knows

function drawWho() {
  const player = profile.player;
  document.getElementById("who").hidden = false;
  document.getElementById("who-name").textContent = player.name;
  document.getElementById("who-since").textContent = fmt("since", { date: dateText(player.since) });
  document.title = `${player.name} — bodoge`;
}

function titleOf(entry) {
  return pick(entry.title || gameTitles[entry.game] || entry.game);
}

function drawRatings() {
  const box = clear(document.getElementById("ratings"));
  document.getElementById("ratings-panel").hidden = false;
  document.getElementById("no-ratings").hidden = profile.ratings.length > 0;
  for (const r of profile.ratings) {
    const points = history.filter((p) => p.game === r.game);
    const card = el(
      "article",
      { class: "rating-card", dataset: { game: r.game } },
      el(
        "header",
        {},
        el("h3", {}, titleOf(r)),
        el("p", { class: "rating-number" }, el("span", { class: "sr-only" }, t("rating") + " "), ratingText(r.ordinal)),
        el(
          "p",
          { class: "rating-range muted small" },
          fmt("range", { low: ratingText(r.low), high: ratingText(r.high) }),
          " · ",
          ratedGamesText(r.games),
          " · ",
          el("a", { href: `/leaderboard#${encodeURIComponent(r.game)}` }, t("leaderboards")),
        ),
      ),
    );
    box.append(card);
    if (points.length && scale) {
      const room = card.clientWidth - 2 * 14; // inside the card's padding
      card.append(ratingPlot(titleOf(r), points, scale.anchors, scale.newcomer, room));
    }
  }
}

function seatLabel(seat, index) {
  if (seat.kind === "bot") return el("span", { class: "who-bot" }, seat.name && seat.name !== seat.spec ? seat.name : botName(seat.spec));
  const name = seat.name || `P${index}`;
  if (seat.player && seat.player !== PLAYER_ID) return el("a", { href: `/p/${encodeURIComponent(seat.player)}` }, name);
  return el("span", {}, name);
}

function gameItem(g) {
  const others = g.seats.map((s, i) => [s, i]).filter(([, i]) => i !== g.seat);
  const counted =
    g.counted === "rated" && g.change != null
      ? el("span", { class: `change ${g.change >= 0 ? "up" : "down"}`, title: t("counted_rated") }, changeText(g.change))
      : el("span", { class: "change none" }, t(`counted_${g.counted}`));
  return el(
    "li",
    { class: "played-game", dataset: { table: g.table } },
    el("span", { class: `place-badge place-${Math.min(g.place, 4)}` }, placeText(g.place)),
    el(
      "div",
      { class: "played-main" },
      el("p", { class: "played-title" }, el("strong", {}, titleOf(g))),
      el(
        "p",
        { class: "muted small" },
        el("span", { class: "sr-only" }, fmt("place", { place: placeText(g.place), players: g.players }), ", "),
        fmt("playersN", { n: g.players }),
        " · ",
        whenText(g.at),
      ),
      el("p", { class: "played-with small" }, el("span", { class: "muted" }, t("with"), " "), others.map(([s, i], k) => [k ? ", " : "", seatLabel(s, i)])),
    ),
    el(
      "div",
      { class: "played-side" },
      counted,
      el(
        "span",
        { class: "played-links" },
        el("a", { class: "button", href: g.replay }, t("replayLink")),
        g.review ? el("a", { class: "button", href: g.review }, t("reviewLink")) : null,
      ),
    ),
  );
}

function drawGames() {
  document.getElementById("games-panel").hidden = false;
  const list = clear(document.getElementById("games"));
  profile.games.forEach((g) => list.append(gameItem(g)));
  document.getElementById("no-games").hidden = profile.games.length > 0;
  const more = document.getElementById("more-games");
  more.hidden = !profile.more;
  more.textContent = fmt("moreGames", { n: profile.games.length });
}

function draw() {
  if (!profile) return;
  drawWho();
  drawRatings();
  drawGames();
}

async function load() {
  if (!PLAYER_ID) {
    notice(t("noPlayer"));
    return;
  }
  const id = encodeURIComponent(PLAYER_ID);
  try {
    const [got, points, games] = await Promise.all([
      api(`/api/players/${id}`),
      api(`/api/players/${id}/history?limit=1000`),
      api("/api/games").catch(() => null),
    ]);
    profile = got;
    history = points.points;
    for (const game of games || []) gameTitles[game.name] = game.title;
    if (profile.ratings.length) scale = await ratingScale(profile.ratings[0].game).catch(() => null);
  } catch (error) {
    notice(error.status === 404 ? t("noPlayer") : `${t("loadFailed")} ${error.message}`);
    return;
  }
  draw();
}

// A plot is drawn for the room it has: drawn again when that changes (a phone turned, a window resized).
let drawnWidth = window.innerWidth;
window.addEventListener("resize", () => {
  if (Math.abs(window.innerWidth - drawnWidth) < 40) return;
  drawnWidth = window.innerWidth;
  if (profile) drawRatings();
});

setupLangSwitch();
onLangChange(draw);
load();
