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
    watching: "watching", wait: "Waiting for", yourTurn: "Your turn",
  },
  ja: {
    you: "あなた", cancel: "取り消し", chosen: "選択中", hand: "あなたの手札", round: "ラウンド",
    clickHint: "光っているものをクリック、または下のボタン（1〜9キー）で選んでください。", endOfRound: "ラウンド終了",
    endOfGame: "ゲーム終了", winner: "勝者", score: "得点", noCards: "なし", turn: "ターン",
    watching: "観戦中", wait: "待っています：", yourTurn: "あなたの手番",
  },
};

function bt(key) {
  return (BOARD_STRINGS[LANG] && BOARD_STRINGS[LANG][key]) || BOARD_STRINGS.en[key] || key;
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
  const recent = recentEvents(view);
  const ctx = {
    view,
    board,
    seatViews: opts.seatViews || null,
    legal,
    recent,
    landed: landedPieces(board, view, recent),
    atLanded: new Map(), // "place key" -> the pieces drawn there (markLanded lights the moved ones)
    recentSeats: new Set(recent.map((e) => e.seat).filter((p) => p != null)),
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
    // The action's text in the page's language; a prefix of several actions keeps its own text.
    actionLabel(text) {
      const exact = legal.find((a) => a.text === text);
      if (!exact) return text;
      return LANG === "ja" && exact.text_ja ? exact.text_ja : exact.text;
    },
    // Name a thing on the board for screen readers ("tile 14 in the container"), and note where it
    // lies (`place`, else its data-place: "container:2", "hand:1") under its `key` (its tile number,
    // card code or bottle id; "?" face down): the last moves' pieces are lit by where they went.
    name(node, what, key, place) {
      if (what) node.setAttribute("aria-label", what);
      const at = place ?? node.dataset.place;
      if (key == null || at == null) return node;
      const id = pieceId(at, key);
      if (ctx.landed.has(id)) {
        if (!ctx.atLanded.has(id)) ctx.atLanded.set(id, []);
        const nodes = ctx.atLanded.get(id);
        if (!nodes.includes(node)) nodes.push(node); // (bind names a named piece again)
      }
      return node;
    },
    // Make node clickable for the action text (or prefix) when it is legal now; its accessible name is
    // then the action text, else `what` says what it is.
    bind(node, text, what) {
      node.dataset.act = text;
      const key = node.dataset.n ?? node.dataset.code ?? node.dataset.id ?? node.dataset.snack;
      if (!ctx.isLegal(text)) return ctx.name(node, what, key);
      ctx.name(node, ctx.actionLabel(text), key);
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

// The pieces the recent events moved, by where they went: a board's `landed(event, view)` gives each
// event's [place, key] pairs in the board's own places ("container:2" and tile 9, "hand:1" and card
// "6", "trick:0" and "G5"), and [place, key, -1] for where a piece left (a tile flipped into the mine
// and taken from it at once lies in a container, not in the mine). Matching the key alone would light
// every piece of that face value (all the tiles 9 on the table, a card of the same number in another
// hand); the place names the one.
function landedPieces(board, view, events) {
  const landed = new Map(); // "place key" -> how many pieces went there (and are still there)
  if (!board.landed) return landed;
  for (const event of events) {
    for (const [place, key, step] of board.landed(event, view) || []) {
      if (place == null || key == null) continue;
      const id = pieceId(place, key);
      const count = Math.max(0, (landed.get(id) || 0) + (step ?? 1));
      if (count) landed.set(id, count);
      else landed.delete(id);
    }
  }
  return landed;
}

function pieceId(place, key) {
  return `${place} ${key}`;
}

// Light the pieces that moved: of the pieces drawn at a place with a key, as many as went there, the
// last drawn (where a place keeps its pieces in the order they came, the newest is last; pieces alike
// at one place are one to the eye).
function markLanded(ctx) {
  for (const [id, nodes] of ctx.atLanded) {
    nodes.slice(-ctx.landed.get(id)).forEach((node) => node.classList.add("last-move"));
  }
}

// What happened since the viewer's own last move (a spectator: the last seat's run of moves), at most
// the last dozen events so a long wait does not light up half the table.
function recentEvents(view) {
  const log = view.log || [];
  const seats = log.map((e) => e.seat);
  let start;
  if (view.seat != null) {
    // On my decision, my seat's events at the end of the log came before it, not from my last move
    // (Troika's tile flipped at the start of my turn, Tottarot's card drawn for me): look past them.
    let end = log.length;
    if (view.legal_actions && view.legal_actions.length) {
      while (end > 0 && (seats[end - 1] === view.seat || seats[end - 1] == null)) end--;
    }
    const mine = end > 0 ? seats.lastIndexOf(view.seat, end - 1) : -1;
    // No one moved since my own move (I just moved, or it ended the round): show that move too.
    const othersSince = seats.slice(mine + 1).some((seat) => seat != null && seat !== view.seat);
    start = mine >= 0 && !othersSince ? mine : mine + 1;
  } else {
    start = log.length;
    for (let i = log.length - 1; i >= 0; i--) {
      if (seats[i] == null) continue;
      if (start < log.length && seats[start] != null && seats[i] !== seats[start]) break;
      start = i;
    }
  }
  return log.slice(Math.max(start, log.length - 12));
}

// The replay's one omniscient board: the spectator's view with what each seat knows of its own filled
// in (the board's `reveal`); pass the seats' views as opts.seatViews to draw each hand in its box.
function omniscientView(game, spectator, views) {
  const board = BOARDS[game] || {};
  return board.reveal ? board.reveal(structuredClone(spectator), views) : spectator;
}

function renderBoard(game, view, opts) {
  const board = BOARDS[game];
  if (!board) return null;
  const ctx = boardContext(game, view, opts);
  const root = el("div", { class: `board board-${game}` });
  root.append(board.render(ctx));
  markLanded(ctx);
  return { node: root, prompt: board.prompt ? board.prompt(ctx) : null, ctx };
}

// Shared pieces -------------------------------------------------------------------------------------

function playerTag(ctx, p, extra) {
  const v = ctx.view;
  const cls = ["ptag"];
  if (v.current_player === p) cls.push("current");
  if (p === v.seat) cls.push("mine");
  if (ctx.recentSeats.has(p)) cls.push("last-move");
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
    ctx.seatViews && ctx.board.seatHand ? ctx.board.seatHand(ctx, p, ctx.seatViews[p]) : null,
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
