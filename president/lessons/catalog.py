"""The lessons' positions, moves and "why" texts, as data (read by :mod:`president.lessons`).

Each lesson is a game record in the ``president/2`` format (``docs/records.md``): rules,
names and deals whose hands are written in card notation. Beside every step of the record
(the start of each deal, each exchange transfer, each action) stands a plain-words "why",
and a few moves worth trying in the position that step leaves (:meth:`Lesson.try_move
<president.lessons.Lesson.try_move>` answers them with the engine's reason).

The stories follow the seeds: ``000_2ebb75a2290c9d05.txt`` (its demonstrations before the
first deal and its pass-and-re-enter example) and ``004_7dd5a514fa081721.txt`` (its first-night
walk-through and the swap after it); the twist lessons put one twist of
:data:`president.rules.TWISTS` (or first-night's last-of-a-rank rule) on a small position
where it changes what happens. Every text here is our own wording.

Data only: nothing is imported, so :mod:`president.lessons` stays part of the pure core.
"""

from __future__ import annotations

from typing import Any

SEED_HOUSE = "000_2ebb75a2290c9d05.txt"
SEED_FIRST_NIGHT = "004_7dd5a514fa081721.txt"
SEED_FAMILY = "001_6a3b64d15368b01c.txt"

HOUSE_NAMES = ["Alex", "Blair", "Casey", "Drew"]
COMPASS = ["West", "North", "East", "South"]


def S(entry: str, why: str, *tries: str) -> tuple[str, str, tuple[str, ...]]:
    """One step: the record entry (``"1 KC KD"``, ``"3>0 2D AS"``), why it is played, and
    moves to try in the position it leaves."""
    return (entry, why, tries)


def D(hands: list[str], why: str, *tries: str, dealer: int = 3,
      exchange: list[tuple[str, str, tuple[str, ...]]] | None = None,
      actions: list[tuple[str, str, tuple[str, ...]]] | None = None,
      seating: list[int] | None = None) -> dict[str, Any]:
    """One deal: the hands by seat, why the deal starts as it does (who leads), moves to try
    in the dealt position, the exchange transfers and the actions (each an :func:`S`)."""
    return {"hands": hands, "why": why, "tries": tries, "dealer": dealer,
            "exchange": exchange or [], "actions": actions or [], "seating": seating}


# Seed 000's pass-and-re-enter table: Blair holds the kings, Casey the nines.
_REENTER_HANDS = ["5C 5H 3D 4D", "KD KS 3C 4C", "9D 9S 6C 7C", "6D 6H 8C 8D"]

SPECS: list[dict[str, Any]] = [
    # ----- the house-match guide ---------------------------------------------------------
    {
        "id": "single-against-pair",
        "title": "A lone 2 against a pair",
        "source": SEED_HOUSE,
        "rules": {"preset": "house", "players": 4},
        "players": HOUSE_NAMES,
        "summary": "The first play on a pile fixes how many cards every later play on it "
                   "must have. A 2 is the highest rank, yet one 2 cannot answer a pair; three "
                   "kings are one card too many, while two of them are just right.",
        "deals": [D(
            ["QC QD 3C 5D", "KC KD KH 2S", "AC AD 4C 6D", "2C 2D 5C 7D"],
            "Alex, Blair, Casey and Drew sit clockwise. Drew dealt, so Alex, sitting just "
            "after the dealer, opens the first pile. In a lesson every hand is face up; at "
            "a real table you see only your own.",
            "pass", "QC QD",
            actions=[
                S("0 QC QD",
                  "Alex leads a pair of queens. From now until this pile is cleared, every "
                  "play on it must be exactly two cards of one rank, or a pass.",
                  "2S", "KC KD KH", "KC KD"),
                S("1 KC KD",
                  "Blair's 2 outranks every other card, but it is one card and the pile wants "
                  "two, so it may not go here. All three kings would be three cards: the "
                  "wrong size as well. Two kings are a pair higher than queens, so Blair "
                  "plays two of them and keeps the third for later.",
                  "4C", "AC AD"),
                S("2 AC AD",
                  "Casey now has to beat the kings, not the queens: the latest play is always "
                  "the one to beat. A pair of aces does.",
                  "2C", "2C 2D"),
                S("3 2C 2D",
                  "Drew plays a pair of 2s. Twos are just the top rank, so two of them beat "
                  "two aces, where a single 2 could not have been played at all.",
                  "3C", "pass"),
                S("0 pass",
                  "Alex has no pair left, so passing is the only move.",
                  "2S", "KH", "pass"),
                S("1 pass",
                  "Blair still holds a 2 and a king, but each is a single card and the pile "
                  "takes only pairs. Blair passes.",
                  "pass", "4C 6D"),
                S("2 pass",
                  "Casey passes as well. Each of the other three players has now passed in "
                  "turn since Drew's 2s, so the pile is cleared, and Drew, who made the "
                  "latest play, starts the next one.",
                  "pass", "5C"),
                S("3 5C",
                  "A new pile can have any size. Drew leads a single 5, so now single cards "
                  "are wanted. It is Alex's turn first (try Blair 2S now and the engine says "
                  "so), but when the turn comes round to Blair, Blair's lone 2 will at last "
                  "be a legal answer. A 5 cannot be answered by the other 5: an equal rank "
                  "never beats under these rules.",
                  "5D", "3C", "1 2S", "pass"),
            ])],
    },
    {
        "id": "pass-and-re-enter",
        "title": "Pass now, come back in later",
        "source": SEED_HOUSE,
        "rules": {"preset": "house", "players": 4},
        "players": HOUSE_NAMES,
        "summary": "Under the main rules a pass only skips your current turn. You may play "
                   "again on the same pile when the turn comes back, and the pile is cleared "
                   "only when everyone else has passed since the latest play.",
        "deals": [D(
            _REENTER_HANDS,
            "Alex, Blair, Casey and Drew sit clockwise and Drew dealt, so Alex leads. Keep "
            "an eye on Blair's pair of kings: Blair will pass once and still use them on "
            "this very pile.",
            "5C 5H", "pass",
            actions=[
                S("0 5C 5H",
                  "Alex leads a pair of 5s, so this pile is for pairs.",
                  "KD KS", "3C", "pass"),
                S("1 pass",
                  "Blair could beat the 5s with the kings but decides to wait. You may pass "
                  "whenever it is your turn, even when you hold cards that would beat the "
                  "pile (only the leader of an empty pile must play).",
                  "6C 7C", "9D 9S"),
                S("2 9D 9S",
                  "Casey plays a pair of 9s. They are now the play to beat; the 5s "
                  "underneath no longer matter.",
                  "6D 6H", "8C 8D", "pass"),
                S("3 pass",
                  "Drew's 6s and 8s are both lower than 9s, so Drew passes. That is one pass "
                  "since the 9s.",
                  "3D 4D", "pass"),
                S("0 pass",
                  "Alex has no pair above 9s and passes: two passes since the 9s. Blair's "
                  "pass came before the 9s were played, and passes are counted from the "
                  "latest play, so the pile stays and the turn comes round to Blair again.",
                  "KD KS", "pass"),
                S("1 KD KS",
                  "Blair comes back in with the kings: the earlier pass cost only that one "
                  "turn. The kings become the play to beat, and the count of passes starts "
                  "again from nothing.",
                  "6C 7C", "pass"),
                S("2 pass",
                  "Casey has no pair above kings and passes.",
                  "8C 8D", "pass"),
                S("3 pass",
                  "Drew passes too: two passes since the kings.",
                  "3D 4D", "pass"),
                S("0 pass",
                  "With Alex's pass, all three other players have passed one after another "
                  "since the kings. The pile is cleared and Blair, who made the latest play, "
                  "leads the next one.",
                  "pass", "3C", "2 6C"),
                S("1 3C",
                  "Nobody may pass on an empty pile, so Blair has to put something down, and "
                  "any single card or set will do. Blair leads a single 3.",
                  "6C", "1 4C"),
            ])],
    },
    {
        "id": "last-cards-lead",
        "title": "When the kings were Blair's last cards",
        "source": SEED_HOUSE,
        "rules": {"preset": "house", "players": 4},
        "players": HOUSE_NAMES,
        "summary": "The same story with one change: Blair's kings are Blair's last cards. "
                   "Blair goes out at once, the kings still have to be answered, and after "
                   "the pile clears the lead goes round to the first player after Blair with "
                   "cards left.",
        "deals": [D(
            ["5C 5H 3D 4D", "KD KS", "9D 9S 6C 7C", "6D 6H 8C 8D"],
            "The same table and the same first plays as in the pass-and-re-enter lesson, "
            "except that Blair holds nothing but the two kings. Drew dealt; Alex leads.",
            "5C 5H",
            actions=[
                S("0 5C 5H",
                  "Alex leads a pair of 5s.",
                  "KD KS", "pass"),
                S("1 pass",
                  "Blair waits with the kings.",
                  "9D 9S"),
                S("2 9D 9S",
                  "Casey plays a pair of 9s over the 5s.",
                  "8C 8D", "pass"),
                S("3 pass",
                  "Drew has nothing above 9s in a pair and passes.",
                  "pass"),
                S("0 pass",
                  "Alex passes. Only two players have passed since the 9s, so Blair gets "
                  "another turn on this pile.",
                  "KD KS"),
                S("1 KD KS",
                  "Blair plays the kings and has no cards left: Blair goes out at once, in "
                  "first place (President). The kings stay on the pile as the play to beat, "
                  "so the others must still answer them or pass.",
                  "pass", "1 pass"),
                S("2 pass",
                  "Casey passes. Blair is out and cannot answer the kings, but the count is "
                  "the same as in the pass-and-re-enter lesson: the pile clears only once "
                  "Casey, Drew and Alex, the three others, have each passed since the kings. "
                  "What Blair's going out changes is who leads after that.",
                  "8C 8D", "pass"),
                S("3 pass",
                  "Drew passes. Two passes so far, so the pile stays until Alex has answered.",
                  "pass"),
                S("0 pass",
                  "Alex's pass makes three. The pile is cleared, but Blair has no cards to "
                  "lead with, so the lead moves clockwise to the next player who still holds "
                  "cards: Casey.",
                  "6C", "3 8C"),
                S("2 6C",
                  "Casey leads a single 6 and the deal goes on among the three players who "
                  "still hold cards; Blair watches until the deal is over.",
                  "6D", "8C", "1 pass"),
            ])],
    },
    # ----- the first-night guide ---------------------------------------------------------
    {
        "id": "first-night",
        "title": "A first-night hand, then the swap",
        "source": SEED_FIRST_NIGHT,
        "rules": {"preset": "first-night", "twists": ["swap"], "players": 4},
        "players": COMPASS,
        "summary": "One whole hand under the first-night rules (equal or higher, last of a "
                   "rank clears), seen from West's chair: who wins each pile, who goes out in "
                   "which place, and then the card swap before the next deal.",
        "deals": [
            D(["9C 9D AC 2C 2D", "JC JD 2H 4C 4D 4H 4S", "5C 5D 6C", "AH AS KC 3C 3D"],
              "West, North, East and South sit clockwise, and South dealt, so West (on "
              "South's left) plays first. Sit in West's chair. Under these rules a play may "
              "be answered by the same rank as well as a higher one, and a play that "
              "completes all four cards of a rank on the pile clears it.",
              "9C 9D", "pass",
              actions=[
                  S("0 9C 9D",
                    "West leads a pair of 9s: pairs for the rest of this pile.",
                    "JC JD", "4C 4D 4H 4S"),
                  S("1 JC JD",
                    "North covers the 9s with a pair of jacks: the same count, a higher rank.",
                    "5C 5D", "pass"),
                  S("2 pass",
                    "East's only pair is two 5s, lower than jacks, so East passes.",
                    "AH AS", "3C 3D"),
                  S("3 AH AS",
                    "South plays a pair of aces over the jacks.",
                    "2C 2D", "AC", "pass"),
                  S("0 pass",
                    "West could top the aces with the pair of 2s, but keeps them: a pair of "
                    "2s is the one pair nobody can get above, so it is worth saving for a "
                    "pile West really wants. Passing now does not stop West from playing "
                    "later on this pile.",
                    "4C 4D", "pass"),
                  S("1 pass",
                    "North has no pair as high as aces and passes.",
                    "pass"),
                  S("2 pass",
                    "East passes as well. Everyone else has passed since South's aces, so "
                    "the pile is cleared and South leads.",
                    "pass", "KC"),
                  S("3 KC",
                    "South leads a single king: singles now.",
                    "AC", "2C"),
                  S("0 AC",
                    "West answers with a single ace.",
                    "2H", "4C"),
                  S("1 2H",
                    "North plays a 2, the highest rank there is.",
                    "pass", "0 2C"),
                  S("2 pass",
                    "East has nothing that reaches a 2 and passes.",
                    "pass", "3C"),
                  S("3 pass",
                    "South passes too.",
                    "2C", "2C 2D", "pass"),
                  S("0 pass",
                    "No rank is above a 2. Under equal-or-higher West could still meet it "
                    "with one of the two 2s, but that would break up the pair, so West "
                    "passes. All three have passed since North's 2: the pile is cleared and "
                    "North leads.",
                    "4C", "4C 4D 4H 4S"),
                  S("1 4C 4D 4H 4S",
                    "North leads all four 4s at once and so empties the hand: North is out "
                    "first and will be President in the next deal. Four of a rank on the "
                    "pile also complete that rank, which under these rules clears the pile "
                    "at once. North has nothing left to lead with, so the first player "
                    "after North with cards left, East, leads.",
                    "5C 5D", "1 pass"),
                  S("2 5C 5D",
                    "East leads a pair of 5s.",
                    "3C 3D", "pass"),
                  S("3 pass",
                    "South's pair of 3s is lower than 5s, so South passes.",
                    "2C 2D", "AC"),
                  S("0 2C 2D",
                    "Now West plays the pair of 2s. They were West's last cards: West goes "
                    "out second, Vice-President.",
                    "pass", "6C"),
                  S("2 pass",
                    "East has only one card left and cannot answer a pair.",
                    "3C 3D", "pass"),
                  S("3 pass",
                    "South passes. West is out, so both players still holding cards had to "
                    "pass before the pile could clear. The lead goes clockwise from West, "
                    "past North (out as well), to East.",
                    "6C"),
                  S("2 6C",
                    "East leads the last card and goes out third. Only South still holds "
                    "cards, so the deal ends at once without South playing them: South takes "
                    "the bottom seat. North is President, West Vice-President, East "
                    "Vice-Scum (second from the bottom, also called VP-bottom) and South "
                    "bottom.",
                    "3C"),
              ]),
            D(["3D 5S 8H 10C QH", "4C 6H 9D JS KD", "3S 7C 10D JH 2S", "4H 6C 9H AS 2D"],
              "A new deal. The players now sit in the order they finished, clockwise from "
              "the President: North, West, East, South, and South, the bottom seat, deals. "
              "These rules include the swap: before anyone plays, the bottom gives the "
              "President their two best cards and gets the President's two worst, and the "
              "Vice-Scum and the Vice-President trade one card the same way.",
              "4H 6C", "2D AS",
              seating=[1, 0, 2, 3],
              exchange=[
                  S("3>0 2D AS",
                    "South has no choice: the two highest cards, the 2 and the ace, go to "
                    "North.",
                    "QH 10C", "3D 5S", "2D"),
                  S("0>3 3D 5S",
                    "North gives two cards back, and under these rules they are North's two "
                    "lowest: the 3 and the 5.",
                    "7C", "2S"),
                  S("2>1 2S",
                    "East, second from the bottom, must hand Vice-President West the best "
                    "card in the hand: the 2 of spades.",
                    "KD", "4C"),
                  S("1>2 4C",
                    "West returns one card to East, the lowest one. The swap is done, and "
                    "every hand has its dealt size again.",
                    "pass", "8H"),
              ],
              actions=[
                  S("0 8H",
                    "North, the President, leads the first pile of the new deal, holding "
                    "South's 2 and ace for later.",
                    "9D", "KD", "4C"),
              ]),
        ],
    },
    # ----- twists -----------------------------------------------------------------------
    {
        "id": "sit-out",
        "title": "Twist: pass and sit out",
        "source": SEED_HOUSE,
        "twist": "sit-out",
        "contrast": {"preset": "house", "players": 4},
        "rules": {"preset": "house", "twists": ["sit-out"], "players": 4},
        "players": HOUSE_NAMES,
        "summary": "The cards of the pass-and-re-enter lesson, played under the sit-out "
                   "twist: a pass takes you out of the pile until it is cleared, so Blair's "
                   "kings never come back in and Casey wins the pile instead.",
        "deals": [D(
            _REENTER_HANDS,
            "Drew dealt, so Alex leads. Under sit-out, passing is a commitment: whoever "
            "passes is skipped for the rest of this pile, and the pile clears as soon as "
            "nobody but its latest player is left in it.",
            "5C 5H",
            actions=[
                S("0 5C 5H",
                  "Alex leads a pair of 5s.",
                  "KD KS", "pass"),
                S("1 pass",
                  "Blair passes to save the kings, as in the main-rules lesson. This time "
                  "the pass takes Blair out of this pile: the turn will not come back.",
                  "9D 9S"),
                S("2 9D 9S",
                  "Casey plays a pair of 9s.",
                  "8C 8D", "pass"),
                S("3 pass",
                  "Drew cannot beat 9s and passes, and is out of this pile too.",
                  "pass", "1 KD KS"),
                S("0 pass",
                  "Alex passes. Blair, Drew and Alex have all passed on this pile, so nobody "
                  "is left who may answer the 9s: the pile is cleared and Casey leads. Under "
                  "the main rules the turn would have gone back to Blair, who could have "
                  "played the kings and won the pile.",
                  "1 KD KS", "6C"),
                S("2 6C",
                  "On the new pile everyone holding cards may play again, Blair included. "
                  "Casey leads a single 6.",
                  "6D", "8C"),
            ])],
    },
    {
        "id": "once-around",
        "title": "Twist: once around",
        "source": SEED_FAMILY,
        "twist": "once-around",
        "contrast": {"preset": "family", "players": 4},
        "rules": {"preset": "family", "twists": ["once-around"], "players": 4},
        "players": HOUSE_NAMES,
        "summary": "Under the once-around twist, after a lead every other player gets "
                   "exactly one turn on the pile, to play or to pass; then the pile is "
                   "cleared, even if the leader would have liked to answer.",
        "deals": [D(
            ["5C KC 3D", "9C 4C 6D", "3C 4D 6C", "3H 4H 8C"],
            "Drew dealt, so Alex leads. Each pile now lasts exactly one trip around the "
            "table after its lead.",
            "pass", "5C",
            actions=[
                S("0 5C",
                  "Alex leads a single 5. Blair, Casey and Drew will have one turn each on "
                  "this pile.",
                  "9C", "4C"),
                S("1 9C",
                  "Blair plays a 9.",
                  "6C", "pass"),
                S("2 pass",
                  "Casey holds nothing above a 9 and passes.",
                  "8C", "pass"),
                S("3 pass",
                  "Drew passes, and that was the last of the three turns. The pile is "
                  "cleared and Blair, whose 9 is the latest play, leads. Alex's king never "
                  "gets its chance: under the main rules the turn would now come back to "
                  "Alex, who could beat the 9.",
                  "4C", "0 KC"),
                S("1 4C",
                  "Blair leads a single 4. This time Casey, Drew and Alex get their one "
                  "turn each.",
                  "6C", "pass"),
                S("2 6C",
                  "Casey plays a 6.",
                  "8C", "4H"),
                S("3 8C",
                  "Drew plays an 8.",
                  "KC", "3D"),
                S("0 KC",
                  "Alex plays the king. That was the third and last turn after Blair's "
                  "lead, so the pile is cleared straight away, without Blair getting to "
                  "answer, and Alex leads next.",
                  "pass", "3D"),
            ])],
    },
    {
        "id": "equal-plays",
        "title": "Twist: equal plays",
        "source": SEED_FAMILY,
        "twist": "equal-plays",
        "contrast": {"preset": "family", "players": 4},
        "rules": {"preset": "family", "twists": ["equal-plays"], "players": 4},
        "players": HOUSE_NAMES,
        "summary": "Under the equal-plays twist a play may be answered with the same rank "
                   "as well as a higher one. Here that lets Blair get rid of a 7 and go out "
                   "first.",
        "deals": [D(
            ["7C 3D 4D", "7D 4S", "5C 6C", "3C 5D"],
            "Drew dealt, so Alex leads. Watch Blair's 7: under the family rules as written "
            "it could never be played on another 7.",
            "7C",
            actions=[
                S("0 7C",
                  "Alex leads a single 7.",
                  "7D", "4S", "pass"),
                S("1 7D",
                  "Blair answers the 7 with another 7. Without the twist that is refused, "
                  "since a play must be strictly higher; with it, an equal rank is enough.",
                  "6C", "pass"),
                S("2 pass",
                  "Casey needs a 7 or better and has none.",
                  "5D", "pass"),
                S("3 pass",
                  "Drew cannot answer either.",
                  "3D", "pass"),
                S("0 pass",
                  "Alex passes too: the pile is cleared and Blair leads.",
                  "4S"),
                S("1 4S",
                  "Blair leads the last card and goes out first. Without equal plays the 7 "
                  "would still be in Blair's hand.",
                  "5C", "1 pass"),
            ])],
    },
    {
        "id": "last-of-rank",
        "title": "Last of a rank clears the pile",
        "source": SEED_FIRST_NIGHT,
        "contrast": {"preset": "first-night", "players": 4, "last_of_rank_clears": False},
        "rules": {"preset": "first-night", "players": 4},
        "players": COMPASS,
        "summary": "Under the first-night rules, a play that puts the fourth card of a rank "
                   "on the pile clears it at once, and whoever played it leads again: the "
                   "others get no chance to answer.",
        "deals": [D(
            ["9C 9D 4C", "9H 9S 5C 8D", "JC JD 3D", "2C 2D 6C"],
            "South dealt, so West leads. Two 9s are in West's hand and the other two in "
            "North's.",
            "9C 9D",
            actions=[
                S("0 9C 9D",
                  "West leads a pair of 9s.",
                  "9H 9S", "5C", "pass"),
                S("1 9H 9S",
                  "North meets them with the other two 9s, which equal-or-higher allows. Now "
                  "all four 9s lie on the pile, so it is cleared at once, without waiting "
                  "for passes, and North leads again. East's jacks and South's 2s never get "
                  "their turn on it; without this rule East could have answered with the "
                  "jacks.",
                  "5C", "2 JC JD"),
                S("1 5C",
                  "North leads a single 5 on the fresh pile.",
                  "3D", "JC"),
            ])],
    },
    {
        "id": "lowest-three-starts",
        "title": "Twist: the lowest three starts",
        "source": SEED_FAMILY,
        "twist": "lowest-three-starts",
        "contrast": {"preset": "family", "players": 4},
        "rules": {"preset": "family", "twists": ["lowest-three-starts"], "players": 4},
        "players": HOUSE_NAMES,
        "summary": "Under this twist the first deal of a match is opened by whoever holds "
                   "the chosen three (the 3 of clubs unless the table names another), not "
                   "by the seat to the left of the dealer.",
        "deals": [D(
            ["4C 8D 9H", "5C 7D 10S", "3C 6C 6D KH", "4D 8C QS"],
            "Drew dealt, so without the twist Alex would lead. Casey holds the 3 of clubs, "
            "so Casey opens instead.",
            "0 4C", "6C 6D", "pass",
            actions=[
                S("2 6C 6D",
                  "Holding the 3 of clubs only gives Casey the lead: the lead need not "
                  "contain it. Casey leads a pair of 6s and keeps the 3.",
                  "8C", "pass"),
                S("3 pass",
                  "Drew has no pair.",
                  "4C", "pass"),
                S("0 pass",
                  "Alex has no pair either.",
                  "pass"),
                S("1 pass",
                  "Nor has Blair. Everyone else has passed, so the pile is cleared and "
                  "Casey leads again.",
                  "3C", "KH"),
                S("2 3C",
                  "Casey leads the 3 of clubs on the new pile.",
                  "4D", "8C"),
            ])],
    },
]
"""The lessons in the order they are listed, each a dict: ``id``, ``title``, ``source``
(seed file name), ``rules`` (a record's rules object), ``players``, ``summary``, ``deals``
(each a :func:`D`), and for the twist lessons ``twist`` (its name in
:data:`president.rules.TWISTS`) and ``contrast`` (the rules without it, under which the same
moves go differently)."""

ELSEWHERE: dict[str, str] = {
    "fresh-hands": "a match-length change (no exchange, the dealer's left opens every deal); "
                   "it never changes a position in play",
    "three-deals": "a match-length change (exactly three deals); it never changes a position "
                   "in play",
    "three-of-clubs-starts": "the same opening rule as family's lowest-three-starts, shown in "
                             "the lesson 'lowest-three-starts'",
    "reversal": "no lesson yet: the twist is new (a four of a kind reverses the rank order); "
                "docs/rules.md states it and tests/test_reversal.py plays it",
    "twos-clear": "no lesson yet: the twist is new (a play of twos clears the pile); "
                  "docs/rules.md states it and tests/test_twos_clear.py plays it",
}
"""Twists of :data:`president.rules.TWISTS` without a lesson of their own, and why."""
