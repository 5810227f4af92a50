// The illustrated rules (/rules/GAME): the game's rules text, then its lessons' positions drawn by the
// game's own board, each with what its step teaches and the rule ids it cites. docs/learn.md.
"use strict";

Object.assign(STRINGS.en, {
  rulesTitle: "Rules",
  rulesText: "The rules in short",
  rulesLearnLink: "Learn by playing a lesson →",
  rulesIllustrated: "In pictures",
  rulesStep: "Step {i}",
  rulesNoGame: "There is no such game.",
});
Object.assign(STRINGS.ja, {
  rulesTitle: "ルール",
  rulesText: "ルールの要約",
  rulesLearnLink: "レッスンで遊びながら学ぶ →",
  rulesIllustrated: "図で見るルール",
  rulesStep: "ステップ {i}",
  rulesNoGame: "そのゲームはありません。",
});

const GAME = decodeURIComponent(location.pathname.split("/")[2] || "");
let gameInfo = null;
let lessons = [];
const viewsOf = {}; // lesson id -> the learner's view at each step

function fmt(key, fields) {
  return t(key).replace(/\{(\w+)\}/g, (_, k) => String(fields[k]));
}

// The steps worth a picture: those that cite rules (else the lesson's first).
function pictured(lesson) {
  const steps = lesson.steps.map((s, i) => [s, i]).filter(([s]) => s.rules.length);
  return steps.length ? steps : [[lesson.steps[0], 0]];
}

function render() {
  document.getElementById("title").textContent = `${t("rulesTitle")}: ${gameInfo ? pick(gameInfo.title) : GAME}`;
  document.title = `bodoge: ${t("rulesTitle")}`;
  if (!gameInfo) return;
  document.getElementById("rules-text").textContent = pick(gameInfo.rules);
  const box = clear(document.getElementById("figures"));
  for (const lesson of lessons) {
    const views = viewsOf[lesson.id];
    if (!views) continue;
    const figures = el("div", { class: "rules-figures" });
    for (const [step, i] of pictured(lesson)) {
      const drawn = renderBoard(GAME, views[i], { seatName: (p) => `P${p}`, send() {}, setPending() {}, readOnly: true });
      figures.append(
        el("figure", { class: "rules-figure", dataset: { lesson: lesson.id, step: i } },
          el("div", { class: "panel board-panel" }, drawn ? drawn.node : null),
          el("figcaption", {},
            ...step.rules.map((r) => el("span", { class: "rule-chip" }, r)),
            el("span", {}, pick(step.say)),
            " ",
            el("a", { href: `/learn/${encodeURIComponent(GAME)}?lesson=${encodeURIComponent(lesson.id)}` }, fmt("rulesStep", { i: i + 1 }))),
        ),
      );
    }
    box.append(el("section", { class: "panel" }, el("h2", {}, `${t("rulesIllustrated")}: ${pick(lesson.title)}`), figures));
  }
}

async function start() {
  setupLangSwitch();
  document.getElementById("learn-link").href = `/learn/${encodeURIComponent(GAME)}`;
  onLangChange(render);
  try {
    const games = await api("/api/games");
    gameInfo = games.find((g) => g.name === GAME) || null;
    if (!gameInfo) {
      const n = document.getElementById("notice");
      n.textContent = t("rulesNoGame");
      n.hidden = false;
      render();
      return;
    }
    lessons = await api(`/api/games/${encodeURIComponent(GAME)}/lessons`);
    render();
    for (const lesson of lessons) {
      const answer = await api(`/api/games/${encodeURIComponent(GAME)}/lessons/${encodeURIComponent(lesson.id)}/views`);
      viewsOf[lesson.id] = answer.views;
      render();
    }
    document.getElementById("figures").dataset.ready = "1";
  } catch (e) {
    const n = document.getElementById("notice");
    n.textContent = e.message;
    n.hidden = false;
  }
}

start();
