// Troika: a mine. Ore tiles as cut stones coloured by the value they give as a jewel's highest tile
// (the ones digit), the face-down pool as a heap of rough stones, chips as coins; each seat's container
// in its box, your hand in yours.
"use strict";

// The stone's colour by its ones digit (a jewel scores the ones digit of its highest tile): 1 and 11
// alike, 10 a clear stone worth 0. Each colour's ink for the number has 4.5:1 contrast on it.
const TR_STONES = {
  0: ["#dfe7ea", "#9fb3ba", "#1d2a30"], 1: ["#8c6e52", "#5e4631", "#fff"], 2: ["#a6662f", "#6e4019", "#fff"],
  3: ["#e3c34c", "#9c7d16", "#2a2006"], 4: ["#8fc56b", "#4f7f33", "#10210a"], 5: ["#32826e", "#1a5445", "#fff"],
  6: ["#2e76c6", "#1d4d80", "#fff"], 7: ["#6a5fd1", "#3b318c", "#fff"], 8: ["#a94bc4", "#6d2d82", "#fff"],
  9: ["#d43a5d", "#8c2540", "#fff"], // (the white numbers at 4.5:1 at least on their stones)
};

BOARDS.troika = {
  terms: {
    en: {
      mine: "Mine", pool: "Face-down pool", draw: "Draw", container: "Container", hand: "Hand",
      declared: "declared Troika", declare: "Declare Troika", chips: "chips", round: "Round",
      removed: "removed", returned: "returned face down by you", takePrompt: "Take a face-up tile, draw from the pool, return a tile, or declare.",
      start: "start player", tiles: "tiles", lastRound: "Last round",
      // A tile's name for screen readers, "{n}" its number, "{p}" a player (word order differs in Japanese).
      inMine: "tile {n} in the mine", inHand: "tile {n} in your hand", inContainer: "tile {n} in the container of {p}",
      inHandOf: "tile {n} in the hand of {p}", faceDown: "face-down tile", handOf: "{n} tiles in the hand of {p}",
      chipsOf: "{n} chips", fuel: "fuel", jewel: "jewel", waste: "waste", leftBehind: "left behind (no fuel)",
      result: "Round {r}",
    },
    ja: {
      mine: "採掘場", pool: "裏向きの山", draw: "引く", container: "コンテナ", hand: "手札",
      declared: "トロイカ宣言済み", declare: "トロイカ宣言", chips: "チップ", round: "ラウンド",
      removed: "除外", returned: "あなたが裏向きで戻した", takePrompt: "表向きのタイルを取る・山から引く・タイルを戻す・宣言する、のどれかを選んでください。",
      start: "始まりの冒険者", tiles: "枚", lastRound: "前のラウンド",
      inMine: "採掘場のタイル {n}", inHand: "あなたの手札のタイル {n}", inContainer: "{p}のコンテナのタイル {n}",
      inHandOf: "{p}の手札のタイル {n}", faceDown: "裏向きのタイル", handOf: "{p}の手札 {n}枚",
      chipsOf: "チップ {n}枚", fuel: "燃料", jewel: "宝石", waste: "ゴミ", leftBehind: "置き去り（燃料なし）",
      result: "ラウンド{r}",
    },
  },

  // A stone: 44×50, cut (a table facet and four bevels) in its colour, its number large; face down, a
  // rough grey stone.
  stoneShapes(n) {
    const outline = "M10 3 h24 l9 11 v22 l-9 11 h-24 l-9 -11 v-22 z";
    if (n == null) {
      return [
        svgEl("path", { d: "M8 8 l13 -5 l16 4 l5 14 l-3 17 l-12 9 l-17 -2 l-8 -13 l1 -14 z", fill: "#6e6a63", stroke: "#3b3833", "stroke-width": 1.5 }),
        svgEl("path", { d: "M12 14 l8 -3 M28 36 l7 -6 M10 30 l5 5", stroke: "#8f8a80", "stroke-width": 1.4, "stroke-linecap": "round" }),
        svgEl("circle", { cx: 30, cy: 15, r: 2, fill: "#55524c" }),
      ];
    }
    const [fill, dark, ink] = TR_STONES[n % 10];
    return [
      svgEl("path", { d: outline, fill, stroke: dark, "stroke-width": 1.5, "stroke-linejoin": "round" }),
      svgEl("path", { d: "M10 3 l5 8 h14 l5 -8 M43 14 l-9 1 M1 14 l9 1 M10 47 l5 -8 h14 l5 8", fill: "none", stroke: dark, "stroke-width": 0.9, opacity: 0.7 }),
      svgEl("path", { d: "M10 3 h24 l-5 8 h-14 z", fill: "#fff", opacity: 0.35 }),
      svgEl("text", { x: 22, y: 33, "text-anchor": "middle", "font-size": n > 9 ? 17 : 20, "font-weight": 800, fill: ink }, String(n)),
    ];
  },

  // A tile; `where` (a term key, and the player `p` it belongs to) names it for screen readers, and
  // says where it lies (its place, for the last move's mark and the motion).
  tile(ctx, n, act, where, p, extra) {
    const what = ctx.T(where).replace("{n}", String(n)).replace("{p}", p == null ? "" : ctx.seatName(p));
    const place = { inMine: "mine", inContainer: `container:${p}`, inHand: `hand:${ctx.seat}`, inHandOf: `hand:${p}` }[where];
    const node = piece(ctx, "tr-tile", { w: 44, h: 50, label: what, key: n, place, cls: extra, data: { n, from: "pool" }, tip: "tile" }, this.stoneShapes(n));
    return act ? ctx.bind(node, act, what) : node;
  },

  // A coin: the chips a seat holds.
  coin(ctx, n) {
    return tipOn(el(
      "div",
      { class: "tr-coins", role: "img", "aria-label": ctx.T("chipsOf").replace("{n}", n) },
      svgEl(
        "svg",
        { viewBox: "0 0 32 32", class: "tr-coin", "aria-hidden": "true" },
        svgEl("circle", { cx: 16, cy: 16, r: 14.5, fill: "#d9b044", stroke: "#7a5a12", "stroke-width": 2 }),
        svgEl("circle", { cx: 16, cy: 16, r: 10.5, fill: "none", stroke: "#a3801f", "stroke-width": 1 }),
        svgEl("text", { x: 16, y: 21, "text-anchor": "middle", "font-size": 13, "font-weight": 800, fill: "#3a2a06" }, String(n)),
      ),
    ), "chips", ctx.game);
  },

  // Where an event put the tile it moved (the last move's mark), and where from: a taken tile from
  // the mine into the taker's container, a drawn or dealt one into the hand, a flipped one face up into
  // the mine, a returned one from the container into the mine, or from the hand into the pool.
  landed(e) {
    if (e.type === "take") return [["mine", e.tile, -1], [`container:${e.seat}`, e.tile]];
    if (e.type === "draw" || e.type === "deal") return [[`hand:${e.seat}`, e.tile]];
    if (e.type === "flip") return [["mine", e.tile]];
    if (e.type === "return_container") return [[`container:${e.seat}`, e.tile, -1], ["mine", e.tile]];
    if (e.type === "return_hand") return [[`hand:${e.seat}`, e.tile, -1]];
    return [];
  },

  seatHand(ctx, p, seatView) {
    return el("div", { class: "tiles hand" }, (seatView.hand || []).map((n) => this.tile(ctx, n, null, "inHandOf", p, "inhand")));
  },

  prompt(ctx) {
    const v = ctx.view;
    if (v.is_terminal) return null;
    if (ctx.legal.length) return ctx.T("takePrompt");
    return null;
  },

  // Another seat's hand: face-down stones.
  backs(ctx, n, p) {
    const node = el("div", { class: "tiles tr-backs", role: "img", "aria-label": ctx.T("handOf").replace("{n}", n).replace("{p}", ctx.seatName(p)) });
    for (let i = 0; i < n; i++) {
      const b = piece(ctx, "tr-tile", { w: 44, h: 50, key: "?", place: `hand:${p}`, cls: "back", data: { from: "pool" }, tip: "tile_back" }, this.stoneShapes(null));
      b.setAttribute("aria-hidden", "true");
      node.append(b);
    }
    return node;
  },

  // A seat's tiles as the round scored them: each fuel (three alike) on a dark tray, each jewel on a
  // gold one with its value, the waste on a grey one with its cost. The stones keep their faces; the
  // trays say what they made.
  roundResult(ctx, r, round) {
    const T = ctx.T;
    const group = (cls, tiles, label) =>
      el(
        "div",
        { class: `tr-set ${cls}`, role: "img", "aria-label": `${label}: ${tiles.join(" ")}` },
        el("div", { class: "tr-set-tiles" }, tiles.map((n) => svgEl("svg", { viewBox: "0 0 44 50", class: "tr-mini", "aria-hidden": "true" }, this.stoneShapes(n)))),
        el("span", { class: "tr-set-label", "aria-hidden": "true" }, label),
      );
    const sets = (r.sets || []).map((set) => {
      const fuel = set.every((n) => n === set[0]);
      return fuel ? group("tr-fuel", set, T("fuel")) : group("tr-jewel", set, `${T("jewel")} ${signed(Math.max(...set) % 10)}`);
    });
    const waste = r.waste && r.waste.length ? group("tr-waste", r.waste, `${T("waste")} ${signed(-r.waste.length)}`) : null;
    return el(
      "div",
      { class: "tr-result" },
      el("div", { class: "bsec-title" }, T("result").replace("{r}", round), r.left_behind ? ` · ${T("leftBehind")}` : ""),
      el("div", { class: "tr-sets" }, sets, waste),
    );
  },

  render(ctx) {
    const v = ctx.view;
    const T = ctx.T;
    // The mine: the face-down pool as a heap (click to draw) and the face-up tiles.
    const heap = svgEl(
      "svg",
      { viewBox: "0 0 90 64", class: "tr-heap", "aria-hidden": "true" },
      v.pool_size ? [
        svgEl("g", { transform: "translate(2 18) scale(0.85)" }, this.stoneShapes(null)),
        svgEl("g", { transform: "translate(46 20) scale(0.85) rotate(8 22 25)" }, this.stoneShapes(null)),
        svgEl("g", { transform: "translate(24 2) scale(0.85) rotate(-10 22 25)" }, this.stoneShapes(null)),
      ] : svgEl("ellipse", { cx: 45, cy: 52, rx: 38, ry: 8, fill: "none", stroke: "rgba(0,0,0,0.3)", "stroke-dasharray": "4 3" }),
    );
    const pool = el("div", { class: "pool", dataset: { pile: "pool" } }, heap, el("span", { class: "pool-count" }, `${T("pool")}: ${v.pool_size}`));
    ctx.bind(tipOn(pool, "pool", ctx.game), "draw", `${T("pool")}: ${v.pool_size}`);
    const faceUp = el("div", { class: "tiles mine-tiles" });
    v.mine.forEach((n) => faceUp.append(this.tile(ctx, n, `take ${n}`, "inMine")));
    const center = [
      el(
        "div",
        { class: "binfo" },
        `${T("round")} ${v.round}/${v.rounds} · ${T("start")}: ${ctx.seatName(v.start_player)}`,
        v.removed ? ` · ${T("removed")}: ${v.removed}` : "",
      ),
      el("div", { class: "tr-mine", "aria-label": T("mine"), role: "group" }, el("div", { class: "bsec-title" }, T("mine")), pool, faceUp),
    ];
    if (v.returned_in_pool && v.returned_in_pool.length) {
      center.push(el("div", { class: "muted small" }, `${T("returned")}: ${v.returned_in_pool.join(" ")}`));
    }
    // Each player: container, hand, declaration, chips.
    const boxes = [];
    for (let p = 0; p < v.players; p++) {
      const cont = tipOn(el("div", { class: "tiles container" }), "container", ctx.game);
      v.containers[p].slice().sort((a, b) => a - b).forEach((n) => cont.append(this.tile(ctx, n, p === v.seat ? `return container ${n}` : null, "inContainer", p)));
      const box = playerBox(
        ctx,
        p,
        [`${T("hand")} ${v.hand_sizes[p]} `, v.declared[p] ? el("span", { class: "badge" }, T("declared")) : null],
        el("div", { class: "tr-row" }, el("div", { class: "tr-container-wrap" }, el("div", { class: "bsec-title" }, T("container")), cont), this.coin(ctx, v.chips[p])),
        p !== v.seat && !ctx.seatViews && v.hand_sizes[p] ? this.backs(ctx, v.hand_sizes[p], p) : null,
      );
      const result = v.is_terminal && v.last_round && (v.last_round.players || []).find((r) => r.seat === p);
      if (result) box.append(this.roundResult(ctx, result, v.last_round.round));
      boxes.push(box);
    }
    if (v.seat != null && !v.is_terminal) {
      const hand = el("div", { class: "tiles hand" });
      (v.hand || []).forEach((n) => hand.append(this.tile(ctx, n, `return hand ${n}`, "inHand", null, "inhand")));
      // Your hand beside your container (one row where it fits), the coin last.
      const row = boxes[v.seat].querySelector(".tr-row");
      row.insertBefore(el("div", { class: "tr-hand" }, el("div", { class: "bsec-title" }, bt("hand")), hand, ctx.button(T("declare"), "troika", "primary")), row.lastChild);
    }
    const root = el("div", { class: "troika" }, tableTop(ctx, boxes, ...center));
    if (v.last_round && (v.last_round.text || v.last_round.text_ja)) {
      root.append(
        el(
          "div",
          { class: "explain" },
          el("div", { class: "bsec-title" }, v.is_terminal ? bt("endOfGame") : T("lastRound")),
          el("pre", { class: "explain-text" }, eventText(v.last_round)),
        ),
      );
    }
    return root;
  },
};
