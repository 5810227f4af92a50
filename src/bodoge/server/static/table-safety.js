// Muting and reporting at the table (server/safety.py). A line of someone else's chat has a small
// menu: Mute hides that person's lines on your pages (an identified player's, wherever you are this
// player; anyone else's, at this table in this browser); Report sends the line to the server's
// operator, who reads the words as the table stored them. Uses identity.js (`bodogeIdentity`).
"use strict";

Object.assign(STRINGS.en, {
  chatMore: "More for this line",
  chatMute: "Mute {name}",
  chatUnmute: "Unmute {name}",
  chatReport: "Report this line",
  chatReportAsk: "Why do you report this line? (optional)",
  chatReported: "Reported. Thank you: the server's operator will read it.",
  chatReportNeedsName: "Choose a name in the lobby to report a line.",
  chatHiddenN: "{n} lines hidden (muted)",
});
Object.assign(STRINGS.ja, {
  chatMore: "この発言の操作",
  chatMute: "{name}をミュート",
  chatUnmute: "{name}のミュートを解除",
  chatReport: "この発言を報告",
  chatReportAsk: "報告する理由（任意）",
  chatReported: "報告しました。サーバーの運営者が確認します。",
  chatReportNeedsName: "報告するにはロビーで名前を決めてください。",
  chatHiddenN: "{n}件の発言を非表示（ミュート中）",
});

const chatSafety = (() => {
  const muted = new Set(); // "p:<player id>" or "s:<seat>" (a person without a player, this table only)
  const LOCAL = () => `bodoge.muted.${typeof TABLE_ID === "string" ? TABLE_ID : ""}`;
  let note = "";

  function keyOf(lineSeat) {
    const info = table && table.seats ? table.seats[lineSeat] : null;
    return info && info.player ? `p:${info.player}` : `s:${lineSeat}`;
  }

  function hidden(line) {
    return line.seat !== seat && muted.has(keyOf(line.seat));
  }

  function loadLocal() {
    try {
      JSON.parse(localStorage.getItem(LOCAL()) || "[]").forEach((k) => muted.add(k));
    } catch (e) {
      localStorage.removeItem(LOCAL());
    }
  }

  function saveLocal() {
    const local = [...muted].filter((k) => k.startsWith("s:"));
    localStorage.setItem(LOCAL(), JSON.stringify(local));
  }

  async function loadServer() {
    const me = await bodogeIdentity.ready;
    if (!me) return;
    try {
      const answer = await fetchJson("/api/me/mutes", { headers: bodogeIdentity.headers() });
      answer.muted.forEach((p) => muted.add(`p:${p.id}`));
      renderChat();
    } catch (e) {
      /* the chat shows everything until the list comes */
    }
  }

  async function toggle(lineSeat) {
    const k = keyOf(lineSeat);
    const on = !muted.has(k);
    if (k.startsWith("p:") && bodogeIdentity.player()) {
      const path = `/api/me/mutes/${encodeURIComponent(k.slice(2))}`;
      await fetchJson(path, { method: on ? "PUT" : "DELETE", headers: bodogeIdentity.headers() }).catch(() => null);
    }
    if (on) muted.add(k);
    else muted.delete(k);
    saveLocal();
    renderChat();
  }

  async function report(line) {
    if (!bodogeIdentity.player()) {
      note = t("chatReportNeedsName");
      renderChat();
      return;
    }
    const reason = window.prompt(t("chatReportAsk"), "");
    if (reason === null) return;
    try {
      await fetchJson("/api/reports", {
        method: "POST",
        headers: bodogeIdentity.headers({ "Content-Type": "application/json" }),
        body: JSON.stringify({ table: TABLE_ID, line: line.n, reason: reason.slice(0, 300) }),
      });
      note = t("chatReported");
    } catch (error) {
      note = error.message;
    }
    renderChat();
  }

  // The menu of another's line: a details element, so that it opens by keyboard as by touch.
  function actions(line) {
    if (line.seat === seat) return null;
    const name = line.name;
    const menu = el("details", { class: "chat-more" });
    menu.append(el("summary", { "aria-label": t("chatMore"), title: t("chatMore") }, "⋯"));
    const mute = el("button", { type: "button", class: "link" }, fmt(muted.has(keyOf(line.seat)) ? "chatUnmute" : "chatMute", { name }));
    mute.addEventListener("click", () => toggle(line.seat));
    const send = el("button", { type: "button", class: "link" }, t("chatReport"));
    send.addEventListener("click", () => report(line));
    menu.append(el("span", { class: "chat-more-items" }, mute, send));
    return menu;
  }

  // Below the lines: how many are hidden, and the answer to a report.
  function footer(lines) {
    const count = lines.filter(hidden).length;
    const parts = [];
    if (count) parts.push(el("li", { class: "muted small" }, fmt("chatHiddenN", { n: count })));
    if (note) parts.push(el("li", { class: "muted small", role: "status" }, note));
    return parts;
  }

  loadLocal();
  loadServer();
  return { hidden, actions, footer };
})();
