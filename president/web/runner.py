"""The computer players of a browser-game table: who acts for a seat (its computer player, or
the stand-in of an away friend), the loop that paces them, and the timers of a friends' table.

A mixin of :class:`~president.web.tables.Table` (its state lives there). Each computer player
is given only its own seat's observation; fast levels act in the event loop, slow ones think
in the :class:`~president.web.thinker.Thinker`'s worker processes.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from ..events import Event
from ..players import make_player
from . import protocol as P
from .levels import FAST_LEVELS
from .state import TableState

__all__ = ["ComputerPlayers"]


class ComputerPlayers(TableState):
    """The computer-player methods of :class:`~president.web.tables.Table`."""

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
            self._note_acted_for(player, events)
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
                        if self.closed:   # closed while it thought
                            return
                    events = m.act(seat, action)
                    self._count_standin(player)
                    self._note_acted_for(player, events)
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
        self._timer = loop.call_later(delay, lambda: self._spawn(self._timer_fired(key)))

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
                self._note_acted_for(player, events)
                await self._acted(seat, action, events)
        self.kick()

    async def _acted(self, seat: int, action: Any, events: list[Event]) -> None:
        """After an accepted action of a human (or of the stand-in for one): log it, let the
        instant computer players reply, re-arm the timer and send it all as one batch."""
        self._accept([seat, str(action)])
        self._collect(events)
        batch: list[Event] = list(events)
        self._instant_bots(batch)
        self._arm_timer()
        await self._broadcast(batch)

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
