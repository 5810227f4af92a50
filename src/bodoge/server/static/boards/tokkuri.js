// Tokkuri: porcelain sake bottles on a low table, each with its level, number cards drawn as sake labels
// (ink on washi), the troublesome tokkuri in red; your hand at the bottom, the others' hands face down.
"use strict";

const TK_INK = "#1c2340";
const TK_INDIGO = "#24346b";
const TK_RED = "#b3271b";
const TK_WASHI = "#f6efdc";
const TK_SERIF = '"Hiragino Mincho ProN", "Yu Mincho", "Noto Serif JP", "Noto Serif CJK JP", serif';

BOARDS.tokkuri = {
  terms: {
    en: {
      round: "Round", deck: "Deck", discard: "Discard", balance: "balance", captured: "captured", hand: "cards",
      place: "Place as tokkuri", drink: "Drink", trouble: "Place the troublesome tokkuri", bonus: "bonus",
      level: "level", roundScore: "this round", lastRound: "Last round's points",
      prompt_action: "Choose a card from your hand: place it face down as a tokkuri, or drink with it.",
      prompt_open: "Choose the card for your first tokkuri: it goes on the table face down (no one sees it until all have chosen).",
      prompt_place: "Choose a card from your hand to place face down as a tokkuri.",
      prompt_drink: "Choose a card from your hand to drink with.",
      prompt_target: "Choose the tokkuri to drink from.",
      prompt_victim: "Choose a player: a random card from their hand is discarded, then they draw a card.",
      prompt_give: "Choose a card to pass to the left.",
      chooseUse: "Use this card to…", drinkAs: "Drink {n}", bottle: "tokkuri", card: "card", dummy: "dummy", troubleCard: "trouble", empty: "empty",
      back: "face-down card", slots: "{k} slots", bottleOf: "tokkuri {id} of {p}, level {level} of {max}",
      hides: "hides {card}", pile: "{n} cards", pile1: "1 card", cardsIn: "{n} cards in the hand of {p}",
      effect_discard: "discards", effect_draw: "draws a card", effect_pass: "cards pass left", effect_bonus: "bonus",
      scoreRule: "This round so far: +1 per captured tokkuri or bonus card, −{pts} per own tokkuri still at level {lvl} or more (marked −{pts}); paid when the round ends.",
      penalised: "−{pts} if the round ended now (level {lvl} or more)",
    },
    ja: {
      round: "ラウンド", deck: "山札", discard: "捨て札", balance: "所持金", captured: "獲得", hand: "手札",
      place: "トックリとして出す", drink: "酒を飲む", trouble: "やっかいなトックリを出す", bonus: "追加点",
      level: "残量", roundScore: "このラウンド", lastRound: "前のラウンドの得点",
      prompt_action: "手札のカードを選び、トックリとして出すか、酒を飲むか決めてください。",
      prompt_open: "最初のトックリにするカードを選んでください（裏向きで出します。全員が選ぶまで誰にも見えません）。",
      prompt_place: "トックリとして裏向きに出すカードを手札から選んでください。",
      prompt_drink: "酒を飲むカードを手札から選んでください。",
      prompt_target: "飲むトックリを選んでください。",
      prompt_victim: "プレイヤーを1人選んでください：その人の手札から無作為に1枚が捨て札になり、その人が1枚引きます。",
      prompt_give: "左隣に渡すカードを選んでください。",
      chooseUse: "このカードで…", drinkAs: "{n}を飲む", bottle: "トックリ", card: "カード", dummy: "ダミー", troubleCard: "やっかい", empty: "空",
      back: "伏せたカード", slots: "{k}枠", bottleOf: "{p}のトックリ {id}、残量 {level}/{max}",
      hides: "中身は{card}", pile: "{n}枚", pile1: "1枚", cardsIn: "{p}の手札 {n}枚",
      effect_discard: "捨て札", effect_draw: "1枚引く", effect_pass: "左へ渡す", effect_bonus: "追加点",
      scoreRule: "このラウンド（今の時点）：獲得トックリ・追加点カード1枚につき+1、残量{lvl}以上の自分のトックリ1本につき−{pts}（−{pts}の印）。ラウンドの終わりに精算。",
      penalised: "今ラウンドが終われば−{pts}（残量{lvl}以上）",
    },
  },
  selected: null,
  selectedAt: -1,

  // A drink is one move of several parts (table.js): the card, then a tokkuri for each of its numbers,
  // chosen before anything is sent, each part to be taken back. After the actions `texts` (a drink and
  // the targets so far), the next number's choices (TK-4.4: a tokkuri not chosen yet, at a level ≥ the
  // number, the other numbers still each finding one of the rest); null once every number has one.
  continues(view, texts) {
    const m = /^drink (\S+?)(?:=(\d+))?$/.exec(texts[0] || "");
    if (!m || !view.tokkuri) return null;
    const values = (this.info({ view }, m[1]).slots || []).map((x) => (String(x).includes("~") ? Number(m[2]) : Number(x)));
    const chosen = texts.slice(1).map((x) => x.split(" ")[1]);
    if (chosen.length >= values.length) return null;
    const value = values[chosen.length];
    const rest = values.slice(chosen.length + 1).sort((a, b) => b - a);
    const open = view.tokkuri.filter((t) => !chosen.includes(t.id));
    const fits = (left) => {
      const levels = left.map((t) => t.level).sort((a, b) => b - a);
      return rest.length <= levels.length && rest.every((x, j) => x <= levels[j]);
    };
    return open
      .filter((t) => t.level >= value && fits(open.filter((o) => o !== t)))
      .map((t) => ({ text: `target ${t.id}`, words: `target ${t.id}`, text_ja: `トックリ${t.id}で飲む` }));
  },

  // The drinks a hand card offers: "drink 7+6", or for a card of one chosen number "drink 1~3=1", "=2",
  // "=3" (the value chosen as it is drunk), those legal now.
  drinks(ctx, code) {
    const plain = `drink ${code}`;
    const valued = ctx.legal.map((a) => a.text).filter((x) => x.startsWith(`${plain}=`) && /^=\d+$/.test(x.slice(plain.length)));
    return [plain, ...valued].filter((x) => ctx.isLegal(x));
  },

  // The card chosen in the hand before its use (a part of the move: the bar shows it, Take back drops it).
  picked(view) {
    const chosen = this.selected != null && this.selectedAt === (view.log || []).length ? (view.hand || [])[this.selected] : null;
    return chosen == null ? null : LANG === "ja" ? `カード「${chosen}」` : `card ${chosen}`;
  },

  unpick() {
    this.selected = null;
  },

  // The prompt says only what the legal actions allow: the opening placement and a turn where no card
  // can drink are "place", never "or drink".
  prompt(ctx) {
    const has = (verb) => ctx.legal.some((a) => a.text.startsWith(verb + " "));
    if (!ctx.legal.length) return null;
    if (has("target")) return ctx.T("prompt_target");
    if (has("victim")) return ctx.T("prompt_victim");
    if (has("give")) return ctx.T("prompt_give");
    if (ctx.view.phase === "open") return ctx.T("prompt_open");
    if (!has("drink")) return ctx.T("prompt_place");
    if (!has("place")) return ctx.T("prompt_drink");
    return ctx.T("prompt_action");
  },

  cardLabel(ctx, code) {
    if (code === "dummy") return ctx.T("dummy");
    if (code === "trouble") return ctx.T("troubleCard");
    return code;
  },

  info(ctx, code) {
    const deck = (ctx.view.options && ctx.view.options.deck) || [];
    return deck.find((c) => c.code === code) || { code, kind: "number", slots: code.split("+"), effect: "none", name_en: code, name_ja: code };
  },

  // A card in words, in the game's own names: "triple eight, 3 slots" / "数字カード「8+8+8」（3枠）".
  cardName(ctx, code) {
    const info = this.info(ctx, code);
    const name = LANG === "ja" ? info.name_ja || info.name_en : info.name_en;
    const k = (info.slots || []).length;
    const slots = k > 1 ? ctx.T("slots").replace("{k}", k) : "";
    const effect = info.effect && info.effect !== "none" ? ctx.T(`effect_${info.effect}`) : "";
    const extra = [slots, effect].filter(Boolean);
    if (!extra.length) return name;
    return LANG === "ja" ? `${name}（${extra.join("、")}）` : `${name}, ${extra.join(", ")}`;
  },

  pile(ctx, n) {
    return n === 1 ? ctx.T("pile1") : ctx.T("pile").replace("{n}", n);
  },

  // Each bottle's face-down card is known to its owner only.
  reveal(view, views) {
    view.tokkuri.forEach((t, i) => {
      t.card = views[t.owner].tokkuri[i].card;
    });
    return view;
  },

  // Where an event put what it moved (the last move's mark), and where from: a placed or targeted
  // tokkuri on the table (by its id), a drawn card into the hand, a passed one from hand to hand. A card
  // played to drink, placed, or discarded left its hand: nothing of the same number lights there.
  landed(e, view) {
    // A tokkuri lies before its owner ("table:1"): the motion brings a placed one from that hand.
    const at = (id) => `table:${((view.tokkuri || []).find((t) => t.id === id) || {}).owner}`;
    if (e.type === "place") return [[`hand:${e.seat}`, e.card, -1], [at(e.tokkuri), e.tokkuri]];
    if (e.type === "target") return [[at(e.tokkuri), e.tokkuri]];
    if (e.type === "drink") return [[`hand:${e.seat}`, e.card, -1]];
    if (e.type === "steal") return [[`hand:${e.target}`, e.card, -1]];
    if (e.type === "draw") return [[`hand:${e.seat}`, e.card]];
    if (e.type === "gave") return [[`hand:${e.seat}`, e.card, -1], [`hand:${e.to}`, e.card]];
    return [];
  },

  // The faces -----------------------------------------------------------------------------------
  // A card: 60×84. Face down: indigo with white waves (seigaiha). A number card: a sake label, its
  // numbers in ink down the middle, an effect's mark at the foot. The dummy: an empty bottle drawn in
  // dashes. The troublesome tokkuri: red, a cracked bottle and a "!" that nobody can miss.
  cardShapes(ctx, code) {
    const W = 60;
    const H = 84;
    const edge = (fill, stroke) => svgEl("rect", { x: 1, y: 1, width: W - 2, height: H - 2, rx: 6, fill, stroke, "stroke-width": 1.5 });
    if (code == null) {
      const waves = [];
      for (let row = 0; row < 5; row++) {
        for (let col = 0; col < (row % 2 ? 2 : 3); col++) {
          const cx = col * 18 + (row % 2 ? 9 : 0) + 12;
          const cy = 18 + row * 14;
          for (const r of [9, 6, 3]) {
            waves.push(svgEl("path", { d: `M${cx - r} ${cy} a${r} ${r} 0 0 1 ${2 * r} 0`, fill: "none", stroke: "#e9ecf6", "stroke-width": 1.1, opacity: 0.75 }));
          }
        }
      }
      return [
        edge(TK_INDIGO, "#0f1836"),
        waves,
        svgEl("circle", { cx: W / 2, cy: H / 2, r: 9, fill: TK_RED, stroke: "#fff", "stroke-width": 2 }),
      ];
    }
    const info = this.info(ctx, code);
    if (code === "trouble" || info.kind === "trouble") {
      return [
        edge(TK_RED, "#5c0d07"),
        svgEl("path", { d: "M5 5 l6 6 l6 -6 l6 6 l6 -6 l6 6 l6 -6 l6 6 l7 -6", fill: "none", stroke: "#1a0d0b", "stroke-width": 2 }),
        svgEl("path", { d: "M5 79 l6 -6 l6 6 l6 -6 l6 6 l6 -6 l6 6 l6 -6 l7 6", fill: "none", stroke: "#1a0d0b", "stroke-width": 2 }),
        this.bottleShape(17, 16, 26, "#fff", "#1a0d0b"),
        svgEl("path", { d: "M30 30 l-4 8 l6 4 l-5 9", fill: "none", stroke: TK_RED, "stroke-width": 2 }),
        svgEl("circle", { cx: 46, cy: 64, r: 10, fill: "#1a0d0b", stroke: "#fff", "stroke-width": 1.5 }),
        svgEl("text", { x: 46, y: 70, "text-anchor": "middle", "font-size": 17, "font-weight": 900, fill: "#fff" }, "!"),
      ];
    }
    if (code === "dummy" || info.kind === "dummy") {
      return [
        edge(TK_WASHI, "#a89b7e"),
        svgEl("rect", { x: 6, y: 6, width: W - 12, height: H - 12, rx: 3, fill: "none", stroke: TK_RED, "stroke-width": 1 }),
        this.bottleShape(17, 18, 26, "none", TK_INK, "3 3"),
      ];
    }
    const slots = (info.slots || []).map(String);
    const k = Math.max(1, slots.length);
    const size = [30, 24, 19, 15][k - 1] || 15;
    const top = 14;
    const room = 56;
    const numbers = slots.map((s, i) =>
      svgEl(
        "text",
        {
          x: W / 2, y: top + (room / k) * (i + 0.5) + size * 0.36, "text-anchor": "middle",
          "font-size": s.length > 2 ? size * 0.72 : size, "font-weight": 700, "font-family": TK_SERIF, fill: TK_INK,
        },
        s.replace("~", "〜"),
      ),
    );
    const rules = slots.slice(1).map((_, i) =>
      svgEl("line", { x1: 16, x2: W - 16, y1: top + (room / k) * (i + 1), y2: top + (room / k) * (i + 1), stroke: TK_INK, "stroke-width": 0.6, opacity: 0.5 }),
    );
    return [
      edge(TK_WASHI, "#a89b7e"),
      // Washi fibres, a red label band at the head, the label's frame.
      svgEl("path", { d: "M8 20 q10 3 18 0 M30 48 q9 -3 20 1 M10 70 q12 2 22 -1", fill: "none", stroke: "#d9ccad", "stroke-width": 0.8 }),
      svgEl("rect", { x: 6, y: 5, width: W - 12, height: 6, rx: 1, fill: TK_RED }),
      svgEl("rect", { x: 6, y: 12, width: W - 12, height: 60, rx: 2, fill: "none", stroke: TK_INK, "stroke-width": 0.8 }),
      rules,
      numbers,
      this.effectMark(info.effect),
    ];
  },

  // An effect's mark at a label's foot (drawn, not spelled): discard ⊘, draw a card +, pass left ←,
  // bonus ★.
  effectMark(effect) {
    const at = (shapes) => svgEl("g", { transform: "translate(30 78)" }, shapes);
    if (effect === "discard") {
      return at([svgEl("circle", { r: 4.5, fill: "none", stroke: TK_RED, "stroke-width": 1.4 }), svgEl("line", { x1: -3, y1: 3, x2: 3, y2: -3, stroke: TK_RED, "stroke-width": 1.4 })]);
    }
    if (effect === "draw") {
      return at([svgEl("rect", { x: -6, y: -4.5, width: 6, height: 8, rx: 1, fill: "none", stroke: TK_RED, "stroke-width": 1.2 }), svgEl("path", { d: "M2 0 h5 M4.5 -2.5 v5", stroke: TK_RED, "stroke-width": 1.4 })]);
    }
    if (effect === "pass") return at(svgEl("path", { d: "M6 0 h-11 M-1 -4 l-4 4 l4 4", fill: "none", stroke: TK_RED, "stroke-width": 1.6 }));
    if (effect === "bonus") return at(svgEl("path", { d: starPath(0, 0, 5.5, 2.4), fill: "#d4a017", stroke: "#7a5a00", "stroke-width": 0.8 }));
    return null;
  },

  // A tokkuri's outline at (x, y), h high.
  bottleShape(x, y, h, fill, stroke, dash) {
    const s = h / 66;
    return svgEl("path", {
      d: "M14 4 h12 v10 c0 6 12 12 12 30 c0 14 -6 22 -18 22 c-12 0 -18 -8 -18 -22 c0 -18 12 -24 12 -30 z",
      transform: `translate(${x - 2 * s} ${y}) scale(${s})`, fill, stroke, "stroke-width": 1.5 / s, "stroke-dasharray": dash || null,
    });
  },

  // The key of a card's rule ([tip] of the texts): by its effect, else its kind (and a number card of
  // several numbers apart).
  tipOf(ctx, code) {
    if (code == null) return "card_back";
    const info = this.info(ctx, code);
    if (info.effect && info.effect !== "none") return `card_${info.effect}`;
    if (info.kind !== "number") return `card_${info.kind}`;
    return (info.slots || []).length > 1 ? "card_multi" : "card_number";
  },

  card(ctx, code, place, cls) {
    const label = code == null ? ctx.T("back") : this.cardName(ctx, code);
    const node = piece(ctx, "tk-card", { w: 60, h: 84, label, key: code ?? "?", place, cls, data: code == null ? {} : { code }, tip: this.tipOf(ctx, code) }, this.cardShapes(ctx, code));
    if (code == null) node.classList.add("back");
    return node;
  },

  // A tokkuri: white porcelain with an indigo band, its owner's cord at the neck, the sake inside at
  // its level (the liquid slides when the level changes: data-liquid is the drop per level), the level
  // in a round label; its hidden card on a tag where the viewer knows it.
  bottle(ctx, t) {
    const max = Number((ctx.view.options && ctx.view.options.tokkuri_level) || 10);
    const level = Math.max(0, Math.min(max, t.level));
    const path = "M14 4 h12 v10 c0 6 12 12 12 30 c0 14 -6 22 -18 22 c-12 0 -18 -8 -18 -22 c0 -18 12 -24 12 -30 z";
    const clipId = `tkclip-${t.id.replace(/\W/g, "_")}`;
    const per = 56 / max;
    const y = 12 + (max - level) * per;
    const label = ctx.T("bottleOf").replace("{id}", t.id).replace("{p}", ctx.seatName(t.owner)).replace("{level}", level).replace("{max}", max) +
      (t.card ? (LANG === "ja" ? "、" : ", ") + ctx.T("hides").replace("{card}", this.cardName(ctx, t.card)) : "");
    const shapes = [
      svgEl("defs", {}, svgEl("clipPath", { id: clipId }, svgEl("path", { d: path }))),
      svgEl("ellipse", { cx: 20, cy: 68, rx: 16, ry: 3, fill: "rgba(0,0,0,0.25)" }),
      svgEl("path", { d: path, fill: "#fbfaf6" }),
      svgEl("g", { "clip-path": `url(#${clipId})` },
        svgEl("rect", { x: 0, y, width: 40, height: 80, fill: "#e8c968", opacity: 0.9, "data-liquid": per }),
        svgEl("path", { d: "M0 38 q10 -4 20 0 t20 0 v4 q-10 -4 -20 0 t-20 0 z", fill: TK_INDIGO, opacity: 0.55 }),
      ),
      svgEl("path", { d: path, fill: "none", stroke: TK_INDIGO, "stroke-width": 1.6 }),
      svgEl("rect", { x: 13, y: 9, width: 14, height: 3, rx: 1.5, class: "seat-fill" }),
      // The level in a round label, large enough to read on a phone's small bottles.
      svgEl("circle", { cx: 20, cy: 51, r: 11.5, fill: "#fff", stroke: TK_INDIGO, "stroke-width": 1.2 }),
      svgEl("text", { x: 20, y: 56.5, "text-anchor": "middle", "font-size": level > 9 ? 14 : 16, "font-weight": 800, fill: TK_INK, "font-family": TK_SERIF }, String(level)),
    ];
    if (t.card) {
      // The hidden card, on a paper tag at the neck (known to its owner only).
      const tag = t.card === "dummy" ? "—" : t.card === "trouble" ? "!" : t.card;
      shapes.push(
        svgEl("rect", { x: 19, y: 13, width: 22, height: 15, rx: 2, fill: TK_WASHI, stroke: TK_RED, "stroke-width": 1 }),
        svgEl("text", { x: 30, y: 24.5, "text-anchor": "middle", "font-size": tag.length > 3 ? 6.5 : tag.length > 1 ? 9 : 12, "font-weight": 800, fill: t.card === "trouble" ? TK_RED : TK_INK }, tag),
      );
    }
    const node = piece(ctx, "tk-bottle", { w: 40, h: 72, label, key: t.id, place: `table:${t.owner}`, data: { id: t.id, level }, tip: "bottle" }, shapes);
    return ctx.bind(node, `target ${t.id}`, label);
  },

  // A tokkuri where it stands, with a mark beside it when it would cost its owner points if the round
  // ended now (TK-6.1: level ≥ penalty_level): the bottle itself keeps its look.
  bottleSlot(ctx, t, penLevel, penPoints, why) {
    const fined = t.level >= penLevel && penPoints > 0;
    return el(
      "div",
      { class: "tk-slot" },
      this.bottle(ctx, t),
      fined ? el("span", { class: "tk-fine", title: why }, el("span", { "aria-hidden": "true" }, `−${penPoints}`), el("span", { class: "sr-only" }, why)) : null,
    );
  },

  // A fanned stack of face-down cards (another's hand), each a piece at `place`.
  backs(ctx, n, place, from) {
    const node = el("div", { class: "tk-fan", "aria-label": ctx.T("cardsIn").replace("{n}", n).replace("{p}", ctx.seatName(Number(place.split(":")[1]))), role: "img" });
    for (let i = 0; i < n; i++) {
      const c = this.card(ctx, null, place);
      c.removeAttribute("aria-label");
      c.setAttribute("aria-hidden", "true");
      if (from) c.dataset.from = from;
      node.append(c);
    }
    return node;
  },

  seatHand(ctx, p, seatView) {
    return el("div", { class: "cards tk-hand" }, (seatView.hand || []).map((code) => this.card(ctx, code, `hand:${p}`)));
  },

  render(ctx) {
    const v = ctx.view;
    const T = ctx.T;
    const self = this;
    if (this.selectedAt !== (v.log || []).length) {
      this.selected = null;
      this.selectedAt = (v.log || []).length;
    }
    // The middle of the table: the deck (face down) and the discard pile (its top card).
    const deck = el(
      "div",
      { class: "pile", dataset: { pile: "deck" } },
      v.deck_count ? this.card(ctx, null, null, "pile-top") : el("div", { class: "pc pc-tk-card pile-empty" }),
      el("div", { class: "pile-count" }, `${T("deck")} ${self.pile(ctx, v.deck_count)}`),
    );
    deck.querySelector(".pc").removeAttribute("role");
    deck.setAttribute("aria-label", `${T("deck")}: ${self.pile(ctx, v.deck_count)}`);
    const discard = v.discard || [];
    const discardPile = el(
      "div",
      { class: "pile", dataset: { pile: "discard" } },
      discard.length ? this.card(ctx, discard[discard.length - 1], "discard") : el("div", { class: "pc pc-tk-card pile-empty" }),
      el("div", { class: "pile-count" }, `${T("discard")} ${self.pile(ctx, discard.length)}`),
    );
    const opts = v.options || {};
    const penLevel = Number(opts.penalty_level ?? 3);
    const penPoints = Number(opts.penalty_points ?? 2);
    const rule = (key) => T(key).replaceAll("{pts}", penPoints).replaceAll("{lvl}", penLevel);
    const center = [
      el("div", { class: "binfo" }, `${T("round")} ${v.round}`),
      el("div", { class: "piles" }, deck, discardPile),
      // What "this round −6" counts (TK-6.1), in words; each tokkuri it counts is marked.
      v.round_scores && v.tokkuri.length && !v.is_terminal ? el("p", { class: "tk-rule" }, rule("scoreRule")) : null,
    ];
    const boxes = [];
    const held = []; // per seat: the row of what lies before it (its tokkuri; the others' hands face down)
    for (let p = 0; p < v.players; p++) {
      const mine = v.tokkuri.filter((t) => t.owner === p);
      const row = el(
        "div",
        { class: "tk-held" },
        mine.length ? el("div", { class: "bottles" }, mine.map((t) => self.bottleSlot(ctx, t, penLevel, penPoints, rule("penalised")))) : null,
        p !== v.seat && !ctx.seatViews ? this.backs(ctx, v.hand_counts[p], `hand:${p}`, "deck") : null,
      );
      held.push(row);
      const box = playerBox(
        ctx,
        p,
        [
          `${T("hand")} ${v.hand_counts[p]} · ${T("captured")} ${v.captured_counts[p]}`, // (the score is the balance)
          v.round_scores ? el("span", { class: "tk-round" }, ` · ${T("roundScore")}\u00a0${signed(v.round_scores[p])}`) : "",
          v.bonus && v.bonus[p] && v.bonus[p].length ? ` · ${T("bonus")} ${v.bonus[p].length}` : "",
        ],
        row,
      );
      ctx.bind(box, `victim P${p}`, ctx.who(p));
      boxes.push(box);
    }
    if (v.seat != null) {
      const hand = el("div", { class: "cards tk-hand" });
      (v.hand || []).forEach((code, i) => {
        const card = self.card(ctx, code, `hand:${v.seat}`, self.selected === i ? "selected" : "");
        card.dataset.from = "deck";
        const uses = [`place ${code}`, ...self.drinks(ctx, code), `give ${code}`].filter((x) => ctx.isLegal(x));
        if (code === "trouble") uses.push(...["place trouble"].filter((x) => ctx.isLegal(x) && !uses.includes(x)));
        const what = self.cardName(ctx, code);
        if (uses.length === 1) ctx.bind(card, uses[0], what);
        else if (uses.length > 1) {
          card.classList.add("legal");
          card.setAttribute("tabindex", "0");
          card.setAttribute("role", "button");
          card.dataset.act = `card ${code}`;
          const pick = () => {
            self.selected = i;
            ctx.refresh();
          };
          card.addEventListener("click", pick);
          card.addEventListener("keydown", (e) => {
            if (e.key === "Enter" || e.key === " ") {
              e.preventDefault();
              pick();
            }
          });
        }
        hand.append(card);
      });
      const mineBox = boxes[v.seat];
      // Your hand beside your tokkuri (one row where it fits): in view at once, not under them.
      if ((v.hand || []).length || !v.is_terminal) held[v.seat].append(el("div", { class: "tk-hand-wrap" }, el("div", { class: "bsec-title" }, bt("hand")), hand));
      if (self.selected != null && v.hand[self.selected] != null && !ctx.plan.length) {
        const code = v.hand[self.selected];
        mineBox.append(
          el(
            "div",
            { class: "choose-use" },
            `${T("chooseUse")} `,
            ctx.button(`${T("place")} (${self.cardLabel(ctx, code)})`, `place ${code}`, "primary"),
            // A card of one chosen number (1~3) drinks as the number chosen: a button for each.
            self.drinks(ctx, code).map((text) => {
              const value = /=(\d+)$/.exec(text);
              return ctx.button(value ? T("drinkAs").replace("{n}", value[1]) : `${T("drink")} (${code})`, text, "primary");
            }),
          ),
        );
      }
      const trouble = ctx.isLegal("place trouble") && !(v.hand || []).includes("trouble") ? ctx.button(T("trouble"), "place trouble") : null;
      if (trouble) mineBox.append(trouble);
      if (v.my_captured && v.my_captured.length) {
        mineBox.append(
          el("div", { class: "bsec-title" }, T("captured")),
          el("div", { class: "cards tk-captured" }, v.my_captured.map((c) => self.card(ctx, c, `captured:${v.seat}`))),
        );
      }
    }
    const root = el("div", { class: "tokkuri" }, tableTop(ctx, boxes, ...center));
    if (v.last_round_scores) {
      root.append(
        el(
          "div",
          { class: "explain" },
          el("div", { class: "bsec-title" }, v.is_terminal ? bt("endOfGame") : T("lastRound")),
          el("div", {}, v.last_round_scores.map((s, p) => `${ctx.seatName(p)}: ${signed(s)}`).join(" · ")),
        ),
      );
    }
    const end = endExplanation(ctx, ["round_end", "game_end"]);
    if (end && v.is_terminal) root.append(end);
    return root;
  },
};
