// What the profile (/p/ID) and the leaderboards (/leaderboard) share: their words, how a rating is
// written, and the plot of a rating over a player's games (an inline SVG drawn here). The rules behind
// the numbers are server/ratings.py's (docs/playing.md, "Ratings").
"use strict";

Object.assign(STRINGS.en, {
  leaderboards: "Leaderboards",
  ratingsTitle: "Ratings",
  gamesTitle: "Games played",
  noRatings: "No rated game yet: a finished game with at least one other player who has a name here is rated.",
  noGames: "No finished game yet.",
  moreGames: "The newest {n} games.",
  since: "Playing here since {date}.",
  noPlayer: "There is no such player here (or they deleted themselves; their games stay in the others' lists).",
  loadFailed: "This could not be loaded:",
  rating: "Rating",
  rank: "#",
  player: "Player",
  skillRange: "Skill likely between",
  ratedGames: "Rated games",
  ratedGamesN: "{n} rated games",
  ratedGames1: "1 rated game",
  range: "skill likely {low} – {high}",
  ratingMeans:
    "A rating is a skill estimate μ and its uncertainty σ (openskill, Plackett–Luce). The number shown is μ − 3σ: a skill the player very likely has at least. It starts at 0, rises with good places and as the games firm the estimate up. Each game has its own.",
  anchorsMean:
    "Bots play at fixed ratings (shown in grey for scale): a game against them counts, but never moves theirs. A seat played mostly by the stand-in bot counts as that bot's, not its person's; abandoned games are not rated.",
  boardEmpty: "Nobody has a rated game of this game yet.",
  fixed: "fixed",
  place: "{place} of {players}",
  playersN: "{n} players",
  counted_rated: "rated",
  counted_standin: "the stand-in played most of it: not counted",
  counted_unrated: "not rated",
  replayLink: "Replay",
  reviewLink: "Review",
  plotLabel: "{game}: the rating after each of {n} games, from {first} to {last}",
  plotStart: "start",
  plotLegendLine: "rating (μ − 3σ)",
  plotLegendBand: "μ ± 2σ",
  gameN: "game {n}",
  pointTitle: "after game {n} ({date}): {rating}, {place}",
  with: "with",
});
Object.assign(STRINGS.ja, {
  leaderboards: "ランキング",
  ratingsTitle: "レーティング",
  gamesTitle: "対戦の記録",
  noRatings: "レーティング対象の対戦はまだありません。名前のある他のプレイヤーと最後まで遊んだ対戦がレーティングされます。",
  noGames: "終わった対戦はまだありません。",
  moreGames: "新しい {n} 対戦を表示しています。",
  since: "{date} から参加。",
  noPlayer: "そのプレイヤーはいません（削除したプレイヤーかもしれません。その対戦は他の人の記録に残ります）。",
  loadFailed: "読み込めませんでした：",
  rating: "レーティング",
  rank: "順位",
  player: "プレイヤー",
  skillRange: "実力の範囲",
  ratedGames: "対戦数",
  ratedGamesN: "レーティング対戦 {n} 回",
  ratedGames1: "レーティング対戦 1 回",
  range: "実力はおそらく {low} – {high}",
  ratingMeans:
    "レーティングは実力の推定値 μ とその不確かさ σ です（openskill の Plackett–Luce）。表示する数値は μ − 3σ：そのプレイヤーがほぼ確実に持っている実力です。0 から始まり、良い順位を取るほど、また対戦を重ねて推定が固まるほど上がります。ゲームごとに別々です。",
  anchorsMean:
    "ボットは固定のレーティングで遊びます（目安として灰色で表示）。ボットとの対戦も数えますが、ボットの値は変わりません。代理ボットが半分より多く打った席はその人ではなく代理ボットの対戦として扱い、放棄された対戦はレーティングしません。",
  boardEmpty: "このゲームのレーティング対戦はまだありません。",
  fixed: "固定",
  place: "{players}人中 {place}",
  playersN: "{n}人",
  counted_rated: "レーティング対象",
  counted_standin: "代理ボットが大半を打ったため数えません",
  counted_unrated: "レーティング対象外",
  replayLink: "リプレイ",
  reviewLink: "検討",
  plotLabel: "{game}：{n} 回の対戦ごとのレーティング（{first} から {last}）",
  plotStart: "開始",
  plotLegendLine: "レーティング（μ − 3σ）",
  plotLegendBand: "μ ± 2σ",
  gameN: "{n} 戦目",
  pointTitle: "{n} 戦目のあと（{date}）：{rating}、{place}",
  with: "対戦相手",
});

// A rating as written: one decimal, a real minus sign.
function ratingText(x) {
  const text = Math.abs(x).toFixed(1);
  return x < -0.05 ? `−${text}` : text;
}

// A change of rating: +1.2 / −0.8.
function changeText(x) {
  return `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(1)}`;
}

// A place as people say it: "1st", "3rd" / "1位".
function placeText(place) {
  if (LANG === "ja") return `${place}位`;
  const tens = place % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[place % 10] || "th";
  return `${place}${suffix}`;
}

function dateText(at) {
  return new Date(at * 1000).toLocaleDateString(LANG === "ja" ? "ja-JP" : "en-GB", {
    year: "numeric",
    month: "short",
    day: "numeric",
  });
}

// When a game ended, to the minute: several games of one day stay apart.
function whenText(at) {
  return new Date(at * 1000).toLocaleString(LANG === "ja" ? "ja-JP" : "en-GB", {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  });
}

function ratedGamesText(n) {
  return n === 1 ? t("ratedGames1") : fmt("ratedGamesN", { n });
}

// The scale of every rating: the bots' fixed ratings ({bot, mu, sigma, ordinal}, the plot's reference
// lines) and a newcomer's (the plot's start), as a leaderboard answers them. Asked once per page.
let scaleAsked = null;
function ratingScale(game) {
  if (!scaleAsked) {
    scaleAsked = api(`/api/leaderboard/${encodeURIComponent(game)}?limit=1`).then((b) => ({
      anchors: b.anchors,
      newcomer: b.newcomer,
    }));
  }
  return scaleAsked;
}

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

// Round steps for an axis: about `count` ticks over [lo, hi].
function ticks(lo, hi, count) {
  const raw = (hi - lo) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw || 1));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) || 10 * power;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(Math.round(v / step) * step);
  return out;
}

// The plot of one game's rating over the player's rated games: the rating (μ − 3σ) as a line with a
// point per game (a link to its replay), the range μ ± 2σ as a band, the start (a newcomer: μ 25,
// σ 25/3) as game 0, and the bots' fixed ratings as dashed lines for scale. `width`: the room it has
// on the page, in CSS pixels: the drawing is made for it, so that its words keep their size on a phone.
function ratingPlot(title, points, anchors, newcomer, width) {
  const W = Math.max(300, Math.min(760, Math.round(width || 640)));
  const H = W < 480 ? 200 : 240;
  const M = { left: 40, right: 48, top: 12, bottom: 30 };
  const series = [{ mu: newcomer.mu, sigma: newcomer.sigma, ordinal: newcomer.ordinal, start: true }, ...points];
  const lows = series.map((p) => Math.min(p.ordinal, p.mu - 2 * p.sigma));
  const highs = series.map((p) => p.mu + 2 * p.sigma);
  const shown = anchors.filter((a) => a.bot === "random" || a.bot === "heuristic");
  let lo = Math.min(...lows, ...shown.map((a) => a.ordinal));
  let hi = Math.max(...highs, ...shown.map((a) => a.ordinal));
  const pad = (hi - lo) * 0.06 || 1;
  lo -= pad;
  hi += pad;
  const n = series.length - 1;
  const x = (i) => M.left + (n === 0 ? 0 : (i / n) * (W - M.left - M.right));
  const y = (v) => M.top + (1 - (v - lo) / (hi - lo)) * (H - M.top - M.bottom);
  const last = series[series.length - 1];
  const root = svg("svg", {
    viewBox: `0 0 ${W} ${H}`,
    class: "rating-plot",
    role: "img",
    "aria-label": fmt("plotLabel", { game: title, n, first: ratingText(0), last: ratingText(last.ordinal) }),
  });
  const grid = svg("g", { class: "grid" });
  for (const v of ticks(lo, hi, 5)) {
    grid.append(svg("line", { x1: M.left, x2: W - M.right, y1: y(v), y2: y(v) }));
    grid.append(svg("text", { x: M.left - 6, y: y(v) + 4, "text-anchor": "end" }, ratingText(v)));
  }
  const step = Math.max(1, Math.ceil(n / 8));
  for (let i = 0; i <= n; i += step) {
    grid.append(svg("text", { x: x(i), y: H - M.bottom + 16, "text-anchor": "middle" }, i === 0 ? t("plotStart") : String(i)));
  }
  root.append(grid);
  for (const a of shown) {
    root.append(svg("line", { class: "anchor", x1: M.left, x2: W - M.right, y1: y(a.ordinal), y2: y(a.ordinal) }));
    // Named above its line at the right end, where the player's line seldom is (it starts at 0, below).
    root.append(svg("text", { class: "anchor-label", x: W - M.right - 4, y: y(a.ordinal) - 5, "text-anchor": "end" }, botName(a.bot)));
  }
  const upper = series.map((p, i) => `${x(i)},${y(p.mu + 2 * p.sigma)}`);
  const lower = series.map((p, i) => `${x(i)},${y(p.mu - 2 * p.sigma)}`).reverse();
  root.append(svg("polygon", { class: "band", points: [...upper, ...lower].join(" ") }));
  root.append(svg("polyline", { class: "line", points: series.map((p, i) => `${x(i)},${y(p.ordinal)}`).join(" ") }));
  series.forEach((p, i) => {
    if (p.start) {
      root.append(svg("circle", { class: "point start", cx: x(i), cy: y(p.ordinal), r: 3.5 }));
      return;
    }
    const label = fmt("pointTitle", {
      n: i,
      date: dateText(p.at),
      rating: ratingText(p.ordinal),
      place: fmt("place", { place: placeText(p.place), players: p.players }),
    });
    const link = svg("a", { href: `/r/${encodeURIComponent(p.table)}`, "aria-label": label });
    link.append(svg("circle", { class: `point place-${Math.min(p.place, 4)}`, cx: x(i), cy: y(p.ordinal), r: 5 }, svg("title", {}, label)));
    root.append(link);
  });
  root.append(
    svg("text", { class: "last-label", x: x(n) + 8, y: y(last.ordinal) + 4 }, ratingText(last.ordinal)),
  );
  const legend = el(
    "p",
    { class: "plot-legend small" },
    el("span", { class: "key key-line" }),
    t("plotLegendLine"),
    el("span", { class: "key key-band" }),
    t("plotLegendBand"),
  );
  return el("figure", { class: "plot" }, root, legend);
}
