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

async function api(path, options) {
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
    throw new Error(message);
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
