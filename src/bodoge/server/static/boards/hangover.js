// Hangover: the trick on the table, your hand sorted by suit with △ marked, the snack columns, VP,
// the drunk limit against the running sum, non-drinkers and eliminated players.
"use strict";

BOARDS.hangover = {
  terms: {
    en: {
      trick: "Trick", lead: "lead", limit: "Drunk limit", sum: "sum", vp: "VP", tricks: "tricks", hand: "cards",
      columns: "Snack columns", yourSnacks: "Your snacks to arrange", drinker: "drinker", non_drinker: "non-drinker",
      out_non_drinker: "out (non-drinker)", hung_over: "hung over", declare: "Declare non-drinker", pass: "Pass",
      stop: "Stop flipping", judging: "Judgement", flipped: "flipped", faceDown: "face down", lastTrick: "Last trick",
      column: "Column", value: "Use", card: "card", snack: "snack",
      prompt_arrange: "Arrange your snack cards: click them in the order of columns 1, 2, 3, …",
      prompt_declare: "Declare non-drinker (下戸), or pass.",
      prompt_trick: "Play a card from your hand (follow the lead suit if you can).",
      prompt_flip: "Flip snacks from the judged column to change the sum, or stop.",
      prompt_discard: "Discard a card.",
      triangle: "△ marks a triangle card.",
    },
    ja: {
      trick: "トリック", lead: "リード", limit: "泥酔値", sum: "合計", vp: "VP", tricks: "トリック数", hand: "手札",
      columns: "肴の列", yourSnacks: "並べる肴カード", drinker: "ドリンカー", non_drinker: "下戸",
      out_non_drinker: "脱落(下戸)", hung_over: "ハングオーバー(敗北)", declare: "下戸宣言", pass: "パス",
      stop: "めくるのをやめる", judging: "泥酔判定", flipped: "めくった肴", faceDown: "伏せ", lastTrick: "前のトリック",
      column: "列", value: "値", card: "カード", snack: "肴",
      prompt_arrange: "肴カードを列1、2、3…の順にクリックして並べてください。",
      prompt_declare: "下戸宣言をするか、パスしてください。",
      prompt_trick: "手札からカードを出してください（リードのスートがあればフォロー）。",
      prompt_flip: "判定中の列の肴をめくって合計を変えるか、やめてください。",
      prompt_discard: "カードを1枚捨ててください。",
      triangle: "△は三角マークのカード。",
    },
  },
  SUITS: { R: 0, B: 1, Y: 2, G: 3 },

  prompt(ctx) {
    if (!ctx.legal.length) return null;
    if (ctx.legal.some((a) => a.text.startsWith("discard "))) return ctx.T("prompt_discard");
    return ctx.T(`prompt_${ctx.view.phase}`);
  },

  // A drink card lying at `place` ("trick:2", "hand:0"); face down without a code.
  card(ctx, code, act, place) {
    if (code == null) return ctx.name(el("div", { class: "card back small" }, ""), ctx.T("faceDown"), "?", place);
    const suit = code[0];
    const tri = code.endsWith("^");
    const num = code.replace("^", "").slice(1);
    const node = el(
      "div",
      { class: `card s-${suit}`, dataset: { code, place }, title: code },
      el("span", {}, num),
      tri ? el("span", { class: "tri" }, "△") : el("span", { class: "tri" }, " "),
    );
    if (act) {
      const verb = ["play", "discard"].find((x) => ctx.isLegal(`${x} ${code}`));
      if (verb) return ctx.bind(node, `${verb} ${code}`, `${ctx.T("card")} ${code}`);
    }
    return ctx.name(node, `${ctx.T("card")} ${code}`, code);
  },

  seatHand(ctx, p, seatView) {
    const you = seatView.you || {};
    const cards = [...(you.hand || []), ...(you.face_down || [])];
    return el("div", { class: "cards" }, cards.map((code) => this.card(ctx, code, false, `hand:${p}`)));
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

  snack(ctx, s, act, small) {
    const node = el("div", { class: "card" + (small ? " small" : ""), dataset: { snack: s } }, el("small", {}, "肴"), s);
    const what = `${ctx.T("snack")} ${s}`;
    return act ? ctx.bind(node, act, what) : ctx.name(node, what, s);
  },

  render(ctx) {
    const v = ctx.view;
    const T = ctx.T;
    const root = el("div", { class: "hangover" });
    const trickSum = v.trick.reduce((a, c) => a + this.value(c.card), 0);
    root.append(
      el(
        "div",
        { class: "binfo" },
        `${T("trick")} ${v.trick_number} · ${T("limit")} ${v.drunk_limit}`,
        v.lead_suit ? ` · ${T("lead")} ${v.lead_suit}` : "",
      ),
    );
    // The trick on the table, with its sum against the drunk limit.
    const trick = el("div", { class: "cards" });
    v.trick.forEach((c) =>
      trick.append(el("div", { class: "played" }, this.card(ctx, c.card, false, `trick:${c.seat}`), el("div", { class: "small" }, ctx.seatName(c.seat)))),
    );
    const over = trickSum > v.drunk_limit;
    root.append(
      section(
        T("trick"),
        trick,
        el(
          "div",
          { class: "small" },
          `${T("sum")} ${trickSum} / ${T("limit")} ${v.drunk_limit} `,
          el("span", { class: "meter" + (over ? " over" : "") }, el("span", { style: { width: `${Math.min(100, (trickSum / v.drunk_limit) * 100)}%` } })),
        ),
      ),
    );
    if (v.judging) {
      const j = v.judging;
      root.append(
        el(
          "div",
          { class: "explain" },
          el("div", { class: "bsec-title" }, T("judging")),
          `${ctx.seatName(j.seat)} · ${T("column")} ${j.column} · ${T("sum")} ${j.sum} → ${j.adjusted_sum} / ${T("limit")} ${v.drunk_limit}`,
        ),
      );
    } else if (!v.trick.length && v.tricks_played.length) {
      const last = v.tricks_played[v.tricks_played.length - 1];
      root.append(
        el("div", { class: "small muted" }, `${T("lastTrick")}: `, last.cards.map((c) => `${ctx.seatName(c.seat)} ${c.card || "▮"}`).join(", "), ` → ${ctx.seatName(last.winner)}`),
      );
    }
    // Players: status, VP, tricks, snack columns.
    const players = el("div", { class: "players" });
    v.seats.forEach((s, p) => {
      const cols = el("div", { class: "columns-row" });
      for (let c = 0; c < v.num_columns; c++) {
        const flipped = s.flipped.filter((f) => f.column === c + 1);
        const col = el("div", { class: "snackcol" }, el("span", { class: "small" }, `${c + 1}`));
        const mineCol = p === v.seat && v.you ? v.you.columns[c] : null;
        const judgingThis = v.judging && v.judging.seat === p && v.judging.column === c + 1;
        if (mineCol) {
          mineCol.forEach((snack) => {
            const node = this.snack(ctx, snack, judgingThis ? `flip ${snack}` : null, true);
            col.append(node);
          });
        } else {
          for (let k = 0; k < s.columns[c]; k++) col.append(el("div", { class: "card back small" }, ""));
        }
        flipped.forEach((f) => {
          const value = f.value > 0 ? `+${f.value}` : String(f.value);
          const node = el("div", { class: "card small" }, el("small", {}, f.card), value);
          col.append(ctx.name(node, `${T("flipped")}: ${f.card} ${value}`, f.card, `flipped:${p}`));
        });
        cols.append(col);
      }
      const badge = s.status === "drinker" ? "ok" : s.status === "non_drinker" ? "" : "dim";
      players.append(
        playerBox(
          ctx,
          p,
          [
            ` · ${T("vp")} ${s.vp} · ${T("tricks")} ${s.tricks} · ${T("hand")} ${s.hand}`,
            el("span", { class: `badge ${badge}` }, T(s.status)),
          ],
          cols,
        ),
      );
    });
    root.append(players);
    // Flip: after choosing a snack, choose the value it counts as.
    if (ctx.pending.startsWith("flip ")) {
      const values = ctx.legal.filter((a) => a.text.startsWith(ctx.pending + " ")).map((a) => a.text.split(" ").pop());
      root.append(el("div", {}, `${T("value")}: `, values.map((x) => ctx.button(x, `${ctx.pending} ${x}`, "primary"))));
    }
    if (v.you) {
      // Arrange: snacks in hand, clicked in the order of the columns.
      if (v.you.snacks && v.you.snacks.length) {
        const chosen = ctx.pending.startsWith("arrange") ? ctx.pending.split(" ").slice(1) : [];
        const left = v.you.snacks.slice();
        chosen.forEach((s) => {
          const i = left.indexOf(s);
          if (i >= 0) left.splice(i, 1);
        });
        const prefix = ctx.pending.startsWith("arrange") ? ctx.pending : "arrange";
        root.append(
          section(
            T("yourSnacks"),
            el("div", { class: "cards" }, left.map((s) => this.snack(ctx, s, `${prefix} ${s}`))),
            chosen.length
              ? el("div", { class: "small" }, chosen.map((s, i) => `${T("column")} ${i + 1}: ${s}`).join(" · "))
              : null,
          ),
        );
      }
      const hand = v.you.hand.slice().sort((a, b) => this.SUITS[a[0]] - this.SUITS[b[0]] || this.value(a) - this.value(b) || a.length - b.length);
      const handNode = el("div", { class: "cards" }, hand.map((c) => this.card(ctx, c, true, `hand:${v.seat}`)));
      const buttons = [
        ctx.button(T("declare"), "declare", "primary"),
        ctx.button(T("pass"), "pass"),
        ctx.button(T("stop"), "stop"),
      ];
      root.append(section(bt("hand"), handNode, el("div", {}, buttons), el("div", { class: "muted small" }, T("triangle"))));
      if (v.you.face_down && v.you.face_down.length) {
        root.append(section(T("faceDown"), el("div", { class: "cards" }, v.you.face_down.map((c) => this.card(ctx, c, true, `hand:${v.seat}`)))));
      }
    }
    const end = v.is_terminal ? endExplanation(ctx, ["judge", "game_end"]) : endExplanation(ctx, ["judge"], T("judging"));
    if (end) root.append(end);
    return root;
  },
};
