// The end of a game at the table: the banner with the ranking and the winners, the rematch, the
// record's download, the replay and the review. Uses table.js's state.
"use strict";

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
