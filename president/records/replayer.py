"""Game records, replaying: a :class:`Record` played through the rules engine.

:func:`replay` gives a :class:`ReplayResult` (the match after the last legal step, each
deal's state, scores, winners, ``next_deal``); :func:`iter_replay` gives a
:class:`Replayer` that yields one :class:`ReplayStep` per step taken. A readable record
that breaks the rules replays up to the last legal step and reports the first illegal one
as a :class:`ReplayError` (deal index, step, action index, reason).

This module is part of the rules core: standard library only.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Iterator, Mapping, Sequence

from ..actions import PASS, Give, Play
from ..deal import deal_hands
from ..errors import IllegalAction, PresidentError
from ..events import Event, title_for_place
from ..match import Match
from ..rules import Rules
from .model import STAND_IN_SEED, ActionEntry, DealRecord, ExchangeEntry
from .record import Record, loads


def count_deals_from_1(message: str) -> str:
    """A replay message with its deal numbers counted from 1, as words for a person count
    them: the replayer names deals by their 0-based record index ("deal 0 has not ended");
    the engine's own messages name no deal number.

    >>> count_deals_from_1("deal 0 has not ended")
    'deal 1 has not ended'
    """
    return re.sub(r"\bdeal (\d+)\b", lambda m: f"deal {int(m.group(1)) + 1}", message)


@dataclass(frozen=True)
class ReplayError:
    """The first step of a record that the rules refuse.

    Attributes:
        deal: deal index, 0-based.
        step: ``"deal"`` (the deal cannot start), ``"exchange"``, ``"play"`` or
            ``"finish"`` (the ``finish_order`` of a deal played with real cards).
        action: index in the deal's ``exchange`` (step ``"exchange"``) or ``actions``
            (step ``"play"``) list, 0-based; ``None`` for steps ``"deal"`` and ``"finish"``.
        seat: the acting seat, or ``None`` for steps ``"deal"`` and ``"finish"``.
        entry: the entry as written in the record, or ``None``.
        reason: the engine's machine-readable reason (``"not-higher"``, ...).
        message: plain words.
    """

    deal: int
    step: str
    action: int | None
    seat: int | None
    entry: str | None
    reason: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (the ``error`` of ``president replay --json``)."""
        return {"deal": self.deal, "step": self.step, "action": self.action, "seat": self.seat,
                "entry": self.entry, "reason": self.reason, "message": self.message}

    def where(self) -> str:
        """``"deal 1, action 14"``, ``"deal 2, exchange step 0"``, ``"deal 3, finish order"``
        or ``"deal 3"`` (0-based record indexes)."""
        if self.step == "play":
            return f"deal {self.deal}, action {self.action}"
        if self.step == "exchange":
            return f"deal {self.deal}, exchange step {self.action}"
        if self.step == "finish":
            return f"deal {self.deal}, finish order"
        return f"deal {self.deal}"


@dataclass(frozen=True)
class ReplayStep:
    """One step taken by a :class:`Replayer`: a deal started (``step == "deal"``,
    ``index is None``), an exchange transfer, an action, or the finishing order of a deal
    played with real cards (``step == "finish"``, ``index is None``), with the events it
    caused."""

    deal: int
    step: str
    index: int | None
    entry: str | None
    events: tuple[Event, ...]


def _deal_state(match: Match, by_order: bool = False) -> dict[str, Any]:
    state = match.deal.snapshot()
    if by_order:  # played with real cards: the engine's cards are stand-ins, not the deal's
        return {"dealer": match.deal.dealer, "seating": list(match.seating),
                "phase": match.phase, "hands": None, "pile": [], "to_act": None,
                "finish_order": state["finish_order"], "over": state["over"]}
    return {"dealer": match.deal.dealer, "seating": list(match.seating), "phase": match.phase,
            "hands": state["hands"], "pile": state["pile"], "to_act": match.to_act,
            "finish_order": state["finish_order"], "over": state["over"]}


class Replayer:
    """Replays a :class:`Record` step by step; iterate it for :class:`ReplayStep` values.

    While iterating, :attr:`match` is the live state after the latest step (the same
    object each time: copy ``match.snapshot()`` to keep one). Iteration stops after the
    last step, or before the first illegal one, which is then in :attr:`error`.

    Attributes:
        record: the record.
        match: the :class:`~president.match.Match`, or ``None`` until the first deal starts
            (and if it cannot).
        error: the :class:`ReplayError`, or ``None``.
        deal_states: the state of each started deal (see :func:`replay`); complete once
            iteration has ended.
    """

    def __init__(self, record: Record) -> None:
        self.record = record
        self.match: Match | None = None
        self.error: ReplayError | None = None
        self.deal_states: list[dict[str, Any]] = []
        self._done = False

    def __iter__(self) -> Iterator[ReplayStep]:
        if self._done:
            return iter(())
        self._done = True
        return self._run()

    def _fail(self, d: int, step: str, index: int | None, seat: int | None,
              entry: str | None, reason: str, message: str) -> None:
        self.error = ReplayError(d, step, index, seat, entry, reason, message)

    def _finish(self) -> None:
        if self.match is not None and len(self.deal_states) < self.match.deal_number:
            d = self.match.deal_number - 1
            self.deal_states.append(_deal_state(self.match, self.record.deals[d].by_order))

    def _run(self) -> Iterator[ReplayStep]:
        try:
            for d, deal in enumerate(self.record.deals):
                events = self._start(d, deal)
                if events is None:
                    return
                yield ReplayStep(d, "deal", None, None, tuple(events))
                if deal.by_order:
                    entry = _order_text(deal.finish_order)
                    events = self._settle(d, deal, entry)
                    if events is None:
                        return
                    yield ReplayStep(d, "finish", None, entry, tuple(events))
                    continue
                for i, ex in enumerate(deal.exchange):
                    events = self._exchange(d, i, ex)
                    if events is None:
                        return
                    yield ReplayStep(d, "exchange", i, ex.text or str(ex), tuple(events))
                for i, act in enumerate(deal.actions):
                    events = self._act(d, i, act)
                    if events is None:
                        return
                    yield ReplayStep(d, "play", i, act.text or str(act), tuple(events))
        finally:
            self._finish()

    def _start(self, d: int, deal: DealRecord) -> list[Event] | None:
        rules = self.record.rules
        n = rules.players
        match = self.match
        if match is None:
            dealer = n - 1 if deal.dealer is None else deal.dealer
            hands = _hands(deal, n, dealer)
            if hands is None:
                self._fail(d, "deal", None, None, None, "bad-deal", _NO_HANDS)
                return None
            if deal.seating is not None and deal.seating != tuple(range(n)):
                self._fail(d, "deal", None, None, None, "bad-deal",
                           f"seating {list(deal.seating)} is not what the rules give: players "
                           f"sit in order {list(range(n))} for a match's first deal")
                return None
            try:
                self.match = Match(rules, self.record.players, first_dealer=dealer,
                                   hands=hands, leader=deal.leader)
            except PresidentError as e:
                self._fail(d, "deal", None, None, None, e.reason, e.message)
                return None
            return list(self.match.events)
        if match.phase == "match-over":
            self._fail(d, "deal", None, None, None, "match-over",
                       f"the match ended with deal {d - 1}; a new match needs a new record")
            return None
        if match.phase != "between-deals":
            who = match.to_act
            self._fail(d, "deal", None, None, None, "wrong-phase",
                       f"deal {d - 1} has not ended (seat {who} is to "
                       f"{'give cards' if match.phase == 'exchange' else 'act'}); "
                       "list the rest of its actions before starting another deal")
            return None
        self.deal_states.append(_deal_state(match, self.record.deals[d - 1].by_order))
        _seating, want_dealer = match.next_seating_and_dealer()
        dealer = want_dealer if deal.dealer is None else deal.dealer
        hands = _hands(deal, n, dealer)
        if hands is None:
            self._fail(d, "deal", None, None, None, "bad-deal", _NO_HANDS)
            return None
        try:
            return match.start_next_deal(hands=hands, leader=deal.leader, dealer=deal.dealer,
                                         seating=deal.seating)
        except PresidentError as e:
            message = e.message
            if e.reason == "bad-deal" and (deal.seating is not None or deal.dealer is not None):
                message += ("; under by-finish seating the players sit in the last deal's "
                            "finishing order, President in seat 0, and the last seat deals"
                            if rules.seating == "by-finish" else
                            "; under fixed seating nobody moves and the dealer moves one seat "
                            "clockwise each deal")
            self._fail(d, "deal", None, None, None, e.reason, message)
            return None

    def _settle(self, d: int, deal: DealRecord, entry: str) -> list[Event] | None:
        match = self.match
        assert match is not None
        order = deal.finish_order
        try:
            return match.finish_by_order(list(order) if isinstance(order, tuple) else order)
        except IllegalAction as e:
            self._fail(d, "finish", None, None, entry, e.reason, e.message)
            return None

    def _exchange(self, d: int, i: int, ex: ExchangeEntry) -> list[Event] | None:
        match = self.match
        assert match is not None
        entry = ex.text or str(ex)
        if match.phase != "exchange":
            if match.phase == "play":
                if match.exchange_steps:
                    why = (f"the exchange is already complete (all {len(match.exchange_steps)} "
                           "transfers are listed before this one)")
                elif match.deal_number == 1:
                    why = "there is no exchange before the first deal of a match"
                else:
                    why = f"these rules have no exchange (exchange = {match.rules.exchange})"
                self._fail(d, "exchange", i, ex.giver, entry, "wrong-phase",
                           f"{why}; remove this transfer")
            else:
                err = match.refusal(ex.giver, Give(ex.mask))
                assert err is not None
                self._fail(d, "exchange", i, ex.giver, entry, err.reason, err.message)
            return None
        step = match.pending_transfer
        assert step is not None
        if ex.giver == step.giver and ex.receiver != step.receiver:
            title = _title_of_seat(match, step.receiver)
            self._fail(d, "exchange", i, ex.giver, entry, "bad-exchange",
                       f"seat {step.giver} gives to seat {step.receiver} ({title}) now, "
                       f"not to seat {ex.receiver}")
            return None
        try:
            return match.act(ex.giver, Give(ex.mask))
        except IllegalAction as e:
            self._fail(d, "exchange", i, ex.giver, entry, e.reason, e.message)
            return None

    def _act(self, d: int, i: int, act: ActionEntry) -> list[Event] | None:
        match = self.match
        assert match is not None
        entry = act.text or str(act)
        if match.phase == "exchange":
            step = match.pending_transfer
            assert step is not None
            self._fail(d, "play", i, act.seat, entry, "wrong-phase",
                       f"the exchange is not finished: seat {step.giver} must first give "
                       f"{step.count} card{'s' if step.count > 1 else ''} to seat "
                       f"{step.receiver} (list it under \"exchange\")")
            return None
        try:
            action = PASS if act.cards is None else Play.of(act.cards)
            return match.act(act.seat, action)
        except IllegalAction as e:
            message = e.message
            if e.reason == "deal-over" and match.phase == "between-deals":
                message = (f"deal {d} is over (finishing order, by seat: "
                           f"{list(match.deal.finish_order)}); no action follows the end of a "
                           "deal; start the next deal as a new entry of \"deals\"")
            self._fail(d, "play", i, act.seat, entry, e.reason, message)
            return None


def _hands(deal: DealRecord, n: int, dealer: int) -> Sequence[int] | None:
    """The hands a deal starts from: as written, from its seed, or (a deal kept by its
    finishing order) stand-in cards that play no part; ``None`` for a deal with neither
    hands nor seed (one built in code: :func:`loads` refuses it)."""
    if deal.hands is not None:
        return deal.hands
    if deal.by_order:
        return deal_hands(n, dealer, STAND_IN_SEED)
    if deal.seed is None:
        return None
    return deal_hands(n, dealer, deal.seed)


_NO_HANDS = ("the deal has neither \"hands\" nor \"seed\", so there are no cards to replay "
             "it from")


def _order_text(order: Any) -> str:
    """A finishing order as written in the record, as JSON text: ``"[2, 0, 3, 1]"``."""
    try:
        return json.dumps(list(order) if isinstance(order, tuple) else order,
                          ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(order)


def _title_of_seat(match: Match, seat: int) -> str:
    if not match.results:
        return "no title yet"
    order = match.results[-1].finish_order
    player = match.seating[seat]
    return title_for_place(order.index(player) + 1, match.rules.players,
                           naming=match.rules.titles)


@dataclass(frozen=True)
class ReplayResult:
    """The outcome of :func:`replay`.

    Attributes:
        record: the record replayed.
        match: the :class:`~president.match.Match` after the last legal step, or ``None``
            if the first deal could not start.
        error: the first illegal step as a :class:`ReplayError`, or ``None``.
        deals: per started deal, its state at its end (for the last one, after the last
            legal step): ``dealer``, ``seating``, ``phase``, ``hands``, ``pile``, ``to_act``,
            ``finish_order``, ``over`` (see ``docs/records.md``); ``hands`` is ``None``
            and ``pile`` empty for a deal kept by its finishing order.
        steps: number of steps taken (deal starts, exchange transfers, actions and
            finishing orders).
    """

    record: Record
    match: Match | None
    error: ReplayError | None
    deals: tuple[dict[str, Any], ...]
    steps: int

    @property
    def ok(self) -> bool:
        """Whether every step of the record is legal."""
        return self.error is None

    @property
    def scores(self) -> list[int]:
        """Match totals by player index."""
        return list(self.match.scores) if self.match else [0] * self.record.rules.players

    @property
    def match_over(self) -> bool:
        """Whether the match has ended."""
        return self.match is not None and self.match.phase == "match-over"

    @property
    def winners(self) -> list[int]:
        """Winners by player index (empty until the match ends)."""
        return list(self.match.winners) if self.match_over and self.match else []

    @property
    def next_deal(self) -> dict[str, Any] | None:
        """The deal that follows the state after the last legal step, before it is dealt
        (:meth:`~president.match.Match.next_deal_plan`): ``{"number", "dealer", "seating",
        "leader", "exchange"}``, ``number`` counted from 1, seats of that deal. ``None``
        when the match is over or a deal is still being played (stopped part-way); before
        any deal, the match's first deal (dealer: the last seat, as a record's default)."""
        if self.match is None:
            return _first_deal_plan(self.record.rules, self.record.players)
        return self.match.next_deal_plan()

    def to_dict(self) -> dict[str, Any]:
        """The ``president replay --json`` object (see ``docs/records.md``)."""
        return {"ok": self.ok, "error": self.error.to_dict() if self.error else None,
                "deals": [dict(d) for d in self.deals], "scores": self.scores,
                "match_over": self.match_over, "winners": self.winners,
                "winner_names": [self.record.players[p] for p in self.winners],
                "next_deal": self.next_deal}


def _first_deal_plan(rules: Rules, players: Sequence[str]) -> dict[str, Any]:
    """``next_deal`` before a match's first deal: players in order, the last seat deals, no
    exchange, the lead by ``first_lead`` (``None`` for the holder of a card)."""
    n = rules.players
    seating = tuple(range(n))
    # The engine states the opening-lead rule once; a stand-in match asks it.
    match = Match(rules, players, hands=deal_hands(n, n - 1, STAND_IN_SEED), record_events=False)
    return {"number": 1, "dealer": n - 1, "seating": list(seating),
            "leader": match._opening_lead(n - 1, seating, None), "exchange": []}


def iter_replay(record: Record) -> Replayer:
    """A :class:`Replayer` over ``record``: ``for step in iter_replay(r): ...``."""
    return Replayer(record)


def replay(record: Record | Mapping[str, Any] | str) -> ReplayResult:
    """Replay a record and return the state after its last legal step.

    Args:
        record: a :class:`Record`, a decoded JSON dict, or JSON text.

    Returns:
        A :class:`ReplayResult`; ``result.ok`` is false and ``result.error`` says where and
        why if a step is illegal (the state is then the one just before it).

    Raises:
        RecordError: if a dict or text given is not a valid record.
    """
    if isinstance(record, str):
        record = loads(record)
    elif not isinstance(record, Record):
        record = Record.from_dict(record)
    replayer = Replayer(record)
    steps = sum(1 for _ in replayer)
    return ReplayResult(record, replayer.match, replayer.error, tuple(replayer.deal_states),
                        steps)
