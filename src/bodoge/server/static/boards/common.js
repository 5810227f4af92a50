// Shared board helpers. A board module registers BOARDS[game] = {terms, render(ctx), prompt(ctx)}; the
// table page and the replay viewer draw a view with it. Clicking maps to legal actions by their text:
// an element bound to "take 7" is clickable when some legal action is "take 7" (or starts with
// "take 7 ", then the choice continues step by step: the board shows what is chosen so far).
"use strict";

const BOARDS = {};

// A page loads the board of the game it shows, and no other: its shell lists every board's script, at
// a URL that carries the file's hash, in <body data-boards='{"troika": "/static/boards/troika.js?v=…"}'>,
// and loadBoard(game) adds that one script to the page, once. For a game with no board there (a name
// the page does not know) it fails, naming the game; the pages then draw without a board.
const BOARD_LOADS = new Map(); // game -> the promise of its board
const BOARD_MISSING = new Set(); // games whose board could not be had: asked for no more

function boardScripts() {
  try {
    const scripts = JSON.parse(document.body.dataset.boards || "{}");
    return scripts && typeof scripts === "object" ? scripts : {};
  } catch (e) {
    return {};
  }
}

function loadBoard(game) {
  if (Object.hasOwn(BOARDS, game)) return Promise.resolve(BOARDS[game]);
  if (!BOARD_LOADS.has(game)) {
    fetchBoardTips(game); // its components' rules (board-aids.js), had while the script comes
    const scripts = boardScripts();
    const loading = Object.hasOwn(scripts, game)
      ? new Promise((resolve, reject) => {
          const script = document.createElement("script");
          script.src = scripts[game];
          script.onload = () =>
            Object.hasOwn(BOARDS, game)
              ? resolve(BOARDS[game])
              : reject(new Error(`bodoge: the script ${scripts[game]} did not register the board of "${game}"`));
          script.onerror = () => reject(new Error(`bodoge: the board of "${game}" could not be loaded (${scripts[game]})`));
          document.head.append(script);
        })
      : Promise.reject(new Error(`bodoge: no board for the game "${game}" (boards: ${Object.keys(scripts).join(", ")})`));
    BOARD_LOADS.set(
      game,
      loading.catch((e) => {
        BOARD_MISSING.add(game);
        throw e;
      }),
    );
  }
  return BOARD_LOADS.get(game);
}

// For a page that draws as views come (the table): whether `game`'s board is still on its way. The
// first ask starts loading it and calls `then` once it has come, or has failed (said on the console):
// the page draws again, with the board or without.
function boardComing(game, then) {
  if (Object.hasOwn(BOARDS, game) || BOARD_MISSING.has(game)) return false;
  if (!BOARD_LOADS.has(game)) {
    loadBoard(game).then(then, (e) => {
      console.warn(e.message);
      then();
    });
  }
  return true;
}

const BOARD_STRINGS = {
  en: {
    you: "you", cancel: "Cancel", chosen: "Chosen so far", hand: "Your hand", round: "Round",
    clickHint: "Choose a highlighted item, or use the buttons below (keys 1–9).", endOfRound: "End of round",
    endOfGame: "End of game", winner: "Winner", score: "Score", noCards: "none", turn: "Turn",
    watching: "watching", wait: "Waiting for", yourTurn: "Your turn", faceDown: "face down",
  },
  ja: {
    you: "あなた", cancel: "取り消し", chosen: "選択中", hand: "あなたの手札", round: "ラウンド",
    clickHint: "光っているものか、下のボタン（1〜9キー）で選んでください。", endOfRound: "ラウンド終了",
    endOfGame: "ゲーム終了", winner: "勝者", score: "得点", noCards: "なし", turn: "ターン",
    watching: "観戦中", wait: "待っています：", yourTurn: "あなたの手番", faceDown: "伏せ",
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

// The context a board draws with. opts: {seatName(p), send(actionId), pending, setPending(text), readOnly,
// seatViews, seatExtra(p) -> a node shown in seat p's box after its name (the table's presence and clock)}
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
    game,
    pending: opts.pending || "",
    plan: opts.plan || [], // the actions of a move chosen so far, not yet sent (table.js: a board's `continues`)
    seat: view.seat,
    seatName: opts.seatName || ((p) => `P${p}`),
    seatExtra: opts.seatExtra || null,
    // The seat drawn at the bottom edge of the table: yours, a spectator's seat 0.
    bottom: view.seat ?? 0,
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
      // The piece's identity for the motion (animateBoard): what it is and where it lies.
      node.dataset.piece = String(key);
      node.dataset.place = at;
      const id = pieceId(at, key);
      if (ctx.landed.has(id)) {
        if (!ctx.atLanded.has(id)) ctx.atLanded.set(id, []);
        const nodes = ctx.atLanded.get(id);
        if (!nodes.includes(node)) nodes.push(node); // (bind names a named piece again)
      }
      return node;
    },
    // Make node clickable for the action text (or prefix) when it is legal now. Its accessible name
    // says what it is in words (`what`: "red 4 △", never the code "R4^"); without one, the action text.
    bind(node, text, what) {
      node.dataset.act = text;
      const key = node.dataset.piece ?? node.dataset.n ?? node.dataset.code ?? node.dataset.id ?? node.dataset.snack;
      if (!ctx.isLegal(text)) return ctx.name(node, what, key);
      ctx.name(node, what || ctx.actionLabel(text), key);
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
  if (tipState.anchor && !tipState.anchor.isConnected) hideTip(); // its component was drawn over
  refocusAfterDraw();
  const ctx = boardContext(game, view, opts);
  const root = el("div", { class: `board board-${game}` });
  root.append(board.render(ctx));
  markLanded(ctx);
  return { node: root, prompt: board.prompt ? board.prompt(ctx) : null, ctx };
}

// Shared pieces -------------------------------------------------------------------------------------

// A player's name tag: the name (and "you"), the score, whose turn it is (lit), the winner, then the
// table page's own part for the seat (opts.seatExtra: presence and clock) and the board's facts.
function playerTag(ctx, p, extra) {
  const v = ctx.view;
  const cls = ["ptag"];
  if (v.current_player === p && !v.is_terminal) cls.push("current");
  if (p === v.seat) cls.push("mine");
  if (ctx.recentSeats.has(p)) cls.push("last-move");
  const won = v.winners && v.winners.includes(p);
  if (won) cls.push("winner");
  const score = v.scores ? v.scores[p] : null;
  return el(
    "div",
    { class: cls.join(" "), dataset: { seat: p } },
    el(
      "div",
      { class: "pline" },
      el("span", { class: "pturn", "aria-hidden": "true" }, v.current_player === p && !v.is_terminal ? "▶" : null),
      el("span", { class: "pname" }, ctx.seatName(p)),
      p === v.seat ? el("span", { class: "pyou" }, bt("you")) : null,
      won ? el("span", { class: "badge ok pwin" }, "★ " + bt("winner")) : null,
      score != null ? el("span", { class: "pscore", title: bt("score") }, el("span", { class: "sr-only" }, bt("score") + " "), String(score)) : null,
      ctx.seatExtra ? ctx.seatExtra(p) : null,
    ),
    extra || null,
  );
}

// A player's box on a board: the name tag with a line of facts (`meta`), then the board's own parts.
function playerBox(ctx, p, meta, ...children) {
  const cls = ["pbox", `seat-c${p % 6}`];
  if (ctx.view.current_player === p && !ctx.view.is_terminal) cls.push("current");
  if (p === ctx.bottom) cls.push("bottom");
  if (ctx.view.winners && ctx.view.winners.includes(p)) cls.push("won");
  return el(
    "div",
    { class: cls.join(" "), dataset: { seat: p } },
    playerTag(ctx, p, el("div", { class: "pmeta" }, meta)),
    ...children,
    ctx.seatViews && ctx.board.seatHand ? ctx.board.seatHand(ctx, p, ctx.seatViews[p]) : null,
  );
}

// The table top, seen from the bottom seat's chair: that seat's box at the bottom edge, the others
// around in the order they sit clockwise from its left (the next seat to play sits on the left): the
// first on the left side, the last on the right side, those between across the top; the shared
// components in the middle. On a narrow board (art.css) the others make one row at the top, in the
// same order. boxes[p] is seat p's box.
function tableTop(ctx, boxes, ...center) {
  const n = boxes.length;
  const me = ctx.bottom;
  const others = [];
  for (let k = 1; k < n; k++) others.push(boxes[(me + k) % n]);
  const sides = others.length >= 2;
  const left = sides ? others.slice(0, 1) : [];
  const right = sides ? others.slice(-1) : [];
  const top = sides ? others.slice(1, -1) : others;
  return el(
    "div",
    { class: `tabletop others-${others.length}` + (top.length ? "" : " no-top") },
    el(
      "div",
      { class: "seats-others" },
      el("div", { class: "seats-left" }, left),
      el("div", { class: "seats-top" }, top),
      el("div", { class: "seats-right" }, right),
    ),
    el("div", { class: "table-center" }, ...center),
    el("div", { class: "seat-bottom" }, boxes[me]),
  );
}

// A drawn component: an SVG face (viewBox w×h) in a box of its kind's one size (art.css: .pc-KIND),
// named in words for screen readers; `key` and `place` are its identity for the last-move mark and
// the motion. The face's drawing is the caller's (each game's own art). `tip`: the key of its rule in
// the game's texts ([tip] of texts/*.toml), shown on hover and on a long press (board-aids.js: tipOn).
function piece(ctx, kind, { w, h, label, key, place, cls, data, tip }, ...shapes) {
  const svg = svgEl("svg", { viewBox: `0 0 ${w} ${h}`, class: "pc-face", "aria-hidden": "true", focusable: "false" }, ...shapes);
  const node = el("div", { class: `pc pc-${kind}` + (cls ? " " + cls : ""), role: "img", dataset: data || {} }, svg);
  if (tip) tipOn(node, tip, ctx.game);
  return ctx.name(node, label, key, place);
}

// A star's outline (points at radius r, dents at radius r2), centred at (cx, cy).
function starPath(cx, cy, r, r2, points = 5) {
  const d = [];
  for (let i = 0; i < points * 2; i++) {
    const a = (Math.PI * i) / points - Math.PI / 2;
    const rr = i % 2 ? r2 : r;
    d.push(`${i ? "L" : "M"}${(cx + rr * Math.cos(a)).toFixed(2)} ${(cy + rr * Math.sin(a)).toFixed(2)}`);
  }
  return d.join(" ") + " Z";
}

// One number in the page's language's words where it counts: "+3", "−2", "0".
function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

// Motion ------------------------------------------------------------------------------------------
// A redraw replaces the whole board; the pieces that moved are then animated from where they were
// (FLIP: the old screen rectangles by identity, the new node transformed from there to its place).
// The DOM is the view's at once: animations only transform, and leave nothing behind when done.
// table.js / replay.js: `const before = boardSnapshot(box)` before clearing the box, then
// `animateBoard(before, box)` after the new board is in it.

function boardSnapshot(container) {
  if (!container) return null;
  // A motion still running ends now: the pieces' places are where the last view put them.
  if (container.getAnimations) container.getAnimations({ subtree: true }).forEach((a) => a.finish());
  const pieces = [...container.querySelectorAll("[data-piece]")].map((node) => ({
    key: node.dataset.piece,
    place: node.dataset.place || "",
    rect: node.getBoundingClientRect(),
    level: node.dataset.level,
  }));
  const piles = {};
  container.querySelectorAll("[data-pile]").forEach((node) => {
    piles[node.dataset.pile] = node.getBoundingClientRect();
  });
  return { pieces, piles };
}

function reducedMotion() {
  return !window.matchMedia || window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

const MOTION = { ms: 320, gap: 200, easing: "cubic-bezier(0.2, 0.7, 0.3, 1)", maxSteps: 6, maxMoves: 16 };

// The moves between two drawings: pieces alike at one place are one to the eye, so per (key, place)
// only the count matters; what a place gained came from where a piece of that key (or a face-down one,
// turned over on the way) was lost, else from a pile (the deck, the pool), else it just appears.
function boardMoves(before, root) {
  const now = [...root.querySelectorAll("[data-piece]")].map((node) => ({
    node,
    key: node.dataset.piece,
    place: node.dataset.place || "",
    level: node.dataset.level,
  }));
  const group = (list) => {
    const map = new Map();
    for (const item of list) {
      const id = `${item.key}\u0000${item.place}`;
      if (!map.has(id)) map.set(id, []);
      map.get(id).push(item);
    }
    return map;
  };
  const oldBy = group(before.pieces);
  const newBy = group(now);
  const gone = [];
  const came = [];
  const levels = [];
  for (const [id, items] of newBy) {
    const old = oldBy.get(id) || [];
    const stay = Math.min(old.length, items.length);
    for (let i = 0; i < stay; i++) {
      if (old[i].level != null && items[i].level != null && old[i].level !== items[i].level) {
        levels.push({ node: items[i].node, from: Number(old[i].level), to: Number(items[i].level) });
      }
    }
    came.push(...items.slice(stay));
  }
  for (const [id, old] of oldBy) gone.push(...old.slice((newBy.get(id) || []).length));
  const moves = [];
  for (const item of came) {
    let i = gone.findIndex((g) => g.key === item.key);
    let flip = false;
    if (i < 0) {
      // Turned over: a face-down piece left (or its place shows a face now), or a face went face down.
      const hidden = (g) => g.key === "?" || item.key === "?";
      const seatOf = (place) => place.split(":")[1];
      i = gone.findIndex((g) => hidden(g) && g.place === item.place);
      if (i < 0) i = gone.findIndex((g) => hidden(g) && seatOf(g.place) === seatOf(item.place));
      // (A piece before a seat comes from that seat's own hidden pieces, never from another's.)
      const pile = item.node.dataset.from && before.piles[item.node.dataset.from];
      if (i < 0 && !pile && seatOf(item.place) == null) i = gone.findIndex(hidden);
      flip = i >= 0;
    }
    if (i >= 0) {
      moves.push({ node: item.node, from: gone[i].rect, flip });
      gone.splice(i, 1);
      continue;
    }
    const pile = item.node.dataset.from && before.piles[item.node.dataset.from];
    moves.push({ node: item.node, from: pile || null, flip: !!pile });
  }
  return { moves, levels };
}

function animateBoard(before, root) {
  // The first drawing (an empty board before it) shows the table as it is: nothing moves.
  if (!before || !before.pieces.length || !root || !root.animate || reducedMotion()) return [];
  const { moves, levels } = boardMoves(before, root);
  // A jump (the replay's first or last move, another seat's view, a new round) is no move to follow.
  if (moves.length + levels.length > MOTION.maxMoves) return [];
  // Pieces that come from nowhere on the board (a new round's deal) appear, a few at most: a deal of a
  // dozen cards fading in one by one would hold up the game.
  const fromNowhere = moves.filter((m) => !m.from);
  if (fromNowhere.length > MOTION.maxSteps) fromNowhere.forEach((m) => moves.splice(moves.indexOf(m), 1));
  const animations = [];
  let step = 0;
  const timing = () => ({
    duration: MOTION.ms,
    delay: Math.min(step++, MOTION.maxSteps) * MOTION.gap,
    easing: MOTION.easing,
    fill: "backwards",
  });
  for (const move of moves) {
    const node = move.node;
    const to = node.getBoundingClientRect();
    if (!to.width || !to.height) continue;
    const base = getComputedStyle(node).transform;
    const end = base && base !== "none" ? base : "none";
    const tail = end === "none" ? "" : " " + end;
    let start;
    if (move.from) {
      // From centre to centre (about the centre, a piece turned upside down stays so).
      const dx = move.from.left + move.from.width / 2 - (to.left + to.width / 2);
      const dy = move.from.top + move.from.height / 2 - (to.top + to.height / 2);
      const s = move.from.width / to.width || 1;
      if (Math.abs(dx) < 1 && Math.abs(dy) < 1 && !move.flip) continue;
      start = `translate(${dx}px, ${dy}px) scale(${s})` + (move.flip ? " perspective(600px) rotateY(90deg)" : "") + tail;
    } else {
      start = "scale(0.6)" + tail;
    }
    const frames = [
      { transform: start, opacity: move.from ? 1 : 0 },
      { transform: end, opacity: 1 },
    ];
    animations.push(node.animate(frames, timing()));
  }
  for (const lv of levels) {
    // A bottle's sake drops (or rises) to its new level: the liquid slides by the difference.
    const liquid = lv.node.querySelector("[data-liquid]");
    if (!liquid) continue;
    const per = Number(liquid.dataset.liquid) || 0;
    const dy = (lv.to - lv.from) * per;
    animations.push(
      liquid.animate([{ transform: `translateY(${dy}px)` }, { transform: "translateY(0)" }], timing()),
    );
  }
  return animations;
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
