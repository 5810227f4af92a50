// The rules page (/rules/GAME): the game's rules for players, as a published edition prints them,
// in the page's language (GET /api/games/GAME/rules?lang=, from the game's texts/rules_LANG.md:
// core/guide.py), with a short table of contents, each section's rule ids as small chips, and a few
// pictures: the positions of the game's lessons that the text names, drawn by the game's own board.
// docs/learn.md.
"use strict";

Object.assign(STRINGS.en, {
  rulesTitle: "Rules",
  rulesContents: "Contents",
  rulesLearnLink: "Learn by playing a lesson →",
  rulesPlayLesson: "Play this lesson →",
  rulesRuleIds: "Rules followed",
  rulesRuleTitle: "Rule {id} of the game's rules specification",
  rulesSeat: "Player {n}",
  rulesInPictures: "In pictures",
  rulesStep: "Step {i}",
  rulesNoGame: "There is no such game.",
  rulesLoading: "Loading the rules…",
});
Object.assign(STRINGS.ja, {
  rulesTitle: "ルール",
  rulesContents: "目次",
  rulesLearnLink: "レッスンで遊びながら学ぶ →",
  rulesPlayLesson: "このレッスンを遊ぶ →",
  rulesRuleIds: "対応するルール",
  rulesRuleTitle: "ルール仕様書のルール {id}",
  rulesSeat: "プレイヤー{n}",
  rulesInPictures: "図で見るルール",
  rulesStep: "ステップ {i}",
  rulesNoGame: "そのゲームはありません。",
  rulesLoading: "ルールを読み込んでいます…",
});

const GAME = decodeURIComponent(location.pathname.split("/")[2] || "");
let gameInfo = null;
let lessons = [];
const guides = {}; // lang -> the rules text (core/guide.py's data), or false where the game has none
const viewsOf = {}; // lesson id -> the learner's view at each step
let asking = null; // the language whose rules text is being fetched

// Words with their **bold** runs: ["plain", {"b": "bold"}, ...].
function words(runs) {
  return (runs || []).map((r) => (typeof r === "string" ? r : el("strong", {}, r.b)));
}

function blockNode(block) {
  if (block.kind === "p") return el("p", {}, words(block.text));
  if (block.kind === "h3") return el("h3", {}, words(block.text));
  return el(block.kind === "ol" ? "ol" : "ul", {}, block.items.map((item) => el("li", {}, words(item))));
}

// The seats of a lesson's picture: the lesson's names for them where it gives some (as the lesson
// page calls them), else by number; the learner's own box says "you" beside it.
function seatNamer(lessonId) {
  const lesson = lessons.find((l) => l.id === lessonId);
  const names = lesson && lesson.names && (lesson.names[LANG] || lesson.names.en);
  return (p) => (names && names[p]) || fmt("rulesSeat", { n: p + 1 });
}

function lessonLink(id) {
  return `/learn/${encodeURIComponent(GAME)}?lesson=${encodeURIComponent(id)}`;
}

// A lesson's position drawn by the game's board, with its words; null until the views are here.
function picture(lessonId, step, caption, chips) {
  const views = viewsOf[lessonId];
  const view = views && views[step - 1];
  if (!view) return null;
  const drawn = renderBoard(GAME, view, { seatName: seatNamer(lessonId), send() {}, setPending() {}, readOnly: true });
  return el(
    "figure",
    { class: "rules-figure", dataset: { lesson: lessonId, step } },
    el("div", { class: "panel board-panel" }, drawn ? drawn.node : null),
    el("figcaption", {}, chips || null, el("span", {}, caption), " ", el("a", { href: lessonLink(lessonId) }, t("rulesPlayLesson"))),
  );
}

function ruleChips(ids) {
  if (!ids || !ids.length) return null;
  return el(
    "span",
    { class: "rule-chips", title: t("rulesRuleIds") },
    ids.map((id) => el("span", { class: "rule-chip", title: fmt("rulesRuleTitle", { id }) }, id)),
  );
}

function sectionNode(section) {
  const fig = section.figure;
  const drawn = fig ? picture(fig.lesson, fig.step, words(fig.caption)) : null;
  return el(
    "section",
    { class: "rules-section" + (drawn ? " with-figure" : ""), id: `rules-${section.id}`, "aria-labelledby": `rules-h-${section.id}`, dataset: { section: section.id } },
    el("div", { class: "rules-sec-head" }, el("h2", { id: `rules-h-${section.id}` }, section.heading), ruleChips(section.rules)),
    el("div", { class: "rules-words" }, section.blocks.map(blockNode)),
    drawn,
  );
}

// Where the rules text names no lesson position that exists (other lessons, a game without a
// text): one picture per lesson, its first step that cites rules.
function lessonPictures() {
  const figures = [];
  for (const lesson of lessons) {
    const i = Math.max(0, lesson.steps.findIndex((s) => s.rules && s.rules.length));
    const step = lesson.steps[i];
    const drawn = step && picture(lesson.id, i + 1, `${pick(lesson.title)}: ${fmt("rulesStep", { i: i + 1 })}`, ruleChips(step.rules));
    if (drawn) figures.push(drawn);
  }
  if (!figures.length) return null;
  return el("section", { class: "rules-section", id: "rules-pictures", "aria-labelledby": "rules-h-pictures" },
    el("div", { class: "rules-sec-head" }, el("h2", { id: "rules-h-pictures" }, t("rulesInPictures"))),
    el("div", { class: "rules-figures" }, figures));
}

// The terminal's summary, for a game whose package has no rules text: its paragraphs as they are.
function summaryNodes(text) {
  return String(text || "").split(/\n\s*\n/).filter((p) => p.trim()).map((p) => el("p", { class: "rules-summary" }, p.trim()));
}

function render() {
  const guide = guides[LANG];
  const title = guide ? guide.title : gameInfo ? pick(gameInfo.title) : GAME;
  document.getElementById("title").textContent = `${t("rulesTitle")}: ${title}`;
  document.title = `bodoge: ${t("rulesTitle")}: ${title}`;
  if (!gameInfo) return;
  if (guide === undefined) {
    ask(LANG);
    return; // the page keeps the other language's text until this one is here
  }
  document.getElementById("rules-heading").textContent = title;
  const intro = clear(document.getElementById("rules-intro"));
  const toc = clear(document.getElementById("toc-list"));
  const body = clear(document.getElementById("rules-text"));
  if (!guide) {
    body.append(...summaryNodes(pick(gameInfo.rules)));
    document.getElementById("toc").hidden = true;
  } else {
    intro.append(...guide.intro.map(blockNode));
    document.getElementById("toc").hidden = false;
    for (const section of guide.sections) {
      toc.append(el("li", {}, el("a", { href: `#rules-${section.id}` }, section.heading)));
      body.append(sectionNode(section));
    }
  }
  const named = guide ? guide.sections.filter((s) => s.figure && viewsOf[s.figure.lesson]) : [];
  if (!named.length) {
    const pictures = lessonPictures();
    if (pictures) body.append(pictures);
  }
  body.dataset.lang = LANG;
}

// Fetch the rules text of `lang` once (the server caches it too), then draw.
async function ask(lang) {
  if (asking === lang) return;
  asking = lang;
  try {
    guides[lang] = await api(`/api/games/${encodeURIComponent(GAME)}/rules?lang=${encodeURIComponent(lang)}`);
  } catch (e) {
    if (e.status !== 404) throw e;
    guides[lang] = false; // a game without rules for players: its summary
  } finally {
    asking = null;
  }
  if (lang === LANG) render();
}

// The lessons whose positions the page draws: those the text names, else all (one picture each).
function lessonsToDraw() {
  const guide = guides[LANG];
  const known = new Set(lessons.map((l) => l.id));
  const named = new Set(guide ? guide.sections.filter((s) => s.figure && known.has(s.figure.lesson)).map((s) => s.figure.lesson) : []);
  return named.size ? lessons.filter((l) => named.has(l.id)) : lessons;
}

async function start() {
  setupLangSwitch();
  document.getElementById("learn-link").href = `/learn/${encodeURIComponent(GAME)}`;
  onLangChange(render);
  try {
    const games = await api("/api/games");
    gameInfo = games.find((g) => g.name === GAME) || null;
    if (!gameInfo) {
      notice(t("rulesNoGame"));
      document.getElementById("toc").hidden = true;
      render();
      return;
    }
    const loaded = Promise.all([
      ask(LANG),
      api(`/api/games/${encodeURIComponent(GAME)}/lessons`).then((found) => (lessons = found)),
      loadBoard(GAME).catch((e) => console.warn(e.message)), // without one, the pictures' words alone
    ]);
    await loaded;
    render();
    await Promise.all(
      lessonsToDraw().map(async (lesson) => {
        const answer = await api(`/api/games/${encodeURIComponent(GAME)}/lessons/${encodeURIComponent(lesson.id)}/views`);
        viewsOf[lesson.id] = answer.views;
      }),
    );
    render();
    document.getElementById("figures").dataset.ready = "1";
  } catch (e) {
    notice(e.message);
  }
}

start();
