"""Hangover's words: action texts and their aliases, decisions, the text board, and a rules summary.

Action texts (spec §4): `arrange -4/+4 +1/+2 -1/-2 +2/+3`, `declare`, `pass`, `play R7^`,
`discard G2`, `flip -2/+2 +2` (also typed as `snack -2/+2 as +2`) and `stop`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from bodoge.games.hangover.cards import DRINK_CODES, DRINK_INDEX, SUIT, SUITS, drink_name, normalize_snack

if TYPE_CHECKING:
    from bodoge.games.hangover.rules import HangoverState

NAMES = {
    "game": {"en": "Hangover", "ja": "ハングオーバー"},
    "drink": {"en": "drink card", "ja": "ドリンクカード"},
    "snack": {"en": "snack card", "ja": "肴カード"},
    "column": {"en": "column", "ja": "列"},
    "trick": {"en": "trick", "ja": "トリック"},
    "lead": {"en": "lead", "ja": "リード"},
    "follow": {"en": "follow", "ja": "フォロー"},
    "drunk_limit": {"en": "drunk limit", "ja": "泥酔値"},
    "just_limit": {"en": "just limit", "ja": "ジャストリミット"},
    "judgement": {"en": "judgement", "ja": "泥酔判定"},
    "hangover": {"en": "Hangover!", "ja": "ハングオーバー!"},
    "drinker": {"en": "drinker", "ja": "ドリンカー"},
    "non_drinker": {"en": "non-drinker", "ja": "下戸(ノンドリンカー)"},
    "out_non_drinker": {"en": "out (non-drinker)", "ja": "脱落(下戸)"},
    "hung_over": {"en": "hung over", "ja": "ハングオーバー(敗北)"},
    "declare": {"en": "declare non-drinker", "ja": "下戸宣言"},
    "pass": {"en": "pass", "ja": "パス"},
    "set_aside": {"en": "set aside", "ja": "山"},
    "vp": {"en": "VP", "ja": "VP(勝利点)"},
}

STATUS_TEXT = {
    "drinker": "drinker",
    "non_drinker": "non-drinker",
    "out_non_drinker": "out (non-drinker)",
    "hung_over": "HUNG OVER",
}


def action_text(state: HangoverState, a: int) -> str:
    from bodoge.games.hangover import rules as r

    g = state.game
    if 0 <= a < r.DISCARD:
        return f"play {DRINK_CODES[a]}"
    if r.DISCARD <= a < r.DECLARE:
        return f"discard {DRINK_CODES[a - r.DISCARD]}"
    if a == r.DECLARE:
        return "declare"
    if a == r.PASS:
        return "pass"
    if a == r.STOP:
        return "stop"
    if r.FLIP <= a < g.arrange0:
        d, v = divmod(a - r.FLIP, 2)
        return f"flip {g.snack_codes[d]} {g.snack_texts[d][v]}"
    if g.arrange0 <= a < g.num_actions:
        perm = g.arrangements[a - g.arrange0]
        p = state.current_player
        if state.phase == r.ARRANGE and p is not None and len(state.snack_hands[p]) == len(perm):
            hand = state.snack_hands[p]
            return "arrange " + " ".join(g.snack_codes[hand[pos]] for pos in perm)
        return "arrange positions " + " ".join(str(pos + 1) for pos in perm)
    return f"action {a}"


_SNACK_AS = re.compile(r"^snack (\S+) as (\S+)$")


def parse_alias(state: HangoverState, wanted: str) -> int | None:
    """The action id of an alias text (-1: an alias naming nothing legal), or None if not an alias."""
    from bodoge.games.hangover import rules as r

    g = state.game
    m = _SNACK_AS.match(wanted)
    if m:
        try:
            code = normalize_snack(m.group(1))
        except ValueError:
            return -1
        d = g.snack_index.get(code)
        if d is None:
            return -1
        texts = g.snack_texts[d]
        value = m.group(2).replace("−", "-")
        if value[:1].isdigit():
            value = "+" + value
        for v in (0, 1):
            if texts[v] == value:
                return r.FLIP + 2 * d + v
        return -1
    if wanted.startswith("arrange ") and state.phase == r.ARRANGE and state.current_player is not None:
        hand = state.snack_hands[state.current_player]
        order = []
        for word in wanted.split()[1:]:
            try:
                d = g.snack_index.get(normalize_snack(word))
            except ValueError:
                return None
            if d is None:
                return None
            order.append(d)
        if sorted(order) != hand:
            return None
        return g.arrangement_for(tuple(hand), g.columns_of_order(order))
    return None


def decision(state: HangoverState) -> str:
    from bodoge.games.hangover import rules as r

    p = state.current_player
    if p is None:
        return "the end of the game"
    phase = state.phase
    if phase == r.ARRANGE:
        return f"P{p} arranges their snack cards into columns"
    if phase == r.DECLARING:
        return f"P{p} declares non-drinker or passes"
    if phase == r.FLIPPING:
        total = state.judge_sum + state.judge_added
        return f"P{p} may flip snacks from column {state.tricks[p]} (sum {total}, limit {state.game.limit})"
    number = len(state.past) + 1
    if not state.trick:
        return f"P{p} leads trick {number}"
    lead = DRINK_CODES[state.trick[0]]
    if state.status[p] >= r.OUT_NON_DRINKER:
        return f"P{p} discards face down to trick {number} (lead {lead})"
    return f"P{p} plays to trick {number} (lead {lead})"


def decision_ja(state: HangoverState) -> str:
    """The Japanese of `decision`: the same facts in the game's own terms."""
    from bodoge.games.hangover import rules as r

    p = state.current_player
    if p is None:
        return "ゲーム終了"
    phase = state.phase
    if phase == r.ARRANGE:
        return f"P{p}が肴カードを列に並べます"
    if phase == r.DECLARING:
        return f"P{p}が下戸宣言をするかパスします"
    if phase == r.FLIPPING:
        total = state.judge_sum + state.judge_added
        return f"P{p}は{state.tricks[p]}列目の肴カードを表にできます(合計値{total}、泥酔値{state.game.limit})"
    number = len(state.past) + 1
    if not state.trick:
        return f"P{p}がトリック{number}をリードします"
    lead = drink_name(state.trick[0], "ja")
    if state.status[p] >= r.OUT_NON_DRINKER:
        return f"P{p}がトリック{number}にカードを裏向きに出します(リードは{lead})"
    return f"P{p}がトリック{number}にカードを出します(リードは{lead})"


def _nth(k: int) -> str:
    """1st, 2nd, 3rd, 4th, …, 11th, 12th, 13th, 21st."""
    suffix = "th" if k % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


def _seats(seats: list[int]) -> str:
    return ", ".join(f"P{q}" for q in seats)


_END_REASONS = {
    "hands_empty": "all cards played",
    "no_active_player": "no active player left",
    "one_active_player": "at most one active player left",
}
_STATUS_NOTES = {
    "drinker": "",
    "non_drinker": " (non-drinker)",
    "out_non_drinker": " (out non-drinker)",
    "hung_over": " (hung over: cannot win)",
}


def event_text(e: dict[str, Any]) -> str:
    """One log event as a line a player reads. It says only what the event dict holds, so a card the
    seat may not see (another player's face-down discard or snack order) is never named."""
    kind = e["type"]
    if kind == "play":
        return f"P{e['seat']} plays {e['card']}."
    if kind == "discard":
        card = e.get("card")
        return f"P{e['seat']} discards {'a card' if card is None else card} face down."
    if kind == "trick":
        w = e["winner"]
        line = f"P{w} wins trick {e['trick']} with {e['card']} (sum {e['sum']})"
        outcome = e["outcome"]
        if outcome == "hangover":
            line += f": their {_nth(e['own_trick'])} trick. Hangover! P{w} is out and cannot win."
        elif outcome == "out":
            line += f": a non-drinker's first trick, so P{w} is out (VP frozen, can still win)."
        else:
            line += f": their {_nth(e['own_trick'])} trick, judged next."
        bonus = e["bonus"]
        if bonus:
            each = " each" if len(bonus) > 1 else ""
            line += f" Non-drinker {_seats(bonus)} gain{'s' if len(bonus) == 1 else ''} 1 VP{each}."
        return line
    if kind == "flip":
        return f"P{e['seat']} flips snack {e['snack']} and adds {e['value']:+d}."
    if kind == "stop":
        return f"P{e['seat']} stops flipping snacks."
    if kind == "judge":
        total, limit, f = e["adjusted_sum"], e["limit"], e["flipped"]
        band = (
            f"under the drunk limit {limit}"
            if total < limit
            else f"just the drunk limit {limit}"
            if total == limit
            else f"over the drunk limit {limit}"
        )
        snacks = f"{f} snack{'' if f == 1 else 's'}"
        line = (
            f"P{e['seat']}'s {_nth(e['own_trick'])} trick: {'adjusted ' if f else ''}sum {total}, {band}: "
            f"{e['base']} VP × (1 + {snacks} flipped) = {e['vp']} VP."
        )
        if e["slid"]:
            k = e["own_trick"]
            line += f" Their unused column {k} slides into column {k + 1}."
        return line
    if kind == "declare":
        if e["non_drinker"]:
            return f"P{e['seat']} declares non-drinker."
        return f"P{e['seat']} passes (stays a drinker)."
    if kind == "arrange":
        order = e.get("order")
        line = f"P{e['seat']} arranges their snack cards face down into columns"
        return line + ("." if order is None else f" (order {' '.join(order)}).")
    if kind == "end":
        lines = [f"Game over ({_END_REASONS.get(e['reason'], e['reason'])}). Final VP:"]
        for q, (vp, status) in enumerate(zip(e["vp"], e["status"], strict=True)):
            lines.append(f"  P{q}: {vp} VP{_STATUS_NOTES.get(status, '')}")
        winners = e["winners"]
        if not winners:
            lines.append("Nobody wins: every player hung over.")
        elif len(winners) == 1:
            lines.append(f"P{winners[0]} wins.")
        else:
            lines.append(f"{_seats(winners)} share the win.")
        return "\n".join(lines)
    return kind


_END_REASONS_JA = {
    "hands_empty": "全員の手札がなくなった",
    "no_active_player": "脱落していないプレイヤーがいなくなった",
    "one_active_player": "脱落していないプレイヤーが1人以下になった",
}
_STATUS_NOTES_JA = {
    "drinker": "",
    "non_drinker": "(下戸)",
    "out_non_drinker": "(脱落した下戸)",
    "hung_over": "(ハングオーバー: 勝利できない)",
}


def _drink_ja(code: str) -> str:
    """A drink card code in Japanese: "R5^" -> "赤の5△"."""
    return drink_name(DRINK_INDEX[code], "ja")


def _seats_ja(seats: list[int]) -> str:
    return "、".join(f"P{q}" for q in seats)


def event_text_ja(e: dict[str, Any]) -> str:
    """`event_text` in Japanese: the same facts, from the event dict alone, so a card the seat may not
    see is never named here either."""
    kind = e["type"]
    if kind == "play":
        return f"P{e['seat']}が{_drink_ja(e['card'])}を出した。"
    if kind == "discard":
        card = e.get("card")
        if card is None:
            return f"P{e['seat']}がカードを1枚裏向きに出した。"
        return f"P{e['seat']}が{_drink_ja(card)}を裏向きに出した。"
    if kind == "trick":
        w = e["winner"]
        line = f"P{w}が{_drink_ja(e['card'])}でトリック{e['trick']}を取った(合計値{e['sum']})。"
        outcome = e["outcome"]
        if outcome == "hangover":
            line += f"自分の{e['own_trick']}トリック目なのでハングオーバー! P{w}は脱落し、勝利できない。"
        elif outcome == "out":
            line += f"下戸が初めてトリックを取ったので、P{w}は脱落(VPは確定、勝利の可能性は残る)。"
        else:
            line += f"自分の{e['own_trick']}トリック目。これから泥酔判定。"
        bonus = e["bonus"]
        if bonus:
            each = "それぞれ" if len(bonus) > 1 else ""
            line += f"下戸の{_seats_ja(bonus)}が{each}1VPを得る。"
        return line
    if kind == "flip":
        return f"P{e['seat']}が肴カード {e['snack']} を表にして{e['value']:+d}を加えた。"
    if kind == "stop":
        return f"P{e['seat']}は肴カードを表にするのをやめた。"
    if kind == "judge":
        total, limit, f = e["adjusted_sum"], e["limit"], e["flipped"]
        band = (
            f"泥酔値{limit}未満"
            if total < limit
            else f"泥酔値{limit}ちょうど(ジャストリミット)"
            if total == limit
            else f"泥酔値{limit}超え"
        )
        line = (
            f"P{e['seat']}の{e['own_trick']}トリック目の泥酔判定: {'調整後の' if f else ''}合計値{total}は"
            f"{band}。{e['base']}VP × (1 + 表にした肴カード{f}枚) = {e['vp']}VP。"
        )
        if e["slid"]:
            k = e["own_trick"]
            line += f"使わなかった{k}列目の肴カードは{k + 1}列目へスライドする。"
        return line
    if kind == "declare":
        if e["non_drinker"]:
            return f"P{e['seat']}が下戸宣言をした。"
        return f"P{e['seat']}はパスした(ドリンカーのまま)。"
    if kind == "arrange":
        order = e.get("order")
        line = f"P{e['seat']}が肴カードを伏せて列に並べた"
        return line + ("。" if order is None else f"(順に {' '.join(order)})。")
    if kind == "end":
        reason = _END_REASONS_JA.get(e["reason"], e["reason"])
        lines = [f"ゲーム終了({reason})。最終VP:"]
        for q, (vp, status) in enumerate(zip(e["vp"], e["status"], strict=True)):
            lines.append(f"  P{q}: {vp}VP{_STATUS_NOTES_JA.get(status, '')}")
        winners = e["winners"]
        if not winners:
            lines.append("全員ハングオーバーしたので勝者なし。")
        elif len(winners) == 1:
            lines.append(f"P{winners[0]}の勝利。")
        else:
            lines.append(f"{_seats_ja(winners)}が同点で勝利(引き分け)。")
        return "\n".join(lines)
    return kind


def _card(c: int) -> str:
    return "??" if c < 0 else DRINK_CODES[c]


def render(state: HangoverState, seat: int | None) -> str:
    from bodoge.games.hangover import rules as r

    g = state.game
    n = g.num_players
    codes = g.snack_codes
    lines = [
        f"Hangover (draft 2) — {n} players, drunk limit {g.limit}, "
        f"VP under/just/over {g.vp_under}/{g.vp_just}/{g.vp_over}, Hangover on own trick {g.hangover_trick}",
        f"Trick {len(state.past) + (1 if state.phase == r.TRICK else 0)} of at most {g.hand_size}; "
        f"set aside: {len(state.aside)} drink, {len(state.snack_aside)} snack",
    ]
    for q in range(n):
        mark = ">" if q == state.current_player else " "
        you = " (you)" if q == seat else ""
        cols = " | ".join(str(len(c)) for c in state.columns[q])
        flips = " ".join(f"{codes[d]}={g.snack_value[d][v]:+d}@{k}" for k, d, v in state.flipped[q])
        row = (
            f"{mark}P{q}{you}: {STATUS_TEXT[r.STATUS_NAMES[state.status[q]]]:<17} VP {state.vp[q]:>3}  "
            f"tricks {state.tricks[q]}  hand {len(state.hands[q])}  face-down {len(state.discards[q])}  "
            f"columns [{cols}]"
        )
        if flips:
            row += f"  flipped {flips}"
        lines.append(row)
    if state.past:
        lead, cards, w = state.past[-1]
        played = "  ".join(f"P{(lead + i) % n} {_card(c)}" for i, c in enumerate(cards))
        lines.append(f"Last trick: {played}  -> P{w}")
    if state.phase == r.TRICK:
        if state.trick:
            played = "  ".join(f"P{(state.leader + i) % n} {_card(c)}" for i, c in enumerate(state.trick))
            lines.append(f"This trick (lead suit {SUITS[SUIT[state.trick[0]]]}): {played}")
        else:
            lines.append(f"This trick: P{state.leader} to lead")
    if state.phase == r.FLIPPING:
        lines.append(
            f"Judging P{state.current_player}: sum {state.judge_sum}, flipped {state.judge_flips}, "
            f"adjusted {state.judge_sum + state.judge_added} (limit {g.limit})"
        )
    if seat is not None:
        lines.append("Your hand: " + (" ".join(DRINK_CODES[c] for c in state.hands[seat]) or "(empty)"))
        if state.discards[seat]:
            lines.append("Your face-down cards: " + " ".join(DRINK_CODES[c] for c in state.discards[seat]))
        if state.snack_hands[seat]:
            lines.append("Your snacks to arrange: " + " ".join(codes[d] for d in state.snack_hands[seat]))
        cols = "  ".join(
            f"{i + 1}[{' '.join(codes[d] for d in col)}]" for i, col in enumerate(state.columns[seat])
        )
        lines.append(f"Your snack columns: {cols}")
    if state.current_player is None:
        won = ", ".join(f"P{p}" for p in state.winners()) or "nobody"
        lines.append(f"Game over. Winners: {won}")
    else:
        lines.append(f"Now: {decision(state)}")
        if seat == state.current_player:
            lines.append("Legal: " + ", ".join(action_text(state, a) for a in state.legal_actions()))
    return "\n".join(lines)


RULES = {
    "en": """\
Hangover (draft 2) — a trick-taking game about drinking just enough. 3–5 players.

Cards: 56 drink cards, suits red R / blue B / yellow Y / green G, numbers 1–7, two of each:
a plain card and a △ copy (code R5^). The △ copy outranks the plain one of the same number only.
20 snack cards, each with two values (e.g. -2/+2); you choose one when you flip it.

Setup: 3 players remove the 6s and 7s, 4 players the 7s. Deal 11 drink cards and 4 snack cards
each; the rest are set aside unseen. Drunk limit L: 7 (3p), 12 (4p), 16 (5p).
Arrange: each player puts their 4 snacks face down in columns 1–4 (command: arrange a b c d).
Columns 1–4 stand for your own 1st–4th trick won.

Non-drinker: before trick 1, each player in turn may `declare` (or `pass`). An active
non-drinker gains 1 VP whenever another player wins a trick. The first trick they win puts them
out: their VP is frozen, but they can still win the game.

Tricks: the leader plays any card (`play R5`). Others follow clockwise: you must play the lead
suit if you can; otherwise any card. No trumps. Following cards are the face-up lead-suit cards,
the lead included; the highest (number, then △) wins. S = sum of the following cards' numbers.

The winner (a drinker) who wins their k-th trick:
- k = 5: Hangover! They are out and cannot win the game, whatever their VP.
- otherwise they may flip snack cards of column k one at a time (`flip -2/+2 +2`), adding the
  chosen value to S, or `stop`. Judgement on the adjusted sum S':
  S' < L: 1 VP; S' = L (just limit): 3 VP; S' > L: 0 VP; times (1 + cards flipped).
  If they flip nothing, column k's cards slide to column k+1 (not from column 4).
  Cards left in a used column stay there for good.
The trick winner leads next; if they are out, the next active player clockwise leads.

Eliminated players (out non-drinkers and hung-over players) still play one card per trick,
face down (`discard G2`); it never counts. They never lead and never score.

End: when hands are empty, or when no player is active (option: when at most one is).
Winner: the most VP among players who did not hang over; ties share the win.
All numbers above are options a designer may change (drunk_limit, vp_under, vp_just, vp_over,
hangover_trick, hand_size, snacks_per_player, removed_numbers, snack_deck, non_drinker,
end_when_one_active).
""",
    "ja": """\
ハングオーバー(草案2) — ちょうど良く飲むトリックテイキング。3〜5人。

カード: ドリンクカード56枚。赤R・青B・黄Y・緑Gの4スート、数字1〜7、各2枚
(無印と△付き、コードは R5^)。△は同じ数字の無印より上位で、それ以外には影響しない。
肴カード20枚。数字が2つ書かれ(例 -2/+2)、表にするときにどちらかを選ぶ。

準備: 3人なら6と7、4人なら7を取り除く。ドリンクカード11枚と肴カード4枚ずつ配り、
残りは山として伏せたまま使わない。泥酔値 L は 7(3人)、12(4人)、16(5人)。
肴の配置: 各自4枚を伏せて1〜4列目に並べる(コマンド: arrange a b c d)。
列1〜4は自分が取った1〜4トリック目を表す。

下戸宣言: 第1トリックの前に順番に `declare`(宣言)か `pass`。下戸は他のプレイヤーが
トリックを取るたびに1VP。自分が1トリックでも取ると脱落し、VPはそこで確定するが、
ゲームには敗北しない(勝者になりうる)。

トリック: リードは好きな1枚(`play R5`)。時計回りにフォローする: リードと同じスートが
あれば必ずその中から出す。なければ好きな1枚。切り札はない。フォローは表向きの
リードと同じスートのカード(リードを含む)。最も大きいもの(数字、同じなら△)が勝つ。
合計値 S = フォローされたカードの数字の合計。

トリックを取ったドリンカーが自分の k トリック目を取ったとき:
- k = 5: ハングオーバー! 脱落し、VPに関係なくゲームに敗北する。
- それ以外: k 列目の肴カードを1枚ずつ表にして(`flip -2/+2 +2`)選んだ数字を S に
  加えるか、`stop`。泥酔判定は調整後の合計値 S' で行う:
  S' < L なら1VP、S' = L(ジャストリミット)なら3VP、S' > L なら0VP。これに
  (1 + 表にした枚数) を掛ける。1枚も使わなければ k 列目のカードは k+1 列目へスライド
  (4列目からはしない)。使った列に残った伏せ札はそのまま残る。
トリックを取ったプレイヤーが次のリード。脱落していれば時計回りで次の脱落していない人。

脱落者(脱落した下戸とハングオーバーした人)も毎トリック1枚を裏向きに出す
(`discard G2`)。これはフォローとして扱わない。リードもせず、得点もしない。

終了: 手札がなくなるか、脱落していない人がいなくなったとき(オプションで1人以下)。
勝者: ハングオーバーしていない人のうちVPが最も多い人。同点は引き分け(全員勝者)。
上の数字はすべてデザイナーが変えられるオプション(drunk_limit, vp_under, vp_just,
vp_over, hangover_trick, hand_size, snacks_per_player, removed_numbers, snack_deck,
non_drinker, end_when_one_active)。
""",
}
