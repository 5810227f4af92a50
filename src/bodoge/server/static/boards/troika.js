// Troika: the mine (face-up tiles and the face-down pool), each container, your hand, hand counts,
// declarations, the round and chips.
"use strict";

BOARDS.troika = {
  terms: {
    en: {
      mine: "Mine", pool: "Face-down pool", draw: "Draw", container: "Container", hand: "Hand",
      declared: "declared Troika", declare: "Declare Troika", chips: "chips", round: "Round",
      removed: "removed", returned: "returned face down by you", takePrompt: "Take a face-up tile, draw from the pool, return a tile, or declare.",
      start: "start player", tiles: "tiles", lastRound: "Last round", tile: "tile",
      inMine: "in the mine", inHand: "in your hand", inContainer: "in the container of", inHandOf: "in the hand of",
    },
    ja: {
      mine: "採掘場", pool: "裏向きの山", draw: "引く", container: "コンテナ", hand: "手札",
      declared: "トロイカ宣言済み", declare: "トロイカ宣言", chips: "チップ", round: "ラウンド",
      removed: "除外", returned: "あなたが裏向きで戻した", takePrompt: "表向きのタイルを取る・山から引く・タイルを戻す・宣言する、のどれかを選んでください。",
      start: "始まりの冒険者", tiles: "枚", lastRound: "前のラウンド", tile: "タイル",
      inMine: "（採掘場）", inHand: "（あなたの手札）", inContainer: "（コンテナ）", inHandOf: "（手札）",
    },
  },

  // A tile; `where` names the place it lies for screen readers ("tile 14 in the container").
  tile(ctx, n, act, where, extra) {
    const hue = Math.round(((n - 1) / 15) * 300);
    const what = `${ctx.T("tile")} ${n} ${where}`;
    const node = el(
      "span",
      { class: "tile" + (extra ? " " + extra : ""), style: { "--hue": hue }, title: what, dataset: { n } },
      String(n),
    );
    return act ? ctx.bind(node, act, what) : ctx.name(node, what, n);
  },

  seatHand(ctx, p, seatView) {
    const where = `${ctx.T("inHandOf")} ${ctx.seatName(p)}`;
    return el("div", { class: "tiles hand" }, (seatView.hand || []).map((n) => this.tile(ctx, n, null, where, "inhand")));
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
    v.mine.forEach((n) => faceUp.append(this.tile(ctx, n, `take ${n}`, T("inMine"))));
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
      sorted.forEach((n) => cont.append(this.tile(ctx, n, p === v.seat ? `return container ${n}` : null, `${T("inContainer")} ${ctx.seatName(p)}`)));
      box.append(el("div", { class: "muted small" }, T("container")), cont);
      players.append(box);
    }
    root.append(players);
    if (v.seat != null) {
      const hand = el("div", { class: "tiles hand" });
      (v.hand || []).forEach((n) => hand.append(this.tile(ctx, n, `return hand ${n}`, T("inHand"), "inhand")));
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
