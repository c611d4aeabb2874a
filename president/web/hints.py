"""Hints of the browser game: one legal option for a player, chosen by a computer player of
a level the page names, from that player's own observation only.

:class:`Hints` is one part of a :class:`~president.web.tables.Table`, made by it
(``table.hints``). It owns the hints being worked out (one per player at a time) and the last
hint given per player and level; it reads the table it is given
(:class:`~president.web.state.TableState`: the match, the log, the thinker) and thinks through
the table's ``_think``, as the computer players do. Fast levels answer at once, slow ones
think in the :class:`~president.web.thinker.Thinker`'s worker processes.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from ..actions import PASS, Give, Play
from ..players import make_player
from ..narration import NOTHING_BEATS, pass_hint_reason
from ..players.simple import simple_choice
from . import protocol as P
from .levels import DEFAULT_HINT_LEVEL, FAST_LEVELS, known_levels
from .state import TableError, TableState

__all__ = ["Hints", "HINT_REFUSAL_SECONDS"]

HINT_REFUSAL_SECONDS = 0.25
"""A slow hint refused (one already being worked out for that player, or every worker busy)
is answered after this many seconds, so a socket asking back to back costs the server a few
answers a second, not thousands."""


class Hints:
    """The hints of ``table``: one legal option for a human player, on request."""

    def __init__(self, table: TableState) -> None:
        self.table = table
        self._hinting: set[int] = set()
        """Players whose slow hint is being worked out now."""
        self._hint_memo: dict[tuple[int, str], tuple[int, dict[str, Any]]] = {}
        """The last hint per (player, level), with the number of actions it was given at: the
        same question in the same position gets the same answer (and costs no search)."""

    def hint(self, player: int, level: str = DEFAULT_HINT_LEVEL) -> dict[str, Any]:
        """A ``hint`` message: one legal option for ``player``, chosen by a computer player of
        ``level`` from ``player``'s own observation only, or that it should pass, or that it
        is not its turn. Runs in the caller's thread (see :meth:`hint_async`).

        Raises:
            TableError: ``bad-level`` for a level not in
                :func:`~president.players.available_levels`.
        """
        memo = self._remembered(player, level)
        if memo is not None:
            return memo
        obs, answer = self._hint_start(player, level)
        if answer is not None:
            return answer
        return self._remember(player, level, self._hint_text(self._hint_choice(obs, level), obs, level))

    async def hint_async(self, player: int, level: str = DEFAULT_HINT_LEVEL) -> dict[str, Any]:
        """:meth:`hint` for the event loop: a slow level (``expert``) thinks in a worker process
        (like the computer players), one hint at a time per player; if the table moved on
        meanwhile, the answer says so instead of a stale option. A bad level gets an
        ``error`` message (``bad-level``); so does a hint in the waiting room (``wrong-phase``:
        nothing is dealt to anyone's view there, and a hint would show the hand to come)."""
        if self.table.lobby:
            return P.error_message("wrong-phase", "the match has not started yet: no hints in "
                                   "the waiting room")
        memo = self._remembered(player, level)
        if memo is not None:        # asked again in the same position: the same answer
            return memo
        slow = level not in FAST_LEVELS and level in known_levels()
        # Refusals first, before any work, and each one late: a page that asks again at once
        # is slowed to a few questions a second instead of spinning the server.
        if slow and player in self._hinting:
            await asyncio.sleep(HINT_REFUSAL_SECONDS)
            return {"type": "hint", "cards": None, "pass": False,
                    "text": "Still working on your last hint; wait for it."}
        if slow and self.table.thinker is not None and self.table.thinker.busy():
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
            return self._remember(player, level,
                                  self._hint_text(self._hint_choice(obs, level), obs, level))
        self._hinting.add(player)
        actions = len(self.table.log)
        try:
            choice = await self.table._think(level, obs, secrets.randbits(32), hint=True)
        finally:
            self._hinting.discard(player)
        if len(self.table.log) != actions or self.table.closed:
            return {"type": "hint", "cards": None, "pass": False,
                    "text": "The table moved on while the hint was worked out; ask again."}
        return self._remember(player, level, self._hint_text(choice, obs, level))

    def _remembered(self, player: int, level: str) -> dict[str, Any] | None:
        """The hint ``player`` was given for ``level`` in this very position (no action since),
        or ``None``: a search's answer can differ from one run to the next, and the same
        question should not get a different answer (nor cost a second search)."""
        memo = self._hint_memo.get((player, level))
        return memo[1] if memo is not None and memo[0] == len(self.table.log) else None

    def _remember(self, player: int, level: str, answer: dict[str, Any]) -> dict[str, Any]:
        """Keep ``answer`` (a hint with a choice) as :meth:`_remembered`'s; returns it."""
        self._hint_memo[(player, level)] = (len(self.table.log), answer)
        return answer

    def _hint_start(self, player: int, level: str) -> tuple[Any, dict[str, Any] | None]:
        if level not in known_levels():
            raise TableError("bad-level", f"no computer level {P.excerpt(level)} for a hint; levels are "
                             f"{', '.join(known_levels())}")
        obs = self.table.match.observation(self.table.seat_of(player))
        if not obs.legal_actions:
            return obs, {"type": "hint", "cards": None, "pass": False,
                         "text": "It is not your turn." if self.table.match.to_act is not None
                         else "There is nothing to play now."}
        return obs, None

    @staticmethod
    def _hint_choice(obs: Any, level: str) -> Play | Give | Any:
        """The choice of a fresh ``level`` player (its own random seed) given ``obs`` only."""
        if level == DEFAULT_HINT_LEVEL:
            return simple_choice(obs)
        return make_player(level, seed=secrets.randbits(32)).act(obs)

    @staticmethod
    def _hint_text(choice: Any, obs: Any, level: str) -> dict[str, Any]:
        """The ``hint`` message for ``choice``; a pass says whether it is forced (nothing in
        the hand beats the pile) or the ``level`` player's preference."""
        if choice is PASS:
            forced = all(a is PASS for a in obs.legal_actions)
            return {"type": "hint", "cards": None, "pass": True,
                    "text": f"{NOTHING_BEATS.capitalize()}: pass." if forced else
                    f"Pass: {pass_hint_reason(level)}."}
        verb = "Give" if isinstance(choice, Give) else "Play"
        return {"type": "hint", "cards": [str(c) for c in choice.cards], "pass": False,
                "text": f"{verb} {', '.join(P.card_text(c) for c in choice.cards)}."}
