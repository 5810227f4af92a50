"""Troika's words: action texts, the terminal board, the rules summary and the game's terms."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bodoge.games.troika.cards import tiles_of

if TYPE_CHECKING:
    from bodoge.games.troika.rules import TroikaState

NAMES: dict[str, dict[str, str]] = {
    "troika": {"en": "Troika", "ja": "トロイカ"},
    "declaration": {"en": "Troika declaration", "ja": "トロイカ宣言"},
    "tile": {"en": "tile", "ja": "鉱石タイル"},
    "mine": {"en": "mine", "ja": "採掘場"},
    "face_up": {"en": "face up", "ja": "表向き"},
    "face_down": {"en": "face down", "ja": "裏向き"},
    "pool": {"en": "face-down pool", "ja": "裏向きの山"},
    "container": {"en": "container", "ja": "コンテナ"},
    "hand": {"en": "hand", "ja": "手札"},
    "fuel": {"en": "fuel", "ja": "燃料"},
    "jewel": {"en": "jewel", "ja": "宝石"},
    "waste": {"en": "waste", "ja": "ゴミ"},
    "left_behind": {"en": "left behind", "ja": "オキザリ"},
    "start_player": {"en": "start player", "ja": "始まりの冒険者"},
    "turn": {"en": "turn", "ja": "手番"},
    "round": {"en": "round", "ja": "ラウンド"},
    "round_score": {"en": "round score", "ja": "得点"},
    "chip": {"en": "chip", "ja": "チップ"},
    "take": {"en": "take", "ja": "取る"},
    "draw": {"en": "draw", "ja": "引く"},
    "return_hand": {"en": "return a hand tile face down", "ja": "手札を裏向きで戻す"},
    "return_container": {"en": "return a container tile face up", "ja": "コンテナのタイルを表向きで戻す"},
}


def action_text(action: int) -> str:
    """`take 7`, `draw`, `return hand 7`, `return container 7`, `troika`."""
    if 0 <= action < 15:
        return f"take {action + 1}"
    if action == 15:
        return "draw"
    if 16 <= action < 31:
        return f"return hand {action - 15}"
    if 31 <= action < 46:
        return f"return container {action - 30}"
    if action == 46:
        return "troika"
    return f"action {action}"


def event_text(e: dict[str, Any]) -> str:
    """One log event as a line a player reads (hidden tiles stay hidden: `tile` is None then)."""
    kind = e["type"]
    if kind == "round_start":
        return f"Round {e['round']} begins; P{e['start_player']} starts."
    if kind == "removed":
        return f"{e['count']} tiles are set aside unseen for this round."
    if kind == "troika":
        return f"P{e['seat']} declares Troika!" + (" (first: bonus)" if e["first"] else "")
    if kind == "round_end":
        lines = [
            f"Round {e['round']} ends ({'no face-down tile left' if e['reason'] == 'pool_empty' else 'all but one declared'})."
        ]
        for p in e["players"]:
            sets = " ".join("-".join(map(str, s)) for s in p["sets"]) or "no set"
            if p["left_behind"]:
                result = "left behind (no fuel)"
            else:
                bonus = f" + bonus {p['bonus']}" if p["bonus"] else ""
                result = f"score {p['tile_score']}{bonus} = {p['round_score']}, placement {p['placement']}"
            lines.append(
                f"  P{p['seat']}: {sets}; waste {_tiles(p['waste'])}; {result}; chips {p['chips']:+d} → {p['chip_total']}"
            )
        return "\n".join(lines)
    seat, tile = e["seat"], e["tile"]
    shown = "a tile" if tile is None else f"tile {tile}"
    if kind == "deal":
        return f"P{seat} is dealt {shown}."
    if kind == "flip":
        return f"{'Setup' if seat is None else f'P{seat}'} flips {shown} face up."
    if kind == "take":
        return f"P{seat} takes {shown} into their container."
    if kind == "draw":
        return f"P{seat} draws {shown}."
    if kind == "return_hand":
        return f"P{seat} returns {shown} from their hand face down."
    if kind == "return_container":
        return f"P{seat} returns {shown} from their container face up."
    return kind


def event_text_ja(e: dict[str, Any]) -> str:
    """`event_text` in Japanese: the same facts in the game's own terms (hidden tiles stay hidden)."""
    kind = e["type"]
    if kind == "round_start":
        return f"ラウンド{e['round']}開始。始まりの冒険者はP{e['start_player']}です。"
    if kind == "removed":
        return f"このラウンドは鉱石タイル{e['count']}枚を見ずに除外します。"
    if kind == "troika":
        return f"P{e['seat']}がトロイカ宣言!" + ("(最初の宣言:ボーナスあり)" if e["first"] else "")
    if kind == "round_end":
        why = (
            "裏向きのタイルがなくなりました" if e["reason"] == "pool_empty" else "1人を除く全員が宣言しました"
        )
        lines = [f"ラウンド{e['round']}終了({why})。"]
        for p in e["players"]:
            sets = "、".join(_set_ja(s) for s in p["sets"]) or "セットなし"
            if p["left_behind"]:
                result = "オキザリ(燃料なし)"
            else:
                bonus = f" + ボーナス{p['bonus']}" if p["bonus"] else ""
                result = f"得点 {p['tile_score']}{bonus} = {p['round_score']}、{p['placement']}位"
            lines.append(
                f"  P{p['seat']}: {sets};ゴミ {_tiles(p['waste'])};{result};"
                f"チップ {p['chips']:+d} → {p['chip_total']}"
            )
        return "\n".join(lines)
    seat, tile = e["seat"], e["tile"]
    if kind == "deal":
        return (
            f"P{seat}に鉱石タイルが1枚配られました。"
            if tile is None
            else f"P{seat}にタイル{tile}が配られました。"
        )
    if kind == "flip":
        who = "準備:" if seat is None else f"P{seat}が"
        what = "裏向きのタイルを1枚" if tile is None else f"タイル{tile}を"
        return f"{who}{what}表向きにしました。"
    if kind == "take":
        what = "表向きのタイルを1枚" if tile is None else f"表向きのタイル{tile}を"
        return f"P{seat}が{what}コンテナに入れました。"
    if kind == "draw":
        what = "タイルを1枚" if tile is None else f"タイル{tile}を"
        return f"P{seat}が裏向きの山から{what}手札に引きました。"
    if kind == "return_hand":
        what = "手札のタイルを1枚" if tile is None else f"手札のタイル{tile}を"
        return f"P{seat}が{what}裏向きで戻しました。"
    if kind == "return_container":
        what = "コンテナのタイルを1枚" if tile is None else f"コンテナのタイル{tile}を"
        return f"P{seat}が{what}表向きで採掘場に戻しました。"
    return kind


def _set_ja(s: list[int]) -> str:
    """A scored set with its kind: 燃料 (three of a number) or 宝石 (three in a row)."""
    kind = "燃料" if len(set(s)) == 1 else "宝石"
    return f"{kind} {'-'.join(map(str, s))}"


def _tiles(tiles: list[int]) -> str:
    return " ".join(str(t) for t in tiles) if tiles else "-"


def render(state: TroikaState, seat: int | None) -> str:
    """A compact board from `seat`'s point of view (others' hands hidden until round scoring)."""
    g = state.game
    n = g.num_players
    lines = [
        f"Troika トロイカ — round {state.round}/{g.rounds}, start player P{state.start_player}"
        + (f", {state.removed_size} tiles set aside" if state.removed_size else ""),
        f"mine (face up): {_tiles(tiles_of(state.mine))}    face-down pool: {len(state.pool)} tiles",
    ]
    for q in range(n):
        mark = ">" if q == state.current_player else " "
        who = f"P{q}" + (" (you)" if q == seat else "")
        if q == seat or state.current_player is None:
            hand = _tiles(tiles_of(state.hands[q]))
        else:
            hand = f"{state.hand_sizes[q]} hidden"
        flags = []
        if state.declared[q]:
            flags.append("TROIKA (first)" if state.first_declarer == q else "TROIKA")
        line = (
            f"{mark} {who:<9} chips {state.chips[q]:>3}  container: {_tiles(tiles_of(state.containers[q]))}"
            f"  | hand: {hand}"
        )
        if flags:
            line += "  " + " ".join(flags)
        lines.append(line)
    if seat is not None and state.known_sizes[seat]:
        lines.append(
            f"your tiles returned face down, still in the pool: {_tiles(tiles_of(state.known[seat]))}"
        )
    from bodoge.games.troika.rules import E_ROUND_END, round_end_view

    ends = [e for e in state.events if e[0] == E_ROUND_END]
    if ends:
        last = round_end_view(ends[-1], g)
        lines.append(f"round {last['round']} result ({last['reason'].replace('_', ' ')}):")
        for p in last["players"]:
            sets = " ".join("-".join(str(t) for t in s) for s in p["sets"]) or "no sets"
            score = "left behind" if p["left_behind"] else f"score {p['round_score']}"
            if p["bonus"]:
                score += f" (incl. bonus {p['bonus']})"
            lines.append(
                f"  P{p['seat']}: {sets}; waste {_tiles(p['waste'])}; {score}; chips {p['chips']:+d}"
                f" (total {p['chip_total']}), place {p['placement']}"
            )
    if state.current_player is None:
        winners = state.winners()
        lines.append(
            "game over — winner"
            + ("s" if len(winners) > 1 else "")
            + ": "
            + ", ".join(f"P{w}" for w in winners)
        )
    elif seat == state.current_player:
        legal = ", ".join(action_text(a) for a in state.legal_actions())
        lines.append(f"your turn: {legal}")
    else:
        lines.append(f"P{state.current_player} to play")
    return "\n".join(lines)


RULES: dict[str, str] = {
    "en": """\
Troika (Oink Games, Jun Sasaki 2017) — 2 to 5 players, 3 rounds.

Tiles: 49 ore tiles numbered 1–15, three of each number and seven 7s.
Sets are exactly 3 tiles:
  fuel  = three of the same number (worth 0). You need at least one fuel
          at round end, or you are LEFT BEHIND (−1 chip, no score).
  jewel = three consecutive numbers (x, x+1, x+2; no wrap from 15 to 1),
          worth the ONES DIGIT of its highest tile: 7-8-9 = 9, 8-9-10 = 0,
          13-14-15 = 5.
  waste = every tile in no set: −1 each.
Your hand and your container together are scored with the best partition.

Setup each round: all tiles face down in the mine. One tile to each hand
(start player first), one tile face up. With 2 players 10 tiles are set
aside unseen first. Round r starts with seat (r − 1) mod n.

Your turn: first a face-down tile is flipped face up (always). Then do ONE:
  take N               put a face-up tile N into your container (face up)
  draw                 take a face-down tile into your hand (hand ≤ 3)
  return hand N        put a hand tile back face down (only you know it)
  return container N   put a container tile back face up into the mine
  troika               declare (3+ players): your container has 5+ tiles and
                       hand + container split into sets with no waste and at
                       least one fuel. You then take no more turns this round.
                       The first declarer gets +5 to the round score.

The round ends at the end of a turn when no face-down tile remains, or when
all players but one have declared. Then every hand and container is shown
and scored.

Chips each round: the highest score gets +2 (all tied for highest get +2).
If the highest is unique, the second highest gets +1. Left-behind players
get −1 and are not ranked.

After 3 rounds the most chips wins. Ties: the better placement in the last
round wins; still tied, the win is shared.
""",
    "ja": """\
トロイカ(オインクゲームズ、佐々木隼 2017)— 2〜5人、3ラウンド。

タイル:1〜15の鉱石タイル49枚(各3枚、7だけ7枚)。
セットはちょうど3枚:
  燃料 = 同じ数字3枚(0点)。ラウンド終了時に燃料が1つもなければ
         オキザリ(−1チップ、得点なし)。
  宝石 = 連続する3つの数字(x, x+1, x+2。15から1へはつながらない)。
         いちばん大きい数字の一の位が得点:7-8-9 = 9、8-9-10 = 0、
         13-14-15 = 5。
  ゴミ = どのセットにも入らないタイル。1枚につき−1点。
手札とコンテナを合わせ、いちばん得点の高い分け方で数えます。

各ラウンドの準備:全タイルを裏向きで採掘場へ。始まりの冒険者から1枚ずつ
手札に配り、1枚を表向きにします。2人のときは先に10枚を見ずに除きます。
ラウンドrの始まりの冒険者は席 (r − 1) mod n。

手番:まず裏向きのタイルを1枚めくります(必ず)。そのあと次のどれか1つ:
  take N               表向きのタイルNをコンテナへ(表向き)
  draw                 裏向きのタイルを1枚手札へ(手札は3枚まで)
  return hand N        手札のタイルを裏向きで戻す(数字は自分だけが知る)
  return container N   コンテナのタイルを表向きで採掘場へ戻す
  troika               トロイカ宣言(3人以上):コンテナに5枚以上あり、
                       手札+コンテナがゴミなしでセットに分けられ、燃料が
                       1つ以上あること。宣言後このラウンドは手番なし。
                       最初の宣言者は得点+5。

手番の終わりに裏向きのタイルがなくなるか、1人を除く全員が宣言したら
ラウンド終了。全員の手札とコンテナを公開して得点計算します。

チップ:最高得点に+2(同点なら全員+2)。最高が1人だけなら2位に+1
(同点なら全員)。オキザリは−1で順位に入りません。

3ラウンド後、チップの合計が最も多い人の勝ち。同点なら最終ラウンドの
順位が上の人、それも同じなら勝利を分け合います。
""",
}
