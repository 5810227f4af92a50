// Troika: the mine (face-up tiles and the face-down pool), each container, your hand, hand counts,
// declarations, the round and chips.
"use strict";

BOARDS.troika = {
  terms: {
    en: {
      mine: "Mine", pool: "Face-down pool", draw: "Draw", container: "Container", hand: "Hand",
      declared: "declared Troika", declare: "Declare Troika", chips: "chips", round: "Round",
      removed: "removed", returned: "returned face down by you", takePrompt: "Take a face-up tile, draw from the pool, return a tile, or declare.",
      start: "start player", tiles: "tiles", lastRound: "Last round",
      // A tile's name for screen readers, "{n}" its number, "{p}" a player (word order differs in Japanese).
      inMine: "tile {n} in the mine", inHand: "tile {n} in your hand", inContainer: "tile {n} in the container of {p}",
      inHandOf: "tile {n} in the hand of {p}",
    },
    ja: {
      mine: "採掘場", pool: "裏向きの山", draw: "引く", container: "コンテナ", hand: "手札",
      declared: "トロイカ宣言済み", declare: "トロイカ宣言", chips: "チップ", round: "ラウンド",
      removed: "除外", returned: "あなたが裏向きで戻した", takePrompt: "表向きのタイルを取る・山から引く・タイルを戻す・宣言する、のどれかを選んでください。",
      start: "始まりの冒険者", tiles: "枚", lastRound: "前のラウンド",
      inMine: "採掘場のタイル {n}", inHand: "あなたの手札のタイル {n}", inContainer: "{p}のコンテナのタイル {n}",
      inHandOf: "{p}の手札のタイル {n}",
    },
  },

  // A tile; `where` (a term key, and the player `p` it belongs to) names it for screen readers, and
  // says where it lies (its place, for the last move's mark).
  tile(ctx, n, act, where, p, extra) {
    const hue = Math.round(((n - 1) / 15) * 300);
    const what = ctx.T(where).replace("{n}", String(n)).replace("{p}", p == null ? "" : ctx.seatName(p));
    const place = { inMine: "mine", inContainer: `container:${p}`, inHand: `hand:${ctx.seat}`, inHandOf: `hand:${p}` }[where];
    const node = el(
      "span",
      { class: "tile" + (extra ? " " + extra : ""), style: { "--hue": hue }, title: what, dataset: { n, place } },
      String(n),
    );
    return act ? ctx.bind(node, act, what) : ctx.name(node, what, n);
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

  render(ctx) {
    const v = ctx.view;
    const T = ctx.T;
    const root = el("div", { class: "troika" });
    root.append(
      el(
        "div",
        { class: "binfo" },
        `${T("round")} ${v.round}/${v.rounds} · ${T("start")}: ${ctx.seatName(v.start_player)}`,
        v.removed ? ` · ${T("removed")}: ${v.removed}` : "",
      ),
    );
    // The mine: the face-down pool (click to draw) and the face-up tiles.
    const pool = el(
      "div",
      { class: "pool" },
      el("span", { class: "tile back", "aria-hidden": "true" }, "?"), // the pool itself is named
      el("span", { class: "pool-count" }, `${T("pool")}: ${v.pool_size}`),
    );
    ctx.bind(pool, "draw", `${T("pool")}: ${v.pool_size}`);
    const faceUp = el("div", { class: "tiles mine-tiles" });
    v.mine.forEach((n) => faceUp.append(this.tile(ctx, n, `take ${n}`, "inMine")));
    root.append(section(T("mine"), el("div", { class: "mine" }, pool, faceUp)));
    if (v.returned_in_pool && v.returned_in_pool.length) {
      root.append(el("div", { class: "muted small" }, `${T("returned")}: ${v.returned_in_pool.join(" ")}`));
    }
    // Each player: container, hand count, declaration, chips.
    const players = el("div", { class: "players" });
    for (let p = 0; p < v.players; p++) {
      const box = playerBox(ctx, p, [
        ` · ${T("hand")} ${v.hand_sizes[p]} · ${T("chips")} ${v.chips[p]}`,
        v.declared[p] ? el("span", { class: "badge" }, T("declared")) : null,
      ]);
      const cont = el("div", { class: "tiles container" });
      const sorted = v.containers[p].slice().sort((a, b) => a - b);
      sorted.forEach((n) => cont.append(this.tile(ctx, n, p === v.seat ? `return container ${n}` : null, "inContainer", p)));
      box.append(el("div", { class: "muted small" }, T("container")), cont);
      players.append(box);
    }
    root.append(players);
    if (v.seat != null) {
      const hand = el("div", { class: "tiles hand" });
      (v.hand || []).forEach((n) => hand.append(this.tile(ctx, n, `return hand ${n}`, "inHand", null, "inhand")));
      const declare = ctx.button(T("declare"), "troika", "primary");
      root.append(section(bt("hand"), hand, declare));
    }
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
