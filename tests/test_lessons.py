"""Lessons (``president.lessons``, issue 10 item 3): every lesson replays through the engine
step by step with exactly the events ``Match`` emits, every step has its reason, and a move
tried at any step gets the engine's own answer without changing the lesson.

Seed 000 (``000_2ebb75a2290c9d05.txt``): a single against a pair, pass and re-enter, the
kings as Blair's last cards. Seed 004 (``004_7dd5a514fa081721.txt``): the first-night hand
and the swap. Seed 001 (``001_6a3b64d15368b01c.txt``) and seed 000's twists: each changes
what happens on its small position (checked against the rules without it).
"""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

import pytest

from president import Match, Play, records
from president.events import DealEnded, PileCleared, Played, WentOut
from president.lessons import (LESSONS, MAX_MOVE_CHARS, TWISTS_ELSEWHERE, Lesson, LessonError,
                               Position, catalog)
from president.records import Record
from president.rules import PRESET_SEEDS, TWISTS

IDS = list(LESSONS)
ROOT = Path(__file__).resolve().parents[1]


def start(record: Record, d: int, match: Match | None) -> tuple[Match, list]:
    """Start deal ``d`` of ``record`` on a Match directly (no Replayer): its events."""
    deal = record.deals[d]
    if match is None:
        match = Match(record.rules, record.players, first_dealer=deal.dealer, hands=deal.hands,
                      leader=deal.leader)
        return match, list(match.events)
    return match, match.start_next_deal(hands=deal.hands, dealer=deal.dealer,
                                        seating=deal.seating, leader=deal.leader)


@pytest.mark.parametrize("lesson_id", IDS)
def test_each_step_has_exactly_the_events_match_act_returns(lesson_id):
    lesson = LESSONS[lesson_id]
    match = None
    assert lesson.steps[0].kind == "deal"
    for step in lesson.steps:
        if step.kind == "deal":
            match, events = start(lesson.record, step.deal, match)
            assert step.action is None and step.seat is None
        else:
            assert match is not None
            events = match.act(step.seat, step.action)
        assert tuple(events) == step.events, (lesson_id, step.index)
        assert step.position == Position.of(match), (lesson_id, step.index)
        assert len(step.narration) == len(step.events)
        assert step.why.strip() and step.why.endswith("."), (lesson_id, step.index)
    assert [s.index for s in lesson.steps] == list(range(len(lesson.steps)))


@pytest.mark.parametrize("lesson_id", IDS)
def test_lesson_record_is_a_valid_record_that_replays_with_the_same_steps(lesson_id, tmp_path,
                                                                          capsys):
    lesson = LESSONS[lesson_id]
    text = records.dumps(lesson.record)
    again = records.loads(text)
    assert again == lesson.record
    replayer = records.iter_replay(again)
    assert [s.events for s in replayer] == [s.events for s in lesson.steps]
    assert replayer.error is None
    path = tmp_path / f"{lesson_id}.json"
    path.write_text(text)
    from president.cli import main
    assert main(["replay", str(path)]) == 0
    assert "all legal" in capsys.readouterr().out


def _refusal_of(lesson: Lesson, index: int, text: str):
    match = lesson.match_after(index)
    from president.lessons.engine import _who_and_move
    seat, move = _who_and_move(text, [match.players[p] for p in match.seating])
    seat = match.to_act if seat is None else seat
    return match.refusal(0 if seat is None else seat, move)


@pytest.mark.parametrize("lesson_id", IDS)
def test_try_move_answers_legal_and_illegal_moves_with_the_engines_reason(lesson_id):
    lesson = LESSONS[lesson_id]
    before = json.dumps(lesson.to_dict())
    for step in lesson.steps:
        i = step.index
        match = lesson.match_after(i)
        # The lesson's own next move is legal here, and said to be the lesson's.
        if i + 1 < len(lesson.steps) and lesson.steps[i + 1].action is not None:
            nxt = lesson.steps[i + 1]
            t = lesson.trial(i, f"{nxt.seat} {nxt.action}")
            assert t.legal and t.as_lesson and t.code is None, (lesson_id, i, t)
            assert t.events == nxt.events
            assert t.reason.startswith(f"Legal for {nxt.actor}: ")
            assert lesson.try_move(i, f"{nxt.seat} {nxt.action}") == (True, t.reason)
        # A card someone else holds is refused, with the engine's reason and message.
        seat = match.to_act if match.to_act is not None else 0
        other = next(c for s, hand in enumerate(step.position.hands) if s != seat
                     for c in hand)
        t = lesson.trial(i, str(other))
        err = match.refusal(seat, str(other))
        assert err is not None and not t.legal
        assert (t.code, t.message) == (err.reason, err.message)
        assert t.reason.startswith("Not legal for ") and t.reason.endswith(".")
        # A typing slip is said to be one, not a move the rules refuse.
        t = lesson.trial(i, "zz")
        assert not t.legal and t.code == "bad-notation"
        assert t.reason.startswith("Not understood: ") and "'zz'" in t.reason
        # Every suggested try gets the engine's answer.
        for text in step.tries:
            t = lesson.trial(i, text)
            err = _refusal_of(lesson, i, text)
            assert t.legal == (err is None), (lesson_id, i, text)
            if err is not None:
                assert (t.code, t.message) == (err.reason, err.message)
    # Nothing tried changed the lesson.
    assert json.dumps(lesson.to_dict()) == before


def test_every_legal_action_is_legal_in_try_move_and_only_those():
    """try_move agrees with Match.legal_actions at every play step of every lesson: each
    listed action is legal; a play of each single card not listed is refused."""
    for lesson in LESSONS.values():
        for step in lesson.steps:
            match = lesson.match_after(step.index)
            if match.phase != "play":
                continue
            legal = match.legal_actions()
            for action in legal:
                assert lesson.try_move(step.index, str(action))[0], (lesson.id, action)
            hand = step.position.hands[match.to_act]
            for card in hand:
                play = Play.of([card])
                assert lesson.try_move(step.index, str(card))[0] == (play in legal)


# ----- what each lesson shows (the seeds' stories) -----------------------------------------


def test_single_against_pair_seed000():
    """Seed 000: a single 2 cannot beat a pair; three kings do not beat two queens, two of
    them do (keeping the third); two 2s beat two aces."""
    lesson = LESSONS["single-against-pair"]
    assert lesson.source == "000_2ebb75a2290c9d05.txt"
    assert lesson.trial(1, "2S").code == "wrong-count"
    assert lesson.trial(1, "KC KD KH").code == "wrong-count"
    assert lesson.try_move(1, "KC KD")[0]
    assert lesson.steps[2].position.hands[1] == tuple(Play.parse("KH").cards) + \
        tuple(Play.parse("2S").cards)
    assert lesson.try_move(3, "2C 2D")[0]
    assert lesson.trial(8, "5D").code == "not-higher"       # equal ranks never beat


def test_pass_and_re_enter_seed000():
    """Seed 000's example: Alex leads a pair of fives, Blair passes, Casey nines, Drew and
    Alex pass; Blair may play the kings; if all three pass, Blair clears and leads again."""
    lesson = LESSONS["pass-and-re-enter"]
    entries = [s.entry for s in lesson.steps[1:]]
    assert entries[:9] == ["0 5C 5H", "1 pass", "2 9D 9S", "3 pass", "0 pass", "1 KD KS",
                           "2 pass", "3 pass", "0 pass"]
    assert not any(isinstance(e, PileCleared) for s in lesson.steps[:9] for e in s.events)
    assert lesson.steps[5].position.to_act == 1       # Blair again, after passing
    assert lesson.try_move(5, "KD KS")[0]
    assert lesson.steps[9].events[-1] == PileCleared("all-passed", 1, 1)


def test_last_cards_casey_leads_seed000():
    """Seed 000: if Blair's kings emptied the hand, Casey leads the new pile."""
    lesson = LESSONS["last-cards-lead"]
    assert lesson.steps[6].events[-1] == WentOut(1, 1, "President")
    assert lesson.trial(6, "1 pass").code == "not-your-turn"
    assert lesson.steps[9].events[-1] == PileCleared("all-passed", 1, 2)
    assert lesson.steps[9].position.to_act == 2


def test_first_night_walk_through_and_swap_seed004():
    """Seed 004: West leads a pair of 9s ... North's four 4s go out first and clear the
    pile; West second, East third, South bottom; then North and South, West and East swap."""
    lesson = LESSONS["first-night"]
    assert lesson.source == "004_7dd5a514fa081721.txt"
    assert lesson.record.players == ("West", "North", "East", "South")
    quads = next(s for s in lesson.steps if s.entry == "1 4C 4D 4H 4S")
    assert quads.events == (Played(1, Play.parse("4C 4D 4H 4S"), True),
                            WentOut(1, 1, "President"), PileCleared("last-of-rank", 1, 2))
    end = next(s for s in lesson.steps if any(isinstance(e, DealEnded) for e in s.events))
    ended = end.events[-1]
    assert ended.finish_order == (1, 0, 2, 3)
    assert ended.titles == ("Vice-President", "President", "Vice-Scum", "bottom")
    # Under equal-or-higher West could meet North's 2 with another 2 (seed 004's "nothing
    # beats a 2" holds for higher ranks only), and may top the aces with the 2s.
    two = next(s for s in lesson.steps if s.entry == "3 pass" and s.position.pile
               and str(s.position.pile[-1][1]) == "2H")
    assert lesson.try_move(two.index, "2C")[0]
    deal2 = [s for s in lesson.steps if s.deal == 1]
    assert deal2[0].kind == "deal" and deal2[0].position.names == ("North", "West", "East",
                                                                   "South")
    assert [s.entry for s in deal2 if s.kind == "exchange"] == [
        "3>0 2D AS", "0>3 3D 5S", "2>1 2S", "1>2 4C"]
    assert lesson.trial(deal2[0].index, "4H 6C").code == "bad-exchange"
    assert lesson.trial(deal2[1].index, "QH 10C").code == "bad-exchange"   # two lowest
    assert deal2[-1].entry == "0 8H"


def test_twist_lessons_change_the_outcome_against_the_rules_without_them():
    """Each lesson with a contrast: the same record under the contrasting rules is refused
    somewhere or emits other events (the twist or option changes what happens)."""
    shown = [lesson for lesson in LESSONS.values() if lesson.contrast is not None]
    assert {lesson.id for lesson in shown} >= {"sit-out", "once-around", "equal-plays",
                                               "last-of-rank", "lowest-three-starts"}
    for lesson in shown:
        assert lesson.contrast != lesson.rules
        other = Record(lesson.contrast, lesson.record.players, lesson.record.deals)
        replayer = records.iter_replay(other)
        events = [s.events for s in replayer]
        assert replayer.error is not None or events != [s.events for s in lesson.steps], \
            lesson.id


def test_every_twist_has_a_lesson_or_a_reason():
    """The registry, not a list by hand: every twist of TWISTS is shown by a lesson (its
    rules carry it) or named in TWISTS_ELSEWHERE with why."""
    shown = {t for lesson in LESSONS.values() for t in lesson.rules.twists}
    for preset, twists in TWISTS.items():
        for twist in twists:
            assert twist in shown or TWISTS_ELSEWHERE.get(twist), (preset, twist)
    for lesson in LESSONS.values():
        if lesson.twist is not None:
            assert lesson.twist in lesson.rules.twists


def test_lessons_name_their_seed_files_and_serialise():
    for lesson in LESSONS.values():
        assert lesson.source in PRESET_SEEDS.values()
        assert lesson.title and lesson.summary
        data = json.loads(json.dumps(lesson.to_dict()))
        assert data["id"] == lesson.id and len(data["steps"]) == len(lesson.steps)
        assert data["record"]["format"] == "president/2"
        first = data["steps"][0]
        assert first["kind"] == "deal" and first["events"][0]["type"] == "dealt"
        assert all(seat["hand"] for seat in first["position"]["seats"])   # face up


def test_what_the_learner_reads_names_players_and_no_seed_files():
    from president.rules import PRESET_SOURCES
    for lesson in LESSONS.values():
        assert lesson.source_text in PRESET_SOURCES.values()
        assert "seed" not in lesson.source_text and ".txt" not in lesson.source_text
        for k, step in enumerate(lesson.steps):
            for text in step.tries:
                first = text.split()[0]
                assert not first.isdigit(), (lesson.id, k, text)   # "Blair 2S", not "1 2S"
                if first in step.position.names:
                    lesson.try_move(k, text)                       # the name is understood
    lesson = LESSONS["single-against-pair"]
    assert "Blair 2S" in lesson.steps[8].tries
    legal, reason = lesson.try_move(8, "Blair 2S")
    assert not legal and "Alex's turn" in reason and "Alex's turn" in lesson.steps[8].why
    assert lesson.try_move(8, "KC") == (False, "Not legal for Alex: Alex does not hold KC.")
    assert "each of the other three has passed" not in lesson.steps[7].why


def test_engine_reasons_read_in_the_third_person():
    lesson = LESSONS["pass-and-re-enter"]
    legal, reason = lesson.try_move(9, "pass")     # Blair leads the empty pile
    assert not legal and "Blair leads" in reason and "Blair cannot pass" in reason
    assert " you " not in f" {reason} "


def test_last_cards_lead_counts_three_passes_as_usual():
    why = LESSONS["last-cards-lead"].steps[7].why
    assert "not two" not in why and "pass-and-re-enter" in why


def test_bad_requests_raise_lesson_error():
    lesson = LESSONS["single-against-pair"]
    for bad in (-1, len(lesson.steps), True, "1"):
        with pytest.raises(LessonError) as info:
            lesson.try_move(bad, "pass")
        assert info.value.reason == "bad-step"
    with pytest.raises(LessonError) as info:
        lesson.try_move(0, "x" * (MAX_MOVE_CHARS + 1))
    assert info.value.reason == "bad-move"
    ok, why = lesson.try_move(0, "")
    assert not ok and "needs at least one card" in why
    ok, why = lesson.try_move(0, "9 5C")
    assert not ok and "does not exist" in why


def test_names_in_front_try_the_move_for_that_player():
    lesson = LESSONS["pass-and-re-enter"]
    ok, why = lesson.try_move(3, "Blair KD KS")
    assert not ok and why == "Not legal for Blair: it is Drew's turn, not Blair's."
    assert lesson.try_move(3, "drew: pass")[0]


def test_lessons_package_is_pure():
    """Standard library, the rules core, records and narration only (STYLE.md practice 1)."""
    core = {"cards", "actions", "rules", "kernel", "deal", "match", "events", "observation",
            "errors", "records", "narration", "lessons"}
    for path in (ROOT / "president" / "lessons").glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level:
                # ``from . import catalog`` inside the package, ``from ..match`` in the core
                if node.level == 2:
                    assert (node.module or "").split(".")[0] in core, (path.name, node.module)
                else:
                    assert node.level == 1, (path.name, node.module)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) \
                    else [node.module or ""]
                for name in names:
                    assert name.split(".")[0] in sys.stdlib_module_names, (path.name, name)


def test_catalog_is_data_for_every_lesson():
    assert [spec["id"] for spec in catalog.SPECS] == IDS
