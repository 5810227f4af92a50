"""Tottarot texts: names and terms in Japanese and English, action-text helpers, the terminal board and
the rules summary for `bodoge rules`."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bodoge.games.tottarot.cards import DEFAULT_DECK, ICON_NAMES

if TYPE_CHECKING:
    from bodoge.games.tottarot.rules import TottarotState

NAMES = {
    "en": {
        "game": "Tottarot",
        "fate_card": "fate card",
        "deck": "deck",
        "discard": "discard pile",
        "will_token": "will token",
        "victory_token": "victory token",
        "start_player": "start player",
        "declaration": "declaration",
        "declared": "declared card",
        "bid": "bid",
        "seizing": "seizing",
        "steal": "steal",
        "decision": "decision",
        "row": "row",
        "inverted": "inverted",
        "round": "round",
        "turn": "turn",
        "icons": {k: v["en"] for k, v in ICON_NAMES.items()},
    },
    "ja": {
        "game": "トッタロット",
        "fate_card": "運命カード",
        "deck": "山札",
        "discard": "捨て札置き場",
        "will_token": "意志トークン",
        "victory_token": "勝利点トークン",
        "start_player": "スタートプレイヤー",
        "declaration": "運命の宣告",
        "declared": "宣告された運命",
        "bid": "意志の表明",
        "seizing": "運命の奪取",
        "steal": "奪う",
        "decision": "運命の決定",
        "row": "決定された運命",
        "inverted": "上下逆さま",
        "round": "ラウンド",
        "turn": "ターン",
        "icons": {k: v["ja"] for k, v in ICON_NAMES.items()},
    },
}

_TEXT = re.compile(r"(bid) (\d+)|(steal|share|peek) p(\d+)|(steal) none")


def parse_text(text: str) -> tuple[str, int | None] | None:
    """`'steal P3'` -> `('steal', 3)`, `'steal none'` -> `('steal', None)`, `'bid 2'` -> `('bid', 2)`."""
    m = _TEXT.fullmatch(" ".join(text.split()).lower())
    if not m:
        return None
    if m.group(1):
        return "bid", int(m.group(2))
    if m.group(3):
        return m.group(3), int(m.group(4))
    return "steal", None


def _p(seats: list[int]) -> str:
    return ", ".join(f"P{p}" for p in seats) or "nobody"


def event_text(e: dict[str, Any]) -> str:
    """One log event (as a seat saw it) in words, for terminals and logs."""
    kind = e["type"]
    card = e.get("card")
    seen = f" ({card})" if card else ""
    if kind == "round_start":
        return f"Round {e['round']} begins; start player P{e['start_player']}."
    if kind == "declaration":
        return f"Turn {e['turn']}: everyone draws a declared card" + (f"; you drew {card}." if card else ".")
    if kind == "bid":
        return f"P{e['player']} bids" + (f" {e['value']}." if e["value"] is not None else " (hidden).")
    if kind == "reveal":
        bids = ", ".join(f"P{p} {v}" for p, v in enumerate(e["bids"]))
        return f"Bids revealed: {bids}. Actors: {_p(e['actors'])}."
    if kind == "discard":
        return f"P{e['player']} discards {card}."
    if kind == "steal":
        return f"P{e['player']} steals P{e['target']}'s declared card{seen}."
    if kind == "steal_none":
        return f"P{e['player']} takes nothing."
    if kind == "skip":
        return f"P{e['player']} is skipped: its card was taken."
    if kind == "decide":
        cards = ", ".join(f"P{p} {c or '-'}" for p, c in enumerate(e["cards"]))
        return f"Decision: {cards}."
    if kind == "invert":
        return f"P{e['player']}'s {e['card']} is turned {'upside down' if e['inverted'] else 'upright'} (INVERT)."
    if kind == "share":
        return f"P{e['player']} and P{e['target']} show each other their declared cards (SHARE){seen}."
    if kind == "peek":
        return f"P{e['player']} peeks at P{e['target']}'s declared card (PEEK){seen}."
    if kind == "expose":
        return f"P{e['player']}'s declared card is shown to everyone (EXPOSE): {card}."
    if kind == "round_end":
        return (
            f"Round {e['round']} ends: totals {e['totals']}, unused will {e['unused_sums']}; "
            f"victory token to {_p(e['gainers'])}; tokens {e['victory_tokens']}."
        )
    if kind == "game_end":
        won = e["winners"]
        return f"Game over: {_p(won)} {'wins' if len(won) == 1 else 'win'}."
    return kind


DEFAULT_NAMES_JA: dict[str, str] = {t.code: t.name_ja for t in DEFAULT_DECK}


def _p_ja(seats: list[int]) -> str:
    return "、".join(f"P{p}" for p in seats) or "なし"


def _per_seat(values: list[int]) -> str:
    return "、".join(f"P{p} {v}" for p, v in enumerate(values))


def event_text_ja(e: dict[str, Any], names: Mapping[str, str] | None = None) -> str:
    """`event_text` in Japanese, in the game's own terms. `names` maps card codes to their Japanese
    names (the `deck` option's name_ja; default: the default deck's); an unknown code stays as is."""
    table = DEFAULT_NAMES_JA if names is None else names

    def name(code: str | None) -> str:
        return "-" if code is None else table.get(code, code)

    kind = e["type"]
    card = e.get("card")
    seen = f"({name(card)})" if card else ""
    if kind == "round_start":
        return f"ラウンド{e['round']}開始。スタートプレイヤーはP{e['start_player']}です。"
    if kind == "declaration":
        mine = f"あなたが引いたのは{name(card)}です。" if card else ""
        return f"ターン{e['turn']}:運命の宣告。全員が山札から1枚引きました。{mine}"
    if kind == "bid":
        if e["value"] is None:
            return f"P{e['player']}が意志トークンを裏向きで出しました。"
        return f"P{e['player']}が意志トークン{e['value']}を出しました。"
    if kind == "reveal":
        bids = "、".join(f"P{p} {v}" for p, v in enumerate(e["bids"]))
        return f"意志の表明を公開:{bids}。運命の奪取を行うのは{_p_ja(e['actors'])}。"
    if kind == "discard":
        return f"P{e['player']}が宣告された運命({name(card)})を捨て札にしました。"
    if kind == "steal":
        return f"P{e['player']}がP{e['target']}の宣告された運命を奪いました{seen}。"
    if kind == "steal_none":
        return f"P{e['player']}は何も奪いませんでした。"
    if kind == "skip":
        return f"P{e['player']}はカードを奪われていたので、何もできません。"
    if kind == "decide":
        cards = "、".join(f"P{p} {'なし' if c is None else name(c)}" for p, c in enumerate(e["cards"]))
        return f"運命の決定:{cards}。"
    if kind == "invert":
        how = "上下逆さまになりました" if e["inverted"] else "元の向きに戻りました"
        return f"反転:P{e['player']}の{name(e['card'])}が{how}。"
    if kind == "share":
        shown = f"(見えたカード:{name(card)})" if card else ""
        return f"見せ合い:P{e['player']}とP{e['target']}が宣告された運命を見せ合いました{shown}。"
    if kind == "peek":
        return f"覗き見:P{e['player']}がP{e['target']}の宣告された運命を見ました{seen}。"
    if kind == "expose":
        return f"公開:P{e['player']}の宣告された運命は{name(card)}です。"
    if kind == "round_end":
        return (
            f"ラウンド{e['round']}終了:列の合計 {_per_seat(e['totals'])};"
            f"未使用の意志トークンの合計 {_per_seat(e['unused_sums'])}。"
            f"勝利点トークンを得たのは{_p_ja(e['gainers'])}。"
            f"勝利点トークン {_per_seat(e['victory_tokens'])}。"
        )
    if kind == "game_end":
        won = e["winners"]
        return f"ゲーム終了:{_p_ja(won)}の勝ちです。" if won else "ゲーム終了:勝者なし。"
    return kind


def _card(state: TottarotState, c: int) -> str:
    g = state.game
    icon = g.icon_codes[c]
    pts = g.points[c]
    return f"{g.codes[c]}({pts:+d}{'/' + icon if icon else ''})"


def render(state: TottarotState, seat: int | None = None) -> str:
    """A compact board from `seat`'s point of view (others' hidden cards hidden)."""
    g = state.game
    n = g.n
    bit = g.public_bit if seat is None else 1 << seat
    who = "spectator" if seat is None else f"P{seat}"
    lines = [
        f"Tottarot · round {state.round}, turn {state.turn}/{g.turns} · start player P{state.start} · "
        f"deck {len(state.pile)} · target {g.target} victory tokens · you: {who}"
    ]
    lines.append("discard pile: " + (" ".join(_card(state, c) for c in state.discard) or "-"))
    revealed = state.nbid == n
    for p in range(n):
        c = state.declared[p]
        if c < 0:
            held = "no card"
        elif state.knows[p] & bit:
            held = _card(state, c)
        else:
            held = "[hidden]"
        row = []
        for x in state.rows[p]:
            t = x >> 1
            pts = -g.points[t] if x & 1 else g.points[t]
            row.append(f"{g.codes[t]}{' inverted' if x & 1 else ''} {pts:+d}")
        unused = g.bid_lists[state.used[p]]
        b = state.bids[p]
        if b < 0:
            bid = "-"
        elif revealed or p == seat:
            bid = str(b)
        else:
            bid = "?"
        marks = ("*" if p == state.start else " ") + (">" if p == state.current_player else " ")
        lines.append(
            f"{marks}P{p}{' (you)' if p == seat else ''}: tokens {state.tokens[p]} | declared {held} | "
            f"row [{', '.join(row)}] = {state.row_total(p):+d} | unused will {unused} | bid {bid}"
        )
    if revealed and state.actors:
        lines.append("actors (priority order): " + ", ".join(f"P{a}" for a in state.actors))
    if state.current_player is None:
        lines.append("game over · winners: " + ", ".join(f"P{w}" for w in state.winners()))
    else:
        lines.append(state.decision())
        if seat == state.current_player:
            lines.append("choices: " + ", ".join(state.action_text(a) for a in state.legal_actions()))
    return "\n".join(lines)


RULES = {
    "en": """\
Tottarot (トッタロット), 2-6 players: fate cards, will tokens, stolen fates.

Cards: 21 fate cards, 7 types x 3 (a PROPOSED list; option `deck`):
  WORLD +5, SUN +3 (EXPOSE), LOVERS +1 (SHARE), WHEEL 0 (INVERT),
  MOON -1 (PEEK), TOWER -3, DEVIL -5.
Will tokens: 0-3 for each player (option max_will; the seed's variant: 0-4).

Each round: shuffle all cards; everyone takes back all will tokens. Round r's
start player is P((r-1) mod n). A round has 3 turns (turns_per_round):
 1. Declaration: from the start player clockwise, each draws the top card,
    looks at it and keeps it face down: their declared card.
 2. Icons (turn 2 on), from the start player, for cards decided last turn:
    SHARE  `share P2`: you and P2 see each other's declared card;
    PEEK   `peek P1`: you see P1's declared card;
    EXPOSE your declared card is shown to everyone.
    Who chose whom is public; the cards shown are not.
 3. Bid: one by one from the start player, each picks an unused will token
    (`bid 2`), hidden until all have bid; then all are revealed. A token
    is used once per round.
 4. Seizing: the highest bidders act, start player first, then clockwise.
    An actor whose card was already taken is skipped. Otherwise they
    discard their declared card face up, then steal another player's
    declared card unseen (`steal P3`, then look at it) or take nothing
    (`steal none`). Cards stolen earlier in this step, and cards of tied
    players still to act, may be stolen.
 5. Decision: everyone holding a declared card reveals it and adds it to
    their row; a player with none adds nothing. INVERT (WHEEL) flips the
    holder's previous card of this round (its points change sign); with
    no earlier card it does nothing.
SHARE, PEEK and EXPOSE decided in a round's last turn do nothing.

Round end: the highest row total gains a victory token. Tied: the tied
players with the highest sum of unused will tokens; still tied: each of them.
The game ends when anyone has 2 tokens (option target); all who reached it
win together. Otherwise the start marker moves one seat left.

Options: deck (card types), max_will (1-9, max_will + 1 >= turns),
turns_per_round (players x turns <= deck size), target (>= 1).
Texts: `bid 2`, `steal P3` (or `steal 3`), `steal none` (or `none`, `keep`),
`share P1`, `peek P0`.
""",
    "ja": """\
トッタロット(2〜6人):運命カードと意志トークンで運命を奪い合う。

運命カード21枚(7種類×3。提案リスト、オプション deck で変更可):
  世界 WORLD +5、太陽 SUN +3(公開)、恋人 LOVERS +1(見せ合い)、
  運命の輪 WHEEL 0(反転)、月 MOON -1(覗き見)、塔 TOWER -3、
  悪魔 DEVIL -5。
意志トークン:各自 0〜3(max_will。アレンジは 0〜4)。

ラウンドごとに全カードを混ぜ直し、意志トークンを全員に戻す。
ラウンド r のスタートプレイヤーは P((r-1) mod 人数)。
1ラウンドは3ターン(turns_per_round):
 1. 運命の宣告:スタートプレイヤーから時計回りに山札の上から
    1枚引いて確認し、宣告された運命として裏向きに置く。
 2. アイコン(2ターン目から):前のターンに決定されたカードの
    アイコンを、スタートプレイヤーから順に処理する。
    見せ合い `share P2`:P2 と宣告された運命を見せ合う。
    覗き見 `peek P1`:P1 の宣告された運命を見る。
    公開:自分の宣告された運命を全員に見せる。
    誰を選んだかは全員が知るが、見たカードは当事者だけが知る。
 3. 意志の表明:スタートプレイヤーから1人ずつ未使用の意志
    トークンを裏向きで出し(`bid 2`)、全員が出したら一斉に公開。
    各トークンは1ラウンドに1回だけ使える。
 4. 運命の奪取:最大値を出したプレイヤーが、スタートプレイヤー
    から時計回りの順に行う。すでにカードを奪われていれば何も
    できない。そうでなければ自分のカードを表向きで捨て、
    他のプレイヤーのカードを見ずに奪う(`steal P3`、奪ったら
    確認できる)か、何も奪わない(`steal none`)。先に奪われた
    カードや、まだ手番の来ていない同数のプレイヤーのカードも
    奪える。
 5. 運命の決定:カードを持つ全員が公開し、自分の列に置く。
    持っていなければ ±0。反転(運命の輪)は、このラウンドで
    自分がその直前に決定したカードを上下逆さまにする
    (ポイントの符号が逆転)。直前のカードがなければ効果なし。
最終ターンに決定された見せ合い・覗き見・公開は効果なし。

ラウンド終了:列の合計が最大のプレイヤーが勝利点トークンを得る。
同点なら未使用の意志トークンの合計が大きい方、それも同じなら
それぞれが得る。誰かが2つ(target)に達したらゲーム終了、
達した全員が勝者。そうでなければマーカーを左隣へ。

オプション:deck、max_will(1〜9、max_will + 1 ≥ ターン数)、
turns_per_round(人数 × ターン数 ≤ 山札の枚数)、target(1以上)。
行動:`bid 2`、`steal P3`(`steal 3`)、`steal none`(`none`、`keep`)、
`share P1`、`peek P0`。
""",
}
