// The end of a game at the table: the banner with the ranking and the winners, the rematch, the
// record's download, the replay and the review. Uses table.js's state.
"use strict";

function ranking() {
  // The seats in the order the game ranks them at the end, best first: the server's `places` (the
  // winners first, then the others as the game's rules rank them: in Hangover a hung-over player
  // is below the winner whatever their VP). Without them (an older server): the winners, then by
  // score. Equal places are shared.
  const scores = (view && view.scores) || [];
  const winners = (view && view.winners) || [];
  const given = view && Array.isArray(view.places) && view.places.length === scores.length ? view.places : null;
  const rows = scores.map((score, p) => ({ p, score, won: winners.includes(p) }));
  const ahead = (a, b) => (a.won !== b.won ? a.won : Number(a.score) > Number(b.score));
  rows.forEach((row) => {
    row.place = given ? given[row.p] : 1 + rows.filter((other) => ahead(other, row)).length;
  });
  return rows.sort((a, b) => a.place - b.place || a.p - b.p);
}

function winRule() {
  // How the game decides its winner, in words ("" for a game the page has no words for).
  const key = `winRule_${view.game}`;
  return STRINGS.en[key] ? fmt(key, Object.assign({}, view.options || {})) : "";
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
  // The title says the result, once; beside it, how the game decides it (not the winners again).
  document.getElementById("winners").textContent = winRule() || t("gameOver");
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
  // The board tells it where it shows the same words (its end-of-game box): said once, there.
  const end = [...fullLog].reverse().find((event) => event.type === "game_end") || fullLog[fullLog.length - 1];
  const reason = document.getElementById("end-reason");
  reason.textContent = end ? named(eventText(end)) : "";
  const board = document.getElementById("board-panel").hidden ? "" : document.getElementById("board").textContent;
  reason.hidden = !!end && (board.includes(eventText(end)) || board.includes(reason.textContent));
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
