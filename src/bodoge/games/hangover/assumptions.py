"""What results about Hangover rest on (issue #54): the spec decisions behind each subject a finding
can be about, and what the game's `heuristic` bot assumes of the other players.

A finding of `bodoge sim` names both, so that a designer can tell a property of draft 2 from a
property of our reading of it (a decision of docs/rules/hangover.md §8) or of our bots. `RULINGS`
quotes the decisions' words; a test checks each quote against the shipped spec.
"""

from __future__ import annotations

#: What the heuristic bot assumes of the others: its declaration is computed from this assumption,
#: so "the bots always declare" is its input as much as a result.
HEURISTIC_ASSUMES = {
    "en": "declares non-drinker by counting the drinkers declared so far and assuming that every seat "
    "still to speak declares (HO-4.2): a drinker who would then be forced to hang over declares",
    "ja": "下戸宣言は、それまでに飲むと決めた人数を数え、まだ宣言していない席は全員が下戸宣言すると"
    "仮定して決めます（HO-4.2）。その仮定でハングオーバーを避けられない飲み手は下戸宣言します",
}

#: Spec decisions by id: the decision's own words (docs/rules/hangover.md §8).
RULINGS = {
    "HO-D4": "Once, after the deal and the snack arrangement, before trick 1, in seat order from the "
    "start player. Each answer is public, and several players may declare.",
    "HO-D6": "does an eliminated non-drinker keep gaining +1 per trick? No, their VP is frozen at "
    "elimination.",
    "HO-D9": "One active player left: play goes on by default. They lead, win every trick, are judged "
    "normally and can still hang over. No active player left: the game ends and the remaining cards "
    "are not played.",
    "HO-D10": "Winners: hung-over players are excluded whatever their VP. Eliminated non-drinkers are "
    "included.",
    "HO-D11": "After the winner and S are known, before VP are awarded. Flipping when the result is "
    "still over the limit is legal",
    "HO-D15": "Tied VP at game end: a shared win",
    "HO-D19": "the start player is seat 0.",
}

#: The decisions each subject rests on: `choice:<option>` (a decision's option, in the words of
#: `bodoge.agents.counterfactual.vocabulary`), `end:<reason>`, `seats`, `ties`, `winner`.
SUBJECTS: dict[str, tuple[str, ...]] = {
    "choice:declare": ("HO-D4", "HO-D6", "HO-D9"),
    "choice:pass": ("HO-D4", "HO-D6", "HO-D9"),
    "choice:flip": ("HO-D11",),
    "choice:stop": ("HO-D11",),
    "end:no_active_player": ("HO-D9", "HO-D6", "HO-D10"),
    "end:one_active_player": ("HO-D9",),
    "seats": ("HO-D19", "HO-D4"),
    "ties": ("HO-D15", "HO-D6"),
    "winner": ("HO-D10",),
}
