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

// The steps worth a picture: those that cite rules (else the lesson's first).
function pictured(lesson) {
  const steps = lesson.steps.map((s, i) => [s, i]).filter(([s]) => s.rules.length);
  return steps.length ? steps : [[lesson.steps[0], 0]];
}

// The rules summary is the terminal's text (rules_summary): paragraphs hard-wrapped at some 80-95
// columns, and indented rows ("  take N     put a face-up tile ...") whose meaning runs on in
// deeper-indented lines. A phone's narrow column would break each of those lines again, so the page
// re-flows them: a paragraph's lines are joined, and rows become a list of a term and its meaning.
function rulesBlocks(text) {
  const blocks = []; // {kind: "p", text} or {kind: "rows", rows: [{term, text, sub}]}
  let para = null;
  let rows = null;
  let last = null;
  for (const raw of String(text || "").split("\n")) {
    const line = raw.replace(/\s+$/, "");
    if (!line.trim()) {
      para = rows = last = null;
      continue;
    }
    const indent = line.length - line.trimStart().length;
    const body = line.trimStart();
    const bullet = /^[-•]\s+(.*)$/.exec(body); // "- k = 5: hangover!": a row of its own
    if (indent === 0 && !bullet) {
      rows = last = null;
      if (para) para.text = joinLines(para.text, body);
      else blocks.push((para = { kind: "p", text: body }));
      continue;
    }
    para = null;
    // "take N     put a face-up tile ...": a term, a gap of spaces, its meaning.
    const gap = /^(\S.*?)\s{2,}(?:=\s+)?(\S.*)$/.exec(body);
    // A deeper line without a term of its own runs on the row above.
    if (last && indent > last.indent && !gap) {
      last.text = joinLines(last.text, body);
      continue;
    }
    const split = bullet ? null : gap || /^([^\s=]+)\s+=\s+(\S.*)$/.exec(body); // or "jewel = three ..."
    if (!rows) blocks.push((rows = { kind: "rows", rows: [], indent }));
    const text = bullet ? `• ${bullet[1]}` : split ? split[2] : body;
    last = { indent, term: split ? split[1] : "", text, sub: indent > rows.indent };
    rows.rows.push(last);
  }
  return blocks;
}

// Two lines of one sentence: Japanese runs on without a space, other scripts with one.
function joinLines(a, b) {
  const cjk = /[\u3000-\u9fff\uff00-\uffef]/;
  return cjk.test(a.slice(-1)) || cjk.test(b[0]) ? a + b : `${a} ${b}`;
}

// A text with its `bid 2` moves set as code.
function withCode(text) {
  return text.split(/`([^`]+)`/).map((part, i) => (i % 2 ? el("code", {}, part) : part));
}

function renderRulesText(box, text) {
  clear(box);
  for (const block of rulesBlocks(text)) {
    if (block.kind === "p") {
      box.append(el("p", {}, ...withCode(block.text)));
      continue;
    }
    box.append(el("dl", { class: "rules-rows" }, block.rows.map((r) => el("div", { class: "rules-row" + (r.sub ? " sub" : "") + (r.term ? "" : " no-term") },
      r.term ? el("dt", {}, r.term) : null,
      el("dd", {}, ...withCode(r.text))))));
  }
}

function render() {
  document.getElementById("title").textContent = `${t("rulesTitle")}: ${gameInfo ? pick(gameInfo.title) : GAME}`;
  document.title = `bodoge: ${t("rulesTitle")}`;
  if (!gameInfo) return;
  renderRulesText(document.getElementById("rules-text"), pick(gameInfo.rules));
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
    await loadBoard(GAME).catch((e) => console.warn(e.message)); // without one, the figures' words alone
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
