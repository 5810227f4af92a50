// What every board's page has beside the board (loaded after boards/common.js, webclient.BOARD): the bar
// of a move of several parts (take back a part, or cancel), each component's rule at hand (a tooltip on
// hover, a popover on a long press), and the keyboard's focus kept through a redraw (issue #56).
"use strict";

// A move of several parts ------------------------------------------------------------------------
// Hangover's arrangement snack by snack, Tokkuri's card, its use, then a tokkuri for each number: the
// parts chosen so far stand in a bar over the board (#board-pending) until the move is whole and sent.
// "Take back" (the Backspace key) removes the last part, "Cancel" (Esc) all of them. The table page
// (table.js) and the lessons (learn.js) draw the one bar.

Object.assign(BOARD_STRINGS.en, { takeBack: "Take back", takeBackHelp: "Take back the last part (Backspace)", cancelHelp: "Cancel the whole choice (Esc)" });
Object.assign(BOARD_STRINGS.ja, { takeBack: "一手戻す", takeBackHelp: "最後の一手を戻す（バックスペースキー）", cancelHelp: "選択をすべて取り消す（エスケープキー）" });

// A choice's prefix in words: its verb is English (the engine parses it), the rest are codes written
// alike in every language; Japanese shows the codes alone ("arrange +1/+2 -1/+3" -> "+1/+2 -1/+3").
function pendingWords(text) {
  return LANG === "ja" ? text.split(" ").slice(1).join(" ") : text;
}

// The prefix less its last part; "" once only the verb would be left.
function takeBackText(text) {
  const words = String(text || "").split(" ").filter(Boolean);
  words.pop();
  return words.length > 1 ? words.join(" ") : "";
}

// Fill the bar `box`: the parts chosen so far (in words), "Take back" and "Cancel"; hidden with none.
function pendingBar(box, parts, takeBack, cancel) {
  clear(box);
  const shown = (parts || []).filter(Boolean);
  box.hidden = !shown.length;
  if (!shown.length) return box;
  box.append(
    el("span", { class: "pending-parts" }, `${bt("chosen")}: `, shown.map((part, i) => [i ? " › " : "", el("strong", {}, part)])),
    " ",
    el("button", { type: "button", class: "board-btn", id: "board-takeback", title: bt("takeBackHelp"), "aria-keyshortcuts": "Backspace", onclick: takeBack }, bt("takeBack")),
    el("button", { type: "button", class: "board-btn", id: "board-cancel", title: bt("cancelHelp"), "aria-keyshortcuts": "Escape", onclick: cancel }, bt("cancel")),
  );
  return box;
}

// The keys of the bar, on any page that shows one: Backspace takes back, Esc cancels (not while typing).
document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
  const target = e.target instanceof Element ? e.target : null;
  if (target && target.closest("input, textarea, select, [contenteditable]")) return;
  if (e.key === "Escape" && hideTip()) return;
  const id = e.key === "Backspace" ? "board-takeback" : e.key === "Escape" ? "board-cancel" : null;
  const button = id && document.getElementById(id);
  if (!button || button.closest("[hidden]")) return;
  e.preventDefault();
  button.click();
});

// Rules at hand ---------------------------------------------------------------------------------
// Each component of a board carries the key of its rule (data-tip: "card_draw", "tile"); the texts are
// the game's ([tip] of its texts/*.toml), in the game's info from /api/games ({en: {key: text}, ja:
// {...}}), had with its board (loadBoard: the page's one ask of /api/games, common.js's api()).
// The rule shows in a small box by the component: while the mouse is over it or the keyboard's focus
// on it, and on a touch screen after a long press (it stays until the next touch; the press plays
// nothing). Placed by CSS anchor positioning (app.css: .board-tip): classes only, no style attributes.

const BOARD_TIPS = {}; // game -> its tips
const TIP_HOLD_MS = 500; // a long press
const TIP_HOVER_MS = 250;
const tipState = { node: null, anchor: null, timer: null, press: null, swallow: 0 };

function setBoardTips(game, tips) {
  if (tips && typeof tips === "object") BOARD_TIPS[game] = tips;
}

function fetchBoardTips(game) {
  return api("/api/games")
    .then((games) => setBoardTips(game, ((games || []).find((g) => g.name === game) || {}).tips))
    .catch(() => {}); // no rules at hand: the board plays the same
}

// The rule `key` of the game of the board `node` lies on (its root: .board.board-GAME), or of `game`.
function tipText(key, node, game) {
  const root = node && node.closest ? node.closest(".board") : null;
  const name = game || (root ? [...root.classList].find((c) => c.startsWith("board-") && Object.hasOwn(BOARDS, c.slice(6))) : "");
  const tips = BOARD_TIPS[game || (name ? name.slice(6) : "")];
  if (!tips || !key) return "";
  return (tips[LANG] && tips[LANG][key]) || (tips.en && tips.en[key]) || "";
}

// Mark `node` as showing the rule `key` (boards: piece()'s `tip`, or tipOn(node, key, ctx.game) for
// any element of the board); a screen reader says the rule as the node's description.
function tipOn(node, key, game) {
  node.dataset.tip = key;
  const text = game ? tipText(key, null, game) : "";
  if (text && !node.hasAttribute("aria-description")) node.setAttribute("aria-description", text);
  return node;
}

function tipBox() {
  if (!tipState.node) {
    tipState.node = el("div", { id: "board-tip", class: "board-tip", role: "tooltip", hidden: true });
    document.body.append(tipState.node);
  }
  return tipState.node;
}

function showTip(anchor, pinned) {
  const text = tipText(anchor.dataset.tip, anchor);
  if (!text) return false;
  const box = tipBox();
  if (tipState.anchor && tipState.anchor !== anchor) tipState.anchor.classList.remove("tip-anchor");
  tipState.anchor = anchor;
  anchor.classList.add("tip-anchor");
  box.textContent = text;
  box.dataset.tip = anchor.dataset.tip;
  box.classList.toggle("pinned", !!pinned);
  box.hidden = false;
  return true;
}

// Hide the rule shown, if any; true when one was shown.
function hideTip() {
  clearTimeout(tipState.timer);
  tipState.timer = null;
  const shown = !!tipState.node && !tipState.node.hidden;
  if (tipState.node) tipState.node.hidden = true;
  if (tipState.anchor) tipState.anchor.classList.remove("tip-anchor");
  tipState.anchor = null;
  return shown;
}

function tipTarget(e) {
  const node = e.target instanceof Element ? e.target.closest("[data-tip]") : null;
  return node && tipText(node.dataset.tip, node) ? node : null;
}

document.addEventListener("pointerover", (e) => {
  if (e.pointerType !== "mouse") return;
  const node = tipTarget(e);
  if (!node || node === tipState.anchor) return;
  clearTimeout(tipState.timer);
  tipState.timer = setTimeout(() => node.isConnected && showTip(node, false), TIP_HOVER_MS);
});
document.addEventListener("pointerout", (e) => {
  if (e.pointerType !== "mouse") return;
  const node = e.target instanceof Element ? e.target.closest("[data-tip]") : null;
  if (!node || (e.relatedTarget instanceof Node && node.contains(e.relatedTarget))) return;
  if (tipState.node && tipState.node.classList.contains("pinned")) return;
  hideTip();
});
document.addEventListener("focusin", (e) => {
  // The keyboard's focus on a component shows its rule (not a tap's or a click's: they have their own).
  const pinned = tipState.node && tipState.node.classList.contains("pinned");
  const node = tipTarget(e);
  if (node && node !== tipState.anchor && node.matches(":focus-visible")) showTip(node, false);
  else if (!node && tipState.anchor && !pinned) hideTip();
});
document.addEventListener("pointerdown", (e) => {
  // A touch elsewhere puts a pinned rule away; a long press on a component shows its rule.
  if (tipState.node && !tipState.node.hidden && tipState.node.classList.contains("pinned")) hideTip();
  if (e.pointerType === "mouse") return;
  const node = tipTarget(e);
  if (!node) return;
  tipState.press = { id: e.pointerId, x: e.clientX, y: e.clientY };
  clearTimeout(tipState.timer);
  tipState.timer = setTimeout(() => {
    tipState.press = null;
    if (node.isConnected && showTip(node, true)) tipState.swallow = Date.now() + 1000; // the press plays nothing
  }, TIP_HOLD_MS);
});
document.addEventListener("pointermove", (e) => {
  const press = tipState.press;
  if (!press || press.id !== e.pointerId) return;
  if (Math.abs(e.clientX - press.x) > 10 || Math.abs(e.clientY - press.y) > 10) {
    tipState.press = null;
    clearTimeout(tipState.timer);
  }
});
for (const type of ["pointerup", "pointercancel"]) {
  document.addEventListener(type, (e) => {
    if (!tipState.press || tipState.press.id !== e.pointerId) return;
    tipState.press = null;
    clearTimeout(tipState.timer); // a tap, not a long press
  });
}
document.addEventListener("click", (e) => {
  if (tipState.swallow && Date.now() < tipState.swallow) {
    e.preventDefault();
    e.stopPropagation();
  }
  tipState.swallow = 0;
}, true);
document.addEventListener("contextmenu", (e) => {
  if (tipTarget(e)) e.preventDefault(); // a long press shows the rule, not the browser's menu
});

// The keyboard's focus through a redraw ---------------------------------------------------------
// A page draws its board (and the buttons around it) anew at every move: the focused item is removed
// and the focus would drop to the page's body. Where that happened (the last focused item is gone),
// it goes on, once the page has drawn, to where the next step is: the board's first legal piece (the
// focus was on the board), the first choice button (the table's actions, a lesson's choices), the
// take-back button (it was in the bar), else the page's way on (a lesson's Next) or the board's prompt.
// (table.js places it itself, settleFocus: this finds nothing left to do there.)
let focusLast = null;
document.addEventListener("focusin", (e) => {
  focusLast = e.target instanceof Element ? e.target : null;
});

function refocusAfterDraw() {
  requestAnimationFrame(() => {
    // A rule shown for a piece the drawing replaced points at nothing now: it goes with its piece.
    if (tipState.anchor && !tipState.anchor.isConnected) hideTip();
    const active = document.activeElement;
    if (active && active !== document.body) return;
    const usable = (node) => node && !node.disabled && node.checkVisibility();
    // Dropped by the drawing (the item gone, or disabled, or hidden), not by a click on the page.
    if (!focusLast || (focusLast.isConnected && usable(focusLast))) return;
    const from = focusLast;
    const first = (selector) => [...document.querySelectorAll(selector)].find(usable) || null;
    const inBoard = !!from.closest && !!from.closest("#board, .board");
    const inBar = !!from.closest && !!from.closest("#board-pending");
    const target =
      (inBar && first("#board-takeback")) ||
      (inBoard && first("#board .legal[tabindex]")) ||
      first("#actions button.action, button.learn-act") ||
      first("#board .legal[tabindex]") ||
      first("#next") ||
      document.getElementById("board-prompt");
    if (!target) return;
    if (!target.matches("button, [tabindex]")) target.setAttribute("tabindex", "-1");
    focusLast = target;
    target.focus({ preventScroll: true });
  });
}

// The engine's texts in words, and the moves a part at a time ------------------------------------
// A game's texts (an action's words, a decision, a log line, a board's explanation) name the seats
// by code (P0, P1, …), Tokkuri's tokkuri by id (T2.1) and Hangover's snacks with a hyphen for a minus
// ("-1/+2"): what the board never shows. The table page (table-people.js) and the lessons (learn.js)
// put them in words alike, each with its own names for the seats: `speaker` is {name(p): a seat's
// name, players: how many seats, seat: the reader's own seat (null when watching), view: the view
// shown (its tokkuri, for their owners and levels), levels: false where a level would be stale (the
// log: a tokkuri's level then is not its level now)}.

Object.assign(BOARD_STRINGS.en, { tokkuriOf: "{owner} tokkuri (level {level})", tokkuriOfGone: "{owner} tokkuri", yourTokkuri: "your", theirTokkuri: "{name}'s" });
Object.assign(BOARD_STRINGS.ja, { tokkuriOf: "{owner}のトックリ（残量{level}）", tokkuriOfGone: "{owner}のトックリ", yourTokkuri: "あなた", theirTokkuri: "{name}" });

const SEAT_CODE = /\bP(\d)(?!\d)/g;

function seatWords(text, speaker) {
  return String(text).replace(SEAT_CODE, (all, d) => (Number(d) < speaker.players ? speaker.name(Number(d)) : all));
}

// A tokkuri by its owner (and its level, where the view has it): "Mia's tokkuri (level 4)".
function tokkuriWords(id, speaker) {
  const found = /^T(\d+)\.\d+$/.exec(id);
  if (!found) return id;
  const seen = speaker.levels === false ? null : ((speaker.view && speaker.view.tokkuri) || []).find((b) => b.id === id);
  const ownerSeat = seen ? seen.owner : Number(found[1]);
  if (ownerSeat >= speaker.players) return id;
  const owner = ownerSeat === speaker.seat ? bt("yourTokkuri") : bt("theirTokkuri").replace("{name}", speaker.name(ownerSeat));
  return seen
    ? bt("tokkuriOf").replace("{owner}", owner).replace("{level}", seen.level)
    : bt("tokkuriOfGone").replace("{owner}", owner);
}

// An engine text in words: "P1" -> "Ken", Tokkuri's "T2.1" -> "Mia's tokkuri (level 4)" (its
// Japanese "トックリT2.1" -> "ミアのトックリ（残量4）"), a snack's "-1/+2" with the minus sign the board
// draws ("−1/+2").
function engineWords(text, speaker) {
  if (!text || !speaker) return text;
  const bottle = (id) => tokkuriWords(id, speaker);
  return seatWords(
    String(text)
      .replace(/トックリ(T\d+\.\d+)/g, (all, id) => bottle(id))
      .replace(/\bT\d+\.\d+\b/g, bottle),
    speaker,
  ).replace(/(^|[^0-9A-Za-z])-(?=\d)/g, "$1−");
}

// The texts of a drawn board (a round's or a judgement's explanation, from the engine) name seats P0,
// P1, …: the page's names instead, in the text and in the names read aloud.
function nameSeatsIn(root, speaker) {
  const code = new RegExp(SEAT_CODE.source);
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (code.test(node.nodeValue)) node.nodeValue = seatWords(node.nodeValue, speaker);
  }
  root.querySelectorAll("[aria-label]").forEach((node) => {
    const label = node.getAttribute("aria-label");
    if (code.test(label)) node.setAttribute("aria-label", seatWords(label, speaker));
  });
  // An explanation's lines are the log's: their tokkuri and minus signs in words too.
  const past = Object.assign({}, speaker, { levels: false });
  root.querySelectorAll(".explain-text").forEach((node) => {
    node.textContent = engineWords(node.textContent, past);
  });
  return root;
}

// The legal moves offered beside a board, from what is chosen so far on it (`pending`, a prefix of
// the moves' texts). Moves that share their first words and go on for several more (Hangover's
// arrangement of four snacks: 24 orders) are offered a word at a time, as the board takes them: a
// word several moves go on from is a part ({prefix, label: "−1/−2 …"}: chosen, it is the pending
// text), one that a single move goes on from is that move ({action, label}: named by the rest of its
// words). Moves with nothing in common stay whole ({action}: the page names them). `say` puts a
// code in words (engineWords). {parts: whether parts are offered, items}.
function choiceOffer(legal, pending, say) {
  const fits = (legal || []).filter((a) => !pending || a.text === pending || a.text.startsWith(pending + " "));
  const words = fits.map((a) => a.text.split(" "));
  let chosen = pending ? pending.split(" ") : [];
  while (fits.length > 1) { // words every move shares are no choice ("arrange")
    const next = new Set(words.map((w) => w[chosen.length] ?? ""));
    if (next.size !== 1 || next.has("")) break;
    chosen = [...chosen, ...next];
  }
  const n = chosen.length;
  if (!n || fits.length < 2 || !words.every((w) => w.length >= n + 2)) {
    return { parts: false, items: fits.map((action) => ({ action })) };
  }
  const groups = new Map();
  fits.forEach((action, i) => {
    const word = words[i][n];
    if (!groups.has(word)) groups.set(word, []);
    groups.get(word).push(i);
  });
  const items = [...groups].map(([word, members]) => (members.length === 1
    ? { action: fits[members[0]], label: say(words[members[0]].slice(n).join(" ")) }
    : { prefix: [...chosen, word].join(" "), label: `${say(word)} …` }));
  return { parts: true, items };
}
