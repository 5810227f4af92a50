// Hangover: a bar counter. Drink cards in four suits, each a colour and a drink (red wine, blue highball,
// yellow beer, green bottle) so they are told apart without colour; the △ copy marked with a drawn
// triangle; snack cards as small plates with their two values; the drunk limit as a glass that fills.
"use strict";

const HG_SUITS = {
  R: { color: "#b8332a", ink: "#8e2219" },
  B: { color: "#2a62b8", ink: "#1d4a8c" },
  Y: { color: "#d9a400", ink: "#7a5b00" },
  G: { color: "#2e8b4a", ink: "#1f6634" },
};

BOARDS.hangover = {
  terms: {
    en: {
      trick: "Trick", lead: "lead", limit: "Drunk limit", sum: "sum", vp: "VP", tricks: "tricks", hand: "cards",
      columns: "Snack columns", yourSnacks: "Your snacks to arrange", drinker: "drinker", non_drinker: "non-drinker",
      out_non_drinker: "out (non-drinker)", hung_over: "hung over", declare: "Declare non-drinker", pass: "Pass",
      stop: "Stop flipping", judging: "Judgement", flipped: "flipped", faceDown: "face down", lastTrick: "Last trick",
      column: "Column", value: "Use", card: "card", snack: "snack",
      prompt_arrange: "Arrange your snack cards: choose them in the order of columns 1, 2, 3, …",
      beforeFirst: "Before the first trick",
      prompt_declare: "Declare non-drinker (下戸), or pass.",
      prompt_trick: "Play a card from your hand (follow the lead suit if you can).",
      prompt_flip: "Flip snacks from the judged column to change the sum, or stop.",
      prompt_discard: "Discard a card.",
      triangle: "△ marks a triangle card.",
      suit_R: "red", suit_B: "blue", suit_Y: "yellow", suit_G: "green",
      drink_R: "wine", drink_B: "highball", drink_Y: "beer", drink_G: "bottle",
      drinkCard: "{suit} {n}", drinkTri: "{suit} {n} △", drinkBack: "drink card, face down",
      snackCard: "snack {a} or {b}", snackBack: "snack, face down", snackFlipped: "snack {card} flipped, counts {v}",
      gauge: "sum {sum} of the drunk limit {limit}", cardsIn: "{n} cards in the hand of {p}", wonBy: "won by {p}",
    },
    ja: {
      trick: "トリック", lead: "リード", limit: "泥酔値", sum: "合計", vp: "VP", tricks: "トリック数", hand: "手札",
      columns: "肴の列", yourSnacks: "並べる肴カード", drinker: "ドリンカー", non_drinker: "下戸",
      out_non_drinker: "脱落(下戸)", hung_over: "ハングオーバー(敗北)", declare: "下戸宣言", pass: "パス",
      stop: "めくるのをやめる", judging: "泥酔判定", flipped: "めくった肴", faceDown: "伏せ", lastTrick: "前のトリック",
      column: "列", value: "値", card: "カード", snack: "肴",
      prompt_arrange: "肴カードを列1、2、3…の順に選んで並べてください。",
      beforeFirst: "最初のトリックの前",
      prompt_declare: "下戸宣言をするか、パスしてください。",
      prompt_trick: "手札からカードを出してください（リードのスートがあればフォロー）。",
      prompt_flip: "判定中の列の肴をめくって合計を変えるか、やめてください。",
      prompt_discard: "カードを1枚捨ててください。",
      triangle: "△は三角マークのカード。",
      suit_R: "赤", suit_B: "青", suit_Y: "黄", suit_G: "緑",
      drink_R: "ワイン", drink_B: "ハイボール", drink_Y: "ビール", drink_G: "瓶",
      drinkCard: "{suit}の{n}", drinkTri: "{suit}の{n}△", drinkBack: "伏せたドリンクカード",
      snackCard: "肴カード {a}／{b}", snackBack: "伏せた肴カード", snackFlipped: "めくった肴カード {card}（{v}として数える）",
      gauge: "合計 {sum}／泥酔値 {limit}", cardsIn: "{p}の手札 {n}枚", wonBy: "{p}の勝ち",
    },
  },
  SUITS: { R: 0, B: 1, Y: 2, G: 3 },

  prompt(ctx) {
    if (!ctx.legal.length) return null;
    if (ctx.legal.some((a) => a.text.startsWith("discard "))) return ctx.T("prompt_discard");
    return ctx.T(`prompt_${ctx.view.phase}`);
  },

  // A drink card's code in words: "R5^" -> "red 5 △" / "赤の5△".
  cardName(ctx, code) {
    const suit = ctx.T(`suit_${code[0]}`);
    const n = code.replace("^", "").slice(1);
    return ctx.T(code.endsWith("^") ? "drinkTri" : "drinkCard").replace("{suit}", suit).replace("{n}", n);
  },

  // Minus signs as minus signs: "-1/+2" -> ["−1", "+2"].
  snackValues(s) {
    return String(s).split("/").map((x) => x.replace("-", "−"));
  },

  // The drinks (centred on 28, 42), each its own outline so the suits differ without colour.
  drink(suit, color) {
    const st = { stroke: "#3a2a1a", "stroke-width": 1.4, "stroke-linejoin": "round" };
    switch (suit) {
      case "R": // a wine glass: a round bowl on a stem
        return [
          svgEl("path", { ...st, d: "M18 28 h20 c0 12 -4 17 -10 17 c-6 0 -10 -5 -10 -17 z", fill: "#fff" }),
          svgEl("path", { d: "M19 34 h18 c-1 7 -4 10 -9 10 c-5 0 -8 -3 -9 -10 z", fill: color }),
          svgEl("path", { ...st, d: "M28 45 v9 M21 56 h14", fill: "none" }),
        ];
      case "B": // a highball: a tall straight glass with ice
        return [
          svgEl("path", { ...st, d: "M20 26 h16 l-1.5 30 h-13 z", fill: "#fff" }),
          svgEl("path", { d: "M21 33 h14 l-1.2 22 h-11.6 z", fill: color }),
          svgEl("rect", { x: 23, y: 36, width: 5, height: 5, fill: "#dfeefc", stroke: "#fff", transform: "rotate(12 25 38)" }),
          svgEl("rect", { x: 29, y: 43, width: 5, height: 5, fill: "#dfeefc", stroke: "#fff", transform: "rotate(-10 31 45)" }),
        ];
      case "Y": // a beer mug with a head of foam and a handle
        return [
          svgEl("path", { ...st, d: "M36 34 h4 a3 3 0 0 1 3 3 v8 a3 3 0 0 1 -3 3 h-4", fill: "none" }),
          svgEl("rect", { ...st, x: 17, y: 30, width: 19, height: 26, rx: 2, fill: color }),
          svgEl("path", { ...st, d: "M16 31 q2 -6 6 -3 q3 -5 7 -1 q4 -4 7 1 q3 1 1 4 z", fill: "#fffaf0" }),
          svgEl("path", { d: "M22 36 v16 M27 36 v16 M32 36 v16", stroke: "#fff", "stroke-width": 1, opacity: 0.6 }),
        ];
      default: // G: a bottle with a long neck and a label
        return [
          svgEl("path", { ...st, d: "M25 24 h6 v8 q5 3 5 9 v15 h-16 v-15 q0 -6 5 -9 z", fill: color }),
          svgEl("rect", { x: 21.5, y: 43, width: 13, height: 7, fill: "#fffaf0" }),
          svgEl("rect", { x: 24.5, y: 21, width: 7, height: 3, fill: "#c8a24a", stroke: "#3a2a1a", "stroke-width": 0.8 }),
        ];
    }
  },

  cardShapes(ctx, code) {
    const W = 56;
    const H = 80;
    if (code == null) {
      return [
        svgEl("rect", { x: 1, y: 1, width: W - 2, height: H - 2, rx: 6, fill: "#4a2c17", stroke: "#24140a", "stroke-width": 1.5 }),
        svgEl("rect", { x: 5, y: 5, width: W - 10, height: H - 10, rx: 3, fill: "none", stroke: "#e0a43a", "stroke-width": 1 }),
        svgEl("path", { d: "M28 14 l14 26 l-14 26 l-14 -26 z", fill: "none", stroke: "#e0a43a", "stroke-width": 1 }),
        svgEl("circle", { cx: 28, cy: 40, r: 7, fill: "#e0a43a" }),
        svgEl("circle", { cx: 28, cy: 40, r: 4, fill: "#4a2c17" }),
      ];
    }
    const suit = code[0];
    const s = HG_SUITS[suit] || HG_SUITS.R;
    const n = code.replace("^", "").slice(1);
    const tri = code.endsWith("^");
    return [
      svgEl("rect", { x: 1, y: 1, width: W - 2, height: H - 2, rx: 6, fill: "#fffaf0", stroke: s.color, "stroke-width": 2 }),
      svgEl("rect", { x: 1, y: 1, width: W - 2, height: 9, rx: 5, fill: s.color }),
      svgEl("text", { x: 6, y: 31, "font-size": 22, "font-weight": 800, fill: s.ink }, n),
      svgEl("text", { x: W - 7, y: H - 6, "font-size": 12, "font-weight": 800, fill: s.ink, "text-anchor": "end" }, n),
      // The drink a little below and right of the number, so that neither covers the other.
      svgEl("g", { transform: "translate(3 5)" }, this.drink(suit, s.color)),
      tri ? svgEl("path", { d: "M43 15 l8 14 h-16 z", fill: "#fff", stroke: "#1a1a1a", "stroke-width": 1.8, "stroke-linejoin": "round" }) : null,
    ];
  },

  // A drink card lying at `place` ("trick:2", "hand:0"); face down without a code.
  card(ctx, code, act, place) {
    const label = code == null ? ctx.T("drinkBack") : this.cardName(ctx, code);
    const node = piece(ctx, "hg-card", { w: 56, h: 80, label, key: code ?? "?", place, cls: code == null ? "back" : `s-${code[0]}`, data: code ? { code } : {}, tip: code == null ? "drink_back" : code.endsWith("^") ? "drink_tri" : "drink" }, this.cardShapes(ctx, code));
    if (act) {
      const verb = ["play", "discard"].find((x) => ctx.isLegal(`${x} ${code}`));
      if (verb) return ctx.bind(node, `${verb} ${code}`, label);
    }
    return node;
  },

  // A snack card: a small plate, its two values on its two halves; face down, a plate under a cover.
  // `counts` (a flipped snack): the value it counts as, ringed.
  snackShapes(s, counts) {
    if (s == null) {
      return [
        svgEl("ellipse", { cx: 24, cy: 36, rx: 22, ry: 8, fill: "#f4efe4", stroke: "#8a7a5a", "stroke-width": 1.2 }),
        svgEl("path", { d: "M7 36 a17 20 0 0 1 34 0 z", fill: "#c9a25a", stroke: "#6b4e1f", "stroke-width": 1.2 }),
        svgEl("path", { d: "M14 26 q5 -8 12 -9", fill: "none", stroke: "#f3dca0", "stroke-width": 1.5, "stroke-linecap": "round" }),
        svgEl("circle", { cx: 24, cy: 15, r: 2.5, fill: "#6b4e1f" }),
      ];
    }
    const [a, b] = this.snackValues(s);
    const ring = (value, y) => (counts != null && value === counts ? svgEl("ellipse", { cx: 24, cy: y, rx: 11, ry: 8.5, fill: "none", stroke: "#c0392b", "stroke-width": 2 }) : null);
    return [
      svgEl("circle", { cx: 24, cy: 24, r: 22, fill: "#fbf8f1", stroke: "#8a7a5a", "stroke-width": 1.2 }),
      svgEl("circle", { cx: 24, cy: 24, r: 16, fill: "none", stroke: "#c9bfa8", "stroke-width": 1 }),
      svgEl("line", { x1: 10, y1: 24, x2: 38, y2: 24, stroke: "#c9bfa8", "stroke-width": 1, "stroke-dasharray": "2 2" }),
      svgEl("text", { x: 24, y: 20, "text-anchor": "middle", "font-size": 12, "font-weight": 800, fill: "#3a2a1a" }, a),
      svgEl("text", { x: 24, y: 36, "text-anchor": "middle", "font-size": 12, "font-weight": 800, fill: "#3a2a1a" }, b),
      ring(a, 16), ring(b, 32),
    ];
  },

  snack(ctx, s, act, place, counts) {
    const [a, b] = s == null ? [] : this.snackValues(s);
    const label = s == null
      ? ctx.T("snackBack")
      : counts != null
        ? ctx.T("snackFlipped").replace("{card}", `${a}/${b}`).replace("{v}", counts)
        : ctx.T("snackCard").replace("{a}", a).replace("{b}", b);
    const node = piece(ctx, "hg-snack", { w: 48, h: 48, label, key: s ?? "?", place, cls: s == null ? "back" : "", data: s ? { snack: s } : {}, tip: s == null ? "snack_back" : "snack" }, this.snackShapes(s, counts));
    return act ? ctx.bind(node, act, label) : node;
  },

  // The drunk limit as a glass on its side that fills with the trick's sum; over the limit, it spills red.
  gauge(ctx, sum, limit) {
    const W = 200;
    const span = Math.max(limit + 4, sum);
    const x = (v) => 8 + (Math.min(v, span) / span) * (W - 16);
    const over = sum > limit;
    const ticks = [];
    for (let i = 1; i < span; i++) ticks.push(svgEl("line", { x1: x(i), x2: x(i), y1: 22, y2: i % 5 ? 26 : 28, stroke: "#f4e6c8", "stroke-width": 0.8 }));
    const label = ctx.T("gauge").replace("{sum}", sum).replace("{limit}", limit);
    return el(
      "div",
      { class: "hg-gauge", role: "img", "aria-label": label, dataset: { tip: "limit" } },
      svgEl(
        "svg",
        { viewBox: `0 0 ${W} 44`, "aria-hidden": "true" },
        svgEl("rect", { x: 6, y: 6, width: W - 12, height: 16, rx: 8, fill: "rgba(255,255,255,0.12)", stroke: "#f4e6c8", "stroke-width": 1 }),
        svgEl("rect", { x: 8, y: 8, width: Math.max(0, x(sum) - 8), height: 12, rx: 6, fill: over ? "#d9442f" : "#f0b43a" }),
        svgEl("line", { x1: x(limit), x2: x(limit), y1: 2, y2: 30, stroke: over ? "#ffb4a6" : "#fff", "stroke-width": 2 }),
        ticks,
        svgEl("text", { x: x(limit), y: 41, "text-anchor": "middle", "font-size": 10, "font-weight": 700, fill: "#fff" }, String(limit)),
      ),
      el("span", { class: "hg-gauge-text" }, `${ctx.T("sum")} ${sum} / ${ctx.T("limit")} ${limit}`),
    );
  },

  seatHand(ctx, p, seatView) {
    const you = seatView.you || {};
    const cards = [...(you.hand || []), ...(you.face_down || [])];
    return el("div", { class: "cards hg-hand" }, cards.map((code) => this.card(ctx, code, false, `hand:${p}`)));
  },

  // A fan of face-down cards: another seat's hand.
  backs(ctx, n, p) {
    const fan = el("div", { class: "hg-fan", role: "img", "aria-label": ctx.T("cardsIn").replace("{n}", n).replace("{p}", ctx.seatName(p)) });
    for (let i = 0; i < n; i++) {
      const c = this.card(ctx, null, null, `hand:${p}`);
      c.removeAttribute("aria-label");
      c.setAttribute("aria-hidden", "true");
      fan.append(c);
    }
    return fan;
  },

  // Where an event put what it moved (the last move's mark): a played card in its seat's place in the
  // trick, a flipped snack in its seat's flipped snacks.
  landed(e) {
    if (e.type === "play") return [[`trick:${e.seat}`, e.card ?? "?"]];
    if (e.type === "flip") return [[`flipped:${e.seat}`, e.card]];
    return [];
  },

  value(code) {
    if (!code) return 0;
    return Number(code.replace("^", "").slice(1)) || 0;
  },

  render(ctx) {
    const v = ctx.view;
    const T = ctx.T;
    const trickSum = v.trick.reduce((a, c) => a + this.value(c.card), 0);
    // The counter's middle: the trick (each card over its player's name), the glass against the limit.
    const trick = el(
      "div",
      { class: "hg-trick" },
      v.trick.map((c) => el("div", { class: "played" }, this.card(ctx, c.card, false, `trick:${c.seat}`), el("div", { class: "played-by" }, ctx.seatName(c.seat)))),
    );
    const center = [
      el(
        "div",
        { class: "binfo" },
        // The trick under way (or just judged); before the first one, no "Trick 0".
        `${v.trick_number > 0 ? `${T("trick")} ${v.trick_number}` : T("beforeFirst")} · ${T("limit")} ${v.drunk_limit}`,
        v.lead_suit ? ` · ${T("lead")} ${T(`suit_${v.lead_suit}`)}` : "",
      ),
      trick,
      this.gauge(ctx, v.judging ? v.judging.adjusted_sum : trickSum, v.drunk_limit),
    ];
    if (v.judging) {
      const j = v.judging;
      center.push(el("div", { class: "hg-note" }, `${T("judging")}: ${ctx.seatName(j.seat)} · ${T("column")} ${j.column} · ${T("sum")} ${j.sum} → ${j.adjusted_sum}`));
    } else if (!v.trick.length && v.tricks_played.length) {
      const last = v.tricks_played[v.tricks_played.length - 1];
      center.push(
        el(
          "div",
          { class: "hg-note" },
          `${T("lastTrick")}: `,
          last.cards.map((c) => `${ctx.seatName(c.seat)} ${c.card ? this.cardName(ctx, c.card) : "▮"}`).join(", "),
          ` — ${T("wonBy").replace("{p}", ctx.seatName(last.winner))}`,
        ),
      );
    }
    const boxes = v.seats.map((s, p) => {
      const cols = el("div", { class: "hg-columns", "aria-label": T("columns"), role: "group" });
      for (let c = 0; c < v.num_columns; c++) {
        const flipped = s.flipped.filter((f) => f.column === c + 1);
        const col = el("div", { class: "snackcol" }, el("span", { class: "colno" }, `${c + 1}`));
        const mineCol = p === v.seat && v.you ? v.you.columns[c] : null;
        const judgingThis = v.judging && v.judging.seat === p && v.judging.column === c + 1;
        if (mineCol) {
          mineCol.forEach((snack) => col.append(this.snack(ctx, snack, judgingThis ? `flip ${snack}` : null, `col:${p}:${c + 1}`)));
        } else {
          for (let k = 0; k < s.columns[c]; k++) col.append(this.snack(ctx, null, null, `col:${p}:${c + 1}`));
        }
        flipped.forEach((f) => {
          const value = f.value > 0 ? `+${f.value}` : String(f.value).replace("-", "−");
          col.append(this.snack(ctx, f.card, null, `flipped:${p}`, value));
        });
        cols.append(col);
      }
      const badge = s.status === "drinker" ? "ok" : s.status === "non_drinker" ? "" : "dim";
      return playerBox(
        ctx,
        p,
        [el("span", { dataset: { tip: "vp" } }, `${T("vp")} ${s.vp}`), ` · ${T("tricks")} ${s.tricks} · ${T("hand")} ${s.hand} `, el("span", { class: `badge ${badge}`, dataset: { tip: "status" } }, T(s.status))],
        cols,
        p !== v.seat && !ctx.seatViews && s.hand ? this.backs(ctx, s.hand, p) : null,
      );
    });
    // Flip: after choosing a snack, choose the value it counts as.
    if (ctx.pending.startsWith("flip ")) {
      const values = ctx.legal.filter((a) => a.text.startsWith(ctx.pending + " ")).map((a) => a.text.split(" ").pop());
      center.push(el("div", {}, `${T("value")}: `, values.map((x) => ctx.button(x, `${ctx.pending} ${x}`, "primary"))));
    }
    if (v.you && v.seat != null) {
      const mine = boxes[v.seat];
      // Arrange: snacks in hand, clicked in the order of the columns.
      if (v.you.snacks && v.you.snacks.length) {
        const chosen = ctx.pending.startsWith("arrange") ? ctx.pending.split(" ").slice(1) : [];
        const left = v.you.snacks.slice();
        chosen.forEach((s) => {
          const i = left.indexOf(s);
          if (i >= 0) left.splice(i, 1);
        });
        const prefix = ctx.pending.startsWith("arrange") ? ctx.pending : "arrange";
        mine.append(
          el(
            "div",
            { class: "hg-arrange", dataset: { tip: "arrange" } },
            el("div", { class: "bsec-title" }, T("yourSnacks")),
            el("div", { class: "cards" }, left.map((s) => this.snack(ctx, s, `${prefix} ${s}`, `snacks:${v.seat}`))),
            chosen.length ? el("div", { class: "small" }, chosen.map((s, i) => `${T("column")} ${i + 1}: ${s}`).join(" · ")) : null,
          ),
        );
      }
      const hand = v.you.hand.slice().sort((a, b) => this.SUITS[a[0]] - this.SUITS[b[0]] || this.value(a) - this.value(b) || a.length - b.length);
      if (hand.length || !v.is_terminal) mine.append(
        el("div", { class: "bsec-title" }, bt("hand")),
        el("div", { class: "cards hg-hand" }, hand.map((c) => this.card(ctx, c, true, `hand:${v.seat}`))),
        el("div", { class: "hg-buttons" }, ctx.button(T("declare"), "declare", "primary"), ctx.button(T("pass"), "pass"), ctx.button(T("stop"), "stop")),
      );
      if (v.you.face_down && v.you.face_down.length) {
        mine.append(el("div", { class: "bsec-title" }, T("faceDown")), el("div", { class: "cards" }, v.you.face_down.map((c) => this.card(ctx, c, true, `hand:${v.seat}`))));
      }
    }
    const root = el("div", { class: "hangover" }, tableTop(ctx, boxes, ...center));
    const end = v.is_terminal ? endExplanation(ctx, ["judge", "game_end"]) : endExplanation(ctx, ["judge"], T("judging"));
    if (end) root.append(end);
    return root;
  },
};
