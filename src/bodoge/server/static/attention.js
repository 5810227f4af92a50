// Telling a player it is their move when they are not looking (a game over days: server/longplay.py).
// The page's title says it always (the table page's "▶ Your turn", the page /me's "(2) Your move"); a
// browser notification says it too once the player allowed them, asked for only by a click on the
// button drawn here: this page never asks by itself. A notification is shown only while the page is
// hidden or not in focus (the page itself tells someone looking at it).
// Used by the table page (loaded after table.js: it watches the title table.js sets) and by /me.
"use strict";

Object.assign(STRINGS.en, {
  attAsk: "Notify me of my move",
  attAskHelp: "Your browser asks once; the notification comes when it is your move and this page is not in front.",
  attOn: "Notifications on",
  attBlocked: "Notifications are blocked in this browser's settings for this site",
  attYourMove: "Your move",
  attAt: "{game}: it is your move",
  unitD: "{n} d",
  unitH: "{n} h",
  unitM: "{n} min",
  unitS: "{n} s",
});
Object.assign(STRINGS.ja, {
  attAsk: "自分の番を通知する",
  attAskHelp: "ブラウザーが一度だけ確認します。あなたの番になり、このページが前面にないときに通知します。",
  attOn: "通知オン",
  attBlocked: "このサイトの通知はブラウザーの設定で止められています",
  attYourMove: "あなたの番",
  attAt: "{game}：あなたの番です",
  unitD: "{n}日",
  unitH: "{n}時間",
  unitM: "{n}分",
  unitS: "{n}秒",
});

function durationText(seconds) {
  // A long time in its two largest units: "2 d 3 h", "5 h 12 min", "40 s" (a clock over days).
  const s = Math.max(0, Math.ceil(seconds - 0.001));
  const parts = [
    ["unitD", Math.floor(s / 86400)],
    ["unitH", Math.floor((s % 86400) / 3600)],
    ["unitM", Math.floor((s % 3600) / 60)],
    ["unitS", s % 60],
  ];
  const first = parts.findIndex(([, n]) => n > 0);
  if (first < 0) return fmt("unitS", { n: 0 });
  return parts
    .slice(first, first + 2)
    .filter(([, n]) => n > 0)
    .map(([key, n]) => fmt(key, { n }))
    .join(LANG === "ja" ? "" : " ");
}

const bodogeAttention = (() => {
  const supported = typeof window.Notification === "function";

  function permission() {
    return supported ? Notification.permission : "unsupported";
  }

  function away() {
    return document.hidden || !document.hasFocus();
  }

  // A notification, if allowed and nobody is looking; `tag` makes a newer one replace an older one
  // of the same table. Clicking it brings the page (and `url`, if given) to the front.
  function notify(title, body, tag, url) {
    if (permission() !== "granted" || !away()) return null;
    let shown = null;
    try {
      shown = new Notification(title, { body, tag, icon: "/static/favicon.svg" });
    } catch (error) {
      return null; // some browsers allow notifications only from a service worker: the title says it
    }
    shown.onclick = () => {
      window.focus();
      if (url && location.pathname + location.hash !== url) location.href = url;
      shown.close();
    };
    return shown;
  }

  // The button that asks for the permission (on a click only), or what the browser answered.
  function control(box) {
    if (!box) return;
    const draw = () => {
      box.replaceChildren();
      const state = permission();
      if (state === "unsupported") return;
      if (state === "granted") {
        box.append(el("span", { class: "attention-on small" }, t("attOn")));
      } else if (state === "denied") {
        box.append(el("span", { class: "attention-off small" }, t("attBlocked")));
      } else {
        const ask = el("button", { type: "button", class: "attention-ask", title: t("attAskHelp") }, t("attAsk"));
        ask.addEventListener("click", async () => {
          ask.disabled = true;
          try {
            await Notification.requestPermission();
          } finally {
            draw();
          }
        });
        box.append(ask);
      }
    };
    draw();
    onLangChange(draw);
  }

  // The table page: table.js sets the title (▶ while it is our decision); a decision that becomes ours
  // while the page is not in front is notified, once per move.
  function watchTablePage() {
    const titleNode = document.querySelector("title");
    if (!titleNode || !document.getElementById("board-prompt")) return;
    let ours = document.title.startsWith("▶");
    new MutationObserver(() => {
      const now = document.title.startsWith("▶");
      if (now && !ours) {
        const game = (document.getElementById("title") || {}).textContent || "bodoge";
        notify(t("attYourMove"), fmt("attAt", { game }), `bodoge-table-${location.pathname}`);
      }
      ours = now;
    }).observe(titleNode, { childList: true, characterData: true, subtree: true });
    const header = document.querySelector("header.top");
    if (header && permission() === "default") {
      const box = el("span", { class: "attention" });
      header.insertBefore(box, header.querySelector(".langs"));
      control(box);
    }
  }

  watchTablePage();
  return { notify, control, permission, away };
})();
window.bodogeAttention = bodogeAttention;
