"""What results about Troika rest on (issue #54): the spec decisions behind each subject a finding
can be about, and what the game's `heuristic` bot assumes of the other players (see
`bodoge.games.hangover.assumptions` for why findings name them). `RULINGS` quotes
docs/rules/troika.md §8; a test checks each quote."""

from __future__ import annotations

HEURISTIC_ASSUMES = {
    "en": "judges each action by its own tiles' score now (a draw by the mean of the tiles it cannot "
    "see) and declares Troika whenever nobody has yet or its tiles already score well; it does not "
    "model the others' plans",
    "ja": "各手を自分のタイルの今の得点で評価し（引くときは見えないタイルの平均）、まだ誰もトロイカを"
    "宣言していないか、すでに得点が高ければ宣言します。他の人の狙いは読みません",
}

RULINGS = {
    "TR-D4": 'Declarer: tiles frozen, no more turns, counted towards the "all but one declared" end',
    "TR-D11": "Game-end tie: the last round's +2 winner among the tied players wins.",
    "TR-D17": "round 1 starts with seat 0 (the seed: the youngest player; the server seats players). "
    "Each later round's start passes one seat left (clockwise).",
    "TR-D21": "a declarer's round score uses the same best partition as everyone else's, even when "
    "that partition has waste.",
    "TR-D23": "There is no pass; `take` is always legal after the flip.",
    "TR-D24": "The Troika bonus counts in the ranking for chips",
}

SUBJECTS: dict[str, tuple[str, ...]] = {
    "choice:troika": ("TR-D4", "TR-D21", "TR-D24"),
    "choice:take": ("TR-D23",),
    "choice:return hand": ("TR-D23",),
    "seats": ("TR-D17",),
    "ties": ("TR-D11",),
    "winner": ("TR-D11",),
}
