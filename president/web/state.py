"""The state of a browser-game table (:class:`TableState`): its match, humans, computer
players (the players themselves, by seat), log, records and the messages it sends.
:class:`~president.web.tables.Table` is built on it (a subclass) and composes its two other
parts, :class:`~president.web.runner.ComputerPlayers` (the loop, the timers and the
stand-ins) and :class:`~president.web.hints.Hints`, which are given the table and reach
this state through it. The state knows nothing of them: what it shows of them (the running
timer, who has a stand-in) is kept here by them.

Each human player holds an unguessable seat token (``secrets.token_urlsafe``); a table is
found by its unguessable id. Every message a socket is sent is built by
:mod:`president.web.protocol` from that player's own observation and
:func:`~president.events.visible_to`. Computer players are given only their own
:meth:`~president.match.Match.observation`.

A match table can be rebuilt from its sealed record (:meth:`TableState.record`,
:meth:`TableState.from_record`): the rules, names, tokens, match seed and every action,
replayed through the engine.
"""

from __future__ import annotations

import asyncio
import math
import hashlib
import hmac
import json
import logging
import os
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Coroutine, Iterable, Protocol, Self, Sequence

import orjson

from ..errors import PresidentError, Reason, as_reason
from ..events import DealEnded, Dealt, Event, Exchanged, Played
from ..match import Match
from ..players import available_levels, make_player
from ..records import read_rules
from ..rules import OPTION_HELP, PRESETS, Rules, describe_items
from . import protocol as P
from .levels import DEFAULT_STANDIN, HUMAN, THINK_FALLBACK
from .sealing import GrowingText, Sealer
from .thinker import Thinker, decide

log = logging.getLogger("president.web")

__all__ = ["TableState", "Connection", "TableError", "PRACTICE_NAMES", "DEFAULT_NAMES",
           "MATCH_PRESETS", "RECORD_VERSION", "MAX_SOCKETS_PER_SEAT", "MAX_TABLE_ACTIONS",
           "DEFAULT_GRACE_SECONDS",
           "bot_delay_from_env"]

PRACTICE_NAMES = ("You", "Robin", "Alex", "Sam")
"""Seed 003: you against Robin, Alex and Sam, in that clockwise order."""
DEFAULT_NAMES = ("You", "Alex", "Blair", "Casey", "Drew", "Emery", "Frankie")
MATCH_PRESETS = tuple(name for name in PRESETS if name != "practice")
"""Presets a match may use (``practice`` is the standalone practice round)."""
RECORD_VERSION = 2
"""The version of a saved table (its ``"v"``), which is also the version of its stored rules
(:func:`~president.records.read_rules`): tables are saved as version 2; a table saved as
version 1, before the ``give_back`` option, is restored with its rules' older meaning."""
READ_VERSIONS = (1, 2)
MAX_SOCKETS_PER_SEAT = 4
"""Open pages (sockets) one seat may have at once; another is refused (``too-many-pages``)."""
MAX_TABLE_ACTIONS = 50_000
"""Log entries (actions, deals, rematches) one table keeps at most: past it, no next deal or
rematch starts there (``table-full``; the deal in play is played to its end). A table is
rebuilt after a restart by replaying its log, and its log is kept on disk: without a bound
one table could grow for ever (hundreds of deals are still far below it)."""
DEFAULT_FILL_SECONDS = 60.0
"""How long an open table waits for people before its match starts with computers in the
seats nobody took (seconds; the host chooses from :data:`MIN_FILL_SECONDS` to
:data:`MAX_FILL_SECONDS`)."""
MIN_FILL_SECONDS = 10
MAX_FILL_SECONDS = 600
DEFAULT_GRACE_SECONDS = 30.0
"""How long an away friend's turn waits before the stand-in plays for them (seconds)."""


def bot_delay_from_env(default: float = 0.8) -> float:
    """Seconds between computer plays: ``$PRESIDENT_BOT_DELAY`` if set (0 for tests), else
    ``default``. Raises ValueError for a value that is not a number from 0 to 10."""
    raw = os.environ.get("PRESIDENT_BOT_DELAY")
    if raw is None or raw == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"PRESIDENT_BOT_DELAY={raw!r} is not a number; give seconds, e.g. 0.5") from None
    if not 0 <= value <= 10:
        raise ValueError(f"PRESIDENT_BOT_DELAY={raw!r} is out of range; give 0 to 10 seconds")
    return value


def open_seat_name(player: int) -> str:
    """The name an open table's seat has until someone takes it: "Seat 2" for player 1."""
    return f"Seat {player + 1}"


def _finite(value: Any) -> float:
    """A finite number of a record (``ValueError`` otherwise: NaN, infinities, text)."""
    number = float(value)
    if not math.isfinite(number):
        raise ValueError("fill_by")
    return number


class TableError(ValueError):
    """A table that cannot be made or joined; ``reason`` and ``message`` as in the engine
    (``reason`` a :class:`~president.errors.Reason`, a text checked as there)."""

    reason: Reason

    def __init__(self, reason: Reason | str, message: str) -> None:
        super().__init__(message)
        self.reason = as_reason(reason)
        self.message = message


class Connection(Protocol):
    """A browser socket: anything with ``async send(message: dict)``."""

    async def send(self, message: dict[str, Any]) -> None: ...


@dataclass(eq=False)
class _Human:
    token: str
    connections: set[Any] = field(default_factory=set)


class TableState:
    """The state of one table: a match, its humans (by match player index) and computer
    players, its log and what it sends; the base of :class:`~president.web.tables.Table`
    (which adds its computer players' loop and its hints as parts).

    Args:
        table_id: the unguessable id.
        kind: ``"practice"`` (the practice round: one deal, forgotten when the page goes) or
            ``"match"``.
        rules: the rules.
        names: player names by match player index.
        levels: ``"human"`` or a computer level (:func:`president.players.available_levels`)
            by match player index; at least one human.
        seed: the match seed (draws every deal); secret, never sent to a browser.
        tokens: seat tokens by human player index (new ones if omitted).
        bot_delay: seconds between computer actions (0 in tests).
        sealer: seals :meth:`record` for the browsers of a match (``None``: no snapshots).
        thinker: where slow computer players (not in :data:`FAST_LEVELS`) decide, in other
            processes (``None``: a thread of this process, for tests).
        standin: the computer level that plays for an away friend (docs/web.md, "Friends at
            one table").
        grace_seconds: seconds an away friend's turn waits before the stand-in plays.
        turn_seconds: the turn timer (seconds; ``None``: off): the stand-in makes one move for
            a present friend who has not acted in time.
        lobby: start in the waiting room (default: a match with more than one human seat).

    Raises:
        TableError: ``bad-table`` for a wrong number of names or levels, no human, or an unknown
            level.
    """

    def __init__(self, table_id: str, kind: str, rules: Rules, names: Sequence[str],
                 levels: Sequence[str], seed: int, *, tokens: dict[int, str] | None = None,
                 bot_delay: float = 0.8, sealer: Sealer | None = None,
                 deal_seed_bits: int = 128, thinker: Thinker | None = None,
                 standin: str = DEFAULT_STANDIN, grace_seconds: float = DEFAULT_GRACE_SECONDS,
                 turn_seconds: float | None = None, lobby: bool | None = None,
                 open_seats: bool = False, fill_by: float | None = None,
                 claimed: Sequence[int] = ()) -> None:
        n = rules.players
        if len(names) != n or len(levels) != n:
            raise TableError("bad-table", f"give {n} names and {n} levels for a table of {n}, "
                             f"not {len(names)} and {len(levels)}")
        if HUMAN not in levels:
            raise TableError("bad-table", 'at least one seat must be "human"')
        self.id = table_id
        self.kind = kind
        self.rules = rules
        self.names = tuple(names)
        self.levels = tuple(levels)
        self.seed = seed
        self.bot_delay = bot_delay
        self.sealer = sealer
        self.deal_seed_bits = deal_seed_bits
        self.thinker = thinker
        # 128-bit deal seeds: a player cannot find the other hands by trying seeds.
        self.match = Match(rules, list(names), seed=seed, deal_seed_bits=deal_seed_bits)
        self.standin = standin
        self.grace_seconds = float(grace_seconds)
        self.turn_seconds = None if turn_seconds is None else float(turn_seconds)
        self.host = 0
        """The match player index of the host (who made the table)."""
        self.open = bool(open_seats)
        """An open table: listed for anyone on this server, whose human seats other than the
        host's are taken by whoever joins (docs/web.md, "Open tables")."""
        self.fill_by = None if fill_by is None else float(fill_by)
        """An open table's start (wall-clock seconds): the match starts then, computers
        playing the seats nobody took."""
        self.fill_timer: asyncio.TimerHandle | None = None
        """The call that starts an open table's match at :attr:`fill_by`."""
        self.claimed: set[int] = set(claimed)
        """An open table's seats taken by people who joined it."""
        self.match_number = 1
        """1 for the first match at this table, one more per rematch."""
        self.paused_by: str | None = None
        self.ready: set[int] = set()
        """Humans ready for the next deal (or, after the match, for a rematch)."""
        self.standins: set[int] = set()
        """Human players the stand-in computer plays for now (away, or handed over by the host)."""
        self.seen: set[int] = set()
        """Human players who have opened their seat at least once (since this process has the
        table)."""
        self.standin_moves: dict[int, int] = {}
        """Moves the stand-in made for each friend since they last had their seat."""
        self._dropped: set[Any] = set()
        """Sockets a failed send took out of their seat's pages before their own handler
        called ``leave`` (which must still see that the seat had them: it is where "left",
        the host's pause and the stand-in's timer are handled)."""
        self.acted_for: set[int] = set()
        """Positions in this match's events of the actions a computer took for a human's
        seat (the stand-in, or the turn timer): that human's log says so ("The computer
        (for you) plays ..."), not "You play". Kept in memory only (a restart forgets it)."""
        self.timer: tuple[int, float] | None = None
        """The running timer of a table for friends, as its pages are shown it: (the player
        it waits for, when it fires by ``time.monotonic()``); kept by the computer players
        (:class:`~president.web.runner.ComputerPlayers`), who own the timer itself."""
        self.humans: dict[int, _Human] = {}
        self.bots: dict[int, Any] = {}
        for p, level in enumerate(levels):
            if level == HUMAN:
                token = (tokens or {}).get(p) or secrets.token_urlsafe(24)
                self.humans[p] = _Human(token)
            else:
                try:
                    self.bots[p] = make_player(level, seed=(seed * 7919 + p) & 0xFFFFFFFF)
                except (ValueError, ImportError, AttributeError):
                    raise TableError("bad-table", f"no computer level {P.excerpt(level)}; levels are "
                                     f"{', '.join(available_levels())}") from None
        self.log: list[Any] = []
        self.deals: list[dict[str, Any]] = []
        self.deal_seats: list[tuple[tuple[int, ...], int]] = []
        """Per deal so far: (match player index by seat, leading seat), for the play log."""
        self.speed = "normal"
        """Pace of the computer players (:data:`~president.web.protocol.SPEEDS`), set by the
        page's ``speed`` message."""
        self.paused = False
        self.closed = False
        self.last_active = time.monotonic()
        self._lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()
        """Tasks started for this table (a friend left, a timer fired), kept until done:
        the event loop holds only a weak reference to a task."""
        self._snapshot: str | None = None
        self._snapshot_len = -1
        self._setup_json: tuple[dict[str, Any] | None, str] = (None, "")
        """The last :meth:`setup` and its JSON text (a snapshot encodes it only when it changed)."""
        self._grown: GrowingText | None = None
        """The record's text as of the last snapshot, kept compressed (:class:`GrowingText`):
        the next snapshot compresses only the entries accepted since."""
        self._log_json: list[str] = []
        self._rules_dict: tuple[Rules | None, dict[str, Any]] = (None, {})
        """Each entry of :attr:`log` as JSON text, encoded once (a sealed record joins them)."""
        self.on_send: Callable[[int, dict[str, Any]], None] | None = None
        """Test hook: called with (player, message) before each message is sent."""
        self.on_actions: Callable[["TableState", int, list[Any]], Awaitable[None]] | None = None
        """Awaited with (table, number of the first entry, log entries) for the actions
        accepted since the last call, before anyone is sent their result (the store and ledger
        of :class:`Tables` keep them there, see :class:`GroupCommit`): one call per batch (a
        human action and the instant computer replies after it), not one per action."""
        self._unsaved = 0
        """How many of the last log entries ``on_actions`` has not been given yet."""
        self.on_join: Callable[["TableState"], None] | None = None
        """Called when a socket joins the table."""
        self.on_setup: Callable[["TableState"], Awaitable[None]] | None = None
        """Awaited when the setup changed in the waiting room (an open table's seat taken or
        freed, or its match started): the store keeps it, and the list of open tables, before
        anyone is told."""
        self.on_lost: Callable[["TableState"], None] | None = None
        """Called when accepted actions could not be kept (:meth:`_save` failed)."""
        self._collect(self.match.events)
        self.lobby = (kind == "match" and len(self.humans) > 1) if lobby is None else bool(lobby)
        self._lobby_at_start = self.lobby

    # ----- identity ---------------------------------------------------------------------

    def player_for(self, token: str) -> int | None:
        """The human player index whose seat token is ``token`` (constant-time compare)."""
        found = None
        for p, h in self.humans.items():
            if hmac.compare_digest(h.token.encode(), token.encode()):
                found = p
        return found

    def seat_of(self, player: int) -> int:
        """The seat of match player ``player`` in the current deal."""
        return self.match.seating.index(player)

    @property
    def delay(self) -> float:
        """Seconds before each computer action: ``bot_delay`` times the table's speed."""
        return self.bot_delay * P.SPEEDS[self.speed]

    @property
    def connected(self) -> int:
        """Number of open sockets at this table."""
        return sum(len(h.connections) for h in self.humans.values())

    # ----- records ----------------------------------------------------------------------

    def setup(self) -> dict[str, Any]:
        """The table without its actions: rules, names, levels, seat tokens, the secret match
        seed (secret: seal it or keep it in the private state folder)."""
        if self._rules_dict[0] is not self.rules:      # the rules change only at a rematch
            self._rules_dict = (self.rules, self.rules.to_dict())
        return {"v": RECORD_VERSION, "id": self.id, "kind": self.kind, "rules": self._rules_dict[1],
                "names": list(self.names), "levels": list(self.levels), "seed": self.seed,
                "deal_seed_bits": self.deal_seed_bits,
                "tokens": {str(p): h.token for p, h in self.humans.items()},
                "lobby": self._lobby_at_start, "standin": self.standin,
                "grace_seconds": self.grace_seconds, "turn_seconds": self.turn_seconds,
                **({"open": True, "fill_by": self.fill_by, "claimed": sorted(self.claimed)}
                   if self.open else {})}

    def record(self) -> dict[str, Any]:
        """Everything needed to rebuild this table: :meth:`setup` and ``"log"``, every
        accepted action (secret: seal it before it leaves): ``[seat, action]``, ``"n"`` (the
        next deal was dealt), ``"s"`` (the host started the match: the waiting room ended),
        ``"r"`` (a rematch: a new match at this table)."""
        return {**self.setup(), "log": list(self.log)}

    def _accept(self, entry: Any) -> None:
        """Log an action the engine accepted; :meth:`_save` keeps it before anything is sent
        about it."""
        self.log.append(entry)
        self._log_json.append(orjson.dumps(entry).decode())
        self._unsaved += 1

    async def _save(self) -> None:
        """Keep the actions accepted since the last save (``on_actions``: the store's and the
        ledger's writes, off the event loop so the disk never holds up other tables). Every
        message about an action is sent after this returns."""
        if not self._unsaved:
            return
        start, entries = len(self.log) - self._unsaved, self.log[-self._unsaved:]
        self._unsaved = 0
        if self.on_actions is not None:
            try:
                await self.on_actions(self, start, entries)
            except Exception:
                # Ahead of the store now: never sent, never played on (on_lost closes it).
                if self.on_lost is not None:
                    self.on_lost(self)
                raise

    @classmethod
    def from_record(cls, record: Any, *, bot_delay: float, sealer: Sealer | None,
                    thinker: Thinker | None = None) -> Self:
        """Rebuild a table by replaying its record through the engine.

        Raises:
            TableError: ``bad-record`` if the record is not one this server wrote or does not
                replay.
        """
        try:
            version = record.get("v") if isinstance(record, dict) else None
            if type(version) is not int or version not in READ_VERSIONS:
                raise ValueError("version")
            # Only this server can seal a record, but a record is checked as if anyone could
            # have written it: the shapes and bounds a new table request is held to.
            for key, kind in (("rules", dict), ("tokens", dict), ("names", list),
                              ("levels", list), ("log", list)):
                if not isinstance(record[key], kind):
                    raise ValueError(key)
            if not all(isinstance(x, str) for x in (*record["names"], *record["levels"])):
                raise ValueError("names")
            grace = float(record.get("grace_seconds", DEFAULT_GRACE_SECONDS))
            turn = record.get("turn_seconds")
            if not 1 <= grace <= 600 or (turn is not None and not 5 <= float(turn) <= 600):
                raise ValueError("seconds")       # (nan and inf fail these too)
            rules = read_rules(record["rules"], version)
            tokens = {int(p): str(t) for p, t in record["tokens"].items()}
            table = cls(str(record["id"]), str(record["kind"]), rules, record["names"],
                        record["levels"], int(record["seed"]), tokens=tokens,
                        bot_delay=bot_delay, sealer=sealer, thinker=thinker,
                        deal_seed_bits=int(record.get("deal_seed_bits", 32)),
                        standin=str(record.get("standin", DEFAULT_STANDIN)),
                        grace_seconds=grace, turn_seconds=turn,
                        lobby=bool(record.get("lobby", False)),
                        open_seats=record.get("open") is True,
                        fill_by=(_finite(record["fill_by"]) if record.get("open") is True
                                 else None),
                        claimed=[int(p) for p in record.get("claimed", [])
                                 if int(p) in tokens])
            for entry in record["log"]:
                if entry == "n":
                    events = table.match.start_next_deal()
                elif entry == "s":
                    table.lobby = False
                    events = []
                elif entry == "r":
                    table._new_match()
                    events = []
                else:
                    seat, text = entry
                    events = table.match.act(int(seat), str(text))
                table.log.append(entry)
                table._log_json.append(orjson.dumps(entry).decode())
                table._collect(events)
        except (PresidentError, TableError, KeyError, TypeError, ValueError, AttributeError,
                OverflowError) as e:
            raise TableError("bad-record", f"the saved match cannot be restored ({e})") from None
        return table

    def snapshot(self) -> str | None:
        """The sealed record (opaque text) for a match table; ``None`` for practice."""
        if self.sealer is None or self.kind != "match":
            return None
        if self._snapshot_len != len(self.log):
            setup = self.setup()
            if self._setup_json[0] != setup:     # the setup changes rarely, if ever
                self._setup_json = (setup, json.dumps(setup, separators=(",", ":")))  # 128-bit seed: not orjson
            head = f'{self._setup_json[1][:-1]},"log":['
            grown = self._grown
            if grown is None or grown.head != head or grown.items > len(self._log_json):
                grown = self._grown = GrowingText(head, "]}")
            # == record(), encoded; only the entries since the last snapshot are compressed
            grown.add(self._log_json[grown.items:])
            self._snapshot = self.sealer.seal_compressed(grown.compressed())
            self._snapshot_len = len(self.log)
        return self._snapshot

    # ----- messages ---------------------------------------------------------------------

    def _collect(self, events: Iterable[Event]) -> None:
        """Keep the public summary of each finished deal (finish order, titles, points) and
        each deal's seating and leader."""
        for ev in events:
            if isinstance(ev, Dealt):
                self.deal_seats.append((tuple(self.match.seating), self.match.deal.leader))
            if isinstance(ev, DealEnded):
                seating = self.match.seating
                totals = [0] * len(seating)
                for s, t in enumerate(ev.totals):
                    totals[seating[s]] = t
                self.deals.append({
                    "number": len(self.deals) + 1,
                    "order": [{"player": seating[s], "name": self.names[seating[s]],
                               "title": ev.titles[s], "points": ev.points[s]}
                              for s in ev.finish_order],
                    "totals": totals,
                })

    def state_for(self, player: int) -> dict[str, Any]:
        """The ``state`` message for human ``player`` (from its own observation only)."""
        m = self.match
        obs = m.observation(self.seat_of(player))
        waiting = (self.lobby or m.to_act is None
                   or (m.seating[m.to_act] in self.humans and m.seating[m.to_act] not in self.standins))
        timer = None
        if self.timer is not None:
            timer = {"player": self.timer[0],
                     "seconds": round(max(0.0, self.timer[1] - time.monotonic()), 1)}
        msg = P.state_message(
            obs, player=player, levels=self.levels, deals=self.deals,
            winners=m.winners if m.phase == "match-over" else None,
            snapshot=self.snapshot() if waiting else None,
            table={"id": self.id, "kind": self.kind, "paused": self.paused,
                   "bot_delay": self.bot_delay, "speed": self.speed, "actions": len(self.log),
                   "humans": sorted(self.humans), "waiting_for_human": waiting,
                   "host": self.host, "lobby": self.lobby, "match_number": self.match_number,
                   "paused_by": self.paused_by if self.paused else None,
                   "ready": sorted(self.ready), "standin": self.standin,
                   "grace_seconds": self.grace_seconds, "turn_seconds": self.turn_seconds,
                   "timer": timer,
                   **({"open": True, "claimed": sorted(self.claimed),
                       "starts_in": (max(0, round(self.fill_by - time.time()))
                                     if self.fill_by is not None and self.lobby else None)}
                      if self.open else {})})
        for seat in msg["seats"]:
            p = seat["player"]
            human = p in self.humans
            seat["host"] = p == self.host
            seat["online"] = bool(self.humans[p].connections) if human else None
            seat["joined"] = (p in self.seen) if human else None
            seat["standin"] = self.standin if p in self.standins else None
        if self.lobby:   # the waiting room: nothing dealt to anyone's view, nobody acts
            msg.update(hand=[], legal=[], pile=[], to_beat=None, to_act=None,
                       exchange={"pending": None, "mine": []})
        return msg

    async def _send(self, player: int, message: dict[str, Any], *, exclude: Any = None) -> None:
        """Send ``message`` to every open page of ``player`` but ``exclude``."""
        if self.on_send is not None:
            self.on_send(player, message)
        for conn in list(self.humans[player].connections):
            if conn is exclude:
                continue
            try:
                await conn.send(message)
            except Exception:  # a closed socket: forget it, the table goes on
                self._drop(player, conn)

    def _drop(self, player: int, conn: Any) -> None:
        """A send to ``conn`` failed (the socket is gone): it stops getting messages now; its
        handler's ``leave`` then does the rest."""
        self.humans[player].connections.discard(conn)
        self._dropped.add(conn)

    async def _broadcast(self, events: Sequence[Event]) -> None:
        """Send ``events`` and then the new ``state`` to every human, once the actions behind
        them are kept (:meth:`_save`). A socket that said it takes batches (``hello`` with
        ``batch``) gets them as one ``{"type": "batch", "messages": [...]}``."""
        await self._save()
        m = self.match
        # where the batch sits in the match's events (it is their tail), for acted_for;
        # looked at only once a computer has acted for a human at this match
        base = len(m.events) - len(events)
        if self.acted_for and (base < 0 or any(a is not b for a, b in
                                               zip(m.events[base:], events))):
            base = -len(events) - 1     # not the tail: no event is marked
        for player in self.humans:
            if not self.humans[player].connections and self.on_send is None:
                continue
            seat = self.seat_of(player)
            names = [self.names[p] for p in m.seating]
            reader = P.reader_for(seat, names, self.names)
            # At a deal's end the deal is still the match's: its counts say what the last
            # seat is left holding.
            messages = [P.event_message(ev, seat, names, self.rules.players, self.names,
                                        leader=m.deal.leader if isinstance(ev, Dealt) else None,
                                        rules=self.rules,
                                        held=m.deal.counts[ev.finish_order[-1]]
                                        if isinstance(ev, DealEnded) and ev.finish_order else None,
                                        reader=reader, for_you=base + i in self.acted_for)
                        for i, ev in enumerate(events)]
            messages.append(self.state_for(player))
            if self.on_send is not None:
                for message in messages:
                    self.on_send(player, message)
            batch = {"type": "batch", "messages": messages}
            for conn in list(self.humans[player].connections):
                try:
                    if getattr(conn, "batches", False):
                        await conn.send(batch)
                    else:
                        for message in messages:
                            await conn.send(message)
                except Exception:  # a closed socket: forget it, the table goes on
                    self._drop(player, conn)

    # ----- joining ----------------------------------------------------------------------

    @property
    def friends(self) -> bool:
        """More than one human seat: a table for friends (host, presence, stand-ins)."""
        return len(self.humans) > 1

    def present(self) -> list[int]:
        """Human players with an open page whom no stand-in plays for."""
        return [p for p, h in self.humans.items() if h.connections and p not in self.standins]

    def presence_text(self, player: int, what: str) -> str:
        """The play log's words for a ``presence`` event about ``player``."""
        name = self.names[player]
        return {"joined": f"{name} joined the table.",
                "left": f"{name} left the table.",
                "returned": f"{name} is back.",
                "standin": f"A computer ({self.standin}) plays for {name} until they return.",
                "filled": f"A computer ({self.standin}) takes {name}, which nobody took.",
                "back": f"{name} has their seat back{self._moves_words(player)}.",
                "rematch": f"A new match starts at this table: match {self.match_number}."}[what]

    def _moves_words(self, player: int) -> str:
        n = self.standin_moves.get(player, 0)
        if not n:
            return " (the computer made no move for them)"
        return f" (the computer made {n} move{'s' if n != 1 else ''} for them)"

    async def _announce(self, player: int, what: str, *, exclude: Any = None) -> None:
        """Send a ``presence`` event about ``player`` to every open page (but ``exclude``)."""
        message = {"type": "event", "kind": "presence", "player": player, "what": what,
                   "text": self.presence_text(player, what)}
        if what == "back":
            self.standin_moves.pop(player, None)
        for p in self.humans:
            await self._send(p, message, exclude=exclude)

    async def _send_states(self, *, exclude: Any = None) -> None:
        """The ``state`` again to every human's pages but ``exclude`` (after a change that has
        no engine event)."""
        for p in self.humans:
            await self._send(p, self.state_for(p), exclude=exclude)

    def rule_lines(self, player: int) -> list[dict[str, str]]:
        """The table's rules for ``player``'s page, in plain words: ``[{"option", "label",
        "text", "help"}]`` (:func:`~president.rules.describe_items` with players named, "you"
        for the reader, and :data:`~president.rules.OPTION_HELP`)."""
        names = ["you" if p == player else self.names[p] for p in self.match.seating]
        return [{"option": option, "label": label, "text": text, "help": OPTION_HELP[option]}
                for option, label, text in describe_items(self.rules, names)]

    def log_for(self, player: int) -> dict[str, Any]:
        """A ``log`` message: the match's events so far, every deal, as ``player`` saw them
        (each through :func:`~president.events.visible_to`, as sent live, with the seating of
        its own deal), so a page that reconnects shows the whole play log again (plays and
        passes are public). ``deal`` is the current deal's number."""
        m = self.match
        lines = []
        deal = -1
        seat = 0
        names: list[str] = []
        leader = None
        counts: list[int] = []   # cards held by seat, followed through the deal's events
        acted_for = self.acted_for
        for i, ev in enumerate(m.events):
            if isinstance(ev, Dealt):
                deal += 1
                seating, leader = self.deal_seats[min(deal, len(self.deal_seats) - 1)]
                seat = seating.index(player)
                names = [self.names[p] for p in seating]
                counts = list(ev.hand_sizes)
            elif isinstance(ev, Exchanged):
                counts[ev.giver] -= ev.count
                counts[ev.receiver] += ev.count
            elif isinstance(ev, Played):
                counts[ev.seat] -= ev.play.count
            lines.append(P.event_message(ev, seat, names, self.rules.players, self.names,
                                         leader=leader if isinstance(ev, Dealt) else None,
                                         rules=self.rules,
                                         held=counts[ev.finish_order[-1]]
                                         if isinstance(ev, DealEnded) and ev.finish_order else None,
                                         for_you=i in acted_for))
        if self.kind == "practice":  # the practice round: one standalone deal, no match winner
            lines = [e for e in lines if e["kind"] != "match-ended"]
        if self.lobby:               # the waiting room: nothing dealt yet to anyone's view
            lines = []
        return {"type": "log", "deal": m.deal_number, "events": lines}

    def _note_acted_for(self, player: int, events: Sequence[Event]) -> None:
        """A computer just took an action for ``player`` (its events ``events``, the tail of
        the match's): if ``player`` is a human's seat, remember where (:attr:`acted_for`)."""
        if player in self.humans and events:
            self.acted_for.add(len(self.match.events) - len(events))

    def _new_match(self) -> None:
        """A rematch: a new match with the same seats, names and rules at this table (the
        match seed drawn from the table's secret seed and the match number)."""
        self.match_number += 1
        seed = int.from_bytes(hashlib.sha256(f"{self.seed}:{self.match_number}".encode()).digest()[:16], "big")
        self.match = Match(self.rules, list(self.names), seed=seed, deal_seed_bits=self.deal_seed_bits)
        self.deals = []
        self.deal_seats = []
        self.acted_for.clear()
        self.ready.clear()
        for p, level in enumerate(self.levels):
            if level != HUMAN:
                self.bots[p] = make_player(level, seed=(seed * 7919 + p) & 0xFFFFFFFF)
        self._collect(self.match.events)

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run ``coro`` as a task of the running loop, referenced until it ends."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _think(self, level: str, obs: Any, seed: int, *, hint: bool = False) -> Any:
        """A slow level's choice, made by a fresh player of ``level`` seeded ``seed``, in the
        :class:`~president.web.thinker.Thinker`'s processes (a thread without one)."""
        try:
            if self.thinker is None:
                return await asyncio.to_thread(decide, level, obs, seed)
            return await self.thinker.decide(level, obs, seed, hint=hint)
        except Exception:   # a worker that died twice in a row, a bot of your own that raised
            # The table must not stop: the fast fallback level chooses this once.
            log.exception(
                "the %s computer player failed to decide; %s decides this once", level,
                THINK_FALLBACK)
            return make_player(THINK_FALLBACK, seed=seed).act(obs)
