// The table's log (the game's events with the table's story among them) and the raw view, drawn
// generically for developers (?debug) and for a game without a board. Uses table.js's state.
"use strict";

function isPrimitive(v) {
  return v == null || typeof v !== "object";
}

function primitiveText(v) {
  if (v == null) return "–";
  if (typeof v === "boolean") return v ? "✓" : "✗";
  return String(v);
}

// Render any JSON value of a view, generically: lists as chips or numbered items, small records on
// one line, larger objects as key/value lists. (The page does not guess what a list means.)
function renderValue(value, depth) {
  if (isPrimitive(value)) return el("span", { class: value == null ? "muted" : "" }, primitiveText(value));
  if (Array.isArray(value)) {
    if (value.length === 0) return el("span", { class: "muted" }, "∅");
    if (value.every(isPrimitive)) {
      return el(
        "span",
        { class: "chips" },
        value.map((v) => el("span", { class: "chip" }, primitiveText(v))),
      );
    }
    return el(
      "ol",
      { class: "items" },
      value.map((v, i) => el("li", {}, el("span", { class: "idx" }, `#${i}`), renderValue(v, depth + 1))),
    );
  }
  const entries = Object.entries(value);
  if (entries.length && entries.every(([, v]) => isPrimitive(v))) {
    // A small record: one line, "key value · key value".
    return el(
      "span",
      { class: "record" },
      entries.map(([k, v], i) => [i ? " · " : "", el("span", { class: "key" }, k.replace(/_/g, " ")), " ", primitiveText(v)]),
    );
  }
  return el(
    "dl",
    { class: "obj" },
    entries.map(([k, v]) => [el("dt", {}, k.replace(/_/g, " ")), el("dd", {}, renderValue(v, depth + 1))]),
  );
}

function renderView() {
  const box = clear(document.getElementById("view"));
  if (!view || document.getElementById("state-box").hidden) return;
  const rest = {};
  for (const [key, value] of Object.entries(view)) if (!OWN_PLACES.has(key)) rest[key] = value;
  box.append(renderValue(rest, 0));
  const options = view.options || {};
  if (Object.keys(options).length) {
    box.append(
      el("details", { class: "muted small" }, el("summary", {}, t("options")), el("div", {}, renderValue(options, 0))),
    );
  }
  box.append(el("p", { class: "muted small" }, `${t("move")}: ${seq}`));
}

function storyText(entry) {
  // A table event (the server's `story`: who left, came back, joined the new table) in words.
  const key = entry.what === "away" ? `story_away_${entry.why === "time" ? "time" : "gone"}` : `story_${entry.what}`;
  return STRINGS.en[key] ? t(key).replace("{name}", personName(entry.seat)) : "";
}

function logItems() {
  // The game's log with the table's story among its lines, in order: a story entry comes after the
  // lines this seat's log had when it happened. Keys tell the lines apart (to append only what is new).
  const events = (view && view.log) || [];
  const story = ((table && table.story) || []).filter((entry) => storyText(entry));
  const column = seat == null ? (table ? table.seats.length : 0) : seat;
  const items = [];
  let k = 0;
  const storyUpTo = (n) => {
    while (k < story.length && ((story[k].log || [])[column] || 0) <= n) {
      items.push({ key: `s${story[k].n}`, story: story[k] });
      k += 1;
    }
  };
  for (let i = 0; i < events.length; i += 1) {
    storyUpTo(i);
    items.push({ key: `g${i}`, event: events[i] });
  }
  storyUpTo(Infinity);
  return items;
}

function renderLog() {
  // Appends what is new (a long game's log is thousands of lines); redrawn whole only when the
  // language changes or an earlier line changed (the log was replaced, a story entry came late).
  const box = document.getElementById("log");
  const items = logItems();
  const nearBottom = box.scrollTop + box.clientHeight >= box.scrollHeight - 40;
  let fresh = box.children.length > 0; // a redraw shows the log as it is; new lines light up
  const shown = Array.from(box.children, (li) => li.dataset.key);
  const prefix = shown.length <= items.length && shown.every((key, i) => items[i].key === key);
  let stick = nearBottom || !shown.length;
  if (box.dataset.lang !== LANG || box.dataset.names !== namesOf(table) || !prefix) {
    clear(box);
    box.dataset.lang = LANG;
    box.dataset.names = namesOf(table);
    fresh = false;
    stick = true; // drawn again: it shows its newest lines
  }
  const first = box.children.length;
  for (let i = first; i < items.length; i += 1) {
    // Several moves at once (bots in a row): they light up one after another, in order.
    const style = fresh ? { "animation-delay": `${Math.min(i - first, 8) * 0.35}s` } : null;
    const item = items[i];
    const classes = [fresh ? "fresh" : "", item.story ? "story" : ""].join(" ").trim() || null;
    const text = item.story ? storyText(item.story) : named(eventText(item.event), false);
    box.append(el("li", { class: classes, style, dataset: { key: item.key } }, text));
  }
  if (stick) box.scrollTop = box.scrollHeight;
}
