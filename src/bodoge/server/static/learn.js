// The lesson page (/learn/GAME): a coach beside the real board. The server steps the lesson
// (POST /api/games/GAME/lessons/ID/step with the lesson's moves so far): this page keeps only where it
// is, and draws the learner's view with the game's board. docs/learn.md.
"use strict";

Object.assign(STRINGS.en, {
  learnTitle: "Learn to play",
  learnReadOn: "Read what the coach says, then press Next.",
  learnLesson: "Lesson",
  learnStep: "Step {i} of {n}",
  learnBack: "Back",
  learnNext: "Next",
  learnRestart: "Restart",
  learnYourMove: "Your move: play it on the board or with the buttons below it.",
  learnWatch: "Press Next to see this move played.",
  learnDone: "Lesson complete!",
  learnPractice: "Play a practice game",
  learnPracticeBusy: "Making the table…",
  learnRules: "Rules taught",
  learnRulesLink: "Illustrated rules",
  learnNoLessons: "This game has no lessons yet.",
  learnNoGame: "There is no such game.",
  learnChoices: "Your choices",
  learnChoicesParts: "Your choices, a part at a time (as on the board)",
  learnWellPlayed: "Well played.",
});
Object.assign(STRINGS.ja, {
  learnTitle: "遊び方を学ぶ",
  learnReadOn: "コーチの説明を読んで「次へ」を押してください。",
  learnLesson: "レッスン",
  learnStep: "ステップ {i} / {n}",
  learnBack: "戻る",
  learnNext: "次へ",
  learnRestart: "最初から",
  learnYourMove: "あなたの番です。盤面か、その下のボタンで選んでください。",
  learnWatch: "「次へ」を押すと、この手が指されます。",
  learnDone: "レッスン完了！",
  learnPractice: "練習対局をする",
  learnPracticeBusy: "卓を用意しています…",
  learnRules: "このステップのルール",
  learnRulesLink: "図解ルール",
  learnNoLessons: "このゲームにはまだレッスンがありません。",
  learnNoGame: "そのゲームはありません。",
  learnChoices: "選べる手",
  learnChoicesParts: "選べる手（盤面と同じく、一つずつ選びます）",
  learnWellPlayed: "その通りです。",
});

const GAME = decodeURIComponent(location.pathname.split("/")[2] || "");
let gameInfo = null;
let lessons = [];
let lesson = null;
let index = 0; // the step shown
let view = null; // the learner's view at that step
let pending = "";
let feedback = null; // {ok, message} of the last try
let busy = false; // a try of the learner's is on its way: the board waits for its answer
let asked = 0; // the requests made: an answer to an older one than the last is dropped
let taken = {}; // step index -> the move the learner played there (one of the moves the step accepts)

// The seats by the names the lesson's words use (the lesson's `names`): "You", then the others.
function seatName(p) {
  const names = lesson && lesson.names && (lesson.names[LANG] || lesson.names.en);
  return (names && names[p]) || `P${p}`;
}

// The lesson's texts in words (board-aids.js's engineWords): the seats by the names the lesson's
// words use, Tokkuri's tokkuri by owner and level, a snack's "-1/+2" with a true minus sign.
function speaker() {
  return { name: seatName, players: lesson.players, seat: lesson.seat, view };
}

function inWords(text) {
  return lesson ? engineWords(text, speaker()) : text;
}

// An action in the page's language, in words (as the table says it): never the engine's command text.
function actionWords(action) {
  return inWords(LANG === "ja" && action.text_ja ? action.text_ja : action.words || action.text);
}

// The lesson's moves before step i: each step's move, in order (the learner's as played).
function movesBefore(i) {
  return lesson.steps.slice(0, i).map((s, k) => taken[k] ?? s.expect).filter((a) => a != null);
}

function learnersStep(step) {
  return step && step.expect != null && step.mover === lesson.seat;
}

async function stepRequest(body) {
  return api(`/api/games/${encodeURIComponent(GAME)}/lessons/${encodeURIComponent(lesson.id)}/step`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function show(i) {
  index = Math.max(0, Math.min(i, lesson.steps.length));
  pending = "";
  const mine = ++asked;
  const answer = await stepRequest({ actions: movesBefore(index) });
  if (mine !== asked) return; // a newer step was asked meanwhile
  view = answer.view;
  render();
}

// The learner's try at the step shown. The board is drawn again only once the answer is in and the
// page is no longer busy, so that it is live again: after a wrong try (the same position), and on
// the learner's next step where it follows at once (Tokkuri's drink, then its tokkuri).
async function tryMove(actionId) {
  const step = lesson.steps[index];
  if (busy || !learnersStep(step)) return;
  busy = true;
  pending = "";
  const at = index;
  const mine = ++asked;
  let answer = null;
  try {
    answer = await stepRequest({ actions: movesBefore(at), move: actionId });
  } catch (e) {
    notice(e.message);
  } finally {
    busy = false;
  }
  if (!answer || mine !== asked) {
    if (mine === asked) render(); // the same position, live again
    return;
  }
  feedback = { ok: answer.accepted, message: answer.message };
  if (answer.accepted) {
    taken[at] = answer.played[answer.played.length - 1];
    index = at + 1;
  }
  // After the move, or the same position again (the steps that only explain, next, change nothing).
  view = answer.view;
  render();
}

function setPending(text) {
  pending = text;
  renderBoardPanel();
}

function render() {
  const n = lesson.steps.length;
  const done = index >= n;
  const step = done ? null : lesson.steps[index];
  document.getElementById("lesson-title").textContent = pick(lesson.title);
  document.getElementById("progress").textContent = done ? t("learnDone") : fmt("learnStep", { i: index + 1, n });
  document.getElementById("meter").style.setProperty("width", `${Math.round((100 * Math.min(index, n)) / n)}%`);
  document.getElementById("say").textContent = step ? pick(step.say) : "";
  const cited = clear(document.getElementById("rules-cited"));
  cited.hidden = !(step && step.rules.length);
  if (step && step.rules.length) {
    cited.append(`${t("learnRules")}: `, ...step.rules.map((r) => el("span", { class: "rule-chip" }, r)));
  }
  const fb = document.getElementById("feedback");
  fb.hidden = !feedback;
  if (feedback) {
    fb.textContent = feedback.ok ? t("learnWellPlayed") : pick(feedback.message);
    fb.classList.toggle("ok", !!feedback.ok);
  }
  const mine = learnersStep(step);
  const yourMove = document.getElementById("your-move");
  yourMove.hidden = !(mine || (step && step.expect != null));
  yourMove.textContent = mine ? t("learnYourMove") : t("learnWatch");
  document.getElementById("back").disabled = index === 0;
  const next = document.getElementById("next");
  next.disabled = done || mine;
  next.hidden = done;
  document.getElementById("done").hidden = !done;
  renderBoardPanel();
}

// The board's things at a place the step points at (docs/learn.md, "point"): the pieces lying there
// (data-place: "hand:0", "row:1", "mine"), a pile ("deck", "pool"), or a seat's whole box ("seat:2").
function pointedAt(root, place) {
  const seat = /^seat:(\d+)$/.exec(place);
  if (seat) return [...root.querySelectorAll(`.pbox[data-seat="${seat[1]}"]`)];
  return [...root.querySelectorAll("[data-place], [data-pile]")]
    .filter((node) => node.dataset.place === place || node.dataset.pile === place);
}

function renderBoardPanel() {
  const before = boardSnapshot(document.getElementById("board")); // the pieces' places, for the motion
  const box = clear(document.getElementById("board"));
  const step = lesson.steps[index];
  const mine = learnersStep(step);
  const drawn = view && BOARDS[GAME]
    ? renderBoard(GAME, view, { seatName, send: tryMove, pending, setPending, readOnly: !mine || busy })
    : null;
  if (drawn) {
    nameSeatsIn(drawn.node, speaker()); // the engine's texts on the board, by the lesson's names
    box.append(drawn.node);
    for (const place of (step && step.point) || []) {
      pointedAt(drawn.node, place).forEach((node) => node.classList.add("learn-point"));
    }
  }
  box.dataset.step = String(index);
  const prompt = document.getElementById("board-prompt");
  prompt.textContent = !view ? "" : view.is_terminal ? t("gameOver")
    : mine ? `${t("yourDecision")}: ${(drawn && drawn.prompt) || inWords(decisionText(view))}`
      // The learner's own seat on an explaining step is not "waiting for" the learner: the coach talks.
      : view.current_player === lesson.seat ? t("learnReadOn")
        : `${t("waitingFor")} ${seatName(view.current_player)}`;
  prompt.classList.toggle("my-turn", !!mine);
  // The parts of a move chosen so far (board-aids.js): take back the last, or cancel them all.
  pendingBar(document.getElementById("board-pending"), pending ? [inWords(pendingWords(pending))] : [],
    () => setPending(takeBackText(pending)), () => setPending(""));
  // Every legal move as a button too, in words: a board need not make each one clickable, and a
  // wrong one must be possible to try (the coach answers it with the step's hint).
  if (mine && view.legal_actions) {
    // Moves of several parts (Hangover's arrangement) a part at a time, as the board takes them.
    const offer = choiceOffer(view.legal_actions, pending, inWords);
    const caption = t(offer.parts ? "learnChoicesParts" : "learnChoices");
    const list = el("div", { class: "actions learn-actions", role: "group", "aria-label": caption });
    for (const item of offer.items) {
      list.append(item.action
        ? el("button", {
          type: "button", class: "learn-act", dataset: { text: item.action.text },
          onclick: () => tryMove(item.action.id),
        }, item.label || actionWords(item.action))
        : el("button", {
          type: "button", class: "learn-part", dataset: { part: item.prefix },
          onclick: () => setPending(item.prefix),
        }, item.label));
    }
    box.append(el("p", { class: "small" }, caption), list);
  }
  // The other seats' moves (and the learner's own) are seen moving from where they were: measured
  // once the prompt and the choices around the board are in place.
  if (drawn) animateBoard(before, box);
}

async function practice() {
  const button = document.getElementById("practice");
  const error = document.getElementById("practice-error");
  button.disabled = true;
  button.textContent = t("learnPracticeBusy");
  error.hidden = true;
  const players = lesson.players || gameInfo.default_players;
  const seats = [];
  for (let p = 0; p < players; p++) seats.push(p === 0 ? { kind: "human" } : { kind: "bot", spec: "heuristic" });
  try {
    const made = await api("/api/tables", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ game: GAME, players, seats, hints: true }),
    });
    location.href = made.seats[0].join_url;
  } catch (e) {
    error.textContent = e.message;
    error.hidden = false;
    button.disabled = false;
    button.textContent = t("learnPractice");
  }
}

function chooseLesson(id) {
  lesson = lessons.find((l) => l.id === id) || lessons[0];
  feedback = null;
  taken = {};
  const url = new URL(location.href);
  url.searchParams.set("lesson", lesson.id);
  history.replaceState(null, "", url);
  show(0).catch((e) => notice(e.message));
}

function renderTitle() {
  document.getElementById("title").textContent = `${t("learnTitle")}: ${gameInfo ? pick(gameInfo.title) : GAME}`;
  document.title = `bodoge: ${t("learnTitle")}`;
  const select = document.getElementById("lesson-select");
  const chosen = lesson ? lesson.id : null;
  clear(select);
  for (const l of lessons) select.append(el("option", { value: l.id }, pick(l.title)));
  if (chosen) select.value = chosen;
  document.getElementById("lesson-pick").hidden = lessons.length < 2;
}

async function start() {
  setupLangSwitch();
  document.getElementById("rules-link").href = `/rules/${encodeURIComponent(GAME)}`;
  document.getElementById("back").addEventListener("click", () => { feedback = null; show(index - 1); });
  document.getElementById("next").addEventListener("click", () => { feedback = null; show(index + 1); });
  document.getElementById("restart").addEventListener("click", () => { feedback = null; show(0); });
  document.getElementById("practice").addEventListener("click", practice);
  document.getElementById("lesson-select").addEventListener("change", (e) => chooseLesson(e.target.value));
  onLangChange(() => { renderTitle(); if (lesson && view) render(); });
  try {
    const games = await api("/api/games");
    gameInfo = games.find((g) => g.name === GAME) || null;
    if (!gameInfo) {
      notice(t("learnNoGame"));
      return;
    }
    lessons = await api(`/api/games/${encodeURIComponent(GAME)}/lessons`);
    await loadBoard(GAME).catch((e) => console.warn(e.message)); // without one, the coach alone
  } catch (e) {
    notice(e.message);
    return;
  }
  renderTitle();
  if (!lessons.length) {
    notice(t("learnNoLessons"));
    return;
  }
  chooseLesson(new URLSearchParams(location.search).get("lesson"));
  renderTitle();
}

start();
