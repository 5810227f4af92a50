// bodoge web client: what the lobby and the table page share (DOM helpers, language, API calls).
// Plain JavaScript, no framework. Every text from the server is put in the page as text, never HTML.
"use strict";

const STRINGS = {
  en: {
    lobby: "Lobby",
    tagline: "Four Japanese tabletop games, played exactly by their rules.",
    games: "Games",
    newTable: "New table",
    game: "Game",
    players: "Players",
    options: "Options",
    seats: "Seats",
    seat: "Seat",
    human: "Person",
    bot: "Bot",
    name: "Name",
    create: "Create table",
    creating: "Creating…",
    created: "Table created",
    createdHelp: "Share each join link with the person who takes that seat; the link is the key to the seat. Anyone with the spectator link can watch.",
    joinLink: "Join link",
    playHere: "Play this seat here",
    copy: "Copy",
    copied: "Copied",
    spectatorLink: "Spectator link",
    openTables: "Tables in play",
    recentTables: "Finished tables",
    none: "None yet.",
    watch: "Watch",
    view: "View",
    moves: "moves",
    rules: "Rules",
    defaultValue: "default",
    you: "you",
    connected: "online",
    offline: "offline",
    toMove: "to move",
    spectating: "You are watching.",
    youAre: "You play",
    connecting: "Connecting…",
    live: "Live",
    reconnecting: "Connection lost; reconnecting…",
    noTable: "There is no such table.",
    yourDecision: "Your decision",
    waitingFor: "Waiting for",
    filter: "Filter actions",
    state: "What you see",
    log: "Log",
    result: "Result",
    winners: "Winner(s)",
    nobody: "nobody",
    score: "Score",
    download: "Download the game record (JSON)",
    gameOver: "The game is over.",
    lobbyLink: "← Lobby",
    move: "move",
    error: "Error",
    badToken: "This join link opens no seat here: you are watching.",
    current: "Now",
    replay: "Replay this game",
    replayTitle: "Replay",
    review: "Game review",
    reviewAsk: "Review this game",
    reviewRetry: "Ask again",
    reviewHelp: "The server values every decision of every seat from what that seat knew then: the win chance of each option, by playing the game on from many possible deals. It takes up to a minute, once; then everyone sees it.",
    reviewAbout: "Each decision valued from what its seat knew then: each option's win chance over {deals} possible deals, played on by the game's bot. Choose a point on the graph to go to that move.",
    reviewQueued: "Waiting for the server…",
    reviewRunning: "Reviewing: {done} of {total} decisions",
    reviewFailed: "The review failed:",
    reviewDecision: "This decision",
    reviewNoDecision: "No decision to review here.",
    reviewEnd: "The game is over.",
    reviewOptions: "Options, by win chance",
    reviewLoss: "Lost {points} points of win chance (between {low} and {high}) against the best: {best}.",
    reviewCounts: "?! / ? / ??",
    winChance: "Win chance",
    accuracy: "Accuracy",
    meanLoss: "Mean loss (points)",
    botAgreement: "As the bot",
    played: "played",
    bestMove: "best",
    prevMistake: "Previous mistake",
    nextMistake: "Next mistake",
    cls_best: "Best",
    cls_good: "Good",
    cls_inaccuracy: "Inaccuracy",
    cls_mistake: "Mistake",
    cls_blunder: "Blunder",
    cls_forced: "Only move",
    cls_unclear: "Unclear",
    cls_even: "Nothing to choose",
    moveN: "move {move}",
    reviewUnclear: "Unclear: lost between {low} and {high} points of win chance; the deals could not tell.",
    reviewEven: "Every option came out the same in every deal: nothing to judge.",
    optionDeals: "{n} deals",
    optionRange: "win chance {value} (95%: {low}–{high}), over {n} deals",
    biggestTitle: "Biggest mistake",
    biggestOne: "Move {move}: chose “{chosen}”; “{best}” was better. It lost {points} points of win chance (between {low} and {high}).",
    biggestNone: "No inaccuracy or worse among its {judged} judged decisions.",
    biggestNoneOne: "No inaccuracy or worse in its one judged decision.",
    biggestNoneJudged: "None of its decisions could be judged.",
    biggestJump: "Go to move {move}",
    judgedOf: "{judged}/{total} judged",
    accuracyHelp: "Accuracy: the share of the win chance at stake in its judged decisions that the seat kept (100: always the best). Judged: the decisions the deals could tell apart; only moves, unclear and even ones are not judged.",
    bandHelp: "Shaded: the win chance, 95% sure",
    allCards: "All cards shown",
    seatView: "As seen by",
    first: "First",
    prev: "Back",
    next: "Next",
    last: "Last",
    keys: "Keys: 1–9 pick an action, Esc cancels a choice.",
    play: "Play",
    pause: "Pause",
    speed: "Speed",
    replayUnfinished: "This game is still being played: its replay opens once it is over.",
    watchLive: "Watch it live",
    chat: "Chat",
  },
  ja: {
    lobby: "ロビー",
    tagline: "日本のボードゲーム4作を、ルールどおりに。",
    games: "ゲーム",
    newTable: "新しい卓",
    game: "ゲーム",
    players: "人数",
    options: "オプション",
    seats: "席",
    seat: "席",
    human: "人",
    bot: "ボット",
    name: "名前",
    create: "卓を作る",
    creating: "作成中…",
    created: "卓を作りました",
    createdHelp: "各席の参加リンクを、その席に座る人に送ってください。リンクが席の鍵です。観戦リンクは誰でも観戦できます。",
    joinLink: "参加リンク",
    playHere: "この席でここで遊ぶ",
    copy: "コピー",
    copied: "コピーしました",
    spectatorLink: "観戦リンク",
    openTables: "プレイ中の卓",
    recentTables: "終わった卓",
    none: "まだありません。",
    watch: "観戦",
    view: "見る",
    moves: "手",
    rules: "ルール",
    defaultValue: "既定値",
    you: "あなた",
    connected: "接続中",
    offline: "未接続",
    toMove: "手番",
    spectating: "観戦中です。",
    youAre: "あなたの席",
    connecting: "接続中…",
    live: "接続済み",
    reconnecting: "接続が切れました。再接続しています…",
    noTable: "その卓はありません。",
    yourDecision: "あなたの手番",
    waitingFor: "待っています：",
    filter: "行動を絞り込む",
    state: "見えている情報",
    log: "ログ",
    result: "結果",
    winners: "勝者",
    nobody: "なし",
    score: "得点",
    download: "棋譜をダウンロード (JSON)",
    gameOver: "ゲーム終了です。",
    lobbyLink: "← ロビー",
    move: "手目",
    error: "エラー",
    badToken: "この参加リンクで開ける席はありません。観戦します。",
    current: "現在",
    replay: "この対局を再生",
    replayTitle: "リプレイ",
    review: "対局の検討",
    reviewAsk: "この対局を検討する",
    reviewRetry: "もう一度頼む",
    reviewHelp: "サーバーが全員の全ての手を、その時その席に見えていた情報から評価します。ありうる配り方で何度も最後まで打ち進め、選択肢ごとの勝率を求めます。最大1分ほどかかり、一度できれば誰でも見られます。",
    reviewAbout: "各手を、その時その席に見えていた情報から評価：ありうる{deals}通りの配りでゲームのボットが打ち進めた、選択肢ごとの勝率です。グラフの点を選ぶとその手へ移ります。",
    reviewQueued: "サーバーの順番待ちです…",
    reviewRunning: "検討中：{total}手中{done}手",
    reviewFailed: "検討に失敗しました：",
    reviewDecision: "この手の検討",
    reviewNoDecision: "この局面に検討する手はありません。",
    reviewEnd: "ゲーム終了です。",
    reviewOptions: "選択肢（勝率順）",
    reviewLoss: "最善手（{best}）に比べ、勝率を{points}ポイント（{low}〜{high}）失いました。",
    reviewCounts: "?! / ? / ??",
    winChance: "勝率",
    accuracy: "精度",
    meanLoss: "平均損失（ポイント）",
    botAgreement: "ボットと一致",
    played: "実際の手",
    bestMove: "最善",
    prevMistake: "前の悪手",
    nextMistake: "次の悪手",
    cls_best: "最善",
    cls_good: "良い手",
    cls_inaccuracy: "疑問手",
    cls_mistake: "悪手",
    cls_blunder: "大悪手",
    cls_forced: "一手のみ",
    cls_unclear: "不明",
    cls_even: "どれでも同じ",
    moveN: "{move}手目",
    reviewUnclear: "不明：勝率を{low}〜{high}ポイント失ったかもしれません。配りを変えても判断がつきませんでした。",
    reviewEven: "どの選択肢も、すべての配りで同じ結果でした。判定するものはありません。",
    optionDeals: "配り{n}通り",
    optionRange: "勝率{value}（95%：{low}〜{high}）、{n}通りの配りで",
    biggestTitle: "いちばん大きなミス",
    biggestOne: "{move}手目：「{chosen}」を選びましたが、「{best}」の方が良い手でした。勝率を{points}ポイント（{low}〜{high}）失いました。",
    biggestNone: "判定できた{judged}手に、疑問手以上のミスはありません。",
    biggestNoneOne: "判定できた1手に、疑問手以上のミスはありません。",
    biggestNoneJudged: "判定できた手はありません。",
    biggestJump: "{move}手目へ",
    judgedOf: "判定 {judged}/{total}",
    accuracyHelp: "精度：判定した手で懸かっていた勝率のうち、その席が保った割合（100なら常に最善）。判定：配りで差がわかった手。一手のみ・不明・どれでも同じの手は判定しません。",
    bandHelp: "帯：勝率の95%区間",
    allCards: "全員の手を公開",
    seatView: "視点",
    first: "最初",
    prev: "戻る",
    next: "進む",
    last: "最後",
    keys: "キー：1〜9で行動を選択、Escで選択を取り消し。",
    play: "再生",
    pause: "一時停止",
    speed: "速さ",
    replayUnfinished: "この対局はまだ続いています。リプレイは終わってから見られます。",
    watchLive: "観戦する",
    chat: "チャット",
  },
};

// The bots as people read their names (a bot seat is named by its agent's spec unless renamed).
const BOT_NAMES = {
  random: { en: "Random bot", ja: "ランダムボット" },
  heuristic: { en: "Heuristic bot", ja: "定石ボット" },
  ismcts: { en: "Search bot", ja: "探索ボット" },
  nn: { en: "Trained bot", ja: "学習ボット" },
};
const BOT_ANY = { en: "Bot", ja: "ボット" }; // an agent the page has no words for (never its spec)

function botName(spec) {
  // A bot's kind in the page's language, from its agent's spec ("random" -> "Random bot").
  const known = BOT_NAMES[String(spec || "").split(":")[0]];
  return pick(known || BOT_ANY);
}

function nameKey(name) {
  // Names that read the same are one name ("Aki", "ａｋｉ ").
  return String(name).normalize("NFKC").toLowerCase().trim();
}

function seatNames(seats) {
  // Every seat's name as people read it, no two alike: a person's own name (P0 where they gave
  // none), a renamed bot's, else the bot's kind in words, with a letter where the table has more
  // than one of that kind or someone else goes by it ("Heuristic bot A", "定石ボットB"). The letters
  // follow the seats' order: a seat keeps its name through the game, its replay and the lists.
  const defaultBot = (s) => s && s.kind === "bot" && (!s.name || s.name === s.spec);
  const names = seats.map((s, p) => (defaultBot(s) ? null : s && s.name && s.name !== `P${p}` ? s.name : `P${p}`));
  const taken = new Set();
  names.forEach((name, p) => {
    if (name == null) return;
    if (taken.has(nameKey(name))) names[p] = `${name} (P${p})`; // two people of one name (never the server's)
    taken.add(nameKey(names[p]));
  });
  const kinds = {};
  seats.forEach((s) => {
    if (defaultBot(s)) kinds[botName(s.spec)] = (kinds[botName(s.spec)] || 0) + 1;
  });
  const next = {};
  seats.forEach((s, p) => {
    if (!defaultBot(s)) return;
    const kind = botName(s.spec);
    let name = kind;
    if (kinds[kind] > 1 || taken.has(nameKey(kind))) {
      do {
        const i = next[kind] || 0;
        next[kind] = i + 1;
        const letter = i < 26 ? String.fromCharCode(65 + i) : String(i + 1);
        name = LANG === "ja" ? `${kind}${letter}` : `${kind} ${letter}`;
      } while (taken.has(nameKey(name)));
    }
    taken.add(nameKey(name));
    names[p] = name;
  });
  return names;
}

function currentLang() {
  const saved = localStorage.getItem("bodoge.lang");
  if (saved === "en" || saved === "ja") return saved;
  return (navigator.language || "en").toLowerCase().startsWith("ja") ? "ja" : "en";
}

let LANG = currentLang();
const langListeners = [];

function t(key) {
  return (STRINGS[LANG] && STRINGS[LANG][key]) || STRINGS.en[key] || key;
}

// A translated template filled in: fmt("moveN", {move: 3}) -> "Move 3" ("{name}" takes fields.name).
function fmt(key, fields) {
  return t(key).replace(/\{(\w+)\}/g, (_, k) => String(fields[k]));
}

// A share (0 to 1) as a whole percentage: 0.456 -> "46%".
function percent(x) {
  return `${Math.round(x * 100)}%`;
}

function pick(texts) {
  // A {"en": ..., "ja": ...} text in the page's language.
  if (texts == null) return "";
  if (typeof texts === "string") return texts;
  return texts[LANG] || texts.en || Object.values(texts)[0] || "";
}

function applyStrings(root) {
  (root || document).querySelectorAll("[data-i18n]").forEach((node) => {
    node.textContent = t(node.dataset.i18n);
  });
  (root || document).querySelectorAll("[data-i18n-placeholder]").forEach((node) => {
    node.placeholder = t(node.dataset.i18nPlaceholder);
  });
  (root || document).querySelectorAll("[data-i18n-aria-label]").forEach((node) => {
    node.setAttribute("aria-label", t(node.dataset.i18nAriaLabel));
  });
  document.documentElement.lang = LANG;
}

function setLang(lang) {
  LANG = lang;
  localStorage.setItem("bodoge.lang", lang);
  applyStrings();
  langListeners.forEach((fn) => fn());
}

function onLangChange(fn) {
  langListeners.push(fn);
}

function setupLangSwitch() {
  document.querySelectorAll("[data-lang]").forEach((button) => {
    button.addEventListener("click", () => setLang(button.dataset.lang));
  });
  applyStrings();
}

// el("div", {class: "x", onclick: fn}, "text", child, ...): a DOM element; strings become text nodes.
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value == null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    // Styles through the CSSOM: the server's Content-Security-Policy refuses style attributes.
    else if (key === "style") for (const [name, v] of Object.entries(value)) node.style.setProperty(name, String(v));
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child == null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

// The page's notice line (#notice): the text shown, or the line hidden when there is none.
function notice(text) {
  const node = document.getElementById("notice");
  node.textContent = text || "";
  node.hidden = !text;
}

// A JSON request to the server; an answer that is not ok throws an Error with the server's `detail`
// as its message and the HTTP status as `status` (a 409 means a game still being played).
let gamesAsked = null; // GET /api/games, asked once per page: the page's scripts share the answer

async function api(path, options) {
  if (path === "/api/games" && !options) {
    if (!gamesAsked) {
      gamesAsked = fetchJson(path);
      gamesAsked.catch(() => {
        gamesAsked = null; // a failed ask is asked again
      });
    }
    return gamesAsked;
  }
  return fetchJson(path, options);
}

async function fetchJson(path, options) {
  const response = await fetch(path, options);
  let body = null;
  try {
    body = await response.json();
  } catch (e) {
    body = null;
  }
  if (!response.ok) {
    const detail = body && body.detail;
    const message = typeof detail === "string" ? detail : JSON.stringify(detail || response.statusText);
    const error = new Error(message);
    error.status = response.status;
    throw error;
  }
  return body;
}

function compact(value) {
  // A short one-line rendering of any JSON value.
  if (value == null) return "–";
  if (Array.isArray(value)) return "[" + value.map(compact).join(", ") + "]";
  if (typeof value === "object") {
    return Object.entries(value)
      .map(([k, v]) => k + "=" + compact(v))
      .join(", ");
  }
  return String(value);
}

function eventText(event) {
  // A log event: its own "text" where the game gives one (in Japanese its "text_ja" when it has one),
  // else a compact rendering of its fields.
  if (event && LANG === "ja" && typeof event.text_ja === "string" && event.text_ja) return event.text_ja;
  if (event && typeof event.text === "string") return event.text;
  if (event && typeof event.text === "object" && event.text) return pick(event.text);
  const rest = Object.assign({}, event);
  const type = rest.type;
  delete rest.type;
  return (type ? type + ": " : "") + compact(rest);
}

function decisionText(view) {
  // What the view is waiting for: its "decision", in Japanese its "decision_ja" when it has one.
  if (!view) return "";
  if (LANG === "ja" && typeof view.decision_ja === "string" && view.decision_ja) return view.decision_ja;
  return view.decision || "";
}
