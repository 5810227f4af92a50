// The page /me, "Your tables": every table in play where this player has a seat (GET /api/me/tables),
// theirs to move first, each with its link to their own seat. The page's title counts the tables
// where it is their move ("(2) Your move — bodoge"); the list is asked again every POLL_SECONDS while
// the page is in view, every HIDDEN_POLL_SECONDS while it is not (a slower pace rather than none: a
// hidden page is the one whose player a notification is for), and at once when it comes back into view.
// A table that becomes theirs to move is notified (attention.js) while the page is not in front.
"use strict";

const POLL_SECONDS = 20;
const HIDDEN_POLL_SECONDS = 120;

Object.assign(STRINGS.en, {
  meTagline: "Your tables",
  meTitle: "Your tables",
  meYourMove: "Your move",
  meYourMoveList: "Your move",
  meWaitingList: "Waiting for the others",
  meNobody: "Choose a name (top right) to have your tables here: every table you sit at, and whose move it is.",
  meEmpty: "You have no table in play.",
  meToLobby: "Find a game",
  meHelp: "A game over days gives hours or days a move: close this page whenever you like; the clock runs on, and a bot makes a move only when its time is up. Keep this page open, or allow notifications, to hear of your move.",
  meOpen: "Play",
  meWatch: "Open",
  meAgainst: "with {names}",
  meWaitingFor: "waiting for {name}",
  meYourTurnTag: "your move",
  meDeadline: "time left {left}",
  meOverdue: "time is up",
  meLastMove: "last move {ago}",
  meNoMoveYet: "no move yet",
  meMoves: "move {n}",
  meDaysClock: "{turn} a move",
  meCount: "{n} of your tables wait for your move",
  meCountOne: "1 table waits for your move",
  meCountNone: "No table waits for your move",
  meAgo: "{t} ago",
  meJustNow: "just now",
});
Object.assign(STRINGS.ja, {
  meTagline: "あなたの卓",
  meTitle: "あなたの卓",
  meYourMove: "あなたの番",
  meYourMoveList: "あなたの番",
  meWaitingList: "相手の番",
  meNobody: "右上で名前を決めると、座っている卓と、誰の番かがここに並びます。",
  meEmpty: "対局中の卓はありません。",
  meToLobby: "対局を探す",
  meHelp: "数日がかりの対局は一手に数時間から数日かけられます。このページはいつ閉じてもかまいません。時計は進み続け、時間切れになった手だけをボットが代わりに打ちます。自分の番を知るには、このページを開いておくか、通知を許可してください。",
  meOpen: "打つ",
  meWatch: "開く",
  meAgainst: "相手：{names}",
  meWaitingFor: "{name}の番",
  meYourTurnTag: "あなたの番",
  meDeadline: "残り{left}",
  meOverdue: "時間切れ",
  meLastMove: "最後の手：{ago}",
  meNoMoveYet: "まだ一手も打たれていません",
  meMoves: "{n}手目",
  meDaysClock: "一手{turn}",
  meCount: "あなたの番の卓が{n}つあります",
  meCountOne: "あなたの番の卓が1つあります",
  meCountNone: "あなたの番の卓はありません",
  meAgo: "{t}前",
  meJustNow: "たった今",
});

const meState = {
  answer: null, // the last GET /api/me/tables
  skew: 0, // the server's clock less this browser's (seconds): deadlines are the server's times
  ours: null, // ids of the tables that were ours to move at the last answer (null: none asked yet)
  timer: null,
};

function serverNow() {
  return Date.now() / 1000 + meState.skew;
}

function seatName(table, seat) {
  const info = table.seats[seat];
  if (!info) return "?";
  // A bot named by its kind is said in words ("Bot (basic)"), as the table page says it.
  return info.kind === "bot" && (!info.name || info.name === info.spec) ? botName(info.spec || "") : info.name;
}

function tableItem(table) {
  const others = table.seats.filter((s) => !table.your_seats.includes(s.seat)).map((s) => seatName(table, s.seat));
  const title = el("a", { class: "me-game", href: table.link }, pick(table.title));
  const facts = [];
  if (table.your_move) {
    facts.push(el("span", { class: "badge" }, t("meYourTurnTag")));
  } else if (table.to_move.length) {
    facts.push(el("span", { class: "me-whose" }, fmt("meWaitingFor", { name: table.to_move.map((s) => seatName(table, s)).join(", ") })));
  }
  if (table.deadline != null) {
    const left = table.deadline - serverNow();
    facts.push(
      el("span", { class: left > 0 ? "me-deadline" : "me-deadline over", role: "timer" }, left > 0 ? fmt("meDeadline", { left: durationText(left) }) : t("meOverdue")),
    );
  }
  if (table.clock && table.clock.long) facts.push(el("span", { class: "muted" }, fmt("meDaysClock", { turn: durationText(table.clock.turn_seconds) })));
  facts.push(
    el(
      "span",
      { class: "muted" },
      table.moves
        ? `${fmt("meMoves", { n: table.moves + 1 })} · ${fmt("meLastMove", { ago: ago(serverNow() - table.last_move_at) })}`
        : t("meNoMoveYet"),
    ),
  );
  const open = el("a", { class: table.your_move ? "button primary me-open" : "button me-open", href: table.link }, t(table.your_move ? "meOpen" : "meWatch"));
  return el(
    "li",
    { class: table.your_move ? "me-table yours" : "me-table", dataset: { table: table.id } },
    el("div", { class: "me-main" }, title, el("span", { class: "me-against" }, fmt("meAgainst", { names: others.join(", ") }))),
    el("div", { class: "me-facts small" }, facts),
    open,
  );
}

function ago(seconds) {
  return seconds < 60 ? t("meJustNow") : fmt("meAgo", { t: durationText(seconds) });
}

function render() {
  const answer = meState.answer;
  const yours = document.getElementById("me-yours");
  const others = document.getElementById("me-others");
  const player = bodogeIdentity.player();
  document.getElementById("me-nobody").hidden = !!player;
  if (!player || !answer) {
    yours.replaceChildren();
    others.replaceChildren();
    ["me-yours-title", "me-others-title", "me-empty"].forEach((id) => (document.getElementById(id).hidden = true));
    document.getElementById("me-count").textContent = "";
    document.title = `${t("meTitle")} — bodoge`;
    return;
  }
  const mine = answer.tables.filter((table) => table.your_move);
  const rest = answer.tables.filter((table) => !table.your_move);
  yours.replaceChildren(...mine.map(tableItem));
  others.replaceChildren(...rest.map(tableItem));
  document.getElementById("me-yours-title").hidden = !mine.length;
  document.getElementById("me-others-title").hidden = !rest.length;
  document.getElementById("me-empty").hidden = answer.tables.length > 0;
  const n = answer.your_move;
  document.getElementById("me-count").textContent = n === 0 ? t("meCountNone") : n === 1 ? t("meCountOne") : fmt("meCount", { n });
  document.title = n ? `(${n}) ${t("meYourMove")} — bodoge` : `${t("meTitle")} — bodoge`;
}

async function refresh() {
  clearTimeout(meState.timer);
  const error = document.getElementById("me-error");
  try {
    if (bodogeIdentity.player()) {
      const answer = await fetchJson("/api/me/tables", { headers: bodogeIdentity.headers() });
      meState.skew = answer.now - Date.now() / 1000;
      const ours = new Set(answer.tables.filter((table) => table.your_move).map((table) => table.id));
      if (meState.ours) {
        // Newly ours since the last answer: said once each, while nobody looks at this page.
        for (const table of answer.tables) {
          if (table.your_move && !meState.ours.has(table.id)) {
            bodogeAttention.notify(t("attYourMove"), fmt("attAt", { game: pick(table.title) }), `bodoge-table-/t/${table.id}`, table.link);
          }
        }
      }
      meState.ours = ours;
      meState.answer = answer;
    } else {
      meState.answer = null;
      meState.ours = null;
    }
    error.hidden = true;
  } catch (problem) {
    error.textContent = problem.message;
    error.hidden = false;
  }
  render();
  meState.timer = setTimeout(refresh, 1000 * (document.hidden ? HIDDEN_POLL_SECONDS : POLL_SECONDS));
}

function startMe() {
  setupLangSwitch();
  bodogeAttention.control(document.getElementById("attention"));
  onLangChange(render);
  bodogeIdentity.onChange(() => {
    meState.ours = null;
    refresh();
  });
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) refresh();
  });
  bodogeIdentity.ready.then(refresh);
}

window.bodogeMe = { refresh };
startMe();
