"""Tables in memory: one :class:`~president.match.Match` each, its human players' sockets and
its computer players, and the loop that paces the computer players.

Each human player holds an unguessable seat token (``secrets.token_urlsafe``); a table is
found by its unguessable id. Every message a socket is sent is built by
:mod:`president.web.protocol` from that player's own observation and
:func:`~president.events.visible_to`. Computer players are given only their own
:meth:`~president.match.Match.observation`.

A match table can be rebuilt from its sealed record (:meth:`Table.record`,
:meth:`Table.from_record`): the rules, names, tokens, match seed and every action, replayed
through the engine.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections import OrderedDict, deque
import hashlib
import hmac
import json
import os
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Iterable, Protocol, Sequence

from ..actions import PASS, Give, Play
from ..errors import IllegalAction, PresidentError, RulesError
from ..events import DealEnded, Dealt, Event
from ..match import Match
from ..players import available_levels, make_player
from ..players.simple import simple_choice
from ..rules import OPTION_HELP, PRESETS, Rules, describe_items
from . import protocol as P
from .ledger import KEEP_SECONDS, Ledger, StaleRecord
from .names import BadName, check_names
from .sealing import SealError, Sealer
from .store import TableStore
from .thinker import Thinker, decide

log = logging.getLogger("president.web")

__all__ = ["Table", "Tables", "Connection", "TableError", "PRACTICE_NAMES", "DEFAULT_NAMES",
           "MATCH_PRESETS", "DEFAULT_HINT_LEVEL", "bot_delay_from_env", "known_levels"]

PRACTICE_NAMES = ("You", "Robin", "Alex", "Sam")
"""Seed 003: you against Robin, Alex and Sam, in that clockwise order."""
DEFAULT_NAMES = ("You", "Alex", "Blair", "Casey", "Drew", "Emery", "Frankie")
MATCH_PRESETS = tuple(name for name in PRESETS if name != "practice")
"""Presets a match may use (``practice`` is the standalone round of seed 003)."""
HUMAN = "human"
FAST_LEVELS = frozenset({"random", "beginner", "simple", "intermediate"})
"""Levels that decide in well under a millisecond; any other level (``expert`` searches for
a tenth of a second or more) decides in the :class:`~president.web.thinker.Thinker`'s worker
processes so other tables are not held up."""
RECORD_VERSION = 1
MAX_SOCKETS_PER_SEAT = 4
"""Open pages (sockets) one seat may have at once; another is refused (``too-many-pages``)."""
DEFAULT_HINT_LEVEL = "simple"
HINT_REFUSAL_SECONDS = 0.25
"""A slow hint refused (one already being worked out for that player, or every worker busy)
is answered after this many seconds, so a socket asking back to back costs the server a few
answers a second, not thousands."""
DEFAULT_STANDIN = "simple"
"""The computer level that plays for an away friend unless the host chose another."""
DEFAULT_GRACE_SECONDS = 30.0
"""How long an away friend's turn waits before the stand-in plays for them (seconds)."""
"""Seed 003: "Hint selects one legal option or tells you to pass" (the practice player's
choice); the browser may ask any level of :func:`president.players.available_levels`."""


@functools.cache
def known_levels() -> tuple[str, ...]:
    """:func:`president.players.available_levels`, worked out once per process."""
    return tuple(available_levels())


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


class TableError(ValueError):
    """A table that cannot be made or joined; ``reason`` and ``message`` as in the engine."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


class Connection(Protocol):
    """A browser socket: anything with ``async send(message: dict)``."""

    async def send(self, message: dict[str, Any]) -> None: ...


@dataclass(eq=False)
class _Human:
    token: str
    connections: set[Any] = field(default_factory=set)


class Table:
    """One table: a match, its humans (by match player index) and computer players.

    Args:
        table_id: the unguessable id.
        kind: ``"practice"`` (seed 003: one deal, forgotten when the page goes) or ``"match"``.
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
                 turn_seconds: float | None = None, lobby: bool | None = None) -> None:
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
        self._standin_bots: dict[int, Any] = {}
        self.standin_moves: dict[int, int] = {}
        """Moves the stand-in made for each friend since they last had their seat."""
        self._timer: asyncio.TimerHandle | None = None
        self._timer_key: tuple[int, int, str] | None = None
        self._timer_deadline = 0.0
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
                    raise TableError("bad-table", f"no computer level {level!r}; levels are "
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
        self._runner: asyncio.Task[None] | None = None
        self._snapshot: str | None = None
        self._snapshot_len = -1
        self._log_json: list[str] = []
        """Each entry of :attr:`log` as JSON text, encoded once (a sealed record joins them)."""
        self._hinting: set[int] = set()
        self.on_send: Callable[[int, dict[str, Any]], None] | None = None
        """Test hook: called with (player, message) before each message is sent."""
        self.on_actions: Callable[["Table", int, list[Any]], Awaitable[None]] | None = None
        """Awaited with (table, number of the first entry, log entries) for the actions
        accepted since the last call, before anyone is sent their result (the store and ledger
        of :class:`Tables` keep them there, see :class:`GroupCommit`): one call per batch (a
        human action and the instant computer replies after it), not one per action."""
        self._unsaved = 0
        """How many of the last log entries ``on_actions`` has not been given yet."""
        self.on_join: Callable[["Table"], None] | None = None
        """Called when a socket joins the table."""
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
    def connected(self) -> int:
        """Number of open sockets at this table."""
        return sum(len(h.connections) for h in self.humans.values())

    # ----- records ----------------------------------------------------------------------

    def setup(self) -> dict[str, Any]:
        """The table without its actions: rules, names, levels, seat tokens, the secret match
        seed (secret: seal it or keep it in the private state folder)."""
        return {"v": RECORD_VERSION, "id": self.id, "kind": self.kind, "rules": self.rules.to_dict(),
                "names": list(self.names), "levels": list(self.levels), "seed": self.seed,
                "deal_seed_bits": self.deal_seed_bits,
                "tokens": {str(p): h.token for p, h in self.humans.items()},
                "lobby": self._lobby_at_start, "standin": self.standin,
                "grace_seconds": self.grace_seconds, "turn_seconds": self.turn_seconds}

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
        self._log_json.append(json.dumps(entry, separators=(",", ":")))
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
            await self.on_actions(self, start, entries)

    @classmethod
    def from_record(cls, record: Any, *, bot_delay: float, sealer: Sealer | None,
                    thinker: Thinker | None = None) -> "Table":
        """Rebuild a table by replaying its record through the engine.

        Raises:
            TableError: ``bad-record`` if the record is not one this server wrote or does not
                replay.
        """
        try:
            if not isinstance(record, dict) or record.get("v") != RECORD_VERSION:
                raise ValueError("version")
            rules = Rules.from_dict(record["rules"])
            tokens = {int(p): str(t) for p, t in record["tokens"].items()}
            table = cls(str(record["id"]), str(record["kind"]), rules, record["names"],
                        record["levels"], int(record["seed"]), tokens=tokens,
                        bot_delay=bot_delay, sealer=sealer, thinker=thinker,
                        deal_seed_bits=int(record.get("deal_seed_bits", 32)),
                        standin=str(record.get("standin", DEFAULT_STANDIN)),
                        grace_seconds=float(record.get("grace_seconds", DEFAULT_GRACE_SECONDS)),
                        turn_seconds=record.get("turn_seconds"),
                        lobby=bool(record.get("lobby", False)))
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
                table._log_json.append(json.dumps(entry, separators=(",", ":")))
                table._collect(events)
        except (PresidentError, TableError, KeyError, TypeError, ValueError) as e:
            raise TableError("bad-record", f"the saved match cannot be restored ({e})") from None
        return table

    def snapshot(self) -> str | None:
        """The sealed record (opaque text) for a match table; ``None`` for practice."""
        if self.sealer is None or self.kind != "match":
            return None
        if self._snapshot_len != len(self.log):
            setup = json.dumps(self.setup(), separators=(",", ":"))
            text = f'{setup[:-1]},"log":[{",".join(self._log_json)}]}}'   # == record(), encoded
            self._snapshot = self.sealer.seal_text(text)
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
        if self._timer is not None and self._timer_key is not None:
            timer = {"player": self._timer_key[0],
                     "seconds": round(max(0.0, self._timer_deadline - time.monotonic()), 1)}
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
                   "timer": timer})
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
                self.humans[player].connections.discard(conn)

    async def _broadcast(self, events: Sequence[Event]) -> None:
        """Send ``events`` and then the new ``state`` to every human, once the actions behind
        them are kept (:meth:`_save`). A socket that said it takes batches (``hello`` with
        ``batch``) gets them as one ``{"type": "batch", "messages": [...]}``."""
        await self._save()
        m = self.match
        for player in self.humans:
            if not self.humans[player].connections and self.on_send is None:
                continue
            seat = self.seat_of(player)
            names = [self.names[p] for p in m.seating]
            messages = [P.event_message(ev, seat, names, self.rules.players, self.names,
                                        leader=m.deal.leader if isinstance(ev, Dealt) else None)
                        for ev in events]
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
                    self.humans[player].connections.discard(conn)

    # ----- joining ----------------------------------------------------------------------

    async def join(self, player: int, conn: Any) -> None:
        """Attach a socket of human ``player`` and send it ``welcome``, the match's ``log``
        and the ``state``, in that order: the table's lock keeps computer plays from slipping
        in between (they follow the state).

        Raises:
            TableError: ``too-many-pages`` when the seat already has
                :data:`MAX_SOCKETS_PER_SEAT` sockets.
        """
        async with self._lock:
            if len(self.humans[player].connections) >= MAX_SOCKETS_PER_SEAT:
                raise TableError("too-many-pages", f"this seat is already open in "
                                 f"{MAX_SOCKETS_PER_SEAT} pages; close one of them first")
            first = not self.humans[player].connections
            self.humans[player].connections.add(conn)
            self.last_active = time.monotonic()
            if self.on_join is not None:
                self.on_join(self)
            what = None
            if first and self.friends:
                what = "returned" if player in self.seen else "joined"
            self.seen.add(player)
            back = first and player in self.standins
            self.standins.discard(player)
            self._arm_timer()
            invites = ([{"player": p, "name": self.names[p], "token": h.token}
                        for p, h in self.humans.items() if p != self.host]
                       if player == self.host else [])
            await conn.send({"type": "welcome", "table": self.id, "player": player,
                             "name": self.names[player], "kind": self.kind,
                             "rules": self.rule_lines(player), "host": self.host,
                             "invites": invites})
            for msg in (self.log_for(player), self.state_for(player)):
                if self.on_send is not None:
                    self.on_send(player, msg)
                await conn.send(msg)
            if what is not None:
                await self._announce(player, what, exclude=conn)
            if back:
                await self._announce(player, "back")   # the returner too: what was played for them
            if what is not None or back:
                await self._send_states(exclude=conn)
        self.kick()

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
        for ev in m.events:
            if isinstance(ev, Dealt):
                deal += 1
                seating, leader = self.deal_seats[min(deal, len(self.deal_seats) - 1)]
                seat = seating.index(player)
                names = [self.names[p] for p in seating]
            lines.append(P.event_message(ev, seat, names, self.rules.players, self.names,
                                         leader=leader if isinstance(ev, Dealt) else None))
        if self.kind == "practice":  # seed 003: one standalone deal, no match winner
            lines = [e for e in lines if e["kind"] != "match-ended"]
        if self.lobby:               # the waiting room: nothing dealt yet to anyone's view
            lines = []
        return {"type": "log", "deal": m.deal_number, "events": lines}

    def leave(self, player: int, conn: Any) -> None:
        """Detach a socket. At a table for friends, the others hear that ``player`` left
        when their last page closes, and the grace period starts if it is their turn."""
        had = bool(self.humans[player].connections)
        self.humans[player].connections.discard(conn)
        self.last_active = time.monotonic()
        if had and not self.humans[player].connections and self.friends and not self.closed:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return
            loop.create_task(self._left(player))

    async def _left(self, player: int) -> None:
        async with self._lock:
            if self.humans[player].connections or self.closed:
                return
            await self._announce(player, "left")
            await self._advance_if_ready()
            self._arm_timer()
            await self._send_states()

    # ----- the stand-in and the timers --------------------------------------------------

    def _human_to_act(self) -> int | None:
        """The human player whose turn it is (no stand-in playing for them), or ``None``."""
        m = self.match
        if self.lobby or self.closed or m.to_act is None:
            return None
        player = m.seating[m.to_act]
        if player in self.humans and player not in self.standins:
            return player
        return None

    def _arm_timer(self) -> None:
        """Start, keep or stop the one timer of a table for friends: an away human to act
        waits :attr:`grace_seconds`, then the stand-in takes their seat; a present one with a
        turn timer waits :attr:`turn_seconds`, then the stand-in makes one move."""
        player = self._human_to_act()
        if player is None or self.paused or not self.friends:
            self._cancel_timer()
            return
        away = not self.humans[player].connections
        if not away and self.turn_seconds is None:
            self._cancel_timer()
            return
        key = (player, len(self.log), "away" if away else "idle")
        if self._timer is not None and self._timer_key == key:
            return
        self._cancel_timer()
        delay = self.grace_seconds if away else float(self.turn_seconds or 0)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._timer_key = key
        self._timer_deadline = time.monotonic() + delay
        self._timer = loop.call_later(delay, lambda: loop.create_task(self._timer_fired(key)))

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = None
        self._timer_key = None

    async def _timer_fired(self, key: tuple[int, int, str]) -> None:
        async with self._lock:
            if self._timer_key != key:
                return
            self._timer = None
            self._timer_key = None
            player, actions, why = key
            if self._human_to_act() != player or len(self.log) != actions or self.paused:
                self._arm_timer()
                return
            if why == "away":
                if self.humans[player].connections:
                    self._arm_timer()
                    return
                self.standins.add(player)
                await self._announce(player, "standin")
                self._arm_timer()
                await self._send_states()
            else:   # the turn timer: one move for an idle player, from their own view
                m = self.match
                seat = m.to_act
                assert seat is not None
                action = self._standin_bot(player).act(m.observation(seat))
                events = m.act(seat, action)
                self.standin_moves[player] = self.standin_moves.get(player, 0) + 1
                self._accept([seat, str(action)])
                self._collect(events)
                batch: list[Event] = list(events)
                self._instant_bots(batch)
                self._arm_timer()
                await self._broadcast(batch)
        self.kick()

    def _count_standin(self, player: int) -> None:
        if player in self.standins:
            self.standin_moves[player] = self.standin_moves.get(player, 0) + 1

    def _standin_bot(self, player: int) -> Any:
        """The stand-in computer player of ``player``'s seat (made once, kept)."""
        bot = self._standin_bots.get(player)
        if bot is None:
            bot = make_player(self.standin, seed=(self.seed * 7919 + 1000 + player) & 0xFFFFFFFF)
            self._standin_bots[player] = bot
        return bot

    def _new_match(self) -> None:
        """A rematch: a new match with the same seats, names and rules at this table (the
        match seed drawn from the table's secret seed and the match number)."""
        self.match_number += 1
        seed = int.from_bytes(hashlib.sha256(f"{self.seed}:{self.match_number}".encode()).digest()[:16], "big")
        self.match = Match(self.rules, list(self.names), seed=seed, deal_seed_bits=self.deal_seed_bits)
        self.deals = []
        self.deal_seats = []
        self.ready.clear()
        self._standin_bots.clear()
        for p, level in enumerate(self.levels):
            if level != HUMAN:
                self.bots[p] = make_player(level, seed=(seed * 7919 + p) & 0xFFFFFFFF)
        self._collect(self.match.events)

    async def _advance_if_ready(self) -> None:
        """Between deals or after the match at a table for friends: deal, or start the
        rematch, once every present human is ready (call with the lock held)."""
        m = self.match
        if not self.ready or m.phase not in ("between-deals", "match-over"):
            return
        if not set(self.present()) <= self.ready:
            return
        await self._next(rematch=m.phase == "match-over")

    async def _next(self, *, rematch: bool) -> None:
        """Deal the next deal, or start a new match at this table (lock held)."""
        self.ready.clear()
        if rematch:
            self._new_match()
            self._accept("r")
            await self._save()
            await self._announce(self.host, "rematch")     # said before the new match's log
            for p in self.humans:
                await self._send(p, self.log_for(p))
            batch: list[Event] = []
        else:
            events = self.match.start_next_deal()
            self._accept("n")
            self._collect(events)
            batch = list(events)
        self._instant_bots(batch)
        self._arm_timer()
        await self._broadcast(batch)

    # ----- actions ----------------------------------------------------------------------

    async def handle(self, player: int, conn: Any, msg: Any) -> None:
        """Carry out one validated browser message from human ``player``. An illegal action
        gets an ``error`` reply on ``conn`` and changes nothing. At a table for friends
        (docs/web.md, "Friends at one table") ``start``, ``seat``, ``pause``, ``resume`` and a
        forced ``next-deal`` or ``rematch`` are the host's (others get ``host-only``)."""
        self.last_active = time.monotonic()

        async def refuse(reason: str, why: str) -> None:
            await conn.send(P.error_message(reason, why))

        host_only = self.friends and player != self.host
        if isinstance(msg, (P.PlayMsg, P.PassMsg, P.GiveMsg)):
            async with self._lock:
                m = self.match
                if self.lobby:
                    await refuse("wrong-phase", f"the match has not started: {self.names[self.host]} "
                                 "starts it from the waiting room")
                    return
                if player in self.standins:
                    await refuse("standin", f"a computer plays your seat now; "
                                 f"{self.names[self.host]} (the host) can hand it back to you")
                    return
                seat = self.seat_of(player)
                names = [self.names[p] for p in m.seating]
                try:
                    action = P.to_action(msg, m.phase)
                    if isinstance(action, Give) and m.phase != "exchange":
                        raise IllegalAction("wrong-phase", "there is no exchange now; play cards or pass")
                    if isinstance(action, Play) and m.phase == "exchange":
                        raise IllegalAction("wrong-phase", "it is the exchange: give cards, do not play them")
                    events = m.act(seat, action)
                except PresidentError as e:
                    await conn.send(P.error_message(e.reason, P.readable(e.message, names, seat)))
                    return
                self._accept([seat, str(action)])
                self._collect(events)
                batch: list[Event] = list(events)
                self._instant_bots(batch)
                self._arm_timer()
                await self._broadcast(batch)
            self.kick()
        elif isinstance(msg, P.HintMsg):
            await conn.send(await self.hint_async(player, msg.level or DEFAULT_HINT_LEVEL))
        elif isinstance(msg, (P.NextDealMsg, P.RematchMsg)):
            rematch = isinstance(msg, P.RematchMsg)
            async with self._lock:
                m = self.match
                if self.lobby:
                    await refuse("wrong-phase", "the match has not started yet")
                    return
                if rematch and m.phase != "match-over":
                    await refuse("wrong-phase", "a rematch starts once this match is over")
                    return
                if not rematch and m.phase != "between-deals":
                    why = ("the match is over; start a new match" if m.phase == "match-over"
                           else "the deal is still being played; finish it first")
                    await refuse("wrong-phase", why)
                    return
                if msg.force and host_only:
                    await refuse("host-only", f"only {self.names[self.host]} (the host) can start "
                                 "before everyone is ready")
                    return
                if not self.friends or msg.force:
                    await self._next(rematch=rematch)
                else:
                    self.ready.add(player)
                    if set(self.present()) <= self.ready:
                        await self._next(rematch=rematch)
                    else:
                        await self._send_states()
            self.kick()
        elif isinstance(msg, P.StartMsg):
            async with self._lock:
                if not self.lobby:
                    await refuse("wrong-phase", "the match has already started")
                    return
                if player != self.host:
                    await refuse("host-only", f"only {self.names[self.host]} (the host) starts the match")
                    return
                self.lobby = False
                self._accept("s")
                await self._save()
                for p in self.humans:     # the deal so far (the lobby showed none of it)
                    await self._send(p, self.log_for(p))
                for p in self.humans:     # a friend who never came: the stand-in until they do
                    if p != self.host and p not in self.seen and not self.humans[p].connections:
                        self.standins.add(p)
                        await self._announce(p, "standin")
                batch = []
                self._instant_bots(batch)
                self._arm_timer()
                await self._broadcast(batch)
            self.kick()
        elif isinstance(msg, P.SeatMsg):
            async with self._lock:
                p = msg.player
                if player != self.host:
                    await refuse("host-only", f"only {self.names[self.host]} (the host) hands seats over")
                    return
                if p == self.host or p not in self.humans:
                    friends = [str(q) for q in self.humans if q != self.host]
                    await refuse("bad-seat", f"player {p} is not a friend's seat; friends' seats are "
                                 f"{', '.join(friends) or 'none'}")
                    return
                if msg.computer and p not in self.standins:
                    self.standins.add(p)
                    await self._announce(p, "standin")
                elif not msg.computer and p in self.standins:
                    self.standins.discard(p)
                    await self._announce(p, "back")
                await self._advance_if_ready()
                self._arm_timer()
                await self._send_states()
            self.kick()
        elif isinstance(msg, (P.PauseMsg, P.ResumeMsg)):
            pause = isinstance(msg, P.PauseMsg)
            if host_only:
                await refuse("host-only", f"only {self.names[self.host]} (the host) can "
                             f"{'pause' if pause else 'resume'} a table with friends")
                return
            self.paused = pause
            self.paused_by = self.names[player] if pause else None
            async with self._lock:
                self._arm_timer()
                await self._send_states()
            if not pause:
                self.kick()
        elif isinstance(msg, P.SpeedMsg):
            changed = msg.speed != self.speed
            self.speed = msg.speed
            if changed:
                async with self._lock:
                    await self._send_states()
                self.kick()
        else:
            await conn.send(P.error_message("bad-message", "you have already joined this table"))

    def hint(self, player: int, level: str = DEFAULT_HINT_LEVEL) -> dict[str, Any]:
        """A ``hint`` message: one legal option for ``player``, chosen by a computer player of
        ``level`` from ``player``'s own observation only, or that it should pass, or that it
        is not its turn. Runs in the caller's thread (see :meth:`hint_async`).

        Raises:
            TableError: ``bad-level`` for a level not in
                :func:`~president.players.available_levels`.
        """
        obs, answer = self._hint_start(player, level)
        if answer is not None:
            return answer
        return self._hint_text(self._hint_choice(obs, level), obs, level)

    async def hint_async(self, player: int, level: str = DEFAULT_HINT_LEVEL) -> dict[str, Any]:
        """:meth:`hint` for the event loop: a slow level (``expert``) thinks in a worker process
        (like the computer players), one hint at a time per player; if the table moved on
        meanwhile, the answer says so instead of a stale option. A bad level gets an
        ``error`` message (``bad-level``)."""
        slow = level not in FAST_LEVELS and level in known_levels()
        # Refusals first, before any work, and each one late: a page that asks again at once
        # is slowed to a few questions a second instead of spinning the server.
        if slow and player in self._hinting:
            await asyncio.sleep(HINT_REFUSAL_SECONDS)
            return {"type": "hint", "cards": None, "pass": False,
                    "text": "Still working on your last hint; wait for it."}
        if slow and self.thinker is not None and self.thinker.busy():
            await asyncio.sleep(HINT_REFUSAL_SECONDS)
            return {"type": "hint", "cards": None, "pass": False,
                    "text": "The computer players are all busy thinking; ask again in a moment."}
        try:
            obs, answer = self._hint_start(player, level)
        except TableError as e:
            return P.error_message(e.reason, e.message)
        if answer is not None:
            return answer
        if level in FAST_LEVELS:
            return self._hint_text(self._hint_choice(obs, level), obs, level)
        self._hinting.add(player)
        actions = len(self.log)
        try:
            choice = await self._think(level, obs, secrets.randbits(32), hint=True)
        finally:
            self._hinting.discard(player)
        if len(self.log) != actions or self.closed:
            return {"type": "hint", "cards": None, "pass": False,
                    "text": "The table moved on while the hint was worked out; ask again."}
        return self._hint_text(choice, obs, level)

    async def _think(self, level: str, obs: Any, seed: int, *, hint: bool = False) -> Any:
        """A slow level's choice, made by a fresh player of ``level`` seeded ``seed``, in the
        :class:`~president.web.thinker.Thinker`'s processes (a thread without one)."""
        if self.thinker is None:
            return await asyncio.to_thread(decide, level, obs, seed)
        return await self.thinker.decide(level, obs, seed, hint=hint)

    def _hint_start(self, player: int, level: str) -> tuple[Any, dict[str, Any] | None]:
        if level not in known_levels():
            raise TableError("bad-level", f"no computer level {level!r} for a hint; levels are "
                             f"{', '.join(known_levels())}")
        obs = self.match.observation(self.seat_of(player))
        if not obs.legal_actions:
            return obs, {"type": "hint", "cards": None, "pass": False,
                         "text": "It is not your turn." if self.match.to_act is not None
                         else "There is nothing to play now."}
        return obs, None

    @staticmethod
    def _hint_choice(obs: Any, level: str) -> Play | Give | Any:
        """The choice of a fresh ``level`` player (its own random seed) given ``obs`` only."""
        if level == DEFAULT_HINT_LEVEL:
            return simple_choice(obs.legal_actions, obs.hand)
        return make_player(level, seed=secrets.randbits(32)).act(obs)

    @staticmethod
    def _hint_text(choice: Any, obs: Any, level: str) -> dict[str, Any]:
        """The ``hint`` message for ``choice``; a pass says whether it is forced (nothing in
        the hand beats the pile) or the ``level`` player's preference."""
        if choice is PASS:
            forced = all(a is PASS for a in obs.legal_actions)
            return {"type": "hint", "cards": None, "pass": True,
                    "text": "Nothing you hold beats the pile: pass." if forced else
                    f"Pass: you could beat the pile, but the {level} player would keep "
                    "its cards for later."}
        verb = "Give" if isinstance(choice, Give) else "Play"
        return {"type": "hint", "cards": [str(c) for c in choice.cards], "pass": False,
                "text": f"{verb} {', '.join(P.card_text(c) for c in choice.cards)}."}

    # ----- computer players -------------------------------------------------------------

    @property
    def delay(self) -> float:
        """Seconds before each computer action: ``bot_delay`` times the table's speed."""
        return self.bot_delay * P.SPEEDS[self.speed]

    def _bot_to_act(self) -> int | None:
        """The player a computer acts for now (a computer seat, or a friend's seat the
        stand-in plays), or ``None`` (a human's turn, the waiting room, no turn)."""
        m = self.match
        if m.to_act is None or self.lobby:
            return None
        player = m.seating[m.to_act]
        return player if player in self.bots or player in self.standins else None

    def _level_of(self, player: int) -> str:
        """The computer level acting for ``player`` (its own, or the stand-in's)."""
        return self.standin if player in self.standins else self.levels[player]

    def _bot_of(self, player: int) -> Any:
        return self._standin_bot(player) if player in self.standins else self.bots[player]

    def _instant_bots(self, batch: list[Event]) -> None:
        """With no delay (``instant``, tests, benchmarks), let the fast computer players who
        are to act next play at once, adding their events to ``batch``: the human's action and
        the replies then go out as one batch with one ``state``. A slow level stops it (it
        thinks in :meth:`_run_bots`)."""
        if self.delay:
            return
        m = self.match
        while not self.closed and not self.paused:
            player = self._bot_to_act()
            if player is None or self._level_of(player) not in FAST_LEVELS:
                return
            seat = m.to_act
            assert seat is not None
            action = self._bot_of(player).act(m.observation(seat))
            events = m.act(seat, action)
            self._count_standin(player)
            self._accept([seat, str(action)])
            self._collect(events)
            batch.extend(events)

    def kick(self) -> None:
        """Start the computer players' loop if one of them is to act and none is running."""
        if self.closed or self.paused or self._bot_to_act() is None:
            return
        if self._runner is None or self._runner.done():
            self._runner = asyncio.get_running_loop().create_task(self._run_bots())

    async def _run_bots(self) -> None:
        """Let the computer players act, one every :attr:`delay` seconds. With no delay
        (``instant``, tests, benchmarks) the fast players' actions in a row are sent as one
        batch: every event, then a single ``state`` (the page animates the events)."""
        while not self.closed and not self.paused and self._bot_to_act() is not None:
            await asyncio.sleep(self.delay)
            async with self._lock:
                batch: list[Event] = []
                while True:
                    player = self._bot_to_act()
                    if self.closed or self.paused or player is None:
                        break
                    m = self.match
                    seat = m.to_act
                    assert seat is not None
                    obs = m.observation(seat)
                    level = self._level_of(player)
                    if level in FAST_LEVELS:
                        action = self._bot_of(player).act(obs)
                    else:
                        if batch:        # show what happened before a search starts
                            break
                        seed = (self.seed * 7919 + len(self.log) * 104729 + player) & 0xFFFFFFFF
                        action = await self._think(level, obs, seed)
                        if self.closed:
                            return
                    events = m.act(seat, action)
                    self._count_standin(player)
                    self._accept([seat, str(action)])
                    self._collect(events)
                    batch.extend(events)
                    if self.delay or level not in FAST_LEVELS:
                        break
                self._arm_timer()
                if batch:
                    await self._broadcast(batch)

    async def run_bots_now(self) -> None:
        """Run the computer players until a human is to act (for benchmarks and tests)."""
        self.kick()
        while self._runner is not None and not self._runner.done():
            await self._runner

    def close(self) -> None:
        """Stop the computer players and the timers for good."""
        self.closed = True
        self._cancel_timer()
        if self._runner is not None:
            self._runner.cancel()



class GroupCommit:
    """Accepted actions of every table kept on disk with one write per moment, not per table.

    ``await keep(table, start, entries)`` returns once the entries are committed. One writer
    thread takes every call waiting when it comes round (those made while it was writing,
    or in the same turn of the event loop) and writes them in one transaction: one hand-off
    and one commit for a burst of tables, where a worker-thread hop each cost about 0.1 ms
    of the event loop per action under load. Works from any number of event loops.

    Args:
        write: ``write(batches)`` with ``batches`` a list of ``(table, start, entries)``;
            runs in this object's one writer thread, so writes are in order.
    """

    def __init__(self, write: Callable[[list[tuple["Table", int, list[Any]]]], None]) -> None:
        import queue
        import threading

        self._write = write
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="president-store", daemon=True)

    async def keep(self, table: "Table", start: int, entries: list[Any]) -> None:
        """Return once ``entries`` (log entries ``start``, ``start + 1``, ...) are on disk.

        Raises:
            Exception: whatever the write raised (the caller's action is then not sent).
        """
        if not self._thread.is_alive() and self._thread.ident is None:
            self._thread.start()                # started by the first write
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._queue.put((table, start, entries, loop, done))
        await done

    def _run(self) -> None:
        import queue

        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            while True:                 # everything else already waiting joins this write
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._queue.put(None)
                    break
                batch.append(more)
            try:
                self._write([b[:3] for b in batch])
                error: BaseException | None = None
            except Exception as e:      # reaches every caller of this write
                error = e
            by_loop: dict[asyncio.AbstractEventLoop, list[asyncio.Future[None]]] = {}
            for *_, loop, done in batch:
                by_loop.setdefault(loop, []).append(done)
            for loop, futures in by_loop.items():
                try:
                    loop.call_soon_threadsafe(_settle, futures, error)
                except RuntimeError:    # that loop is closed: nobody is waiting any more
                    pass

    def close(self) -> None:
        """Stop the writer thread after the writes already asked for."""
        if self._thread.ident is not None:
            self._queue.put(None)
            self._thread.join(timeout=30)


def _settle(futures: list[asyncio.Future[None]], error: BaseException | None) -> None:
    for done in futures:
        if not done.done():
            if error is None:
                done.set_result(None)
            else:
                done.set_exception(error)


class Tables:
    """Every table of one server process, by id; with a store, every table on disk too.

    With a :class:`~president.web.store.TableStore`, each table is written there when made
    and each accepted action before its result is sent, so a crash (``kill -9``) loses none;
    after a restart a table comes back from the store the first time its id is asked for
    (:meth:`get`), exactly as it was. Tables idle for ``memory_seconds`` without a socket leave
    memory (they stay on disk); tables idle for ``idle_seconds``, and tables nobody joined
    within ``unjoined_seconds``, are forgotten. Making room never walks every table: memory
    is kept in order of last use, and the store finds stale tables by an index.

    Args:
        sealer: seals match records (``None``: no snapshots, no restore).
        bot_delay: seconds between computer actions.
        allow_seed: accept a client-chosen match seed (tests only: a seed reveals the deal).
        max_tables: the most tables kept (memory and store).
        idle_seconds: a table with no action or socket for this long is forgotten.
        unjoined_seconds: a table nobody joined is forgotten after this long.
        memory_seconds: a table with no socket for this long leaves memory (store only).
        per_address: the most tables one client address may make per minute.
        ledger: remembers the newest record version issued or action accepted per table, so
            an older sealed record is refused (``None``: no such check).
        store: keeps every table on disk (``None``: memory only; a restart loses them).
        thinker: the worker processes of slow computer players (``None``: threads).
    """

    SWEEP_SECONDS = 5.0
    """Tables are swept (memory and store) at most this often, on the way of a new one."""

    def __init__(self, *, sealer: Sealer | None, bot_delay: float = 0.8, allow_seed: bool = False,
                 max_tables: int = 20_000, idle_seconds: float = 6 * 3600,
                 unjoined_seconds: float = 600, memory_seconds: float = 120,
                 per_address: int = 30, ledger: Ledger | None = None,
                 store: TableStore | None = None, thinker: Thinker | None = None) -> None:
        self.sealer = sealer
        self.ledger = ledger
        self.store = store
        self.thinker = thinker
        self.bot_delay = bot_delay
        self.allow_seed = allow_seed
        self.max_tables = max_tables
        self.idle_seconds = idle_seconds
        self.unjoined_seconds = unjoined_seconds
        self.memory_seconds = memory_seconds
        self.per_address = per_address
        self.tables: OrderedDict[str, Table] = OrderedDict()
        """Tables in memory, least recently used first."""
        self._count = len(store) if store is not None else 0
        self._made: dict[str, deque[float]] = {}
        self._swept = 0.0
        self._commit = GroupCommit(self._accepted)

    def __len__(self) -> int:
        """Tables kept (in the store, or in memory without one)."""
        return self._count if self.store is not None else len(self.tables)

    def get(self, table_id: str) -> Table | None:
        """The table with this id (from memory, else rebuilt from the store), or ``None``."""
        table = self.tables.get(table_id)
        if table is not None:
            self.tables.move_to_end(table_id)
            return table
        if self.store is None:
            return None
        record = self.store.load(table_id)
        if record is None:
            return None
        try:
            table = Table.from_record(record, bot_delay=self.bot_delay, sealer=self.sealer,
                                      thinker=self.thinker)
        except TableError:
            log.exception("table %s cannot be rebuilt from the store; forgetting it", table_id)
            self.store.remove(table_id)
            self._count -= 1
            return None
        self._watch(table)
        self.tables[table.id] = table
        return table

    def _touch(self, table: Table) -> None:
        if table.id in self.tables:
            self.tables.move_to_end(table.id)

    def _accepted(self, batches: list[tuple[Table, int, list[Any]]]) -> None:
        """Actions the engine accepted, ``(table, start, entries)`` per table (log entries
        ``start``, ``start + 1``, ...): on disk before anyone hears of them (runs in the
        :class:`GroupCommit` worker thread)."""
        if self.store is not None:
            # Each entry was encoded once when accepted (Table._log_json).
            self.store.append_batches([(t.id, start, t._log_json[start:start + len(entries)])
                                       for t, start, entries in batches])
        if self.ledger is not None:
            versions = [(t.id, start + len(entries)) for t, start, entries in batches
                        if t.kind == "match"]
            if versions:
                self.ledger.issued_many(versions)

    def _joined(self, table: Table) -> None:
        self._touch(table)
        if self.store is not None:
            self.store.joined(table.id)

    def _sweep(self, *, force: bool = False) -> None:
        """Let idle tables leave memory, and forget stale ones; O(tables swept)."""
        now = time.monotonic()
        if not force and now - self._swept < self.SWEEP_SECONDS:
            return
        self._swept = now
        # Memory, least recently used first: stop at the first table that is still fresh.
        for tid in list(self.tables):
            t = self.tables[tid]
            if t.connected:
                self.tables.move_to_end(tid)    # in use: to the back of the line
                continue
            if self.store is not None:
                limit = self.memory_seconds     # it leaves memory, and stays on disk
            else:
                limit = 120 if t.kind == "practice" else self.idle_seconds
            if now - t.last_active < limit:
                break
            if self.store is None:
                self.drop(tid)
            else:
                t.close()
                del self.tables[tid]
        if self.store is not None:
            wall = time.time()
            for tid in self.store.expire(before=wall - self.idle_seconds,
                                         unjoined_before=wall - self.unjoined_seconds):
                self._count -= 1
                gone = self.tables.pop(tid, None)
                if gone is not None:
                    gone.close()

    def _admit(self, client: str | None) -> None:
        """Refuse a new table past the per-address rate or the total."""
        now = time.monotonic()
        if client is not None and self.per_address:
            made = self._made.setdefault(client, deque())
            while made and now - made[0] > 60:
                made.popleft()
            if len(made) >= self.per_address:
                raise TableError("busy", f"{self.per_address} new tables a minute is the most one "
                                 "address may make; wait a minute and try again")
            made.append(now)
            if len(self._made) > 10_000:        # forget quiet addresses (bounded memory)
                for addr in [a for a, q in self._made.items() if not q or now - q[-1] > 60]:
                    del self._made[addr]
        self._sweep(force=len(self) >= self.max_tables)
        if len(self) >= self.max_tables:
            raise TableError("full", f"this server already holds {self.max_tables} tables; "
                             "try again later")

    def create(self, *, kind: str, preset: str = "practice", twists: Sequence[str] = (),
               players: int | None = None, names: Sequence[str] | None = None,
               levels: Sequence[str] | None = None, seed: int | None = None,
               client: str | None = None, standin: str = DEFAULT_STANDIN,
               grace_seconds: float = DEFAULT_GRACE_SECONDS,
               turn_seconds: float | None = None) -> Table:
        """Make a table. ``kind="practice"`` ignores the other options (seed 003).

        Args:
            client: the address asking (for the per-address limit), if known.
            standin, grace_seconds, turn_seconds: a table for friends' stand-in level, grace
                period and turn timer (:class:`Table`).

        Raises:
            TableError: ``bad-rules`` / ``bad-table`` with what was wrong and what is allowed,
                ``busy`` past :attr:`per_address` tables a minute from ``client``, ``full``
                when the server holds ``max_tables``.
        """
        if seed is not None and not self.allow_seed:
            raise TableError("bad-table", "this server does not accept a chosen seed "
                             "(start it with PRESIDENT_WEB_ALLOW_SEED=1 for tests)")
        if kind == "practice":
            rules = Rules.preset("practice")
            names = list(PRACTICE_NAMES)
            levels = [HUMAN, "simple", "simple", "simple"]
        elif kind == "match":
            if preset == "practice":
                raise TableError("bad-rules", "practice is the one-deal practice round, not a match "
                                 f"preset: send kind \"practice\", or a match preset: {', '.join(MATCH_PRESETS)}")
            if preset not in PRESETS:
                raise TableError("bad-rules", f"no preset {preset!r}; presets are {', '.join(MATCH_PRESETS)}")
            try:
                rules = Rules.preset(preset, players=players, twists=list(twists))
            except RulesError as e:
                raise TableError("bad-rules", e.message) from None
            n = rules.players
            names = list(names) if names is not None else [""] * n
            levels = list(levels) if levels is not None else [HUMAN] + ["simple"] * (n - 1)
            if len(names) != n or len(levels) != n:
                raise TableError("bad-table", f"give {n} names and {n} levels for {n} players, "
                                 f"not {len(names)} and {len(levels)}")
            try:
                names = check_names([str(x) for x in names], defaults=DEFAULT_NAMES,
                                    friends=HUMAN in levels[1:])
            except BadName as e:
                raise TableError("bad-table", e.message) from None
            if levels[0] != HUMAN:
                raise TableError("bad-table", 'the first seat is yours: its level must be "human"')
            known = set(known_levels()) | {HUMAN}
            for lv in levels:
                if lv not in known:
                    raise TableError("bad-table", f"no computer level {lv!r}; choose from "
                                     f"{', '.join(sorted(known))}")
            if standin not in known_levels():
                raise TableError("bad-table", f"no computer level {standin!r} for the stand-in; "
                                 f"choose from {', '.join(known_levels())}")
        else:
            raise TableError("bad-table", f"no table kind {kind!r}; kinds are practice, match")
        self._admit(client)
        tid = secrets.token_urlsafe(16)
        # A chosen seed (tests only) keeps 32-bit deal seeds so a test can pick its deal;
        # otherwise 128 random bits, so no one can search the seeds for the deal.
        bits = 128 if seed is None else 32
        if seed is None:
            seed = secrets.randbits(128)
        table = Table(tid, kind, rules, names, levels, seed, bot_delay=self.bot_delay,
                      sealer=self.sealer, deal_seed_bits=bits, thinker=self.thinker,
                      standin=standin, grace_seconds=grace_seconds, turn_seconds=turn_seconds)
        self._watch(table)
        self._count += 1
        if self.store is not None:
            # On disk only until someone joins: a table nobody takes costs no memory.
            self.store.add(tid, table.setup())
        else:
            self.tables[tid] = table
        return table

    def _watch(self, table: Table) -> None:
        table.on_actions = self._commit.keep
        table.on_join = self._joined

    def restore(self, sealed: str) -> Table:
        """The table a sealed record describes: the live one if the server still has it, else
        rebuilt from the record.

        Raises:
            TableError: ``bad-record`` for a damaged, foreign or too old record (sealed more
                than :data:`~president.web.ledger.KEEP_SECONDS` ago); ``old-record`` for a
                record older than the newest one this server issued for that table (the
                ledger survives restarts: an old record must not rewind a match).
        """
        if self.sealer is None:
            raise TableError("bad-record", "this server keeps no saved matches")
        try:
            record = self.sealer.open(sealed, max_age=KEEP_SECONDS if self.ledger else None)
        except SealError as e:
            raise TableError("bad-record", str(e)) from None
        tid = record.get("id") if isinstance(record, dict) else None
        live = self.get(tid) if isinstance(tid, str) else None
        if live is not None:       # a live or stored table is never rebuilt from a record
            return live
        log = record.get("log") if isinstance(record, dict) else None
        if not isinstance(tid, str) or not isinstance(log, list):
            raise TableError("bad-record", "the saved match cannot be restored (it has no table id "
                             "or actions)")
        if self.ledger is not None:
            try:
                self.ledger.check(tid, len(log))
            except StaleRecord as e:
                raise TableError("old-record", str(e)) from None
        self._admit(None)
        table = Table.from_record(record, bot_delay=self.bot_delay, sealer=self.sealer,
                                  thinker=self.thinker)
        self._watch(table)
        if self.store is not None:
            self.store.add(table.id, table.setup())
            for n, entry in enumerate(table.log):
                self.store.append(table.id, n, entry)
        if self.ledger is not None:
            self.ledger.issued(table.id, len(table.log))
        self._count += 1
        self.tables[table.id] = table
        return table

    def drop(self, table_id: str) -> None:
        """Forget a table (memory and store) and stop its computer players."""
        table = self.tables.pop(table_id, None)
        if table is not None:
            table.close()
        if self.store is not None and table_id in self.store:
            self.store.remove(table_id)
            self._count -= 1

    def close_all(self) -> None:
        """Stop every table in memory (server shutdown); the store keeps them for the next
        start."""
        for table in self.tables.values():
            table.close()
        self.tables.clear()
        self._commit.close()
        if self.thinker is not None:
            self.thinker.close()
