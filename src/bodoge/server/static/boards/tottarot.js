// Tottarot: the fates as major arcana (number, picture, points, the icon drawn), will tokens as round
// chips, hidden bids as face-down chips; each seat's declared fate, bid and decided row in its box.
"use strict";

const TT_PURPLE = "#2a1646";
const TT_DEEP = "#1b0d30";
const TT_GOLD = "#d9b25a";
const TT_CREAM = "#f5ead0";
const TT_SERIF = 'Georgia, "Times New Roman", "Hiragino Mincho ProN", "Yu Mincho", "Noto Serif JP", serif';
// The cards' numbers among the major arcana.
const TT_ARCANA = { WORLD: "XXI", SUN: "XIX", LOVERS: "VI", WHEEL: "X", MOON: "XVIII", TOWER: "XVI", DEVIL: "XV" };

BOARDS.tottarot = {
  terms: {
    en: {
      round: "Round", turn: "Turn", deck: "Deck", discard: "Discard", declared: "Declared fate", row: "Decided fates",
      bid: "Bid", will: "Will tokens", victory: "Victory tokens", total: "total", hidden: "hidden", none: "—",
      noSteal: "Steal nothing", exposed: "exposed", known: "known to", target: "target",
      prompt_bid: "Bid one of your will tokens (choose a token).",
      prompt_steal: "Steal a declared fate (choose a player's card), or steal nothing.",
      prompt_share: "SHARE: choose a player to show declared cards to each other.",
      prompt_peek: "PEEK: choose a player whose declared card you look at.",
      icons: "Icons",
      pending: "Icons to resolve", card: "fate", faceDown: "face-down fate", points: "{n} points", inverted: "upside down",
      willToken: "will token {n}", spent: "spent", hiddenBid: "bid, face down", pile: "{n} cards",
      victoryOf: "{n} victory tokens", icon: "icon: {icon}",
      icon_SHARE: "share — you and a player show each other your declared fates",
      icon_PEEK: "peek — look at a declared fate",
      icon_EXPOSE: "expose — a declared fate is shown to all",
      icon_INVERT: "invert — the next decided fate is turned upside down, its points reversed",
    },
    ja: {
      round: "ラウンド", turn: "ターン", deck: "山札", discard: "捨て札", declared: "宣告された運命", row: "決定された運命",
      bid: "意志", will: "意志トークン", victory: "勝利点トークン", total: "合計", hidden: "伏せ", none: "—",
      noSteal: "奪わない", exposed: "公開", known: "知っている人", target: "目標",
      prompt_bid: "意志トークンを1枚選んで表明してください（トークンを選ぶ）。",
      prompt_steal: "宣告された運命を奪う（その人のカードを選ぶ）か、奪わないを選んでください。",
      prompt_share: "見せ合い：宣告カードを見せ合う相手を選んでください。",
      prompt_peek: "覗き見：宣告カードを覗く相手を選んでください。",
      icons: "アイコン",
      pending: "未解決のアイコン", card: "運命", faceDown: "伏せた運命カード", points: "{n}点", inverted: "逆さま",
      willToken: "意志トークン {n}", spent: "使用済み", hiddenBid: "伏せた意志トークン", pile: "{n}枚",
      victoryOf: "勝利点トークン {n}個", icon: "アイコン：{icon}",
      icon_SHARE: "見せ合い — 相手と宣告カードを見せ合う",
      icon_PEEK: "覗き見 — 宣告カードを覗く",
      icon_EXPOSE: "公開 — 宣告カードを全員に公開",
      icon_INVERT: "反転 — 次に決定するカードを上下逆さまに（点数が逆）",
    },
  },
  ICONS: { SHARE: { en: "share", ja: "見せ合い" }, PEEK: { en: "peek", ja: "覗き見" }, EXPOSE: { en: "expose", ja: "公開" }, INVERT: { en: "invert", ja: "反転" } },

  cardInfo(ctx, code) {
    const deck = (ctx.view.options && ctx.view.options.deck) || [];
    return deck.find((c) => c.code === code) || { code, name_en: code, name_ja: code, points: 0, icon: null };
  },

  // A fate in words: "The Sun, +3 points, icon: expose" / "太陽、+3点、アイコン：公開".
  cardName(ctx, code, inverted) {
    const info = this.cardInfo(ctx, code);
    const pts = inverted ? -info.points : info.points;
    const parts = [LANG === "ja" ? info.name_ja : info.name_en, ctx.T("points").replace("{n}", signed(pts))];
    if (inverted) parts.push(ctx.T("inverted"));
    if (info.icon) parts.push(ctx.T("icon").replace("{icon}", pick(this.ICONS[info.icon] || { en: info.icon })));
    return parts.join(LANG === "ja" ? "、" : ", ");
  },

  // The pictures (drawn, centred on 32, 42).
  picture(code) {
    const g = (...shapes) => svgEl("g", { fill: "none", stroke: TT_GOLD, "stroke-width": 1.6, "stroke-linecap": "round", "stroke-linejoin": "round" }, ...shapes);
    switch (code) {
      case "WORLD": {
        const leaves = [];
        for (let i = 0; i < 12; i++) {
          const a = (i / 12) * Math.PI * 2;
          leaves.push(svgEl("ellipse", { cx: 32 + 13 * Math.cos(a), cy: 42 + 16 * Math.sin(a), rx: 2.2, ry: 4, transform: `rotate(${(a * 180) / Math.PI} ${32 + 13 * Math.cos(a)} ${42 + 16 * Math.sin(a)})`, fill: "#6fa36a", stroke: "none" }));
        }
        return g(svgEl("ellipse", { cx: 32, cy: 42, rx: 13, ry: 16 }), leaves, svgEl("path", { d: starPath(32, 42, 7, 3), fill: TT_GOLD, stroke: "none" }));
      }
      case "SUN": {
        const rays = [];
        for (let i = 0; i < 12; i++) {
          const a = (i / 12) * Math.PI * 2;
          rays.push(svgEl("line", { x1: 32 + 10 * Math.cos(a), y1: 42 + 10 * Math.sin(a), x2: 32 + 16 * Math.cos(a), y2: 42 + 16 * Math.sin(a) }));
        }
        return g(rays, svgEl("circle", { cx: 32, cy: 42, r: 8, fill: "#f0c24a" }));
      }
      case "LOVERS": {
        const heart = (x, y, s, fill) => svgEl("path", { d: `M${x} ${y + 6 * s} c${-9 * s} ${-6 * s} ${-9 * s} ${-15 * s} ${-2.5 * s} ${-13 * s} c${1.5 * s} ${0.5 * s} ${2.5 * s} ${2 * s} ${2.5 * s} ${3 * s} c0 ${-1 * s} ${1 * s} ${-2.5 * s} ${2.5 * s} ${-3 * s} c${6.5 * s} ${-2 * s} ${6.5 * s} ${7 * s} ${-2.5 * s} ${13 * s} z`, fill });
        return g(heart(27, 42, 1.2, "#c8465a"), heart(37, 46, 1.2, "#e07a8c"));
      }
      case "WHEEL": {
        const spokes = [];
        for (let i = 0; i < 8; i++) {
          const a = (i / 8) * Math.PI * 2;
          spokes.push(svgEl("line", { x1: 32, y1: 42, x2: 32 + 14 * Math.cos(a), y2: 42 + 14 * Math.sin(a) }));
        }
        return g(svgEl("circle", { cx: 32, cy: 42, r: 14 }), svgEl("circle", { cx: 32, cy: 42, r: 10 }), spokes, svgEl("circle", { cx: 32, cy: 42, r: 3, fill: TT_GOLD }));
      }
      case "MOON":
        return g(
          svgEl("path", { d: "M36 28 a14 14 0 1 0 0 28 a11 11 0 1 1 0 -28 z", fill: "#e9e2c4" }),
          svgEl("path", { d: starPath(44, 32, 3, 1.3), fill: TT_GOLD, stroke: "none" }),
          svgEl("path", { d: starPath(46, 50, 2.2, 1), fill: TT_GOLD, stroke: "none" }),
        );
      case "TOWER":
        return g(
          svgEl("path", { d: "M25 58 v-22 h-2 v-6 h4 v3 h3 v-3 h4 v3 h3 v-3 h4 v6 h-2 v22 z", fill: "#6b5a7e" }),
          svgEl("path", { d: "M44 22 l-6 9 h5 l-6 10", stroke: "#f0c24a", "stroke-width": 2 }),
          svgEl("rect", { x: 30, y: 44, width: 4, height: 6, fill: TT_DEEP }),
        );
      case "DEVIL":
        return g(
          svgEl("path", { d: "M22 33 q-2 -8 3 -11 q0 6 5 8 M42 33 q2 -8 -3 -11 q0 6 -5 8" }),
          svgEl("circle", { cx: 32, cy: 42, r: 11, fill: "#8c2a2a" }),
          svgEl("path", { d: "M27 40 l3 1.5 M37 40 l-3 1.5 M27 47 q5 3 10 0" }),
        );
      default:
        return g(svgEl("circle", { cx: 32, cy: 42, r: 12 }));
    }
  },

  // An icon's badge (drawn, centred on 0, 0): share ⇄, peek an eye, expose a card in rays, invert ↻.
  iconShape(icon) {
    const st = { fill: "none", stroke: TT_DEEP, "stroke-width": 1.4, "stroke-linecap": "round", "stroke-linejoin": "round" };
    const body = {
      SHARE: [svgEl("path", { ...st, d: "M-5 -2.5 h9 M1.5 -5 l3 2.5 l-3 2.5 M5 2.5 h-9 M-1.5 0 l-3 2.5 l3 2.5" })],
      PEEK: [svgEl("path", { ...st, d: "M-6 0 q6 -6 12 0 q-6 6 -12 0 z" }), svgEl("circle", { r: 1.8, fill: TT_DEEP })],
      EXPOSE: [svgEl("rect", { ...st, x: -2.5, y: -3.5, width: 5, height: 7, rx: 0.8 }), svgEl("path", { ...st, d: "M-6 -4 l-1.5 -1.5 M6 -4 l1.5 -1.5 M-6 4 l-1.5 1.5 M6 4 l1.5 1.5 M0 -5.5 v-1.5" })],
      INVERT: [svgEl("path", { ...st, d: "M-4.5 -1 a4.5 4.5 0 0 1 8.5 -1.5 M4.5 1 a4.5 4.5 0 0 1 -8.5 1.5" }), svgEl("path", { d: "M4.6 -5 l0 3 l-3 0 z M-4.6 5 l0 -3 l3 0 z", fill: TT_DEEP })],
    }[icon];
    if (!body) return null;
    return [svgEl("circle", { r: 8, fill: TT_GOLD, stroke: TT_CREAM, "stroke-width": 1 }), ...body];
  },

  cardShapes(ctx, code) {
    const frame = svgEl("rect", { x: 1, y: 1, width: 62, height: 98, rx: 6, fill: TT_PURPLE, stroke: TT_DEEP, "stroke-width": 1.5 });
    const inner = svgEl("rect", { x: 4.5, y: 4.5, width: 55, height: 91, rx: 3.5, fill: "none", stroke: TT_GOLD, "stroke-width": 1 });
    if (code == null) {
      const dots = [];
      for (let i = 0; i < 8; i++) {
        const a = (i / 8) * Math.PI * 2;
        dots.push(svgEl("circle", { cx: 32 + 21 * Math.cos(a), cy: 50 + 21 * Math.sin(a), r: 1.6, fill: TT_GOLD }));
      }
      return [
        frame, inner,
        svgEl("circle", { cx: 32, cy: 50, r: 16, fill: "none", stroke: TT_GOLD, "stroke-width": 1 }),
        svgEl("path", { d: starPath(32, 50, 13, 5, 8), fill: TT_GOLD, opacity: 0.9 }),
        svgEl("path", { d: "M32 44 q6 6 0 12 q-6 -6 0 -12 z", fill: TT_PURPLE }),
        dots,
        svgEl("path", { d: starPath(12, 12, 3, 1.2) + starPath(52, 88, 3, 1.2), fill: TT_GOLD }),
      ];
    }
    // A face: the points large in the top corner (where people count), the icon's badge in the other,
    // the number among the major arcana between them, the picture under an arch; the name lies on a
    // band at the foot, written by the page (card()), so that it stays readable on a phone.
    const info = this.cardInfo(ctx, code);
    const pts = info.points;
    const ptsFill = pts > 0 ? "#2f7a46" : pts < 0 ? "#a8281d" : "#5e5e5e";
    const icon = info.icon ? this.iconShape(info.icon) : null;
    return [
      frame, inner,
      svgEl("path", { d: "M11 61 v-23 a21 21 0 0 1 42 0 v23 z", fill: TT_DEEP, stroke: TT_GOLD, "stroke-width": 0.8 }),
      this.picture(code),
      svgEl("rect", { x: 6, y: 63, width: 52, height: 30, rx: 2, fill: TT_DEEP, stroke: TT_GOLD, "stroke-width": 0.6 }),
      svgEl("text", { x: 33, y: 10.5, "text-anchor": "middle", "font-size": 6, "font-family": TT_SERIF, fill: TT_GOLD }, TT_ARCANA[code] || ""),
      svgEl("circle", { cx: 13.5, cy: 14, r: 10.5, fill: ptsFill, stroke: TT_GOLD, "stroke-width": 1.3 }),
      svgEl("text", { x: 13.5, y: 19.2, "text-anchor": "middle", "font-size": 14.5, "font-weight": 800, fill: "#fff" }, signed(pts)),
      icon ? svgEl("g", { transform: "translate(51.5 13.5) scale(1.15)" }, icon) : null,
    ];
  },

  // A fate card lying at `place` ("declared:1", "row:2", "discard"); face down without a code.
  card(ctx, code, inverted, place) {
    const label = code == null ? ctx.T("faceDown") : this.cardName(ctx, code, inverted);
    const node = piece(ctx, "tt-card", { w: 64, h: 100, label, key: code ?? "?", place, cls: (inverted ? "inverted" : "") + (code == null ? " back" : ""), data: code ? { code } : {}, tip: code == null ? "card_back" : `card_${this.cardInfo(ctx, code).icon || "plain"}` }, this.cardShapes(ctx, code));
    if (code != null) {
      const info = this.cardInfo(ctx, code);
      node.append(el("span", { class: "tt-name", "aria-hidden": "true" }, LANG === "ja" ? info.name_ja || info.name_en : info.name_en));
    }
    return node;
  },

  // A will token: a round chip, gold rim, its number and as many pips; face down, a gold star.
  chip(ctx, n, place, cls) {
    const face = n == null
      ? [svgEl("circle", { cx: 20, cy: 20, r: 18, fill: TT_PURPLE, stroke: TT_GOLD, "stroke-width": 2.5 }), svgEl("circle", { cx: 20, cy: 20, r: 12, fill: "none", stroke: TT_GOLD, "stroke-width": 0.8, "stroke-dasharray": "2 2" }), svgEl("path", { d: starPath(20, 20, 8, 3.2), fill: TT_GOLD })]
      : [
        svgEl("circle", { cx: 20, cy: 20, r: 18, fill: "#e8d39c", stroke: "#8a6a1e", "stroke-width": 2.5 }),
        svgEl("circle", { cx: 20, cy: 20, r: 13.5, fill: "none", stroke: "#8a6a1e", "stroke-width": 0.8 }),
        svgEl("text", { x: 20, y: 26, "text-anchor": "middle", "font-size": 17, "font-weight": 800, fill: TT_PURPLE, "font-family": TT_SERIF }, String(n)),
        Array.from({ length: n }, (_, i) => svgEl("circle", { cx: 20 + (i - (n - 1) / 2) * 5, cy: 8.5, r: 1.4, fill: TT_PURPLE })),
      ];
    const label = n == null ? ctx.T("hiddenBid") : ctx.T("willToken").replace("{n}", n);
    return piece(ctx, "tt-chip", { w: 40, h: 40, label, key: n == null ? "?" : n, place, cls: (cls || "") + (n == null ? " back" : ""), data: n == null ? {} : { n }, tip: n == null ? "will_back" : "will" }, face);
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
    const boxes = [];
    for (let p = 0; p < v.players; p++) {
      const d = v.declared[p];
      const slot = el("div", { class: "tt-slot" });
      if (d.holds) {
        const declared = this.card(ctx, d.card, false, `declared:${p}`);
        declared.dataset.from = "deck";
        ctx.bind(declared, `steal P${p}`, `${T("declared")}: ${ctx.who(p)} — ${declared.getAttribute("aria-label")}`);
        slot.append(declared);
      } else slot.append(el("div", { class: "pc pc-tt-card pile-empty" }));
      if (d.exposed) slot.append(el("span", { class: "badge tt-exposed" }, T("exposed")));
      const bid = v.bids && v.bids[p] != null
        ? this.chip(ctx, v.bids[p], `bid:${p}`, "tt-bid")
        : v.has_bid[p]
          ? this.chip(ctx, null, `bid:${p}`, "tt-bid")
          : el("div", { class: "pc pc-tt-chip pile-empty", title: T("bid") });
      const unused = v.unused_tokens[p] || [];
      const used = v.used_tokens[p] || [];
      const tokens = el("div", { class: "tt-tokens" });
      [0, 1, 2, 3].forEach((n) => {
        if (!unused.includes(n)) return;
        const tok = this.chip(ctx, n, `will:${p}`);
        if (p === v.seat) ctx.bind(tok, `bid ${n}`, tok.getAttribute("aria-label"));
        tokens.append(tok);
      });
      // Spent tokens lie apart, in a small stack, rather than looking different.
      const spent = used.length
        ? el("div", { class: "tt-spent", "aria-label": `${T("spent")}: ${used.join(", ")}`, role: "img" }, used.map((n) => {
          const c = this.chip(ctx, n, `spent:${p}`);
          c.setAttribute("aria-hidden", "true");
          return c;
        }))
        : null;
      const stars = el(
        "div",
        { class: "tt-stars", role: "img", "aria-label": T("victoryOf").replace("{n}", v.victory_tokens[p]) },
        Array.from({ length: v.victory_tokens[p] }, () => svgEl("svg", { viewBox: "0 0 20 20", class: "tt-star", "aria-hidden": "true" }, svgEl("circle", { cx: 10, cy: 10, r: 9, fill: "#8a6a1e" }), svgEl("path", { d: starPath(10, 10, 7, 3), fill: "#f3d27a" }))),
      );
      // An inverted fate lies upside down; a mark beside it says what it counts now.
      const row = el(
        "div",
        { class: "tt-row" },
        (v.rows[p] || []).map((c) => {
          const card = this.card(ctx, c.card, c.inverted, `row:${p}`);
          if (!c.inverted) return card;
          const pts = -this.cardInfo(ctx, c.card).points;
          return el("div", { class: "tt-inv" }, card, el("span", { class: "tt-inv-mark", "aria-hidden": "true" }, `↻ ${signed(pts)}`));
        }),
      );
      const box = playerBox(
        ctx,
        p,
        [`${T("total")} ${signed(v.totals[p])}`],
        el("div", { class: "tt-seat" }, slot, el("div", { class: "tt-chips" }, bid, tokens, spent), stars),
        row,
      );
      ctx.bind(box, ctx.isLegal(`share P${p}`) ? `share P${p}` : `peek P${p}`, null);
      boxes.push(box);
    }
    const discard = v.discard || [];
    const center = [
      el("div", { class: "binfo" }, `${T("round")} ${v.round} · ${T("turn")} ${v.turn}/${v.turns_per_round} · ${T("target")}: ${v.target} ${T("victory")}`),
      el(
        "div",
        { class: "piles" },
        el("div", { class: "pile", dataset: { pile: "deck" }, role: "img", "aria-label": `${T("deck")}: ${T("pile").replace("{n}", v.deck_count)}` },
          v.deck_count ? svgEl("svg", { viewBox: "0 0 64 100", class: "pc pc-tt-card", "aria-hidden": "true" }, this.cardShapes(ctx, null)) : el("div", { class: "pc pc-tt-card pile-empty" }),
          el("div", { class: "pile-count" }, `${T("deck")} ${T("pile").replace("{n}", v.deck_count)}`)),
        el("div", { class: "pile", dataset: { pile: "discard" } },
          discard.length ? this.card(ctx, discard[discard.length - 1], false, "discard") : el("div", { class: "pc pc-tt-card pile-empty" }),
          el("div", { class: "pile-count" }, `${T("discard")} ${T("pile").replace("{n}", discard.length)}`)),
      ),
    ];
    const noSteal = ctx.button(T("noSteal"), "steal none");
    if (noSteal) center.push(noSteal);
    if (v.pending_icons && v.pending_icons.length) {
      center.push(el("div", { class: "binfo" }, `${T("pending")}: ${v.pending_icons.map((x) => (typeof x === "string" ? pick(this.ICONS[x] || x) : `${ctx.seatName(x.seat)} ${pick(this.ICONS[x.icon] || x.icon)}`)).join(", ")}`));
    }
    const root = el("div", { class: "tottarot" }, tableTop(ctx, boxes, ...center));
    // The icons' meanings, each beside its drawn badge.
    root.append(
      el(
        "ul",
        { class: "tt-legend" },
        ["SHARE", "PEEK", "EXPOSE", "INVERT"].map((icon) =>
          el("li", {}, svgEl("svg", { viewBox: "-9 -9 18 18", class: "tt-icon", "aria-hidden": "true" }, this.iconShape(icon)), T(`icon_${icon}`)),
        ),
      ),
    );
    const end = endExplanation(ctx, ["round_end", "game_end"]);
    if (end) root.append(end);
    return root;
  },
};
