// Who you are here (server/players.py): a name chosen once, and the key the server gave for it, kept
// in this browser (localStorage "bodoge.key"). The key is the player: the recovery link carries it
// (`/me#key=…`), and opening that link in another browser makes it this player there too.
// Other scripts use `bodogeIdentity`: its `headers()` for requests that need the player, `ready` for
// the player (null for none), `onChange(fn)` to hear of a new name, a deletion or another key.
"use strict";

Object.assign(STRINGS.en, {
  idPlayAs: "Your name",
  idChoose: "Choose a name",
  idChooseHelp: "Pick a name to join open tables, get a rating and see your tables in one place. No e-mail, no password.",
  idNamePlaceholder: "Your name",
  idSave: "Save",
  idCancel: "Cancel",
  idKeep: "Keep this link: it is your key. Open it in another browser to be {name} there too. Anyone who has it can play as you.",
  idLink: "Your recovery link",
  idCopy: "Copy",
  idCopied: "Copied",
  idDone: "I have kept it",
  idYourTables: "Your tables",
  idProfile: "Profile",
  idRename: "Change name",
  idShowLink: "Recovery link",
  idDelete: "Delete me",
  idDeleteAsk: "Delete {name}? Your key stops working at once; your games stay, as played by \"a former player\". This cannot be undone.",
  idSignedIn: "You are {name}",
  idRecovered: "Welcome back, {name}: this browser now keeps your key.",
  idLostKey: "This browser's key opens no player any more (deleted?). Choose a name to play again.",
  idMenu: "Your player",
});
Object.assign(STRINGS.ja, {
  idPlayAs: "あなたの名前",
  idChoose: "名前を決める",
  idChooseHelp: "名前を決めると、空いている卓に座れて、レーティングがつき、自分の卓を一か所で見られます。メールもパスワードも要りません。",
  idNamePlaceholder: "あなたの名前",
  idSave: "保存",
  idCancel: "やめる",
  idKeep: "このリンクを保管してください。これがあなたの鍵です。別のブラウザーで開くと、そこでも{name}として遊べます。このリンクを持つ人は誰でもあなたとして遊べます。",
  idLink: "復元用リンク",
  idCopy: "コピー",
  idCopied: "コピーしました",
  idDone: "保管しました",
  idYourTables: "あなたの卓",
  idProfile: "プロフィール",
  idRename: "名前を変える",
  idShowLink: "復元用リンク",
  idDelete: "退会する",
  idDeleteAsk: "{name}を削除しますか？鍵はすぐに使えなくなります。対局は「元プレイヤー」の対局として残ります。元には戻せません。",
  idSignedIn: "{name}として参加中",
  idRecovered: "おかえりなさい、{name}さん。このブラウザーにあなたの鍵を保存しました。",
  idLostKey: "このブラウザーの鍵はもう使えません（削除済み？）。もう一度遊ぶには名前を決めてください。",
  idMenu: "あなたのプレイヤー",
});

const bodogeIdentity = (() => {
  const STORE = "bodoge.key";
  const listeners = [];
  let player = null;
  let note = null; // a one-time message: recovered, or a lost key

  function key() {
    return localStorage.getItem(STORE);
  }

  function headers(extra) {
    const k = key();
    return Object.assign({}, extra || {}, k ? { Authorization: `Bearer ${k}` } : {});
  }

  function recoveryUrl() {
    const k = key();
    return k ? `${location.origin}/me#key=${encodeURIComponent(k)}` : "";
  }

  function changed() {
    listeners.forEach((fn) => fn(player));
    draw();
  }

  // A key in the address (the recovery link) is taken into this browser and taken out of the address,
  // so that it is not left in the history or shared by copying the address bar.
  function takeKeyFromAddress() {
    const match = /(?:^#|&)key=([^&]+)/.exec(location.hash);
    if (!match) return false;
    localStorage.setItem(STORE, decodeURIComponent(match[1]));
    history.replaceState(null, "", location.pathname + location.search);
    return true;
  }

  async function load() {
    const recovered = takeKeyFromAddress();
    if (!key()) return null;
    try {
      const answer = await fetchJson("/api/me", { headers: headers() });
      player = answer.player;
      if (recovered) note = fmt("idRecovered", { name: player.name });
    } catch (error) {
      if (error.status === 401) {
        localStorage.removeItem(STORE);
        note = t("idLostKey");
      }
      player = null;
    }
    return player;
  }

  async function signUp(name) {
    const answer = await fetchJson("/api/players", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name, lang: LANG }),
    });
    localStorage.setItem(STORE, answer.key);
    player = answer.player;
    showLink = true;
    changed();
    return player;
  }

  async function rename(name) {
    const answer = await fetchJson("/api/me", {
      method: "PATCH",
      headers: headers({ "Content-Type": "application/json" }),
      body: JSON.stringify({ name }),
    });
    player = answer.player;
    changed();
  }

  async function remove() {
    await fetchJson("/api/me", { method: "DELETE", headers: headers() }).catch((error) => {
      if (error.status !== 401) throw error;
    });
    localStorage.removeItem(STORE);
    player = null;
    changed();
  }

  // -- the panel in the page's header --------------------------------------------------------
  let showLink = false;
  let editing = false;
  let panel = null;

  function linkBox() {
    const box = el("div", { class: "id-link", role: "group", "aria-label": t("idLink") });
    box.append(el("p", { class: "small" }, fmt("idKeep", { name: player.name })));
    const field = el("input", { type: "text", readonly: "", value: recoveryUrl(), "aria-label": t("idLink") });
    const copy = el("button", { type: "button" }, t("idCopy"));
    copy.addEventListener("click", async () => {
      field.select();
      try {
        await navigator.clipboard.writeText(field.value);
      } catch (e) {
        document.execCommand("copy");
      }
      copy.textContent = t("idCopied");
    });
    const done = el("button", { type: "button", class: "secondary" }, t("idDone"));
    done.addEventListener("click", () => {
      showLink = false;
      draw();
    });
    box.append(el("div", { class: "row" }, field, copy, done));
    return box;
  }

  function nameForm(submitLabel, onName) {
    const form = el("form", { class: "id-form", autocomplete: "off" });
    const input = el("input", {
      type: "text",
      maxlength: "40",
      required: "",
      placeholder: t("idNamePlaceholder"),
      "aria-label": t("idPlayAs"),
      value: player ? player.name : "",
    });
    const problem = el("p", { class: "error small", role: "alert" });
    const cancel = el("button", { type: "button", class: "secondary" }, t("idCancel"));
    cancel.addEventListener("click", () => {
      editing = false;
      draw();
    });
    form.append(el("div", { class: "row" }, input, el("button", { type: "submit" }, submitLabel), cancel), problem);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      problem.textContent = "";
      try {
        await onName(input.value);
        editing = false;
        draw();
      } catch (error) {
        problem.textContent = error.message;
        input.focus();
      }
    });
    setTimeout(() => input.focus(), 0);
    return form;
  }

  function draw() {
    if (!panel) return;
    panel.replaceChildren();
    if (note) {
      panel.append(el("p", { class: "small id-note", role: "status" }, note));
    }
    if (!player) {
      if (editing) {
        panel.append(el("p", { class: "small muted" }, t("idChooseHelp")), nameForm(t("idSave"), signUp));
      } else {
        const choose = el("button", { type: "button", class: "id-choose" }, t("idChoose"));
        choose.addEventListener("click", () => {
          editing = true;
          note = null;
          draw();
        });
        panel.append(choose);
      }
      return;
    }
    if (editing) {
      panel.append(nameForm(t("idSave"), rename));
      return;
    }
    const menu = el("details", { class: "id-menu" });
    menu.append(el("summary", { "aria-label": t("idMenu") }, fmt("idSignedIn", { name: player.name })));
    const items = el("div", { class: "id-items" });
    items.append(
      el("a", { href: "/me" }, t("idYourTables")),
      el("a", { href: `/p/${encodeURIComponent(player.id)}` }, t("idProfile")),
    );
    const renameButton = el("button", { type: "button", class: "link" }, t("idRename"));
    renameButton.addEventListener("click", () => {
      editing = true;
      draw();
    });
    const linkButton = el("button", { type: "button", class: "link" }, t("idShowLink"));
    linkButton.addEventListener("click", () => {
      showLink = true;
      draw();
    });
    const deleteButton = el("button", { type: "button", class: "link danger" }, t("idDelete"));
    deleteButton.addEventListener("click", async () => {
      if (!window.confirm(fmt("idDeleteAsk", { name: player.name }))) return;
      await remove();
    });
    items.append(renameButton, linkButton, deleteButton);
    menu.append(items);
    panel.append(menu);
    if (showLink) panel.append(linkBox());
  }

  // The panel goes where a page has room for it (`<div id="identity" class="identity">`); a page
  // without that slot (the table) still knows its player, for its requests.
  function mount() {
    panel = document.getElementById("identity");
    draw();
  }

  const ready = load();
  ready.then(() => {
    mount();
    onLangChange(draw);
  });

  return {
    key,
    headers,
    ready,
    recoveryUrl,
    signUp,
    onChange: (fn) => listeners.push(fn),
    player: () => player,
  };
})();
window.bodogeIdentity = bodogeIdentity;
