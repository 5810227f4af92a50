// Shared board helpers. A board module registers BOARDS[game] = {terms, render(ctx), prompt(ctx)}; the
// table page and the replay viewer draw a view with it. Clicking maps to legal actions by their text:
// an element bound to "take 7" is clickable when some legal action is "take 7" (or starts with
// "take 7 ", then the choice continues step by step: the board shows what is chosen so far).
"use strict";

const BOARDS = {};

const BOARD_STRINGS = {
  en: {
    you: "you", cancel: "Cancel", chosen: "Chosen so far", hand: "Your hand", round: "Round",
    clickHint: "Click a highlighted item, or use the buttons below (keys 1–9).", endOfRound: "End of round",
    endOfGame: "End of game", winner: "Winner", score: "Score", noCards: "none", turn: "Turn",
    watching: "watching", wait: "Waiting for", yourTurn: "Your turn", chooseItem: "Choose {item}",
    lastMove: "just played",
  },
  ja: {
    you: "あなた", cancel: "取り消し", chosen: "選択中", hand: "あなたの手札", round: "ラウンド",
    clickHint: "光っているものをクリック、または下のボタン（1〜9キー）で選んでください。", endOfRound: "ラウンド終了",
    endOfGame: "ゲーム終了", winner: "勝者", score: "得点", noCards: "なし", turn: "ターン",
    watching: "観戦中", wait: "待っています：", yourTurn: "あなたの手番", chooseItem: "{item}を選ぶ",
    lastMove: "直前の手",
  },
};

function bt(key) {
  return (BOARD_STRINGS[LANG] && BOARD_STRINGS[LANG][key]) || BOARD_STRINGS.en[key] || key;
}

// An action's words in the page's language (the engine writes both: `text` and `text_ja`).
function localAction(action) {
  return LANG === "ja" && action.text_ja ? action.text_ja : action.text;
}

const SVG_NS = "http://www.w3.org/2000/svg";
function svgEl(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v != null) node.setAttribute(k, String(v));
  for (const c of children.flat(Infinity)) {
    if (c == null || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

// The context a board draws with. opts: {seatName(p), send(actionId), pending, setPending(text), readOnly}
function boardContext(game, view, opts) {
  const board = BOARDS[game] || {};
  const legal = opts.readOnly ? [] : view.legal_actions || [];
  const ctx = {
    view,
    legal,
    pending: opts.pending || "",
    seat: view.seat,
    seatName: opts.seatName || ((p) => `P${p}`),
    T(key) {
      const terms = board.terms || {};
      return (terms[LANG] && terms[LANG][key]) || (terms.en && terms.en[key]) || key;
    },
    matches(text) {
      return legal.filter((a) => a.text === text || a.text.startsWith(text + " "));
    },
    isLegal(text) {
      if (ctx.pending && !(text === ctx.pending || text.startsWith(ctx.pending + " "))) return false;
      return ctx.matches(text).length > 0;
    },
    choose(text) {
      const found = ctx.matches(text);
      if (!found.length) return;
      const exact = found.find((a) => a.text === text);
      if (exact && found.length === 1) opts.send(exact.id);
      else opts.setPending(text);
    },
    // What a screen reader says for an item bound to `text`: the action itself, in the page's
    // language, or "choose X" where the item starts a choice made step by step.
    label(text, node) {
      const exact = ctx.legal.find((a) => a.text === text);
      if (exact) return localAction(exact);
      return bt("chooseItem").replace("{item}", node.textContent.trim() || text);
    },
    // Make node clickable for the action text (or prefix) when it is legal now.
    bind(node, text) {
      node.dataset.act = text;
      if (!ctx.isLegal(text)) return node;
      const label = ctx.label(text, node);
      node.setAttribute("aria-label", label);
      node.setAttribute("title", label);
      node.classList.add("legal");
      node.setAttribute("tabindex", "0");
      node.setAttribute("role", "button");
      node.addEventListener("click", (e) => {
        e.stopPropagation();
        ctx.choose(text);
      });
      node.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          ctx.choose(text);
        }
      });
      return node;
    },
    // A button on the board for an action that is no thing on the table ("draw", "pass", "stop").
    button(label, text, cls) {
      if (!ctx.isLegal(text)) return null;
      return ctx.bind(el("button", { type: "button", class: "board-btn " + (cls || "") }, label), text);
    },
    refresh() {
      opts.setPending(ctx.pending);
    },
    who(p) {
      return p === view.seat ? `${ctx.seatName(p)} (${bt("you")})` : ctx.seatName(p);
    },
  };
  return ctx;
}

function renderBoard(game, view, opts) {
  const board = BOARDS[game];
  if (!board) return null;
  const ctx = boardContext(game, view, opts);
  const root = el("div", { class: `board board-${game}` });
  root.append(board.render(ctx));
  markLastMoves(root, view);
  return { node: root, prompt: board.prompt ? board.prompt(ctx) : null, ctx };
}

// What the others did since this seat last acted (a spectator: the newest event): their boxes and the
// tiles or cards their events name get `.last-move`, so the board shows the story, not only the log.
function markLastMoves(root, view) {
  const log = view.log || [];
  let from = log.length - 1;
  if (view.seat != null) {
    const mine = log.map((e) => e.seat).lastIndexOf(view.seat);
    from = Math.max(mine + 1, log.length - 8);
  }
  const recent = log.slice(Math.max(0, from)).filter((e) => e.seat != null && e.seat !== view.seat);
  const codes = new Set();
  for (const event of recent) {
    const tag = root.querySelector(`.ptag[data-seat="${event.seat}"]`);
    const box = tag && tag.closest(".pbox");
    if (box) box.classList.add("last-move");
    for (const key of ["tile", "card"]) if (event[key] != null) codes.add(String(event[key]));
    for (const key of ["tiles", "cards"]) for (const c of event[key] || []) if (c != null) codes.add(String(c));
  }
  if (!codes.size) return;
  // Only the newest place a component shows up: it sits where the move put it.
  root.querySelectorAll(".tile, .card").forEach((node) => {
    const code = node.dataset.code || node.dataset.n || (node.firstChild && node.firstChild.textContent.trim());
    if (code && codes.has(code)) {
      node.classList.add("last-move");
      if (!node.getAttribute("aria-label")) node.setAttribute("aria-label", `${node.textContent.trim()} (${bt("lastMove")})`);
    }
  });
}

// Shared pieces -------------------------------------------------------------------------------------

function playerTag(ctx, p, extra) {
  const v = ctx.view;
  const cls = ["ptag"];
  if (v.current_player === p) cls.push("current");
  if (p === v.seat) cls.push("mine");
  if (v.winners && v.winners.includes(p)) cls.push("winner");
  return el(
    "div",
    { class: cls.join(" "), dataset: { seat: p } },
    el("span", { class: "pname" }, (v.current_player === p ? "▶ " : "") + ctx.who(p)),
    v.winners && v.winners.includes(p) ? el("span", { class: "badge ok" }, bt("winner")) : null,
    extra || null,
  );
}

// A player's box on a board: the name tag with a line of facts (`meta`), then the board's own parts.
function playerBox(ctx, p, meta, ...children) {
  return el(
    "div",
    { class: "pbox" + (ctx.view.current_player === p ? " current" : "") },
    playerTag(ctx, p, el("span", { class: "pmeta" }, meta)),
    ...children,
  );
}

function section(title, ...children) {
  return el("div", { class: "bsec" }, title ? el("div", { class: "bsec-title" }, title) : null, ...children);
}

// The last round-end / game-end events, as an explanation box.
function endExplanation(ctx, types, title) {
  const log = ctx.view.log || [];
  const wanted = types || ["round_end", "game_end"];
  const ends = log.filter((e) => wanted.includes(e.type || e.event));
  if (!ends.length) return null;
  const shown = ctx.view.is_terminal ? ends.slice(-2) : ends.slice(-1);
  const heading = title || (ctx.view.is_terminal ? bt("endOfGame") : bt("endOfRound"));
  return el(
    "div",
    { class: "explain" },
    el("div", { class: "bsec-title" }, heading),
    shown.map((e) => el("pre", { class: "explain-text" }, eventText(e))),
  );
}
