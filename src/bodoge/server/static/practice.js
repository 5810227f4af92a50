// What the lessons add to the table page, in one place (docs/learn.md): links to the game's lesson and
// illustrated rules in the rules panel, and at a practice table (made with "hints": true, one
// person) a Hint button in the decision panel that asks the server for the bots' preferred moves.
"use strict";

Object.assign(STRINGS.en, { hint: "Hint", hintBusy: "Thinking…", hintLearn: "Learn to play", hintRules: "Illustrated rules", hintBot: "bot's choice" });
Object.assign(STRINGS.ja, { hint: "ヒント", hintBusy: "考えています…", hintLearn: "遊び方を学ぶ", hintRules: "図解ルール", hintBot: "ボットの選択" });

async function setUpPractice() {
  const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
  const token = new URLSearchParams(location.hash.slice(1)).get("token");
  let summary = null;
  try {
    summary = await api(`/api/tables/${encodeURIComponent(tableId)}`);
  } catch (e) {
    return;
  }
  const rulesBox = document.getElementById("rules-box");
  const links = el("p", { class: "learn-links" },
    el("a", { href: `/learn/${encodeURIComponent(summary.game)}`, id: "learn-link" }, t("hintLearn")),
    el("a", { href: `/rules/${encodeURIComponent(summary.game)}`, id: "rules-page-link" }, t("hintRules")));
  if (rulesBox) rulesBox.append(links);
  const people = (summary.seats || []).filter((s) => s.kind === "human").length;
  if (!token || !summary.hints || people !== 1) return;
  const panel = document.getElementById("decision-panel");
  const button = el("button", { type: "button", id: "hint-button" }, t("hint"));
  const box = el("div", { class: "hint-box", id: "hint-box", "aria-live": "polite" });
  button.addEventListener("click", async () => {
    button.disabled = true;
    button.textContent = t("hintBusy");
    clear(box);
    try {
      const answer = await api(`/api/tables/${encodeURIComponent(tableId)}/hint`, {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token }),
      });
      box.append(el("ol", {}, answer.hints.map((h) => el("li", {},
        el("strong", {}, LANG === "ja" ? h.text_ja : h.text),
        h.heuristic ? ` (${t("hintBot")})` : "",
        el("div", { class: "hint-reason" }, pick(h.reason))))));
    } catch (e) {
      box.append(el("p", { class: "error" }, e.message));
    } finally {
      button.disabled = false;
      button.textContent = t("hint");
    }
  });
  if (panel) panel.append(button, box);
  onLangChange(() => {
    button.textContent = t("hint");
    links.firstChild.textContent = t("hintLearn");
    links.lastChild.textContent = t("hintRules");
  });
}

setUpPractice();
