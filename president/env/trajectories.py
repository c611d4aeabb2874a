"""Trajectories for imitation and offline learning: every decision of a game as the
environments encode it, from game records or from self-play of any levels, saved as NPZ.

One row per decision step, in the order played (a two-card give is two rows, as in the
environments: the lower card first, the second row's observation with the first card chosen):

============ ============ ======= ============================================================
array        shape        dtype   meaning
============ ============ ======= ============================================================
``obs``      (T, 702)     float32 the acting seat's observation (docs/env.md, the same numbers
                                  as :func:`~president.env.encode_observation`)
``mask``     (T, 66)      int8    its legal action indices
``action``   (T,)         int16   the index taken (``rank * 4 + count - 1``, 52 pass, ``53 +
                                  rank`` a card given; the suits the player chose are dropped)
``reward``   (T,)         float32 on a player's last row of a deal, that deal's reward for
                                  the player (``place``: ``1 - 2 (place - 1) / (n - 1)``, or
                                  ``points``); 0 elsewhere
``done``     (T,)         bool    the player's last row of the deal
``seat``     (T,)         int8    the acting seat at the table this deal
``player``   (T,)         int8    the acting player's index in the match
``deal``     (T,)         int32   the deal's number in this export, from 0
============ ============ ======= ============================================================

A deal kept only by its finishing order (played with real cards) has no decisions and adds
no row. Parquet is not offered: it would need pyarrow, which this package does not install.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Iterable, Sequence

import numpy as np

from ..actions import PASS, Action, Give, Pass, Play
from ..match import DealResult, Match
from ..observation import Observation
from ..players import make_player
from ..records import Record, Replayer, load, loads, record_from_match
from ..rules import MatchEnd, Rules
from .encoding import (GIVE_BASE, NUM_ACTIONS, OBS_SIZE, encode_observation, mask_from_legal,
                       play_action)

__all__ = ["from_record", "self_play", "save_npz", "concatenate", "FIELDS", "FORMAT"]

#: Version of the arrays' layout (stored in every NPZ as ``format``): 2 since the ``scores``
#: piece of ``obs`` is scaled as points / (points + 10) (environment version 1); 1 held raw
#: points.
FORMAT = 2
#: ``(name, dtype, shape of one row)`` of the arrays, in order.
FIELDS: tuple[tuple[str, str, tuple[int, ...]], ...] = (
    ("obs", "float32", (OBS_SIZE,)), ("mask", "int8", (NUM_ACTIONS,)), ("action", "int16", ()),
    ("reward", "float32", ()), ("done", "bool", ()), ("seat", "int8", ()),
    ("player", "int8", ()), ("deal", "int32", ()))
_REWARDS = ("place", "points")


class _Collector:
    """Rows of decisions, and the rewards of each deal on each player's last row."""

    def __init__(self, reward: str) -> None:
        if reward not in _REWARDS:
            raise ValueError(f"reward = {reward!r} is not allowed; choose one of: "
                             f"{', '.join(_REWARDS)}")
        self.reward = reward
        self.rows: dict[str, list[Any]] = {name: [] for name, _, _ in FIELDS}
        self.last: dict[int, int] = {}      # player -> their last row this deal
        self.deal = 0

    def decision(self, obs: Observation, action: Action, player: int) -> None:
        hand = 0
        for c in obs.hand:
            hand |= c.bit
        if obs.phase == "exchange":
            chosen = 0
            assert not isinstance(action, Pass), "a pass in the exchange"
            cards = sorted(Give(action.mask).cards, key=lambda c: c.index)
            for card in cards:
                self._row(encode_observation(obs, chosen=chosen),
                          mask_from_legal(list(obs.legal_actions), hand, chosen),
                          GIVE_BASE + int(card.rank), obs.seat, player)
                chosen |= card.bit
            return
        assert not isinstance(action, Give), "a give in play"
        self._row(encode_observation(obs), mask_from_legal(list(obs.legal_actions), hand),
                  play_action(action), obs.seat, player)

    def _row(self, obs: np.ndarray, mask: np.ndarray, action: int, seat: int,
             player: int) -> None:
        if not mask[action]:
            raise AssertionError(f"action {action} is not in its mask")  # a bug here, not input
        r = self.rows
        self.last[player] = len(r["action"])
        r["obs"].append(obs)
        r["mask"].append(mask)
        r["action"].append(action)
        r["reward"].append(0.0)
        r["done"].append(False)
        r["seat"].append(seat)
        r["player"].append(player)
        r["deal"].append(self.deal)

    def deal_ended(self, result: DealResult, players: int) -> None:
        if self.reward == "points":
            rewards = [float(x) for x in result.points]
        else:
            rewards = [0.0] * players
            for place, p in enumerate(result.finish_order):
                rewards[p] = 1.0 - 2.0 * place / (players - 1)
        for p, row in self.last.items():
            self.rows["reward"][row] = rewards[p]
            self.rows["done"][row] = True
        self.last = {}
        self.deal += 1

    def arrays(self) -> dict[str, np.ndarray]:
        out = {}
        for name, dtype, shape in FIELDS:
            rows = self.rows[name]
            if name in ("obs", "mask"):
                out[name] = (np.stack(rows).astype(dtype) if rows
                             else np.zeros((0, *shape), dtype=dtype))
            else:
                out[name] = np.array(rows, dtype=dtype)
        return out


def from_record(record: Record | str | Any, *, reward: str = "place") -> dict[str, np.ndarray]:
    """The decisions of a game record (a :class:`~president.records.Record`, its JSON text,
    or an open file) as arrays (see the module docstring).

    Raises:
        RecordError: a record that cannot be read (see :func:`president.records.loads`).
        ValueError: a record that does not replay (the first refused step, where and why),
            or a bad ``reward``; or ``reward = "points"`` for rules without scoring.
    """
    if isinstance(record, (str, bytes)):
        record = loads(record)
    elif not isinstance(record, Record):
        record = load(record)
    if reward == "points" and not record.rules.scoring:
        raise ValueError(f"reward = 'points' needs rules that score points; {record.rules.name} "
                         "scores none, so use reward = 'place'")
    out = _Collector(reward)
    replayer = Replayer(record)
    pending: tuple[Observation, int] | None = None
    results = 0
    for step in replayer:
        match = replayer.match
        assert match is not None    # set before the first step
        deal = record.deals[step.deal]
        if step.step in ("exchange", "play") and pending is not None:
            assert step.index is not None   # exchange and play steps have one
            action: Action
            if step.step == "exchange":
                action = Give(deal.exchange[step.index].mask)
            else:
                act = deal.actions[step.index]
                action = PASS if act.cards is None else Play.of(act.cards)
            out.decision(pending[0], action, pending[1])
        if len(match.results) > results:
            results = len(match.results)
            if not deal.by_order:
                out.deal_ended(match.results[-1], match.rules.players)
        seat = match.to_act
        pending = None if seat is None else (match.observation(seat), match.seating[seat])
    if replayer.error is not None:
        e = replayer.error
        raise ValueError(f"the record does not replay: {e.where()}, {e.entry or e.step}: "
                         f"{e.message} ({e.reason})")
    return out.arrays()


def self_play(rules: Rules, levels: Sequence[str], *, deals: int, seed: int = 0,
              matches: bool = False, max_deals: int = 20, reward: str = "place",
              records: list[Record] | None = None) -> dict[str, np.ndarray]:
    """Decisions of computer players (level names or import paths ``"package.module:Class"``,
    one per player) over ``deals`` deals, as arrays (see the module docstring).

    Each deal is a new single-deal match (``matches=False``), or deals run within matches
    (with exchanges) of at most ``max_deals`` deals. The first dealer and every seed are drawn
    from ``seed``: the same arguments give the same arrays. With a list as ``records``, the
    game record of each match played is appended to it (:func:`from_record` of them gives
    the same rows).

    Raises:
        ValueError: a wrong number of levels, an unknown level or a path that does not load,
            ``deals`` or ``max_deals`` below 1, or a bad ``reward``.
    """
    n = rules.players
    levels = list(levels)
    if len(levels) != n:
        raise ValueError(f"{len(levels)} level(s) given for a table of {n}; give one per player")
    for name, value in (("deals", deals), ("max_deals", max_deals)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} = {value!r} must be a whole number of at least 1")
    if reward == "points" and not rules.scoring:
        raise ValueError(f"reward = 'points' needs rules that score points; {rules.name} "
                         "scores none, so use reward = 'place'")
    out = _Collector(reward)
    rng = random.Random(seed)
    bots = [make_player(level, seed=rng.getrandbits(63), imports=True) for level in levels]
    if not matches and rules.match_end != "single-deal":
        rules = replace(rules, match_end=MatchEnd("single-deal"))
    played = 0
    while played < deals:
        match = Match(rules, seed=rng.getrandbits(63), first_dealer=rng.randrange(n),
                      record_events=records is not None)
        in_match = 0
        while True:
            while match.to_act is not None:
                seat = match.to_act
                player = match.seating[seat]
                obs = match.observation(seat)
                action = bots[player].act(obs)
                out.decision(obs, action, player)
                match.act(seat, action)
            out.deal_ended(match.results[-1], n)
            played += 1
            in_match += 1
            if (match.phase == "match-over" or not matches or in_match >= max_deals
                    or played >= deals):
                break
            match.start_next_deal()
        if records is not None:
            records.append(record_from_match(match))
    return out.arrays()


def concatenate(parts: Iterable[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """Several exports as one, deal numbers renumbered to follow on."""
    parts = list(parts)
    out = {}
    offset = 0
    deals = []
    for part in parts:
        deals.append(part["deal"] + offset)
        offset += int(part["deal"].max()) + 1 if len(part["deal"]) else 0
    for name, dtype, shape in FIELDS:
        if name == "deal":
            out[name] = np.concatenate(deals).astype(dtype) if deals else np.zeros(0, dtype)
        else:
            out[name] = (np.concatenate([p[name] for p in parts]) if parts
                         else np.zeros((0, *shape), dtype=dtype))
    return out


def save_npz(path: str, data: dict[str, np.ndarray], **meta: str) -> None:
    """Write the arrays to ``path`` with :func:`numpy.savez_compressed`, with ``format`` and
    each ``meta`` value (e.g. ``rules="house"``) as a 0-d string array. Read back with
    ``numpy.load(path)``.

    Raises:
        ValueError: an array is missing or has the wrong dtype or row shape, or a ``meta``
            name is one of the arrays' (or ``format``), or a parameter of
            :func:`numpy.savez_compressed` (``file``, ``allow_pickle``).
        OSError: the file cannot be written.
    """
    for name, dtype, shape in FIELDS:
        arr = data.get(name)
        if arr is None or arr.dtype != np.dtype(dtype) or arr.shape[1:] != shape:
            got = "missing" if arr is None else f"{arr.dtype} rows of {arr.shape[1:]}"
            raise ValueError(f"array {name!r} must be {dtype} with rows of shape {shape}; "
                             f"it is {got}")
    clash = sorted(set(meta) & ({name for name, _, _ in FIELDS} | {"format"}))
    if clash:
        raise ValueError(f"meta {', '.join(clash)} would overwrite an array; name it otherwise "
                         "(e.g. reward_kind)")
    taken = sorted(set(meta) & {"file", "allow_pickle"})
    if taken:
        raise ValueError(f"meta {', '.join(taken)} would be taken as numpy.savez_compressed's "
                         "own option; name it otherwise")
    arrays = {"format": np.array(FORMAT), **data}
    arrays.update((k, np.array(str(v))) for k, v in meta.items())
    # every name is an array's (checked above), so none reaches allow_pickle
    np.savez_compressed(path, **arrays)  # type: ignore[arg-type]
