"""Lessons: short deals played face up, step by step, with the reason for every step.

A lesson is a game record (the ``president/2`` format of ``docs/records.md``) replayed
through the engine, with a plain-words "why" beside each step. The steps are exactly the
steps of :class:`president.records.Replayer`: the start of each deal, each exchange
transfer, each play or pass, each with the events :class:`~president.match.Match` emitted
for it. At any step the learner may try a move of their own: :meth:`Lesson.try_move` asks
:meth:`Match.refusal <president.match.Match.refusal>` (the one legality check) in a copy of
that position, so the lesson itself never changes.

>>> lesson = LESSONS["pass-and-re-enter"]
>>> lesson.source
'000_2ebb75a2290c9d05.txt'
>>> step = lesson.steps[5]              # Alex passes: two passes since Casey's 9s
>>> step.narration
('Alex passes.',)
>>> lesson.try_move(5, "KD KS")[0]     # Blair may come back in with the kings
True
>>> lesson.try_move(5, "3C 4C")[1]
'Not legal for Blair: 3C 4C mixes ranks; every card in a play must have the same rank.'

The positions, moves and texts are in :mod:`president.lessons.catalog`, the engine that
replays them in :mod:`president.lessons.engine`. This package is
part of the rules core: standard library, the core and :mod:`president.records` only.
"""

from __future__ import annotations

from .engine import (LESSONS, MAX_MOVE_CHARS, TWISTS_ELSEWHERE, Lesson, LessonError, Position,
                     Step, Trial, describe_event, event_to_dict)

__all__ = ["LESSONS", "Lesson", "Step", "Position", "Trial", "LessonError", "describe_event",
           "event_to_dict", "MAX_MOVE_CHARS", "TWISTS_ELSEWHERE"]
