"""The lesson engine: builds each :class:`Lesson` of :mod:`president.lessons.catalog` by
replaying its record through the engine, and answers a learner's tries.

:mod:`president.lessons` re-exports the public names; import them from there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Sequence

from ..actions import PASS, Give, Pass, Play
from ..cards import Card, cards_from_mask
from ..errors import PresidentError
from ..events import (DealEnded, Dealt, Event, Exchanged, Passed, PileCleared,
                      Played, WentOut, title_for_place)
from ..match import Match, Transfer
from ..narration import Reader, exchange_duty, narrate
from ..records import FORMAT, Record, Replayer
from ..rules import PRESET_SEEDS, PRESET_SOURCES, Rules, describe_items
from . import catalog

__all__ = ["LESSONS", "Lesson", "Step", "Position", "Trial", "LessonError", "describe_event",
           "event_to_dict", "MAX_MOVE_CHARS", "TWISTS_ELSEWHERE"]

MAX_MOVE_CHARS = 60
"""The longest move text :meth:`Lesson.try_move` reads (a seat or name, four cards)."""

TWISTS_ELSEWHERE = dict(catalog.ELSEWHERE)
"""Twists of :data:`president.rules.TWISTS` that have no lesson of their own, with the reason."""

_NUMBERS = ("no", "one", "two", "three", "four")


class LessonError(PresidentError):
    """A request a lesson cannot answer: an unknown lesson (reason ``"unknown-lesson"``), a
    step that does not exist (``"bad-step"``), a move text over :data:`MAX_MOVE_CHARS`
    characters (``"bad-move"``), or a lesson whose record the engine refuses
    (``"bad-lesson"``, a bug in the catalog)."""


# ----- narration ------------------------------------------------------------------------


def _count_words(count: int, what: str = "card") -> str:
    return f"{_NUMBERS[count] if count < len(_NUMBERS) else count} {what}{'s' if count != 1 else ''}"


def _a(play: Play) -> str:
    text = play.describe()
    return ("an " if text[0] in "aeiou" else "a ") + text


def describe_event(event: Event, names: Sequence[str], *, leader: int | None = None) -> str:
    """One engine event in plain words, everything face up (a lesson shows every hand): the
    sentence of :func:`president.narration.narrate` for an onlooker, cards in notation.

    Args:
        event: any :data:`~president.events.Event`.
        names: player names by seat (the deal's seating).
        leader: for :class:`~president.events.Dealt`, the seat that leads (or gives first).

    Returns:
        One sentence, e.g. ``"Casey plays a pair of nines (9D 9S)."``, with its heading
        when it has one (``"Deal 1: Drew deals. Casey leads the first pile."``).

    Raises:
        TypeError: ``event`` is not an engine event.
    """
    return narrate(event, Reader(tuple(names), None, symbols=False), leader=leader).full


def event_to_dict(event: Event, names: Sequence[str], *, leader: int | None = None) -> dict[str, Any]:
    """An event as JSON-ready data: ``{"type": "played", ..., "text": ...}`` with the event's
    fields (seats as numbers, cards in notation) and :func:`describe_event`'s sentence."""
    text = describe_event(event, names, leader=leader)
    if isinstance(event, Dealt):
        return {"type": "dealt", "deal": event.deal_number, "dealer": event.dealer,
                "seating": list(event.seating), "hand_sizes": list(event.hand_sizes),
                "hands": [None if h is None else [str(c) for c in h] for h in event.hands],
                "text": text}
    if isinstance(event, Exchanged):
        return {"type": "exchanged", "giver": event.giver, "receiver": event.receiver,
                "count": event.count, "forced": event.forced,
                "cards": None if event.cards is None else [str(c) for c in event.cards],
                "text": text}
    if isinstance(event, Played):
        return {"type": "played", "seat": event.seat, "cards": [str(c) for c in event.play.cards],
                "lead": event.lead, "text": text}
    if isinstance(event, Passed):
        return {"type": "passed", "seat": event.seat, "text": text}
    if isinstance(event, PileCleared):
        return {"type": "cleared", "reason": event.reason, "winner": event.winner,
                "leader": event.leader, "text": text}
    if isinstance(event, WentOut):
        return {"type": "out", "seat": event.seat, "place": event.place, "title": event.title,
                "text": text}
    if isinstance(event, DealEnded):
        return {"type": "deal-ended", "finish_order": list(event.finish_order),
                "points": list(event.points), "totals": list(event.totals),
                "titles": list(event.titles), "text": text}
    return {"type": "match-ended", "winners": list(event.winners), "scores": list(event.scores),
            "text": text}


def _readable(message: str, names: Sequence[str], who: str | None = None) -> str:
    """An engine message with ``seat N`` replaced by that seat's name and, given ``who``
    (the player the move was tried for), the engine's "you" put in the third person
    (``"you do not hold KC"`` -> ``"Alex does not hold KC"``)."""
    def name(m: re.Match[str]) -> str:
        s = int(m.group(1))
        return names[s] + (m.group(2) or "") if 0 <= s < len(names) else m.group(0)
    text = re.sub(r"\bseat (\d+)('s)?", name, message)
    if who is not None:
        for pattern, repl in _THIRD_PERSON:
            text = re.sub(pattern, repl.replace("{who}", who.replace("\\", "\\\\")), text)
    return text


_THIRD_PERSON = (
    (r"^give your\b", "{who} must give their"),
    (r"\byou do not\b", "{who} does not"),
    (r"\byou lead\b", "{who} leads"),
    (r"\byou are\b", "{who} is"),
    (r"\byour\b", "{who}'s"),
    (r"\byou\b", "{who}"),
)


def _source_words(source: str) -> str:
    """Where a lesson's story comes from, in words for the learner (``"a house-match
    guide"``), from its seed file name (which only the code and tests show)."""
    for preset, seed in PRESET_SEEDS.items():
        if seed == source:
            return PRESET_SOURCES[preset]
    return "the rules of President"


def _named_try(text: str, names: Sequence[str]) -> str:
    """A suggested move with the player's name in front instead of a seat number
    (``"1 2S"`` -> ``"Blair 2S"``); :meth:`Lesson.trial` reads both."""
    words = text.split()
    if len(words) >= 2 and words[0].isdigit() and int(words[0]) < len(names):
        return " ".join([names[int(words[0])], *words[1:]])
    return text


def _action_text(action: Play | Pass | Give | None) -> str | None:
    return None if action is None else str(action)


# ----- values ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """The whole table after a step, every hand face up (a lesson hides nothing).

    Attributes:
        deal_number: 1 for the record's first deal.
        phase: ``"exchange"``, ``"play"``, ``"between-deals"`` or ``"match-over"``.
        dealer: the dealer's seat.
        names: player names by seat.
        hands: each seat's cards, sorted low to high.
        pile: ``(seat, Play)`` on the current pile, oldest first.
        cleared: cards cleared from earlier piles of this deal.
        to_act: the seat to act (the giver during an exchange), or ``None``.
        passed: seats that passed since the latest play (``re-enter``) or on this pile.
        finish_order: seats that went out, first first (all seats once the deal is over).
        titles: by seat, the title earned in this deal (``""`` until out).
        previous_titles: by seat, the title from the deal before (``""`` in a first deal).
        pending: the exchange transfer waiting for its giver, or ``None``.
        pending_text: that transfer in words, everyone named
            (:func:`president.narration.exchange_duty`: ``"South must give their highest 2
            cards to North"``), or ``None``.
    """

    deal_number: int
    phase: str
    dealer: int
    names: tuple[str, ...]
    hands: tuple[tuple[Card, ...], ...]
    pile: tuple[tuple[int, Play], ...]
    cleared: tuple[Card, ...]
    to_act: int | None
    passed: frozenset[int]
    finish_order: tuple[int, ...]
    titles: tuple[str, ...]
    previous_titles: tuple[str, ...]
    pending: Transfer | None
    pending_text: str | None = None

    @classmethod
    def of(cls, match: Match) -> "Position":
        """The position of ``match`` now (full information)."""
        deal = match.deal
        n = match.rules.players
        titles = [""] * n
        for place, seat in enumerate(deal.finish_order, 1):
            titles[seat] = title_for_place(place, n, naming=match.rules.titles)
        earlier = match.results[:-1] if deal.over else match.results
        before = _titles_of(match, earlier[-1].finish_order) if earlier else ("",) * n
        names = tuple(match.players[p] for p in match.seating)
        step = match.pending_transfer
        return cls(
            deal_number=match.deal_number, phase=match.phase, dealer=deal.dealer,
            names=names,
            hands=tuple(deal.hand(s) for s in range(n)),
            pile=tuple(deal.pile), cleared=cards_from_mask(deal.cleared),
            to_act=match.to_act,
            passed=frozenset(s for s in range(n) if deal.passed >> s & 1),
            finish_order=tuple(deal.finish_order), titles=tuple(titles),
            previous_titles=tuple(before[p] for p in match.seating),
            pending=step,
            pending_text=None if step is None else exchange_duty(
                step, Reader(names, None), match.rules.give_back))

    @property
    def to_beat(self) -> Play | None:
        """The latest play on the pile, or ``None`` on an empty pile."""
        return self.pile[-1][1] if self.pile else None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``deal``, ``phase``, ``dealer``, ``to_act``, ``seats`` (per seat
        ``seat``, ``name``, ``hand`` (cards), ``count``, ``passed``, ``place``, ``title``,
        ``previous_title``), ``pile`` (``seat``, ``name``, ``cards``, ``text``), ``to_beat``
        (words or ``None``), ``cleared`` (cards) and ``pending`` (``giver``, ``receiver``,
        ``count``, ``forced``, ``text`` (:attr:`pending_text`), or ``None``)."""
        places = {s: i + 1 for i, s in enumerate(self.finish_order)}
        seats = [{"seat": s, "name": self.names[s], "hand": [str(c) for c in self.hands[s]],
                  "count": len(self.hands[s]), "passed": s in self.passed,
                  "place": places.get(s), "title": self.titles[s],
                  "previous_title": self.previous_titles[s]} for s in range(len(self.names))]
        pending = None
        if self.pending is not None:
            p = self.pending
            pending = {"giver": p.giver, "receiver": p.receiver, "count": p.count,
                       "forced": p.forced, "text": self.pending_text}
        return {"deal": self.deal_number, "phase": self.phase, "dealer": self.dealer,
                "to_act": self.to_act, "seats": seats,
                "pile": [{"seat": s, "name": self.names[s], "cards": [str(c) for c in p.cards],
                          "text": p.describe()} for s, p in self.pile],
                "to_beat": None if (top := self.to_beat) is None else top.describe(),
                "cleared": [str(c) for c in self.cleared], "pending": pending}


def _titles_of(match: Match, finish_order: Sequence[int]) -> tuple[str, ...]:
    n = match.rules.players
    out = [""] * n
    for place, p in enumerate(finish_order, 1):
        out[p] = title_for_place(place, n, naming=match.rules.titles)
    return tuple(out)


@dataclass(frozen=True)
class Step:
    """One step of a lesson: a deal starting, an exchange transfer, or a play or pass.

    Attributes:
        index: 0-based position in :attr:`Lesson.steps`.
        deal: 0-based index of its deal in the record.
        kind: ``"deal"``, ``"exchange"`` or ``"play"`` (as :class:`~president.records.ReplayStep`).
        seat: the acting seat (the giver of a transfer), or ``None`` for ``"deal"``.
        entry: the record entry (``"1 KD KS"``, ``"3>0 2D AS"``), or ``None`` for ``"deal"``.
        action: the :class:`~president.actions.Play`, ``PASS`` or
            :class:`~president.actions.Give`, or ``None`` for ``"deal"``.
        events: the events the engine emitted for it, exactly as it emitted them.
        narration: one sentence per event (:func:`describe_event`).
        why: the reason for this step, in plain words.
        tries: moves worth trying in the position this step leaves (text for
            :meth:`Lesson.try_move`).
        position: the table after this step.
    """

    index: int
    deal: int
    kind: str
    seat: int | None
    entry: str | None
    action: Play | Pass | Give | None
    events: tuple[Event, ...]
    narration: tuple[str, ...]
    why: str
    tries: tuple[str, ...]
    position: Position

    @property
    def actor(self) -> str | None:
        """The name of the acting player, or ``None`` for a deal's start."""
        return None if self.seat is None else self.position.names[self.seat]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``index``, ``deal``, ``kind``, ``seat``, ``actor``, ``entry``,
        ``action`` (``"9D 9S"``, ``"pass"`` or ``None``), ``events`` (:func:`event_to_dict`),
        ``why``, ``tries``, ``position`` (:meth:`Position.to_dict`)."""
        names = self.position.names
        return {"index": self.index, "deal": self.deal, "kind": self.kind, "seat": self.seat,
                "actor": self.actor, "entry": self.entry, "action": _action_text(self.action),
                "events": [{**event_to_dict(e, names), "text": text}
                           for e, text in zip(self.events, self.narration)],
                "why": self.why, "tries": list(self.tries), "position": self.position.to_dict()}


@dataclass(frozen=True)
class Trial:
    """The engine's answer to a move the learner tried (:meth:`Lesson.trial`).

    Attributes:
        legal: whether :meth:`Match.refusal <president.match.Match.refusal>` accepts it.
        reason: plain words: why it is legal and what it would cause, or why not.
        code: the engine's reason when refused (``"not-higher"``, ``"wrong-count"``, ...),
            ``None`` when legal.
        message: the engine's message, word for word, when refused; ``None`` when legal.
        seat: the seat the move was tried for.
        events: what the move would cause (legal only; the lesson is not changed).
        as_lesson: whether the lesson's next step is this very move.
    """

    legal: bool
    reason: str
    code: str | None
    message: str | None
    seat: int | None
    events: tuple[Event, ...] = ()
    as_lesson: bool = False

    def to_dict(self) -> dict[str, Any]:
        """``{"legal", "reason", "code", "as_lesson"}`` (JSON-ready)."""
        return {"legal": self.legal, "reason": self.reason, "code": self.code,
                "as_lesson": self.as_lesson}


@dataclass(frozen=True)
class Lesson:
    """A lesson: a record replayed step by step, with a reason for every step.

    Attributes:
        id: short name (``"pass-and-re-enter"``), the key in :data:`LESSONS`.
        title: a heading.
        source: the seed file the lesson follows (``"000_2ebb75a2290c9d05.txt"``).
        summary: what the lesson shows, in a few sentences.
        record: the game record (``president/2``); :func:`president.records.dumps` writes it.
        steps: the steps in order (the first one deals the cards).
        twist: the twist of :data:`president.rules.TWISTS` it shows, or ``None``.
        contrast: rules under which the same moves go otherwise (the rules without the
            twist or option the lesson shows), or ``None``.
    """

    id: str
    title: str
    source: str
    summary: str
    record: Record
    steps: tuple[Step, ...]
    twist: str | None = None
    contrast: Rules | None = None

    @property
    def rules(self) -> Rules:
        """The rules of the lesson (the record's)."""
        return self.record.rules

    @property
    def source_text(self) -> str:
        """Where the lesson's story comes from, in words (``"a house-match guide"``); the
        learner sees this, never the seed file name of :attr:`source`."""
        return _source_words(self.source)

    @property
    def players(self) -> tuple[str, ...]:
        """Player names by match player index."""
        return self.record.players

    def _check_step(self, step_index: int) -> None:
        if isinstance(step_index, bool) or not isinstance(step_index, int) \
                or not 0 <= step_index < len(self.steps):
            raise LessonError("bad-step", f"lesson {self.id!r} has steps 0 to "
                              f"{len(self.steps) - 1}, not {step_index!r}")

    def match_after(self, step_index: int) -> Match:
        """A new :class:`~president.match.Match` in the position after step
        ``step_index``, replayed from the record; change it freely.

        Raises:
            LessonError: ``bad-step`` for a step that does not exist.
        """
        self._check_step(step_index)
        replayer = Replayer(self.record)
        for k, _ in enumerate(replayer):
            if k == step_index:
                assert replayer.match is not None
                return replayer.match
        raise LessonError("bad-lesson", f"lesson {self.id!r} does not replay to step "
                          f"{step_index}")  # pragma: no cover (checked when built)

    def trial(self, step_index: int, text: str) -> Trial:
        """Try a move in the position after step ``step_index`` without changing the lesson.

        Args:
            step_index: 0-based index in :attr:`steps`.
            text: a move as a player writes it: cards (``"9S 9D"``), ``"pass"``, or during
                an exchange the cards to give; by default for the seat to act. A seat number
                or a player's name in front (``"2 9S 9D"``, ``"Blair pass"``) tries it for
                that player instead (and the engine says whose turn it is).

        Returns:
            A :class:`Trial`; its ``legal`` and ``code`` are the engine's
            (:meth:`Match.refusal <president.match.Match.refusal>`).

        Raises:
            LessonError: ``bad-step``, or ``bad-move`` for text longer than
                :data:`MAX_MOVE_CHARS` characters or not a string.
        """
        self._check_step(step_index)
        if not isinstance(text, str) or len(text) > MAX_MOVE_CHARS:
            raise LessonError("bad-move", f"a move is text of at most {MAX_MOVE_CHARS} "
                              "characters, such as 9S 9D or pass")
        match = self.match_after(step_index)
        names = [match.players[p] for p in match.seating]
        seat, move = _who_and_move(text, names)
        if seat is None:
            seat = match.to_act if match.to_act is not None else 0
        err = match.refusal(seat, move)
        who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else f"seat {seat}"
        if err is not None:
            readable = _readable(err.message, names, who)
            # a typing slip is not a move the rules refuse: said as such
            head = "Not understood" if err.reason == "bad-notation" else f"Not legal for {who}"
            return Trial(False, f"{head}: {readable}.", err.reason, err.message, seat)
        action = match.parse_action(move)
        why = _why_legal(match, seat, action, names)
        events = tuple(match.act(seat, action))
        leader = match.deal.leader if isinstance(events[0], Dealt) else None
        told = " ".join(describe_event(e, names, leader=leader) for e in events)
        nxt = self.steps[step_index + 1] if step_index + 1 < len(self.steps) else None
        same = nxt is not None and nxt.seat == seat and nxt.action == action
        if same:
            after = " That is the lesson's next move."
        elif nxt is not None and nxt.action is not None:
            after = f" In the lesson: {nxt.narration[0]}"
        else:
            after = ""
        return Trial(True, f"Legal for {who}: {why}. It would go: {told}{after}", None, None,
                     seat, events, same)

    def try_move(self, step_index: int, text: str) -> tuple[bool, str]:
        """Whether ``text`` is a legal move in the position after step ``step_index``, and
        why, in plain words: ``(legal, reason)`` (see :meth:`trial`, whose ``legal`` and
        ``reason`` these are). The lesson does not change.

        Raises:
            LessonError: ``bad-step`` or ``bad-move``.
        """
        t = self.trial(step_index, text)
        return t.legal, t.reason

    def rules_text(self) -> list[str]:
        """The rules that matter in play, in words: ``"Beat: same number of cards, strictly
        higher rank"``, then passing, last of a rank, exchange and the first lead."""
        keep = ("beat", "passing", "last_of_rank_clears", "exchange", "first_lead")
        return [f"{label}: {text}" for option, label, text in describe_items(self.rules)
                if option in keep]

    def summary_dict(self) -> dict[str, Any]:
        """The lesson for a list: ``id``, ``title``, ``source`` (seed file name),
        ``source_text`` (where it comes from, in words, to show), ``summary``, ``rules``
        (the rules' name, ``"house+sit-out"``), ``twist``, ``steps`` (how many)."""
        return {"id": self.id, "title": self.title, "source": self.source,
                "source_text": self.source_text,
                "summary": self.summary, "rules": self.rules.name, "twist": self.twist,
                "steps": len(self.steps)}

    def to_dict(self) -> dict[str, Any]:
        """The whole lesson, JSON-ready: :meth:`summary_dict`, ``players``, ``rules_text``,
        ``contrast`` (rules name or ``None``), ``record`` (the ``president/2`` object) and
        ``steps`` (:meth:`Step.to_dict`)."""
        return {**self.summary_dict(), "players": list(self.players),
                "rules_text": self.rules_text(),
                "contrast": None if self.contrast is None else self.contrast.name,
                "record": self.record.to_dict(),
                "steps": [s.to_dict() for s in self.steps]}


def _who_and_move(text: str, names: Sequence[str]) -> tuple[int | None, str]:
    """Split an optional seat number or player name off the front of a move."""
    words = text.split()
    if len(words) < 2:
        return None, text.strip()
    first = words[0].rstrip(":,").casefold()
    for seat, name in enumerate(names):
        if name.casefold() == first:
            return seat, " ".join(words[1:])
    if first.isdigit() and len(first) <= 2:
        return int(first), " ".join(words[1:])
    return None, text.strip()


def _why_legal(match: Match, seat: int, action: Play | Pass | Give, names: Sequence[str]) -> str:
    """Why the engine accepted ``action`` (it did: this only puts the position in words)."""
    who = names[seat]
    if isinstance(action, Give):
        step = match.pending_transfer
        assert step is not None
        to = names[step.receiver]
        verb = "are" if step.count > 1 else "is"
        cards = f"{_NUMBERS[step.count]} " if step.count > 1 else ""
        plural = "s" if step.count > 1 else ""
        if step.forced:
            return f"{action} {verb} {who}'s {cards}highest card{plural}, which must go to {to}"
        if match.rules.give_back == "lowest":
            return f"{action} {verb} {who}'s {cards}lowest card{plural}, which these rules " \
                   f"send back to {to}"
        return f"{who} may give back any {_count_words(step.count)} to {to}"
    deal = match.deal
    if action is PASS:
        text = "the pile is not empty, so passing is allowed, even with cards that could beat it"
        mode = match.rules.passing
        if mode == "sit-out":
            return text + f"; under sit-out {who} would then sit out the rest of this pile"
        if mode == "once-around":
            return text + f"; it uses up {who}'s one turn on this pile"
        return text + "; it skips only this turn"
    assert isinstance(action, Play)
    if not deal.pile:
        return f"the pile is empty, so {who} leads and may put down any one card, or two, " \
               "three or four cards of one rank"
    top = deal.pile[-1][1]
    size = _count_words(top.count)
    if action.rank > top.rank:
        return f"{_a(action)} has the {size} the pile needs and outranks the {top.describe()}"
    return f"{_a(action)} has the {size} the pile needs and equals the {top.describe()} in " \
           "rank, which these rules allow"


# ----- building -------------------------------------------------------------------------


def _record_dict(spec: dict[str, Any]) -> dict[str, Any]:
    deals = []
    for deal in spec["deals"]:
        d: dict[str, Any] = {"dealer": deal["dealer"], "hands": list(deal["hands"])}
        if deal.get("seating") is not None:
            d["seating"] = list(deal["seating"])
        if deal["exchange"]:
            d["exchange"] = [entry for entry, _, _ in deal["exchange"]]
        d["actions"] = [entry for entry, _, _ in deal["actions"]]
        deals.append(d)
    return {"format": FORMAT, "comment": f"Lesson {spec['id']}: {spec['title']}",
            "rules": dict(spec["rules"]), "players": list(spec["players"]), "deals": deals}


def _texts(spec: dict[str, Any]) -> list[tuple[str, tuple[str, ...]]]:
    out: list[tuple[str, tuple[str, ...]]] = []
    for deal in spec["deals"]:
        out.append((deal["why"], tuple(deal["tries"])))
        out.extend((why, tuple(tries)) for _, why, tries in deal["exchange"])
        out.extend((why, tuple(tries)) for _, why, tries in deal["actions"])
    return out


def build(spec: dict[str, Any]) -> Lesson:
    """A :class:`Lesson` from one entry of :data:`president.lessons.catalog.SPECS`: its
    record is read with :meth:`Record.from_dict <president.records.Record.from_dict>` and
    replayed step by step; each step keeps the engine's events and the position after it.

    Raises:
        LessonError: ``bad-lesson`` if the record is invalid, a step is illegal, or the
            number of texts is not the number of steps.
    """
    lesson_id = spec["id"]
    try:
        record = Record.from_dict(_record_dict(spec))
    except PresidentError as e:
        raise LessonError("bad-lesson", f"lesson {lesson_id!r}: {e.message}") from None
    texts = _texts(spec)
    replayer = Replayer(record)
    steps: list[Step] = []
    for i, rs in enumerate(replayer):
        match = replayer.match
        assert match is not None
        if i >= len(texts):
            raise LessonError("bad-lesson", f"lesson {lesson_id!r} has more steps than texts")
        why, tries = texts[i]
        names = [record.players[p] for p in match.seating]
        tries = tuple(_named_try(t, names) for t in tries)
        deal = record.deals[rs.deal]
        seat: int | None = None
        action: Play | Pass | Give | None = None
        if rs.step == "exchange":
            assert rs.index is not None
            ex = deal.exchange[rs.index]
            seat, action = ex.giver, Give(ex.mask)
        elif rs.step == "play":
            assert rs.index is not None
            act = deal.actions[rs.index]
            seat = act.seat
            action = PASS if act.cards is None else Play.of(act.cards)
        position = Position.of(match)
        leader = match.deal.leader if rs.step == "deal" else None
        narration = tuple(describe_event(e, position.names, leader=leader) for e in rs.events)
        steps.append(Step(i, rs.deal, rs.step, seat, rs.entry if rs.step != "deal" else None,
                          action, rs.events, narration, why, tries, position))
    if replayer.error is not None:
        err = replayer.error
        raise LessonError("bad-lesson", f"lesson {lesson_id!r}: {err.where()}: {err.reason}: "
                          f"{err.message}")
    if len(steps) != len(texts):
        raise LessonError("bad-lesson", f"lesson {lesson_id!r} has {len(texts)} texts for "
                          f"{len(steps)} steps")
    contrast = None
    if spec.get("contrast") is not None:
        contrast = Rules.from_dict(dict(spec["contrast"]))
    return Lesson(lesson_id, spec["title"], spec["source"], spec["summary"], record,
                  tuple(steps), spec.get("twist"), contrast)


LESSONS: dict[str, Lesson] = {spec["id"]: build(spec) for spec in catalog.SPECS}
"""Every lesson by id, in the order to take them: the house-match guide's demonstrations,
the first-night guide's first-night hand, then the twists."""
