"""The table companion: keep the score of a match played with a real deck.

A group at a real table deals and plays with its own cards; after each deal someone enters
the finishing order. A :class:`Sheet` is everything they entered: the rules (a preset and
its twists, ``"house+three-deals"``), the players' names in seating order (clockwise, as they
sat for the first deal), the first dealer, and one entry per deal: its finishing order
(first out first), or :data:`REPLAYED` for a deal that was dealt again.

:func:`view` replays a sheet through :class:`~president.match.Match`
(:meth:`~president.match.Match.finish_by_order` for each deal,
:meth:`~president.match.Match.start_next_deal` between them) and answers what the table needs
to know in plain data: each deal's order with titles and points, the running totals, the
titles now, whether the match is over and who won (tied leaders share), and the deal being
played now: who deals, the seating (who sits on whose left), who leads, and the exchange in
plain words. Every rule comes from the engine; this module only names what it says.

>>> sheet = Sheet("house", ["Alex", "Blair", "Casey", "Drew"], first_dealer=3)
>>> sheet = sheet.enter(["Blair", "Alex", "Casey"])       # the last is filled in: Drew
>>> v = view(sheet)
>>> v["totals"], v["titles"]
([1, 2, 0, 0], ['Vice-President', 'President', '3rd', 'last'])
>>> v["now"]["dealer"], v["now"]["leader"]
('Alex', 'Blair')
>>> v["now"]["exchange"]
['Drew must give their highest card to Blair; Blair gives back 1 card to Drew.', 'The others keep their cards.']

**A deal dealt again.** Seed ``000_2ebb75a2290c9d05.txt`` replays a deal whose mistake
cannot be put right, with the scores and the ranks of the deal before it unchanged. The
engine never sees that deal: :meth:`Sheet.replay_deal` adds a :data:`REPLAYED` marker, the
match is exactly as it was before the deal, and the deal played again has the same number,
dealer, seating, leader and exchange (made again with the new cards). A three-deal match
still has three complete deals.

**Errors.** Every refusal is a :class:`SheetError` (a :class:`ValueError`) with a reason and
a message in plain words; a :class:`Sheet` is immutable, so a refused entry changes nothing.

This module is part of the rules core: standard library only.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from .cards import Card
from .errors import PresidentError, Reason
from .errors import shown as quoted
from .events import title_for_place
from .match import Match
from .narration import Reader, exchange_duty
from .observation import Transfer
from .rules import Rules

__all__ = ["Sheet", "SheetError", "REPLAYED", "FORMAT", "MAX_NAME_CHARS", "MAX_ENTRIES",
           "view", "same_name", "record_from_sheet", "sheet_from_record"]

FORMAT = "president-sheet/1"
"""The ``format`` of a sheet written by :meth:`Sheet.to_dict`."""

REPLAYED = "replayed"
"""The entry of a deal that was dealt again: it counts for nothing (source
``000_2ebb75a2290c9d05.txt``: scores and ranks unchanged)."""

MAX_NAME_CHARS = 24
"""Longest name, in characters."""

MAX_ENTRIES = 500
"""Most entries (deals and deals dealt again) in one sheet."""



class SheetError(PresidentError):
    """A sheet, or an entry, that cannot be: ``reason`` is one of

    - ``bad-sheet``: not a sheet (wrong types, fields, format, too many entries);
    - ``bad-rules``: rules that are not a preset and its twists, or the wrong number of
      players for them;
    - ``bad-name``: an empty name, a name that is only a number, holds a comma or a control
      character, or is too long;
    - ``same-name``: two seats with one name (case and spaces ignored);
    - ``bad-dealer``: a first dealer who is not one of the seats;
    - ``unknown-name``: an order names someone who is not at the table;
    - ``name-twice``: an order names a player twice;
    - ``missing-player``: an order leaves out two or more players (one is filled in);
    - ``match-over``: an entry after the match ended;
    - ``nothing-to-undo``: undo on an empty sheet.

    Attributes:
        entry: index of the entry at fault (0-based), or ``None``.
    """

    def __init__(self, reason: Reason | str, message: str, entry: int | None = None) -> None:
        super().__init__(reason, message)
        self.entry = entry


def _key(name: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def same_name(a: str, b: str) -> bool:
    """Whether two names are one name at the table: equal after Unicode NFKC, case folding
    and collapsing spaces (``"alex "`` is ``"Alex"``).

    >>> same_name("Alex", " ALEX"), same_name("Alex", "Alexa")
    (True, False)
    """
    return _key(a) == _key(b)


def _clean(name: Any, seat: int) -> str:
    where = f"seat {seat + 1}'s name"
    if not isinstance(name, str):
        raise SheetError("bad-name", f"{where} must be text, not {type(name).__name__}")
    shown = " ".join(unicodedata.normalize("NFC", name).split())
    if not shown:
        raise SheetError("bad-name", f"{where} is empty; give every player a name")
    if len(shown) > MAX_NAME_CHARS:
        raise SheetError("bad-name", f"{where} {shown[:MAX_NAME_CHARS]!r}… is longer than "
                         f"{MAX_NAME_CHARS} characters; shorten it")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in shown):
        raise SheetError("bad-name", f"{where} {quoted(shown)} holds a control or invisible "
                         "character; use letters, digits, spaces and punctuation")
    if shown.isdigit():
        raise SheetError("bad-name", f"{where} {quoted(shown)} is only a number; numbers stand for "
                         "seats when an order is typed, so give a name")
    if "," in shown:
        raise SheetError("bad-name", f"{where} {quoted(shown)} holds a comma; commas separate the "
                         "names of an order, so leave it out")
    return shown


def _order_text(order: Any) -> str:
    if isinstance(order, (list, tuple)):
        return ", ".join(str(x) for x in order)
    return repr(order)


@dataclass(frozen=True)
class Sheet:
    """Everything entered at one table for one match; immutable and checked when built.

    Args:
        rules: a preset and its twists, ``"family"`` or ``"first-night+swap"``
            (:meth:`~president.rules.Rules.parse`); the table size is ``len(players)``.
        players: the names in seating order for the first deal, clockwise (seat 0 first).
            Spaces are collapsed; two names may not be the same name (:func:`same_name`).
        first_dealer: the seat (index in ``players``) of the first deal's dealer
            (default: the last seat, so the first name is dealt to first).
        entries: one per deal in order: its finishing order (names, or player indexes into
            ``players``, first out first; the last player may be left out and is filled
            in), or :data:`REPLAYED`. Stored as the names of ``players``.

    Raises:
        SheetError: as the class says; nothing is built.
    """

    rules: str
    players: tuple[str, ...]
    first_dealer: int | None = None
    entries: tuple[tuple[str, ...] | str, ...] = ()
    _match: Match = field(init=False, repr=False, compare=False)
    _plans: list[dict[str, Any]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.rules, str) or not self.rules.strip() or len(self.rules) > 120:
            raise SheetError("bad-rules", "give the rules as a preset and its twists, such as "
                             "house or house+three-deals")
        if isinstance(self.players, str) or not isinstance(self.players, (list, tuple)):
            raise SheetError("bad-sheet", "give the players as a list of names in seating order")
        if len(self.players) > 7:
            raise SheetError("bad-rules", f"{len(self.players)} players is too many; a table "
                             "seats 3 to 7")
        names = tuple(_clean(n, s) for s, n in enumerate(self.players))
        keys = [_key(n) for n in names]
        for j in range(len(names)):
            for i in range(j):
                if keys[i] == keys[j]:
                    raise SheetError("same-name", f"seats {i + 1} and {j + 1} are both named "
                                     f"{quoted(names[i])}; give each player a different name")
        try:
            rules = Rules.parse(self.rules.strip(), players=len(names))
        except PresidentError as e:
            raise SheetError("bad-rules", e.message) from None
        n = len(names)
        dealer = n - 1 if self.first_dealer is None else self.first_dealer
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise SheetError("bad-dealer", f"the first dealer {quoted(dealer)} is not a seat; give a "
                             f"seat from 1 to {n} (0 to {n - 1} counted from 0)")
        if isinstance(self.entries, str) or not isinstance(self.entries, (list, tuple)):
            raise SheetError("bad-sheet", "give the entries as a list")
        if len(self.entries) > MAX_ENTRIES:
            raise SheetError("bad-sheet", f"{len(self.entries)} entries is more than a sheet "
                             f"holds ({MAX_ENTRIES}); start a new match")
        object.__setattr__(self, "rules", rules.name)
        object.__setattr__(self, "players", names)
        object.__setattr__(self, "first_dealer", dealer)
        match = Match(rules, names, seed=0, first_dealer=dealer, record_events=False)
        entries: list[tuple[str, ...] | str] = []
        plans: list[dict[str, Any]] = [_first_plan(match)]
        for i, entry in enumerate(self.entries):
            deal_no = match.deal_number
            if match.phase == "match-over":
                raise SheetError("match-over", f"{_winners_words(match)} The match is over, so "
                                 "there is no deal to enter; start a new match.", i)
            if entry == REPLAYED:
                entries.append(REPLAYED)
                continue
            order = self._resolve(entry, deal_no, i)
            match.finish_by_order([match.seating.index(names.index(p)) for p in order])
            entries.append(order)
            if match.phase == "between-deals":
                plans.append(match.next_deal_plan() or {})
                match.start_next_deal()
        object.__setattr__(self, "entries", tuple(entries))
        object.__setattr__(self, "_match", match)
        object.__setattr__(self, "_plans", plans)

    def _resolve(self, entry: Any, deal_no: int, index: int) -> tuple[str, ...]:
        """A finishing order as the players' names, first out first, the last filled in."""
        names = self.players
        n = len(names)
        here = f"Deal {deal_no}"
        if isinstance(entry, str) or not isinstance(entry, (list, tuple)):
            raise SheetError("bad-sheet", f"{here}: give the finishing order as a list of names, "
                             f"first out first, or {quoted(REPLAYED)} for a deal dealt again", index)
        order: list[int] = []
        for item in entry:
            if isinstance(item, bool):
                item = str(item)
            if isinstance(item, int):
                if not 0 <= item < n:
                    raise SheetError("unknown-name", f"{here}: there is no player {item}; "
                                     f"players are 0 to {n - 1}", index)
                p = item
            elif isinstance(item, str):
                key = _key(item)
                p = next((q for q, name in enumerate(names) if _key(name) == key), -1)
                if p < 0:
                    shown = item.strip()[:MAX_NAME_CHARS]
                    raise SheetError("unknown-name", f"{here}: {quoted(shown)} is not at this table; "
                                     f"the players are {', '.join(names)}", index)
            else:
                raise SheetError("bad-sheet", f"{here}: {quoted(item)} is not a name", index)
            if p in order:
                raise SheetError("name-twice", f"{here}: {names[p]} is named twice in one "
                                 "order; name each player once, first out first", index)
            order.append(p)
        missing = [names[p] for p in range(n) if p not in order]
        if len(missing) == 1:
            order.append(names.index(missing[0]))
        elif missing:
            raise SheetError("missing-player", f"{here}: the order leaves out "
                             f"{_and(missing)}; name everyone but the last player, first out "
                             "first (the last is filled in)", index)
        return tuple(names[p] for p in order)

    # ----- entries ------------------------------------------------------------------------

    def enter(self, order: Sequence[str | int]) -> "Sheet":
        """This sheet with the current deal's finishing order added (names or player indexes,
        first out first; the last player may be left out).

        Raises:
            SheetError: ``unknown-name``, ``name-twice``, ``missing-player``, ``match-over``.
        """
        if isinstance(order, str) or not isinstance(order, (list, tuple)):
            raise SheetError("bad-sheet", f"Deal {self._match.deal_number}: give the finishing "
                             "order as a list of names, first out first")
        return Sheet(self.rules, self.players, self.first_dealer, (*self.entries, tuple(order)))

    def replay_deal(self) -> "Sheet":
        """This sheet with the current deal marked as dealt again (:data:`REPLAYED`): scores,
        ranks, dealer, seating and exchange stay as they were.

        Raises:
            SheetError: ``match-over``.
        """
        return Sheet(self.rules, self.players, self.first_dealer, (*self.entries, REPLAYED))

    def undo(self) -> "Sheet":
        """This sheet without its last entry.

        Raises:
            SheetError: ``nothing-to-undo`` on an empty sheet.
        """
        if not self.entries:
            raise SheetError("nothing-to-undo", "there is nothing to undo: no deal has been "
                             "entered yet")
        return Sheet(self.rules, self.players, self.first_dealer, self.entries[:-1])

    def new_match(self, *, rules: str | None = None, players: Sequence[str] | None = None,
                  first_dealer: int | None = None) -> "Sheet":
        """A new match: everyone at zero and no exchange before its first deal (source
        ``000_2ebb75a2290c9d05.txt``). Players change only here, between matches; the rules,
        the players and the first dealer are this sheet's unless given.

        Raises:
            SheetError: as :class:`Sheet`.
        """
        if players is not None and first_dealer is None:
            first_dealer = len(players) - 1
        return Sheet(self.rules if rules is None else rules,
                     self.players if players is None else tuple(players),
                     self.first_dealer if first_dealer is None else first_dealer)

    @property
    def match(self) -> Match:
        """The replayed :class:`~president.match.Match` (shared by every view: never change it)."""
        return self._match

    @property
    def over(self) -> bool:
        """Whether the match has ended."""
        return self._match.phase == "match-over"

    # ----- plain data ---------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """``{"format", "rules", "players", "first_dealer", "entries"}``: JSON-ready."""
        return {"format": FORMAT, "rules": self.rules, "players": list(self.players),
                "first_dealer": self.first_dealer,
                "entries": [e if e == REPLAYED else list(e) for e in self.entries]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Sheet":
        """Inverse of :meth:`to_dict` (``format`` may be left out).

        Raises:
            SheetError: not a sheet, or a sheet that cannot be.
        """
        if not isinstance(data, Mapping):
            raise SheetError("bad-sheet", "a sheet is a JSON object with rules, players, "
                             "first_dealer and entries")
        unknown = sorted(set(data) - {"format", "rules", "players", "first_dealer", "entries"})
        if unknown:
            raise SheetError("bad-sheet", f"a sheet has no field {str(unknown[0])[:40]!r}; its "
                             "fields are format, rules, players, first_dealer and entries")
        if data.get("format", FORMAT) != FORMAT:
            raise SheetError("bad-sheet", f"format {str(data.get('format'))[:40]!r} is not "
                             f"{quoted(FORMAT)}")
        for key in ("rules", "players"):
            if key not in data:
                raise SheetError("bad-sheet", f"a sheet needs {quoted(key)}")
        entries: Any = data.get("entries") or []    # JSON as read: Sheet checks it
        if isinstance(entries, (list, tuple)):
            entries = [tuple(e) if isinstance(e, list) else e for e in entries]
        return cls(data["rules"], data["players"], data.get("first_dealer"), entries)


def _first_plan(match: Match) -> dict[str, Any]:
    """The first deal as :meth:`Match.next_deal_plan` gives a later one."""
    return {"number": 1, "dealer": match.deal.dealer, "seating": list(match.seating),
            # a lead by the holder of a card is unknown until the real cards are dealt
            "leader": match._opening_lead(match.deal.dealer, match.seating, None),
            "exchange": []}


# ----- words ----------------------------------------------------------------------------


def _and(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _exchange_words(plan: dict[str, Any], names: Sequence[str], titles: Sequence[str], rules: Rules,
                    first: bool) -> list[str]:
    """The exchange before the deal of ``plan`` as sentences, naming the players."""
    steps = plan["exchange"]
    if not steps:
        if rules.exchange == "none":
            return ["No card exchange under these rules: play the cards you are dealt."]
        if first:
            return ["No exchange before the first deal of a match."]
        return ["No exchange before this deal."]
    seating = plan["seating"]
    back = rules.give_back  # what the President (and Vice-President) give back: any or lowest
    reader = Reader(tuple(names[p] for p in seating), None)  # the table, no one seat
    out = []
    trading: set[int] = set()
    for step in steps:
        trading |= {seating[step["giver"]], seating[step["receiver"]]}
        said = exchange_duty(Transfer(step["giver"], step["receiver"], step["count"],
                                      step["forced"]), reader, back)
        if step["forced"]:
            out.append(said)
        else:
            out[-1] += f"; {said}."
    others = [p for p in seating if p not in trading]
    if others and rules.exchange == "two-and-one":
        who = _and([names[p] for p in others])
        kinds = {titles[p] for p in others}      # the Neutrals, under the first-night guide's roles
        if len(kinds) == 1:
            who += f" ({kinds.pop()}{'s' if len(others) > 1 else ''})"
        out.append(f"{who} {'keep' if len(others) > 1 else 'keeps'} their cards.")
    elif others:
        out.append("The others keep their cards.")
    return out


def _end_words(rules: Rules) -> str:
    end = rules.match_end
    if end.target is not None:
        return (f"The match ends after the deal that takes a total to {end.target} or more; "
                "the highest total wins, tied highest totals share the win.")
    if end.deals is not None:
        return (f"The match is {end.deals} complete deals; the highest total after deal "
                f"{end.deals} wins, tied highest totals share the win.")
    if end.kind == "single-deal":
        return "One deal: its President wins."
    return "No end and no score: roles are the prize."


def _winners_words(match: Match) -> str:
    if match.phase != "match-over":
        return ""
    names = [match.players[p] for p in match.winners]
    if match.rules.scoring is None:
        return f"{names[0]} wins as the last deal's President."
    top = match.scores[match.winners[0]]
    if len(names) > 1:
        return f"{_and(names)} share the win with {top} points each."
    return f"{names[0]} wins with {top} points."


def _card_words(card: Card) -> str:
    return f"{card.rank.word} of {('clubs', 'diamonds', 'hearts', 'spades')[card.suit]}"


# ----- the view -------------------------------------------------------------------------


def view(sheet: Sheet) -> dict[str, Any]:
    """What the table needs to see, as plain JSON-ready data (names, not indexes, wherever
    a person reads it; lists ``by player`` follow ``sheet.players``):

    - ``rules``: ``{"name", "scoring"`` (points by place, or ``None``: roles only),
      ``"match_end", "end"`` (in words)``}``; ``players``; ``first_dealer`` (a name);
    - ``deals``: one per entry, in order: ``{"number", "replayed", "dealer", "seating"``
      (names clockwise)``, "order"`` (``[{"name", "place", "title", "points"}]`` first out
      first, empty for a deal dealt again)``, "totals"`` (by player after it, ``None``
      without scoring)``}``;
    - ``totals`` (by player, ``None`` without scoring), ``titles`` (by player, from the last
      deal; ``""`` before any), ``deals_played`` (complete deals);
    - ``over``, ``winners`` (names; tied leaders share), ``result`` (in words, ``""``
      while the match goes on);
    - ``now``: the deal being played at the table, whose order comes next (``None`` once
      the match is over): ``{"number", "dealer", "leader"`` (a name, or ``None``: the holder
      of a card)``, "lead"`` (in words)``, "deal"`` (who deals and who gets the first card)``,
      "seating"`` (names clockwise from seat 0)``, "circle"`` (``[{"name", "left", "title",
      "dealer", "leader"}]`` per seat: ``left`` is the name on that player's left, the next
      seat clockwise)``, "reseated"`` (the seats changed since the last deal)``, "seating_words",
      "exchange"`` (sentences)``, "replays"`` (how many times this deal was dealt again)``}``;
    - ``can_undo``.
    """
    match = sheet._match
    rules = match.rules
    names = sheet.players
    n = len(names)
    plans: list[dict[str, Any]] = sheet._plans
    scored = rules.scoring is not None
    deals: list[dict[str, Any]] = []
    counted = 0
    totals = [0] * n
    for entry in sheet.entries:
        plan = plans[counted]
        seating = [names[p] for p in plan["seating"]]
        row: dict[str, Any] = {"number": counted + 1, "replayed": entry == REPLAYED,
                               "dealer": seating[plan["dealer"]], "seating": seating,
                               "order": [], "totals": None}
        if entry != REPLAYED:
            result = match.results[counted]
            titles = _titles_of(result.finish_order, n, rules)
            for p in range(n):
                totals[p] += result.points[p]
            row["order"] = [{"name": names[p], "place": i + 1, "title": titles[p],
                             "points": result.points[p] if scored else None}
                            for i, p in enumerate(result.finish_order)]
            row["totals"] = list(totals) if scored else None
            counted += 1
        deals.append(row)
    titles_now = list(match.titles())
    over = match.phase == "match-over"
    now = None
    if not over:
        plan = plans[counted]
        seating_idx = plan["seating"]
        seating = [names[p] for p in seating_idx]
        dealer = plan["dealer"]
        leader = plan["leader"]
        circle = [{"name": seating[s], "left": seating[(s + 1) % n],
                   "title": titles_now[seating_idx[s]], "dealer": s == dealer,
                   "leader": s == leader} for s in range(n)]
        before = plans[counted - 1]["seating"] if counted else seating_idx
        if leader is None:
            card = rules.first_lead.card
            assert card is not None  # only a lead by the holder of a card is not known
            lead = f"Whoever is dealt the {_card_words(card)} leads."
        else:
            why = ""
            if counted and titles_now[seating_idx[leader]] == "President":
                why = " (the President)"
            elif leader == (dealer + 1) % n:
                why = " (on the dealer's left)"
            lead = f"{seating[leader]} leads{why}."
        replays = 0
        for entry in reversed(sheet.entries):
            if entry != REPLAYED:
                break
            replays += 1
        now = {
            "number": counted + 1,
            "dealer": seating[dealer],
            "leader": None if leader is None else seating[leader],
            "lead": lead,
            "deal": (f"{seating[dealer]} deals, one card at a time clockwise, starting with "
                     f"{seating[(dealer + 1) % n]} on their left."),
            "seating": seating,
            "circle": circle,
            "reseated": list(before) != list(seating_idx),
            "seating_words": ", ".join(seating) + ". " + " ".join(
                f"{c['left']} sits on {c['name']}'s left." for c in circle),
            "exchange": _exchange_words(plan, names, titles_now, rules, counted == 0),
            "replays": replays,
        }
    return {
        "rules": {"name": rules.name,
                  "scoring": None if rules.scoring is None else list(rules.scoring),
                  "match_end": str(rules.match_end), "end": _end_words(rules)},
        "players": list(names),
        "first_dealer": names[sheet.first_dealer],  # type: ignore[index]
        "deals": deals,
        "deals_played": counted,
        "totals": list(match.scores) if scored else None,
        "titles": titles_now,
        "over": over,
        "winners": [names[p] for p in match.winners] if over else [],
        "result": _winners_words(match),
        "now": now,
        "can_undo": bool(sheet.entries),
    }


def _titles_of(finish_order: Sequence[int], n: int, rules: Rules) -> list[str]:
    out = [""] * n
    for place, p in enumerate(finish_order):
        out[p] = title_for_place(place + 1, n, naming=rules.titles)
    return out


# ----- game records ---------------------------------------------------------------------

_COMPANION_NOTE = re.compile(r"\(table companion: first dealer seat (\d{1,4}); dealt again: "
                             r"(\d{1,4}(?: \d{1,4})*)\)")   # longer numbers: not our note


def record_from_sheet(sheet: Sheet) -> dict[str, Any]:
    """The sheet as a ``president/2`` game record (a JSON-ready dict, ``docs/records.md``):
    each deal with its dealer, its seating (under ``by-finish``) and its ``finish_order``
    (:func:`president.records.record_from_finish_orders`), so ``president replay`` checks it
    and reports the same totals. A record has no field for a deal dealt again: the top-level
    ``comment`` says how many times each deal was, and who dealt first, in a form
    :func:`sheet_from_record` reads back; each such deal's ``comment`` says it in words."""
    from .records import record_from_finish_orders

    names = sheet.players
    orders = [[names.index(p) for p in e] for e in sheet.entries if e != REPLAYED]
    record = record_from_finish_orders(Rules.parse(sheet.rules, players=len(names)), names,
                                       orders, first_dealer=sheet.first_dealer, by="player")
    data = record.to_dict()
    again = [0]
    for e in sheet.entries:
        if e == REPLAYED:
            again[-1] += 1
        else:
            again.append(0)
    for deal, times in zip(data["deals"], again):
        if times:
            said = {1: "once", 2: "twice"}.get(times, f"{times} times")
            deal["comment"] = (f"Dealt again {said} before "
                               "this order was kept: replayed with scores and ranks unchanged.")
    data["comment"] = (f"Score sheet of a match played with real cards, {len(orders)} deal"
                       f"{'s' if len(orders) != 1 else ''} (table companion: first dealer seat "
                       f"{sheet.first_dealer}; dealt again: {' '.join(map(str, again))})")
    return {"format": data.pop("format"), "comment": data.pop("comment"), **data}


_NOT_A_RECORD = "This file is not a score sheet or game record"


def sheet_from_record(data: Mapping[str, Any] | str | bytes) -> Sheet:
    """The sheet of a game record (a dict or JSON text): the rules (a preset and its twists),
    the players, the first deal's dealer and each finished deal's finishing order, as
    :func:`president.records.replay` gives them, with the deals dealt again that
    :func:`record_from_sheet` noted. A record of deals played here with cards imports too:
    only each deal's finishing order is kept.

    Raises:
        SheetError: ``bad-record``: not a valid record, a step the rules refuse, rules that are
            not a preset with twists, or a deal that did not end.
    """
    from .records import RecordError, Record, count_deals_from_1, replay
    from .records.read import decode_json

    try:
        if isinstance(data, (str, bytes)):
            data = decode_json(data)     # hostile text (huge numbers, deep nesting) refused
        record = Record.from_dict(data)
    except RecordError as e:
        why = e.message
        if "unknown field; " in why:
            why = f"it has a field {quoted(e.field)} that a game record does not have"
        stop = "" if why.endswith((".", "!", "?")) else "."
        raise SheetError("bad-record", f"{_NOT_A_RECORD}: {why}{stop}") from None
    rules = record.rules
    n = rules.players
    try:
        same = rules.preset is not None and not rules.overrides
    except PresidentError:
        same = False
    if not same:
        raise SheetError("bad-record", f"the record's rules ({rules.name}, with options of "
                         "its own) are not a preset with twists; the companion keeps score "
                         "under a preset and its twists")
    result = replay(record)
    if result.error is not None:
        raise SheetError("bad-record", f"the record breaks the rules in deal "
                         f"{result.error.deal + 1}: {count_deals_from_1(result.error.message)}")
    match = result.match
    if match is not None and match.phase not in ("between-deals", "match-over"):
        raise SheetError("bad-record", f"deal {match.deal_number} of the record has not ended; "
                         "the companion keeps finished deals only")
    comment = data.get("comment") if isinstance(data, Mapping) else None
    note = _COMPANION_NOTE.search(comment) if isinstance(comment, str) else None
    first = record.deals[0].dealer if record.deals and record.deals[0].dealer is not None \
        else n - 1
    again = [0] * (len(record.deals) + 1)
    if note:
        first = int(note.group(1)) if not record.deals else first
        counts = [int(k) for k in note.group(2).split()]
        if len(counts) == len(again) and all(k <= MAX_ENTRIES for k in counts):
            again = counts
    entries: list[tuple[str, ...] | str] = []
    results = match.results if match is not None else []
    for i, times in enumerate(again):
        entries.extend([REPLAYED] * times)
        if i < len(results):
            entries.append(tuple(record.players[p] for p in results[i].finish_order))
    return Sheet(rules.name, record.players, first, tuple(entries))
