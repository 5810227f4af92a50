"""Tokkuri's words: action texts, the terminal board, names in Japanese and English, a rules summary."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bodoge.games.tokkuri.rules import Tokkuri, TokkuriState

#: Terms of the game (spec §10), for UIs.
NAMES: dict[str, dict[str, str]] = {
    "en": {
        "tokkuri": "tokkuri",
        "sake": "sake",
        "level": "level",
        "place": "place",
        "drink": "drink",
        "target": "target",
        "victim": "victim",
        "give": "give",
        "hand": "hand",
        "deck": "draw deck",
        "discard": "discard pile",
        "captured": "captured",
        "bonus": "bonus",
        "penalty": "penalty",
        "balance": "balance",
        "round": "round",
        "start_player": "start player",
        "dummy": "dummy tokkuri",
        "trouble": "troublesome tokkuri",
        "skip": "skip",
        "bankruptcy": "bankruptcy",
        "winner": "winner",
    },
    "ja": {
        "tokkuri": "トックリ",
        "sake": "酒",
        "level": "残量",
        "place": "トックリとして出す",
        "drink": "酒を飲む",
        "target": "飲むトックリ",
        "victim": "引かれる人",
        "give": "渡す",
        "hand": "手札",
        "deck": "山札",
        "discard": "捨て札",
        "captured": "獲得したトックリ",
        "bonus": "追加で1点",
        "penalty": "減点",
        "balance": "所持金",
        "round": "ラウンド",
        "start_player": "スタートプレイヤー",
        "dummy": "ダミートックリ",
        "trouble": "やっかいなトックリ",
        "skip": "パス",
        "bankruptcy": "破産",
        "winner": "優勝",
    },
}

RULES = {
    "en": """\
Tokkuri (トックリ) — 2 to 4 players. Drink the sake, collect the empty bottles.

Cards: 32 (default). Number cards show one or more numbers (9, 9+4, 1+1+1, 2+2+2+2 ...);
a 1~3 card lets you choose 1, 2 or 3. Three dummy tokkuri and one troublesome tokkuri have no
number. Every back shows a tokkuri (bottle) with 10 levels.

Setup: everyone starts with a balance of 10. Each round the cards are shuffled and dealt one at
a time from the start player (P0 in round 1, then one seat left each round) until everyone holds
7; the rest is the draw deck. Everyone then picks one card in secret and all are placed face
down at once as their first tokkuri (T<seat>.1), at level 10.

Turn (clockwise from the start player), do one:
  place <code>  put a card face down in front of you as a new tokkuri at level 10.
  drink <code>  play a number card face up: each number lowers a different tokkuri on the
                table (yours or anyone's) by that much; no level may go below 0. You then
                choose a target for each number in printed order: target T<s>.<k>.
A tokkuri brought to exactly 0 is yours: it goes face down to your captured pile (+1).
An emptied dummy is shown and discarded, worth nothing.
A player without cards is skipped; a player with cards may not pass.

Special cards (only when drunk):
  9            pick another player who holds cards (victim P<s>); a random card of theirs is
               discarded face up and they draw one. If only you hold cards, it is your own.
  1~3          choose the value (drink 1~3=2); afterwards you draw a card.
  1+1+1, 3+3+3 everyone holding cards secretly picks one (give <code>); all pass left at once.
  7+7+7, 8+8+8 if this drink emptied 2 or more tokkuri and none was a dummy, keep the card (+1).
  dummy        can only be placed. trouble: can only be placed, and only as your last card.

Only the owner knows what a face-down tokkuri is; the drinker and the owner see a captured one.

Round end: when no one holds a card. Score = captured + bonus cards − 2 for each of your own
tokkuri still on the table at level 3 or more. Settlement: every player below the top score pays
the difference to each top scorer; if all tie nobody pays.

Game end: after a settlement where someone's balance is 0 or less, after the agreed number of
rounds, or after 50 rounds. The highest balance wins (ties share).

Options: deck, start_points, hand_size, rounds, max_rounds, max_tokkuri, tokkuri_level,
penalty_level, penalty_points.
""",
    "ja": """\
トックリ — 2〜4人。お酒を飲んで、空いたトックリを集めましょう。

カード32枚（標準）。数字カードには数字が1つ以上（9、9+4、1+1+1、2+2+2+2 など）。
1~3 のカードは 1・2・3 から値を選べます。ダミートックリ3枚とやっかいなトックリ1枚には
数字がありません。すべてのカードの裏には残量10段のトックリが描かれています。

準備：所持金はひとり10点。ラウンドごとにカードを混ぜ、スタートプレイヤー（第1ラウンドは
P0、以後ひとつずつ左へ）から1枚ずつ配って全員7枚にします。残りは山札です。全員が手札から
1枚を秘密に選び、同時に裏向きで最初のトックリ（T<席>.1、残量10）として出します。

手番（スタートプレイヤーから左回り）では次のどちらか：
  place <code>  カードを裏向きに自分の前に出し、残量10の新しいトックリにする。
  drink <code>  数字カードを表向きに使う。数字ごとに別々のトックリ（誰のものでも可）の残量を
                その数だけ減らす。0 未満にはできない。数字の順に target T<席>.<番号> で選ぶ。
ちょうど0になったトックリは獲得（裏向きのまま自分の獲得の山へ、1点）。
ダミーを空けたら表にして捨て札（得点なし）。
手札が無い人は飛ばされます。手札がある人はパスできません。

特殊カード（飲むときだけ）：
  9            手札を持つ他の人を選ぶ（victim P<席>）。その人の手札から無作為に1枚を表向きに
               捨て、その人は山札から1枚引く。手札を持つのが自分だけなら自分の手札から。
  1~3          値を選ぶ（drink 1~3=2）。使った後に山札から1枚引く。
  1+1+1、3+3+3 手札を持つ全員が秘密に1枚選び（give <code>）、同時に左隣へ渡す。
  7+7+7、8+8+8 この飲みでトックリを2つ以上空け、その中にダミーが無ければカードを得る（+1点）。
  ダミー        トックリとしてしか出せない。やっかいなトックリ：最後の1枚のときだけ出せる。

裏向きのトックリの中身は出した本人だけが知っています。獲得したカードは飲んだ人と持ち主が見ます。

ラウンド終了：全員の手札が無くなったとき。得点 = 獲得したトックリ + ボーナスのカード
− 自分の前に残った残量3以上のトックリ1本につき2点。最高点の人が勝者で、他の人は差分を
勝者それぞれに支払います。全員同点なら支払いなし。

ゲーム終了：精算で誰かの所持金が0以下になったとき、決めたラウンド数のあと、または50ラウンド
のあと。所持金が最も多い人が優勝（同点は全員優勝）。

オプション：deck、start_points、hand_size、rounds、max_rounds、max_tokkuri、tokkuri_level、
penalty_level、penalty_points。
""",
}


def action_text(game: Tokkuri, action: int) -> str:
    g = game
    if action < 0 or action >= g.num_actions:
        return f"action {action}"
    if action < g.a_place:
        return f"target T{action // g.total}.{action % g.total + 1}"
    if action < g.a_drink:
        return f"place {g.codes[action - g.a_place]}"
    if action < g.a_victim:
        return g.var_text[action - g.a_drink]
    if action < g.a_give:
        return f"victim P{action - g.a_victim}"
    return f"give {g.codes[action - g.a_give]}"


def _and(items: list[str]) -> str:
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _minus(x: int) -> str:
    return f"−{-x}" if x < 0 else str(x)


def _signed(x: int) -> str:
    return f"+{x}" if x > 0 else f"−{-x}" if x < 0 else "±0"


def event_text(e: dict[str, Any]) -> str:
    """One log event as a line a player reads. It says only what the event dict holds, so a card the
    seat did not see (another player's deal, placement, draw or gift, a captured face) stays unnamed."""
    tag = e["event"]
    card = e.get("card")
    if tag == "round":
        return f"Round {e['round']} begins; P{e['start']} is the start player."
    if tag == "deal":
        cards = e.get("cards")
        line = f"P{e['seat']} is dealt {e['count']} cards"
        return line + ("." if cards is None else f": {' '.join(cards)}.")
    s = e.get("seat")
    if tag == "open":
        what = "a card" if card is None else card
        return f"P{s} chooses {what} to open with, face down."
    if tag == "opened":
        return "Everyone's first tokkuri goes on the table face down at once."
    if tag == "place":
        if card is None:
            return f"P{s} places a tokkuri face down ({e['tokkuri']})."
        return f"P{s} places {card} face down as tokkuri {e['tokkuri']}."
    if tag == "drink":
        values = "+".join(map(str, e["values"]))
        return f"P{s} plays {card}" + ("" if values == card else f" as {values}") + " to drink."
    if tag == "target":
        return f"P{s} chooses {e['tokkuri']} to drink from."
    if tag == "resolve":
        values = "+".join(map(str, e["values"]))
        ids = [tid for tid, _ in e["levels"]]
        changes = ", ".join(
            f"{tid}: {lv + x} → {lv}" for (tid, lv), x in zip(e["levels"], e["values"], strict=True)
        )
        line = f"P{s} drinks {values} from {_and(ids)} ({changes})."
        if e["bonus"]:
            line += f" Two or more emptied and no dummy: P{s} keeps {card} as a bonus card (+1)."
        return line
    if tag == "empty":
        tid = e["tokkuri"]
        if e["dummy"]:
            return f"P{s} empties {tid}: a dummy, discarded face up (no point)."
        if card is None:
            return f"P{s} empties {tid} and captures it face down (+1)."
        return f"P{s} empties {tid} and captures it (+1): it was {card}."
    if tag == "victim":
        return f"P{s} picks P{e['victim']}: a random card of their hand is discarded."
    if tag == "steal":
        return f"P{s}'s {card} is discarded face up at random."
    if tag == "draw":
        return f"P{s} draws {'a card' if card is None else card}."
    if tag == "give":
        return f"P{s} chooses {'a card' if card is None else card} to pass left, face down."
    if tag == "gave":
        return f"P{s} passes {'a card' if card is None else card} to P{e['to']}."
    if tag == "skip":
        return f"P{s} has no legal move and is skipped."
    if tag == "stuck":
        return "Nobody holding cards can move: the round ends."
    if tag == "score":
        return _score_text(e)
    return tag


#: Japanese names of the default deck's cards without a number; a number card is its code in 「」.
_CARD_JA = {"dummy": "ダミートックリ", "trouble": "やっかいなトックリ"}


def card_ja(code: str) -> str:
    """A card code as a Japanese text: "dummy" -> "ダミートックリ", "9+4" -> "「9+4」"."""
    return _CARD_JA.get(code, f"「{code}」")


def _and_ja(items: list[str]) -> str:
    return "、".join(items)


def decision_ja(state: TokkuriState) -> str:
    """The Japanese of `TokkuriState.decision`: the same facts in the game's own terms."""
    from bodoge.games.tokkuri import rules as r

    p = state.current_player
    if p is None:
        return "ゲーム終了"
    g = state.game
    phase = state.phase
    if phase == r.OPEN:
        return f"P{p}が最初のトックリにするカードを選びます（裏向き。全員が選ぶまで非公開）"
    if phase == r.ACTION:
        return f"P{p}の手番：トックリを出すか、酒を飲みます"
    if phase == r.TARGET:
        v = state.d_var
        i = len(state.d_targets)
        k = len(g.var_values[v])
        card = card_ja(g.codes[g.var_type[v]])
        value = g.var_values[v][i]
        return f"P{p}が{card}の{i + 1}個目の数字（{value}、全{k}個）で飲むトックリを選びます"
    if phase == r.VICTIM:
        return f"P{p}が引かれる人を選びます：その人の手札から無作為に1枚を捨て、その人は1枚引きます"
    return f"P{p}が左隣に渡すカードを選びます（全員が選ぶまで非公開）"


def event_text_ja(e: dict[str, Any]) -> str:
    """`event_text` in Japanese: the same facts, from the entry's own facts alone, so a card the seat
    did not see stays unnamed here too."""
    tag = e["event"]
    code = e.get("card")
    card = None if code is None else card_ja(code)
    if tag == "round":
        return f"第{e['round']}ラウンド開始。スタートプレイヤーはP{e['start']}。"
    if tag == "deal":
        cards = e.get("cards")
        line = f"P{e['seat']}に手札が{e['count']}枚配られた"
        return line + ("。" if cards is None else f"：{_and_ja([card_ja(c) for c in cards])}。")
    s = e.get("seat")
    if tag == "open":
        if card is None:
            return f"P{s}が最初のトックリにするカードを裏向きで選んだ。"
        return f"P{s}が最初のトックリに{card}を裏向きで選んだ。"
    if tag == "opened":
        return "全員の最初のトックリが同時に裏向きで出された。"
    if tag == "place":
        if card is None:
            return f"P{s}がトックリを裏向きに出した（{e['tokkuri']}）。"
        return f"P{s}が{card}を裏向きにトックリ{e['tokkuri']}として出した。"
    if tag == "drink":
        values = "+".join(map(str, e["values"]))
        return f"P{s}が{card}を" + ("" if values == code else f"{values}として") + "使って酒を飲む。"
    if tag == "target":
        return f"P{s}が飲むトックリに{e['tokkuri']}を選んだ。"
    if tag == "resolve":
        values = "+".join(map(str, e["values"]))
        ids = [tid for tid, _ in e["levels"]]
        changes = "、".join(
            f"{tid}：{lv + x} → {lv}" for (tid, lv), x in zip(e["levels"], e["values"], strict=True)
        )
        line = f"P{s}が{_and_ja(ids)}から{values}を飲んだ（残量 {changes}）。"
        if e["bonus"]:
            line += f"2本以上を空け、ダミーは無かったので、P{s}は{card}を追加で1点のカードとして得る（+1）。"
        return line
    if tag == "empty":
        tid = e["tokkuri"]
        if e["dummy"]:
            return f"P{s}が{tid}を空けた：ダミートックリなので表にして捨て札へ（得点なし）。"
        if card is None:
            return f"P{s}が{tid}を空け、裏向きのまま獲得した（+1）。"
        return f"P{s}が{tid}を空けて獲得した（+1）：中身は{card}だった。"
    if tag == "victim":
        return f"P{s}がP{e['victim']}を引かれる人に選んだ：その人の手札から無作為に1枚が捨てられる。"
    if tag == "steal":
        return f"P{s}の{card}が無作為に選ばれ、表向きで捨てられた。"
    if tag == "draw":
        if card is None:
            return f"P{s}が山札からカードを1枚引いた。"
        return f"P{s}が山札から{card}を引いた。"
    if tag == "give":
        if card is None:
            return f"P{s}が左隣に渡すカードを裏向きで選んだ。"
        return f"P{s}が左隣に渡すカードに{card}を選んだ（裏向き）。"
    if tag == "gave":
        if card is None:
            return f"P{s}がP{e['to']}にカードを1枚渡した。"
        return f"P{s}がP{e['to']}に{card}を渡した。"
    if tag == "skip":
        return f"P{s}は出せる手が無いのでパス。"
    if tag == "stuck":
        return "手札を持つ誰も動けないので、ラウンド終了。"
    if tag == "score":
        return _score_text_ja(e)
    return tag


def _score_text_ja(e: dict[str, Any]) -> str:
    lines = [f"第{e['round']}ラウンド終了。ラウンドの得点："]
    for q, score in enumerate(e["round_scores"]):
        parts = [f"獲得{e['captured'][q]}"]
        if e["bonus"][q]:
            parts.append(f"+ 追加{e['bonus'][q]}")
        if e["penalty"][q]:
            k = e["penalised"][q]
            left = f"（残量の多いトックリ{k}本）" if k else ""
            parts.append(f"− 減点{e['penalty'][q]}{left}")
        lines.append(f"  P{q}：{' '.join(parts)} = {_minus(score)}")
    changes = e["changes"]
    top = max(e["round_scores"])
    if any(changes):
        payers = [q for q, x in enumerate(e["round_scores"]) if x < top]
        tops = [q for q, x in enumerate(e["round_scores"]) if x == top]
        for q in payers:
            owed = top - e["round_scores"][q]
            each = "それぞれ" if len(tops) > 1 else ""
            lines.append(f"  P{q}は{_and_ja([f'P{w}' for w in tops])}に{each}{owed}点支払う。")
    else:
        lines.append("  全員同点：支払いなし。")
    balances = "、".join(
        f"P{q} {_minus(b)}（{_signed(d)}）"
        for q, (b, d) in enumerate(zip(e["balances"], changes, strict=True))
    )
    lines.append(f"所持金：{balances}。")
    if e["game_over"]:
        best = max(e["balances"])
        won = [f"P{q}" for q, b in enumerate(e["balances"]) if b == best]
        broke = [f"P{q}" for q, b in enumerate(e["balances"]) if b <= 0]
        why = f"（{_and_ja(broke)}が破産）" if broke else ""
        who = _and_ja(won) + ("が同点で" if len(won) > 1 else "が")
        lines.append(f"ゲーム終了{why}：{who}所持金{_minus(best)}で優勝。")
    return "\n".join(lines)


def _score_text(e: dict[str, Any]) -> str:
    lines = [f"Round {e['round']} ends. Round scores:"]
    for q, score in enumerate(e["round_scores"]):
        parts = [f"{e['captured'][q]} captured"]
        if e["bonus"][q]:
            parts.append(f"+ {e['bonus'][q]} bonus")
        if e["penalty"][q]:
            k = e["penalised"][q]
            left = f" ({k} tokkuri left too full)" if k else ""
            parts.append(f"− {e['penalty'][q]}{left}")
        lines.append(f"  P{q}: {' '.join(parts)} = {_minus(score)}")
    changes = e["changes"]
    top = max(e["round_scores"])
    if any(changes):
        payers = [q for q, x in enumerate(e["round_scores"]) if x < top]
        tops = [q for q, x in enumerate(e["round_scores"]) if x == top]
        for q in payers:
            owed = top - e["round_scores"][q]
            each = "each of " if len(tops) > 1 else ""
            lines.append(f"  P{q} pays {owed} to {each}{_and([f'P{w}' for w in tops])}.")
    else:
        lines.append("  All tie: nobody pays.")
    balances = ", ".join(
        f"P{q} {_minus(b)} ({_signed(d)})"
        for q, (b, d) in enumerate(zip(e["balances"], changes, strict=True))
    )
    lines.append(f"Balances: {balances}.")
    if e["game_over"]:
        best = max(e["balances"])
        won = [f"P{q}" for q, b in enumerate(e["balances"]) if b == best]
        broke = [f"P{q}" for q, b in enumerate(e["balances"]) if b <= 0]
        why = f" ({_and(broke)} {'is' if len(broke) == 1 else 'are'} bankrupt)" if broke else ""
        verb = "wins" if len(won) == 1 else "share the win"
        lines.append(f"Game over{why}: {_and(won)} {verb} with {_minus(best)}.")
    return "\n".join(lines)


def bottle(level: int, full: int) -> str:
    """A tokkuri's level as a bar, e.g. ■■■■■□□□□□ for 5 of 10."""
    if full > 20:
        return f"{level}/{full}"
    return "■" * level + "□" * (full - level)


def render(state: TokkuriState, seat: int | None = None) -> str:
    g = state.game
    o = g.options
    codes = g.codes
    N = g.total
    n = g.num_players
    full = o["tokkuri_level"]
    pl = o["penalty_level"]
    lines = [
        f"Tokkuri — round {state.round_no} (start P{state.start}) — {state.decision()}",
        f"Draw deck: {len(state.stock)}   Discard: {' '.join(codes[t] for t in state.discard) or '—'}",
    ]
    tally = state.round_scores()
    for s in range(n):
        me = " (you)" if s == seat else ""
        turn = " ◀" if s == state.current_player else ""
        bonus = " ".join(codes[t] for t in state.bonus[s]) or "—"
        lines.append(
            f"P{s}{me}{turn}  balance {state.balances[s]}  hand {len(state.hands[s])}  "
            f"captured {len(state.captured[s])}  bonus {bonus}  round tally {tally[s]}"
        )
        for tid, lv, face in zip(state.table, state.levels, state.faces, strict=True):
            if tid // N != s:
                continue
            card = codes[face] if s == seat else "?"
            warn = f"  (−{o['penalty_points']} if left)" if lv >= pl else ""
            lines.append(f"    T{s}.{tid % N + 1} [{card}] {bottle(lv, full)} {lv}{warn}")
    if seat is not None:
        hand = " ".join(codes[t] for t in sorted(state.hands[seat])) or "—"
        lines.append(f"Your hand: {hand}")
        if state.captured[seat]:
            lines.append(f"Your captured: {' '.join(codes[t] for t in state.captured[seat])}")
        if state.pending[seat] >= 0:
            lines.append(f"Your hidden choice: {codes[state.pending[seat]]}")
    if state.d_var >= 0:
        v = state.d_var
        chosen = ", ".join(f"T{tid // N}.{tid % N + 1}" for tid in state.d_targets) or "none yet"
        values = "+".join(str(x) for x in g.var_values[v])
        lines.append(f"Drinking {codes[g.var_type[v]]} ({values}); targets so far: {chosen}")
    if state.current_player is None:
        won = ", ".join(f"P{w}" for w in state.winners())
        lines.append(f"Game over. Balances {state.balances}; winner(s): {won}")
    elif seat is not None and seat == state.current_player:
        lines.append("Legal: " + ", ".join(state.action_text(a) for a in state.legal_actions()))
    return "\n".join(lines)
