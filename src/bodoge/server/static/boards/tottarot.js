// Tottarot: declared fates, hidden and revealed bids, decided rows (inverted cards upside down),
// icons and their effects, will tokens and victory tokens.
"use strict";

BOARDS.tottarot = {
  terms: {
    en: {
      round: "Round", turn: "Turn", deck: "Deck", discard: "Discard", declared: "Declared fate", row: "Decided fates",
      bid: "Bid", will: "Will tokens", victory: "Victory tokens", total: "total", hidden: "hidden", none: "—",
      noSteal: "Steal nothing", exposed: "exposed", known: "known to", target: "target",
      prompt_bid: "Bid one of your will tokens (click a token).",
      prompt_steal: "Steal a declared fate (click a player's card), or steal nothing.",
      prompt_share: "SHARE: choose a player to show declared cards to each other.",
      prompt_peek: "PEEK: choose a player whose declared card you look at.",
      icons: "Icons: SHARE — you and a player show each other your declared cards; PEEK — look at a declared card; EXPOSE — a declared card is shown to all; INVERT — the next decided card is turned upside down (its points reversed).",
      pending: "Icons to resolve", card: "card", faceDown: "face-down card",
    },
    ja: {
      round: "ラウンド", turn: "ターン", deck: "山札", discard: "捨て札", declared: "宣告された運命", row: "決定された運命",
      bid: "意志", will: "意志トークン", victory: "勝利点トークン", total: "合計", hidden: "伏せ", none: "—",
      noSteal: "奪わない", exposed: "公開", known: "知っている人", target: "目標",
      prompt_bid: "意志トークンを1枚選んで表明してください（トークンをクリック）。",
      prompt_steal: "宣告された運命を奪う（カードをクリック）か、奪わないを選んでください。",
      prompt_share: "見せ合い：宣告カードを見せ合う相手を選んでください。",
      prompt_peek: "覗き見：宣告カードを覗く相手を選んでください。",
      icons: "アイコン：見せ合い — 相手と宣告カードを見せ合う／覗き見 — 宣告カードを覗く／公開 — 宣告カードを全員に公開／反転 — 次に決定するカードを上下逆さまに（点数が逆）。",
      pending: "未解決のアイコン", card: "カード", faceDown: "伏せたカード",
    },
  },
  ICONS: { SHARE: { en: "share", ja: "見せ合い" }, PEEK: { en: "peek", ja: "覗き見" }, EXPOSE: { en: "expose", ja: "公開" }, INVERT: { en: "invert", ja: "反転" } },

  cardInfo(ctx, code) {
    const deck = (ctx.view.options && ctx.view.options.deck) || [];
    return deck.find((c) => c.code === code) || { code, name_en: code, name_ja: code, points: 0, icon: null };
  },

  // A fate card lying at `place` ("declared:1", "row:2", "discard"); face down without a code.
  card(ctx, code, inverted, small, place) {
    if (code == null) {
      return ctx.name(el("div", { class: "card back" + (small ? " small" : "") }, "?"), ctx.T("faceDown"), "?", place);
    }
    const info = this.cardInfo(ctx, code);
    const name = LANG === "ja" ? info.name_ja : info.name_en;
    const pts = inverted ? -info.points : info.points;
    const node = el(
      "div",
      { class: "card" + (inverted ? " inverted" : "") + (small ? " small" : ""), dataset: { code }, title: code },
      el("small", {}, name),
      el("span", { class: info.points >= 0 ? "pos" : "neg" }, `${info.points > 0 ? "+" : ""}${info.points}`),
      info.icon ? el("small", {}, "◆ " + pick(this.ICONS[info.icon] || info.icon)) : null,
      inverted ? el("small", { class: "muted" }, `(${pts > 0 ? "+" : ""}${pts})`) : null,
    );
    return ctx.name(node, `${ctx.T("card")} ${name} ${pts > 0 ? "+" : ""}${pts}`, code, place);
  },

  // Where an event put what it moved (the last move's mark), and where from: a drawn or stolen fate in
  // the seat's declared place (face down, "?", to those who do not know it), a discarded one from
  // there onto the discard, the decided fates from there into their rows, a bid's chip.
  landed(e) {
    const declared = (p) => `declared:${p}`;
    if (e.type === "draw" || e.type === "expose") return [[declared(e.seat), e.card ?? "?"]];
    if (e.type === "steal") return [[declared(e.target), e.card ?? "?", -1], [declared(e.seat), e.card ?? "?"]];
    if (e.type === "discard") return [[declared(e.seat), e.card, -1], ["discard", e.card]];
    if (e.type === "decide") return (e.cards || []).flatMap((code, p) => [[declared(p), code, -1], [`row:${p}`, code]]);
    if (e.type === "invert") return [[`row:${e.seat}`, e.card]];
    if (e.type === "bid") return [[`bid:${e.seat}`, e.value ?? "?"]];
    return [];
  },

  // A declared fate and a hidden bid are known to their seat.
  reveal(view, views) {
    views.forEach((seatView, p) => {
      view.declared[p] = seatView.declared[p];
      if (view.bids && seatView.bids) view.bids[p] = seatView.bids[p];
    });
    return view;
  },

  prompt(ctx) {
    const v = ctx.view;
    if (!ctx.legal.length) return null;
    return ctx.T(`prompt_${v.phase}`);
  },

  render(ctx) {
    const v = ctx.view;
    const T = ctx.T;
    const root = el("div", { class: "tottarot" });
    root.append(
      el(
        "div",
        { class: "binfo" },
        `${T("round")} ${v.round} · ${T("turn")} ${v.turn}/${v.turns_per_round} · ${T("deck")}: ${v.deck_count} · ` +
          `${T("target")}: ${v.target} ${T("victory")}`,
      ),
    );
    const players = el("div", { class: "players" });
    for (let p = 0; p < v.players; p++) {
      const d = v.declared[p];
      const declared = d.holds ? this.card(ctx, d.card, false, false, `declared:${p}`) : el("div", { class: "muted small" }, T("none"));
      if (d.holds) ctx.bind(declared, `steal P${p}`, `${T("declared")}: ${ctx.who(p)}`);
      const bid = v.bids && v.bids[p] != null
        ? ctx.name(el("span", { class: "token" }, String(v.bids[p])), `${T("bid")} ${v.bids[p]}`, v.bids[p], `bid:${p}`)
        : v.has_bid[p]
          ? ctx.name(el("span", { class: "token hidden", title: T("hidden") }, "?"), `${T("bid")}: ${T("hidden")}`, "?", `bid:${p}`)
          : el("span", { class: "muted" }, T("none"));
      const tokens = el("span", { class: "tokens" });
      const unused = v.unused_tokens[p] || [];
      [0, 1, 2, 3].forEach((n) => {
        if (!unused.includes(n) && !(v.used_tokens[p] || []).includes(n)) return;
        const tok = el("span", { class: "token" + (unused.includes(n) ? "" : " used"), dataset: { n } }, String(n));
        const what = `${T("will")} ${n}`;
        if (p === v.seat) ctx.bind(tok, `bid ${n}`, what);
        else ctx.name(tok, what);
        tokens.append(tok);
      });
      const row = el("div", { class: "rowcards" }, (v.rows[p] || []).map((c) => this.card(ctx, c.card, c.inverted, true, `row:${p}`)));
      const box = playerBox(
        ctx,
        p,
        [
          ` · ${T("total")} ${v.totals[p]} · `,
          el("span", { class: "vtoken", title: T("victory") }, "★".repeat(v.victory_tokens[p]) || "☆0"),
        ],
        el("div", { class: "muted small" }, T("declared"), d.exposed ? el("span", { class: "badge" }, T("exposed")) : null),
        declared,
        el("div", { class: "muted small" }, `${T("bid")}: `, bid, ` · ${T("will")}: `, tokens),
        el("div", { class: "muted small" }, T("row")),
        row,
      );
      ctx.bind(box, ctx.isLegal(`share P${p}`) ? `share P${p}` : `peek P${p}`, null);
      players.append(box);
    }
    root.append(players);
    const noSteal = ctx.button(T("noSteal"), "steal none");
    if (noSteal) root.append(noSteal);
    if (v.pending_icons && v.pending_icons.length) {
      root.append(el("div", { class: "binfo" }, `${T("pending")}: ${v.pending_icons.map((x) => (typeof x === "string" ? pick(this.ICONS[x] || x) : `${ctx.seatName(x.seat)} ${pick(this.ICONS[x.icon] || x.icon)}`)).join(", ")}`));
    }
    if (v.discard && v.discard.length) {
      root.append(section(T("discard"), el("div", { class: "rowcards" }, v.discard.map((c) => this.card(ctx, c, false, true, "discard")))));
    }
    root.append(el("p", { class: "muted small" }, T("icons")));
    const end = endExplanation(ctx, ["round_end", "game_end"]);
    if (end) root.append(end);
    return root;
  },
};
