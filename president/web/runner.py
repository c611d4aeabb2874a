"""The computer players of a browser-game table: who acts for a seat (its computer player, or
the stand-in of an away friend), the loop that paces them, and the timers of a friends' table.

:class:`ComputerPlayers` is one part of a :class:`~president.web.tables.Table`, made by it
(``table.computers``). It owns the loop's task, the one timer (an away friend's grace period
or the turn timer) and the stand-in computer players; everything else it reads and changes
on the table it is given (:class:`~president.web.state.TableState`: the match, the humans,
the log, the lock, the messages sent), and it publishes the running timer there
(:attr:`~president.web.state.TableState.timer`) for the ``state`` message. Each computer
player is given only its own seat's observation; fast levels act in the event loop, slow
ones think in the :class:`~president.web.thinker.Thinker`'s worker processes.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from ..events import Event
from ..players import make_player
from .levels import FAST_LEVELS
from .state import TableState

__all__ = ["ComputerPlayers"]


class ComputerPlayers:
    """The computer players of ``table`` (its own and the stand-ins), their loop and its
    timers."""

    def __init__(self, table: TableState) -> None:
        self.table = table
        self._runner: asyncio.Task[None] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._timer_key: tuple[int, int, str] | None = None
        self._standin_bots: dict[int, Any] = {}

    def _bot_to_act(self) -> int | None:
        """The player a computer acts for now (a computer seat, or a friend's seat the
        stand-in plays), or ``None`` (a human's turn, the waiting room, no turn)."""
        t = self.table
        m = t.match
        if m.to_act is None or t.lobby:
            return None
        player = m.seating[m.to_act]
        return player if player in t.bots or player in t.standins else None

    def _level_of(self, player: int) -> str:
        """The computer level acting for ``player`` (its own, or the stand-in's)."""
        t = self.table
        return t.standin if player in t.standins else t.levels[player]

    def _bot_of(self, player: int) -> Any:
        t = self.table
        return self._standin_bot(player) if player in t.standins else t.bots[player]

    def instant_bots(self, batch: list[Event]) -> None:
        """With no delay (``instant``, tests, benchmarks), let the fast computer players who
        are to act next play at once, adding their events to ``batch``: the human's action and
        the replies then go out as one batch with one ``state``. A slow level stops it (it
        thinks in :meth:`_run_bots`)."""
        t = self.table
        if t.delay:
            return
        m = t.match
        while not t.closed and not t.paused:
            player = self._bot_to_act()
            if player is None or self._level_of(player) not in FAST_LEVELS:
                return
            seat = m.to_act
            assert seat is not None
            action = self._bot_of(player).act(m.observation(seat))
            events = m.act(seat, action)
            self._count_standin(player)
            t._note_acted_for(player, events)
            t._accept([seat, str(action)])
            t._collect(events)
            batch.extend(events)

    def kick(self) -> None:
        """Start the computer players' loop if one of them is to act and none is running."""
        t = self.table
        if t.closed or t.paused or self._bot_to_act() is None:
            return
        if self._runner is None or self._runner.done():
            self._runner = asyncio.get_running_loop().create_task(self._run_bots())

    async def _run_bots(self) -> None:
        """Let the computer players act, one every :attr:`~TableState.delay` seconds. With no
        delay (``instant``, tests, benchmarks) the fast players' actions in a row are sent as
        one batch: every event, then a single ``state`` (the page animates the events)."""
        t = self.table
        while not t.closed and not t.paused and self._bot_to_act() is not None:
            await asyncio.sleep(t.delay)
            async with t._lock:
                batch: list[Event] = []
                while True:
                    player = self._bot_to_act()
                    if t.closed or t.paused or player is None:
                        break
                    m = t.match
                    seat = m.to_act
                    assert seat is not None
                    obs = m.observation(seat)
                    level = self._level_of(player)
                    if level in FAST_LEVELS:
                        action = self._bot_of(player).act(obs)
                    else:
                        if batch:        # show what happened before a search starts
                            break
                        seed = (t.seed * 7919 + len(t.log) * 104729 + player) & 0xFFFFFFFF
                        action = await t._think(level, obs, seed)
                        if t.closed:   # closed while it thought
                            return
                    events = m.act(seat, action)
                    self._count_standin(player)
                    t._note_acted_for(player, events)
                    t._accept([seat, str(action)])
                    t._collect(events)
                    batch.extend(events)
                    if t.delay or level not in FAST_LEVELS:
                        break
                self.arm_timer()
                if batch:
                    await t._broadcast(batch)

    async def run_bots_now(self) -> None:
        """Run the computer players until a human is to act (for benchmarks and tests)."""
        self.kick()
        while self._runner is not None and not self._runner.done():
            await self._runner

    def _human_to_act(self) -> int | None:
        """The human player whose turn it is (no stand-in playing for them), or ``None``."""
        t = self.table
        m = t.match
        if t.lobby or t.closed or m.to_act is None:
            return None
        player = m.seating[m.to_act]
        if player in t.humans and player not in t.standins:
            return player
        return None

    def arm_timer(self) -> None:
        """Start, keep or stop the one timer of a table for friends: an away human to act
        waits ``grace_seconds``, then the stand-in takes their seat; a present one with a
        turn timer waits ``turn_seconds``, then the stand-in makes one move."""
        t = self.table
        player = self._human_to_act()
        if player is None or t.paused or not t.friends:
            self._cancel_timer()
            return
        away = not t.humans[player].connections
        if not away and t.turn_seconds is None:
            self._cancel_timer()
            return
        key = (player, len(t.log), "away" if away else "idle")
        if self._timer is not None and self._timer_key == key:
            return
        self._cancel_timer()
        delay = t.grace_seconds if away else float(t.turn_seconds or 0)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._timer_key = key
        t.timer = (player, time.monotonic() + delay)
        self._timer = loop.call_later(delay, lambda: t._spawn(self._timer_fired(key)))

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = None
        self._timer_key = None
        self.table.timer = None

    async def _timer_fired(self, key: tuple[int, int, str]) -> None:
        t = self.table
        async with t._lock:
            if self._timer_key != key:
                return
            self._timer = None
            self._timer_key = None
            t.timer = None
            player, actions, why = key
            if self._human_to_act() != player or len(t.log) != actions or t.paused:
                self.arm_timer()
                return
            if why == "away":
                if t.humans[player].connections:
                    self.arm_timer()
                    return
                t.standins.add(player)
                await t._announce(player, "standin")
                self.arm_timer()
                await t._send_states()
            else:   # the turn timer: one move for an idle player, from their own view
                m = t.match
                seat = m.to_act
                assert seat is not None
                action = self._standin_bot(player).act(m.observation(seat))
                events = m.act(seat, action)
                t.standin_moves[player] = t.standin_moves.get(player, 0) + 1
                t._note_acted_for(player, events)
                await self.acted(seat, action, events)
        self.kick()

    async def acted(self, seat: int, action: Any, events: list[Event]) -> None:
        """After an accepted action of a human (or of the stand-in for one): log it, let the
        instant computer players reply, re-arm the timer and send it all as one batch."""
        t = self.table
        t._accept([seat, str(action)])
        t._collect(events)
        batch: list[Event] = list(events)
        self.instant_bots(batch)
        self.arm_timer()
        await t._broadcast(batch)

    def _count_standin(self, player: int) -> None:
        t = self.table
        if player in t.standins:
            t.standin_moves[player] = t.standin_moves.get(player, 0) + 1

    def _standin_bot(self, player: int) -> Any:
        """The stand-in computer player of ``player``'s seat (made once a match, kept)."""
        bot = self._standin_bots.get(player)
        if bot is None:
            t = self.table
            bot = make_player(t.standin, seed=(t.seed * 7919 + 1000 + player) & 0xFFFFFFFF)
            self._standin_bots[player] = bot
        return bot

    def new_match(self) -> None:
        """A rematch: the stand-ins of the last match are forgotten (new ones are made)."""
        self._standin_bots.clear()

    def stop(self) -> None:
        """The table closed: stop the timer and the loop for good."""
        self._cancel_timer()
        if self._runner is not None:
            self._runner.cancel()
