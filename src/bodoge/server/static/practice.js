// What the lessons add to the table page, in one place (docs/learn.md): links to the game's lesson and
// illustrated rules in the rules panel, and at a practice table (made with "hints": true, one
// person) a Hint button in the decision panel that asks the server for the moves ranked by win chance.
// The hint is shown next to the board (beside it on a wide screen, under it on a phone), and its
// first move is marked on the board itself (issue #55). Uses table.js's `view`, `seq` and actionText().
"use strict";

Object.assign(STRINGS.en, {
  hint: "Hint",
  hintBusy: "Thinking…",
  hintLearn: "Learn to play",
  hintRules: "Illustrated rules",
  hintBot: "bot's choice",
  hintTitle: "Hint: your moves, best first",
  hintAboutEqual: "about equal",
  hintAboutEqualHelp: "The deals could not tell it apart from the first move.",
  hintWin: "win chance {value}",
  hintRange: "95%: {low}–{high}",
  hintMark: "Hint",
  hintHide: "Hide",
});
Object.assign(STRINGS.ja, {
  hint: "ヒント",
  hintBusy: "考えています…",
  hintLearn: "遊び方を学ぶ",
  hintRules: "図解ルール",
  hintBot: "ボットの選択",
  hintTitle: "ヒント：良い順の手",
  hintAboutEqual: "ほぼ同じ",
  hintAboutEqualHelp: "配りを変えても1番目の手と差が見えません。",
  hintWin: "勝率{value}",
  hintRange: "95%：{low}〜{high}",
  hintMark: "ヒント",
  hintHide: "閉じる",
});

const HINT_NARROW = "(max-width: 860px)"; // app.css's one-column layout: the hint goes under the board
let hintShown = null; // {seq, hints}: the hint on the screen, for the decision at move `seq`

// A hinted move in words: the legal action's own words where the view still has it (a code such as
// Hangover's "play R4^" is the command, not words), else the hint's text.
function hintText(h) {
  const action = ((view && view.legal_actions) || []).find((a) => a.id === h.action);
  if (action) return actionText(action);
  return LANG === "ja" && h.text_ja ? h.text_ja : h.text;
}

function hintItem(h, i) {
  const equal = i > 0 && h.about_equal;
  const win = h.value == null ? null : el(
    "span",
    { class: "hint-win" },
    fmt("hintWin", { value: percent(h.value) }),
    h.low == null || h.high == null ? null : el("span", { class: "hint-range" }, ` (${fmt("hintRange", { low: percent(h.low), high: percent(h.high) })})`),
  );
  // The server's reason says how the value was found: in words under the first move; the others'
  // say the same of them (their marks and figures show it), kept as their title.
  return el(
    "li",
    { dataset: { action: h.action }, class: i === 0 ? "hint-first" : null, title: i === 0 ? null : pick(h.reason) },
    el("strong", {}, hintText(h)),
    equal ? el("span", { class: "hint-equal", title: t("hintAboutEqualHelp") }, `≈ ${t("hintAboutEqual")}`) : null,
    h.heuristic ? el("span", { class: "hint-bot" }, t("hintBot")) : null,
    win ? el("div", {}, win) : null,
    i === 0 ? el("div", { class: "hint-reason" }, pick(h.reason)) : null,
  );
}

function drawHint(box) {
  clear(box);
  box.hidden = !hintShown;
  if (!hintShown) return;
  const hide = el("button", { type: "button", class: "hint-hide", id: "hint-hide", onclick: () => showHint(null) }, t("hintHide"));
  box.append(
    el("div", { class: "hint-head" }, el("h2", {}, t("hintTitle")), hide),
    el("ol", {}, hintShown.hints.map(hintItem)),
  );
}

// The first hinted move on the board: every element bound to its action text (data-act: the text, or
// a first step of it such as "play R4" of "play R4 take 3") gets a ring and a "Hint" badge. The board
// is drawn anew on each update: the marks are put back after each drawing while the hint is for the
// decision on the table, and go with it once the table moved on.
function markHint() {
  const board = document.getElementById("board");
  if (!board) return;
  board.querySelectorAll(".hinted").forEach((node) => node.classList.remove("hinted", "hinted-static"));
  board.querySelectorAll(".hint-badge").forEach((node) => node.remove());
  const first = hintShown && hintShown.seq === seq ? hintShown.hints[0] : null;
  if (!first) return;
  const text = first.text;
  const matching = [...board.querySelectorAll("[data-act]")].filter((node) => {
    const act = node.dataset.act;
    return act === text || text.startsWith(act + " ");
  });
  // The pieces one may click first; a board drawn read-only (an action on its way) has none.
  const legal = matching.filter((node) => node.classList.contains("legal"));
  for (const node of legal.length ? legal : matching) {
    node.classList.add("hinted");
    if (getComputedStyle(node).position === "static") node.classList.add("hinted-static"); // the badge's anchor
    node.setAttribute("aria-description", t("hintMark"));
    node.append(el("span", { class: "hint-badge", "aria-hidden": "true" }, t("hintMark")));
  }
}

let hintBox = null;

// On a phone the list comes under the board: it is scrolled into view, then the marked piece is, if
// that took it away (the board's first: the mark says the move where it is played).
function bringHintIntoView() {
  hintBox.scrollIntoView({ block: "nearest" });
  const mark = document.querySelector("#board .hinted");
  if (!mark) return;
  const r = mark.getBoundingClientRect();
  const prompt = document.getElementById("board-prompt").getBoundingClientRect();
  const dock = document.getElementById("decision-panel").getBoundingClientRect();
  const top = Math.max(0, prompt.bottom);
  const bottom = Math.min(window.innerHeight, dock.top > 0 ? dock.top : window.innerHeight);
  if (r.top < top || r.bottom > bottom) mark.scrollIntoView({ block: "center" });
}

function showHint(shown) {
  hintShown = shown;
  if (hintBox) drawHint(hintBox);
  markHint();
}

// Beside the board on a wide screen (the top of the side column), under it on a phone (where the
// side column comes after everything): next to the board either way, never under the action buttons.
function placeHint(box) {
  const narrow = window.matchMedia(HINT_NARROW).matches;
  const panel = document.getElementById("board-panel");
  const side = document.querySelector(".col-side");
  if (narrow && panel) panel.append(box);
  else if (side) side.prepend(box);
}

async function setUpPractice() {
  const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
  const token = new URLSearchParams(location.hash.slice(1)).get("token");
  let summary = null;
  try {
    summary = await api(`/api/tables/${encodeURIComponent(tableId)}`);
  } catch (e) {
    return;
  }
  const rulesBox = document.getElementById("rules-box");
  const links = el("p", { class: "learn-links" },
    el("a", { href: `/learn/${encodeURIComponent(summary.game)}`, id: "learn-link" }, t("hintLearn")),
    el("a", { href: `/rules/${encodeURIComponent(summary.game)}`, id: "rules-page-link" }, t("hintRules")));
  if (rulesBox) rulesBox.append(links);
  const people = (summary.seats || []).filter((s) => s.kind === "human").length;
  if (!token || !summary.hints || people !== 1) return;
  const panel = document.getElementById("decision-panel");
  const button = el("button", { type: "button", id: "hint-button" }, t("hint"));
  hintBox = el("section", { class: "panel hint-box", id: "hint-box", "aria-live": "polite", hidden: true });
  const error = el("p", { class: "error", id: "hint-error", hidden: true });
  button.addEventListener("click", async () => {
    button.disabled = true;
    button.textContent = t("hintBusy");
    error.hidden = true;
    const asked = seq;
    try {
      const answer = await api(`/api/tables/${encodeURIComponent(tableId)}/hint`, {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token }),
      });
      // An answer for a decision already taken is dropped: the table has moved on.
      if (asked === seq) {
        showHint({ seq: asked, hints: answer.hints || [] });
        if (window.matchMedia(HINT_NARROW).matches) bringHintIntoView();
      }
    } catch (e) {
      error.textContent = e.message;
      error.hidden = false;
    } finally {
      button.disabled = false;
      button.textContent = t("hint");
    }
  });
  if (panel) panel.append(button, error);
  placeHint(hintBox);
  window.matchMedia(HINT_NARROW).addEventListener("change", () => placeHint(hintBox));
  // The table draws the board anew on each update (table.js's renderBoardPanel): the marks follow,
  // and a hint for a decision already taken goes.
  const board = document.getElementById("board");
  if (board) {
    new MutationObserver(() => {
      if (hintShown && hintShown.seq !== seq) showHint(null);
      else markHint();
    }).observe(board, { childList: true });
  }
  onLangChange(() => {
    button.textContent = t("hint");
    links.firstChild.textContent = t("hintLearn");
    links.lastChild.textContent = t("hintRules");
    drawHint(hintBox);
    markHint();
  });
}

setUpPractice();
