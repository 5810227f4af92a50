// Tokkuri: every tokkuri as a bottle with its level (0-10) and owner, your hand, captured piles,
// balances, the deck count, and the pass-left choice.
"use strict";

const TOKKURI_COLORS = ["#d9573f", "#3f7fd9", "#d9b43f", "#5aa35a"];

BOARDS.tokkuri = {
  terms: {
    en: {
      round: "Round", deck: "Deck", discard: "Discard", balance: "balance", captured: "captured", hand: "cards",
      place: "Place as tokkuri", drink: "Drink", trouble: "Place the troublesome tokkuri", bonus: "bonus",
      level: "level", roundScore: "this round", lastRound: "Last round's points",
      prompt_action: "Choose a card from your hand: place it face down as a tokkuri, or drink with it.",
      prompt_target: "Choose the tokkuri to drink from.",
      prompt_victim: "Choose the player whose card you draw.",
      prompt_give: "Choose a card to pass to the left.",
      chooseUse: "Use this card to…", bottle: "tokkuri", card: "card", dummy: "dummy", troubleCard: "trouble", empty: "empty",
    },
    ja: {
      round: "ラウンド", deck: "山札", discard: "捨て札", balance: "所持金", captured: "獲得", hand: "手札",
      place: "トックリとして出す", drink: "酒を飲む", trouble: "やっかいなトックリを出す", bonus: "追加点",
      level: "残量", roundScore: "このラウンド", lastRound: "前のラウンドの得点",
      prompt_action: "手札のカードを選び、トックリとして出すか、酒を飲むか決めてください。",
      prompt_target: "飲むトックリを選んでください。",
      prompt_victim: "カードを引かれる人を選んでください。",
      prompt_give: "左隣に渡すカードを選んでください。",
      chooseUse: "このカードで…", bottle: "トックリ", card: "カード", dummy: "ダミー", troubleCard: "やっかい", empty: "空",
    },
  },
  selected: null,
  selectedAt: -1,

  prompt(ctx) {
    const has = (verb) => ctx.legal.some((a) => a.text.startsWith(verb + " "));
    if (!ctx.legal.length) return null;
    if (has("target")) return ctx.T("prompt_target");
    if (has("victim")) return ctx.T("prompt_victim");
    if (has("give")) return ctx.T("prompt_give");
    return ctx.T("prompt_action");
  },

  cardLabel(ctx, code) {
    if (code === "dummy") return ctx.T("dummy");
    if (code === "trouble") return ctx.T("troubleCard");
    return code;
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
  landed(e) {
    if (e.type === "place") return [[`hand:${e.seat}`, e.card, -1], ["table", e.tokkuri]];
    if (e.type === "target") return [["table", e.tokkuri]];
    if (e.type === "drink") return [[`hand:${e.seat}`, e.card, -1]];
    if (e.type === "steal") return [[`hand:${e.target}`, e.card, -1]];
    if (e.type === "draw") return [[`hand:${e.seat}`, e.card]];
    if (e.type === "gave") return [[`hand:${e.seat}`, e.card, -1], [`hand:${e.to}`, e.card]];
    return [];
  },

  seatHand(ctx, p, seatView) {
    const cards = (seatView.hand || []).map((code) =>
      ctx.name(
        el("div", { class: "card small", dataset: { code, place: `hand:${p}` } }, this.cardLabel(ctx, code)),
        `${ctx.T("card")} ${this.cardLabel(ctx, code)}`,
        code,
      ),
    );
    return el("div", { class: "cards" }, cards);
  },

  bottle(ctx, t) {
    const color = TOKKURI_COLORS[t.owner % TOKKURI_COLORS.length];
    const h = 70;
    const fill = Math.max(0, Math.min(10, t.level)) / 10;
    const clipId = `clip-${t.id.replace(/\W/g, "_")}-${Math.random().toString(36).slice(2, 7)}`;
    const path = "M14 4 h12 v10 c0 6 12 12 12 30 c0 14 -6 22 -18 22 c-12 0 -18 -8 -18 -22 c0 -18 12 -24 12 -30 z";
    const svg = svgEl(
      "svg",
      { width: 40, height: h + 2, viewBox: `0 0 40 ${h + 2}`, role: "img", "aria-label": `${t.id} ${t.level}/10` },
      svgEl("defs", {}, svgEl("clipPath", { id: clipId }, svgEl("path", { d: path }))),
      svgEl("path", { d: path, fill: "#f3ead8", stroke: color, "stroke-width": 3 }),
      svgEl("rect", {
        x: 0, y: 4 + (1 - fill) * 62, width: 40, height: fill * 62 + 6, fill: "#c9e3f2",
        "clip-path": `url(#${clipId})`,
      }),
      svgEl("path", { d: path, fill: "none", stroke: color, "stroke-width": 3 }),
      svgEl("text", { x: 20, y: 50, "text-anchor": "middle", "font-size": 15, "font-weight": 700, fill: "#2b2a27" }, String(t.level)),
    );
    const node = el(
      "div",
      { class: "bottle", title: `${t.id} · ${ctx.T("level")} ${t.level}/10`, dataset: { id: t.id, place: "table" } },
      svg,
      el("span", { class: "blabel" }, t.id, t.card ? ` (${this.cardLabel(ctx, t.card)})` : ""),
    );
    return ctx.bind(node, `target ${t.id}`, `${ctx.T("bottle")} ${t.id} · ${ctx.T("level")} ${t.level}/10`);
  },

  render(ctx) {
    const v = ctx.view;
    const T = ctx.T;
    const self = this;
    if (this.selectedAt !== (v.log || []).length) {
      this.selected = null;
      this.selectedAt = (v.log || []).length;
    }
    const root = el("div", { class: "tokkuri" });
    root.append(
      el(
        "div",
        { class: "binfo" },
        `${T("round")} ${v.round} · ${T("deck")}: ${v.deck_count} · ${T("discard")}: ${(v.discard || []).length}`,
      ),
    );
    const players = el("div", { class: "players" });
    for (let p = 0; p < v.players; p++) {
      const mine = v.tokkuri.filter((t) => t.owner === p);
      const box = playerBox(
        ctx,
        p,
        [
          ` · ${T("balance")} ${v.scores[p]} · ${T("hand")} ${v.hand_counts[p]} · ${T("captured")} ${v.captured_counts[p]}`,
          v.round_scores ? ` · ${T("roundScore")} ${v.round_scores[p] >= 0 ? "+" : ""}${v.round_scores[p]}` : "",
          v.bonus && v.bonus[p] && v.bonus[p].length ? ` · ${T("bonus")} ${v.bonus[p].length}` : "",
        ],
        el("div", { class: "bottles" }, mine.map((t) => self.bottle(ctx, t))),
      );
      box.style.borderLeft = `5px solid ${TOKKURI_COLORS[p % 4]}`;
      ctx.bind(box, `victim P${p}`, ctx.who(p));
      players.append(box);
    }
    root.append(players);
    if (v.seat != null) {
      const hand = el("div", { class: "cards" });
      (v.hand || []).forEach((code, i) => {
        const card = el(
          "div",
          { class: "card" + (self.selected === i ? " selected" : ""), dataset: { code, place: `hand:${v.seat}` } },
          self.cardLabel(ctx, code),
        );
        const uses = [`place ${code}`, `drink ${code}`, `give ${code}`].filter((x) => ctx.isLegal(x));
        if (code === "trouble") uses.push(...["place trouble"].filter((x) => ctx.isLegal(x) && !uses.includes(x)));
        const what = `${T("card")} ${self.cardLabel(ctx, code)}`;
        if (uses.length === 1) ctx.bind(card, uses[0], what);
        else if (!uses.length) ctx.name(card, what, code);
        else if (uses.length > 1) {
          card.classList.add("legal");
          card.setAttribute("tabindex", "0");
          card.setAttribute("role", "button");
          card.dataset.act = `card ${code}`;
          ctx.name(card, what, code);
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
      const sec = section(bt("hand"), hand);
      if (self.selected != null && v.hand[self.selected] != null) {
        const code = v.hand[self.selected];
        sec.append(
          el(
            "div",
            { class: "choose-use" },
            `${T("chooseUse")} `,
            ctx.button(`${T("place")} (${self.cardLabel(ctx, code)})`, `place ${code}`, "primary"),
            ctx.button(`${T("drink")} (${code})`, `drink ${code}`, "primary"),
          ),
        );
      }
      const trouble = ctx.isLegal("place trouble") && !(v.hand || []).includes("trouble") ? ctx.button(T("trouble"), "place trouble") : null;
      if (trouble) sec.append(trouble);
      root.append(sec);
      if (v.my_captured && v.my_captured.length) {
        root.append(section(T("captured"), el("div", { class: "cards" }, v.my_captured.map((c) => el("div", { class: "card small" }, self.cardLabel(ctx, c))))));
      }
    }
    if (v.last_round_scores) {
      root.append(
        el(
          "div",
          { class: "explain" },
          el("div", { class: "bsec-title" }, v.is_terminal ? bt("endOfGame") : T("lastRound")),
          el("div", {}, v.last_round_scores.map((s, p) => `${ctx.seatName(p)}: ${s >= 0 ? "+" : ""}${s}`).join(" · ")),
        ),
      );
    }
    const end = endExplanation(ctx, ["round_end", "game_end"]);
    if (end && v.is_terminal) root.append(end);
    return root;
  },
};
