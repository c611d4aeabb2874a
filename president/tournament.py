"""A round robin of bots (computer levels or your own by import path) on duplicate deals.

Every pair of bots ``(a, b)`` meets at tables of ``players`` seats filled alternately
``a, b, a, b, …`` (and, at an odd table size, also ``b, a, b, …``, so each bot holds as
many seats as the other). A *board* is one set of dealt cards; it is played in every
rotation of each seat assignment (:func:`president.simulate.play_board`), and every pair
plays the same boards, so the luck of the cards cancels within a pair and across the field.

Figures, each with a 95% interval over boards (``mean ± 1.96 · sd / √boards``):

- **places ahead** for each pair: ``b``'s mean finishing place minus ``a``'s in their
  meetings (positive: ``a`` finished ahead);
- per bot, the **rating**: its places ahead of the field, the mean of its places ahead over
  its opponents (0 for a field of equals);
- per bot, the **score**: the share of head-to-head comparisons it won (each of its seats
  against each opponent's seat at the same table, ahead = won), and that score on the
  **Elo** scale, ``400 · log10(score / (1 − score))`` (the interval's ends transformed the
  same way).

The statistics are integer sums per board (:class:`TournamentStats`), so runs over
different boards — shards on other processes or machines — merge exactly
(:meth:`TournamentStats.merge`): the merge of shards is the one run over all their boards.
Single deals only (no exchange): every board is a fresh deal.

This module is not part of the rules core; players see only their own seat's observation.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Callable, Iterable, Sequence

from .players import LEVELS, is_import_path, level_choices, load_class
from .rules import MatchEnd, Rules
from .parallel import check_backend, run_boards
from .simulate import SimulationConfig, play_board

__all__ = ["TournamentConfig", "TournamentStats", "run_tournament", "play_tournament_board",
           "assignments", "deals_per_board", "load_stats", "FORMAT"]

#: Version of the statistics' JSON form (``TournamentStats.to_dict``).
FORMAT = 1


def assignments(a: str, b: str, players: int) -> list[tuple[str, ...]]:
    """The seat assignments of a meeting of ``a`` and ``b`` at ``players`` seats: alternate
    seats, and at an odd table size also the mirror image (so both hold as many seats).

    >>> assignments("x", "y", 4)
    [('x', 'y', 'x', 'y')]
    >>> assignments("x", "y", 3)
    [('x', 'y', 'x'), ('y', 'x', 'y')]
    """
    first = tuple(a if k % 2 == 0 else b for k in range(players))
    if players % 2 == 0:
        return [first]
    return [first, tuple(b if k % 2 == 0 else a for k in range(players))]


@dataclass(frozen=True)
class TournamentConfig:
    """What to play.

    Attributes:
        rules: the table's rules (``rules.players`` seats; a match rule is played as single
            deals).
        bots: two or more distinct level names or import paths ``"package.module:Class"``.
        boards: boards per pair (each played ``players`` times per seat assignment).
        seed: master seed: board ``i`` is the same deal for every pair.
        player_options: constructor keywords per bot name (as in
            :class:`~president.simulate.SimulationConfig`).

    Raises:
        ValueError: fewer than two bots, a bot named twice, an unknown level or an import
            path that does not load (saying why), or ``boards`` below 1.
    """

    rules: Rules
    bots: tuple[str, ...]
    boards: int
    seed: int = 0
    player_options: dict[str, dict[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if len(self.bots) < 2:
            raise ValueError(f"a tournament needs at least 2 bots; got {len(self.bots)} "
                             f"({', '.join(self.bots) or 'none'})")
        twice = sorted({b for b in self.bots if self.bots.count(b) > 1})
        if twice:
            raise ValueError(f"{', '.join(twice)} named more than once; name each bot once "
                             "(every pair meets at tables of both)")
        for bot in self.bots:
            if not isinstance(bot, str) or "|" in bot:
                raise ValueError(f"bot {bot!r} is not a level name or an import path "
                                 "package.module:ClassName")
            if bot in LEVELS:
                continue
            if is_import_path(bot):
                load_class(bot)  # raises ValueError saying why it does not load
                continue
            raise ValueError(f"no computer level {bot!r}; levels are: {level_choices()}")
        if isinstance(self.boards, bool) or not isinstance(self.boards, int) or self.boards < 1:
            raise ValueError(f"boards = {self.boards!r} must be a whole number of at least 1")

    @property
    def pairs(self) -> list[tuple[str, str]]:
        """Every pair of bots, in the order of :attr:`bots`."""
        return list(combinations(self.bots, 2))

    def deals_per_board(self) -> int:
        """Deals a pair plays per board (see :func:`deals_per_board`)."""
        return deals_per_board(self.rules.players)


def deals_per_board(players: int) -> int:
    """Deals a pair plays per board: ``players`` rotations of each seat assignment
    (``players`` deals at an even table size, twice as many at an odd one)."""
    return players * len(assignments("a", "b", players))


def _units(players: int) -> tuple[int, int]:
    """Per board of a pair: seat results each bot has (the divisor of place sums) and
    head-to-head comparisons (seat of one against seat of the other at the same table)."""
    n = players
    if n % 2 == 0:
        return n * n // 2, n * (n // 2) ** 2
    return n * n, 2 * n * ((n + 1) // 2) * ((n - 1) // 2)


def play_tournament_board(config: TournamentConfig, board: int) -> dict[str, list[int]]:
    """Play board ``board`` for every pair. Returns ``{"a|b": [places_b - places_a, wins_a],
    ...}``: integer sums over the board's deals (finishing places summed over seats;
    head-to-head comparisons ``a`` won)."""
    rules = config.rules
    if rules.match_end != "single-deal":
        from dataclasses import replace
        rules = replace(rules, match_end=MatchEnd("single-deal"))
    n = rules.players
    out = {}
    for a, b in config.pairs:
        diff = wins = 0
        for seats in assignments(a, b, n):
            sim = SimulationConfig(rules=rules, seats=seats, boards=1, seed=config.seed,
                                   player_options=config.player_options)
            rows = play_board(sim, board)["rows"]
            for start in range(0, len(rows), n):  # one deal: n rows in finishing order
                deal = rows[start:start + n]
                b_left = sum(1 for level, *_ in deal if level == b)
                for level, place, *_ in deal:
                    if level == a:
                        diff -= place
                        wins += b_left  # every b seat still to finish is behind this a
                    else:
                        diff += place
                        b_left -= 1
        out[f"{a}|{b}"] = [diff, wins]
    return out


def _iv(count: int, total: int, squares: int, unit: int) -> dict[str, Any]:
    """Mean and 95% interval of per-board values ``x / unit`` from exact integer sums."""
    if count == 0:
        return {"mean": None, "low": None, "high": None, "n": 0}
    mean = total / (count * unit)
    if count < 2:
        return {"mean": mean, "low": None, "high": None, "n": count}
    var = (count * squares - total * total) / (count * (count - 1) * unit * unit)
    half = 1.96 * math.sqrt(max(var, 0.0) / count)
    return {"mean": mean, "low": mean - half, "high": mean + half, "n": count}


def _elo(score: float | None) -> float | None:
    if score is None:
        return None
    score = min(max(score, 1e-6), 1 - 1e-6)
    return 400.0 * math.log10(score / (1.0 - score))


class TournamentStats:
    """Exact statistics of a tournament over some boards: per pair and per bot, the count
    of boards and the sum and sum of squares of integer per-board totals. Merge runs over
    disjoint boards with :meth:`merge`; :meth:`summary` gives the figures.

    Args:
        bots, players, rules, seed: of the :class:`TournamentConfig` played.
    """

    def __init__(self, bots: Sequence[str], players: int, rules: str, seed: int) -> None:
        self.bots = tuple(bots)
        self.players = players
        self.rules = rules
        self.seed = seed
        self.boards: list[int] = []
        keys = [f"{a}|{b}" for a, b in combinations(self.bots, 2)]
        # per pair: [sum diff, sum diff^2, sum wins, sum wins^2]
        self.pairs: dict[str, list[int]] = {k: [0, 0, 0, 0] for k in keys}
        # per bot: the same sums of its totals over its opponents per board
        self.per_bot: dict[str, list[int]] = {b: [0, 0, 0, 0] for b in self.bots}

    def add(self, board: int, result: dict[str, list[int]]) -> None:
        """Add one board's :func:`play_tournament_board` result.

        Raises:
            ValueError: the board is already counted, or the result is for other bots.
        """
        if board in self.boards:
            raise ValueError(f"board {board} is already in these statistics")
        if set(result) != set(self.pairs):
            raise ValueError(f"the result of board {board} is for pairs {sorted(result)}, "
                             f"not this tournament's {sorted(self.pairs)}")
        self.boards.append(board)
        bot_diff = dict.fromkeys(self.bots, 0)
        bot_wins = dict.fromkeys(self.bots, 0)
        _, comparisons = _units(self.players)
        for key, (diff, wins) in result.items():
            s = self.pairs[key]
            s[0] += diff
            s[1] += diff * diff
            s[2] += wins
            s[3] += wins * wins
            a, b = key.split("|")
            bot_diff[a] += diff
            bot_diff[b] -= diff
            bot_wins[a] += wins
            bot_wins[b] += comparisons - wins
        for bot in self.bots:
            s = self.per_bot[bot]
            s[0] += bot_diff[bot]
            s[1] += bot_diff[bot] ** 2
            s[2] += bot_wins[bot]
            s[3] += bot_wins[bot] ** 2

    def merge(self, other: "TournamentStats") -> "TournamentStats":
        """The statistics of both runs together (a new object).

        Raises:
            ValueError: a different tournament (bots, table size, rules or seed), or a board
                counted in both.
        """
        mine = (self.bots, self.players, self.rules, self.seed)
        theirs = (other.bots, other.players, other.rules, other.seed)
        if mine != theirs:
            raise ValueError(f"cannot merge statistics of different tournaments: bots, players, "
                             f"rules, seed {mine} and {theirs}")
        both = sorted(set(self.boards) & set(other.boards))
        if both:
            raise ValueError(f"board(s) {both[:10]} are in both statistics; shards must play "
                             "disjoint boards")
        out = TournamentStats(*mine)
        out.boards = sorted(self.boards + other.boards)
        for table, a, b in ((out.pairs, self.pairs, other.pairs),
                            (out.per_bot, self.per_bot, other.per_bot)):
            for k in table:
                table[k] = [x + y for x, y in zip(a[k], b[k])]
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (integers only), read back by :meth:`from_dict`."""
        return {"format": FORMAT, "bots": list(self.bots), "players": self.players,
                "rules": self.rules, "seed": self.seed, "boards": sorted(self.boards),
                "pairs": self.pairs, "per_bot": self.per_bot}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "TournamentStats":
        """Statistics from :meth:`to_dict`.

        Raises:
            ValueError: not such a dict, or another format version.
        """
        try:
            if data.get("format") != FORMAT:
                raise ValueError(f"format {data.get('format')!r}; this version reads {FORMAT}")
            out = cls(data["bots"], int(data["players"]), data["rules"], int(data["seed"]))
            out.boards = [int(b) for b in data["boards"]]
            for table, key in ((out.pairs, "pairs"), (out.per_bot, "per_bot")):
                if set(data[key]) != set(table):
                    raise ValueError(f"{key} names {sorted(data[key])}, expected {sorted(table)}")
                for k in table:
                    table[k] = [int(x) for x in data[key][k]]
        except (KeyError, TypeError, AttributeError) as e:
            raise ValueError(f"not tournament statistics (missing or wrong {e})") from None
        return out

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TournamentStats) and self.to_dict() == other.to_dict()

    def summary(self) -> dict[str, Any]:
        """The figures as a JSON-ready dict: ``pairs`` (per pair ``stronger``, ``weaker``,
        ``places_ahead``: the weaker's mean place minus the stronger's, ``score``: the
        stronger's share of head-to-head comparisons), ``ratings`` (per bot, best first:
        ``places_ahead`` of the field, ``score``, ``elo``), each figure ``{"mean", "low",
        "high", "n"}`` over boards (``low``/``high`` ``None`` with fewer than 2)."""
        count = len(self.boards)
        seats, comparisons = _units(self.players)
        pairs = []
        for key, (d, d2, w, w2) in self.pairs.items():
            a, b = key.split("|")
            ahead = _iv(count, d, d2, seats)
            score = _iv(count, w, w2, comparisons)
            if ahead["mean"] is not None and ahead["mean"] < 0:
                a, b = b, a
                ahead = _iv(count, -d, d2, seats)
                score = _iv(count, count * comparisons - w,
                            w2 - 2 * comparisons * w + count * comparisons ** 2, comparisons)
            pairs.append({"stronger": a, "weaker": b, "places_ahead": ahead, "score": score})
        others = len(self.bots) - 1
        ratings: list[dict[str, Any]] = []
        for bot, (d, d2, w, w2) in self.per_bot.items():
            ahead = _iv(count, d, d2, seats * others)
            score = _iv(count, w, w2, comparisons * others)
            elo = {k: _elo(score[k]) if k != "n" else score[k] for k in score}
            ratings.append({"bot": bot, "places_ahead": ahead, "score": score, "elo": elo})
        ratings.sort(key=lambda r: -(r["places_ahead"]["mean"] or 0.0))
        return {"rules": self.rules, "players": self.players, "bots": list(self.bots),
                "seed": self.seed, "boards": count,
                "deals_per_pair": count * deals_per_board(self.players),
                "pairs": pairs, "ratings": ratings}


def _run_boards(config: TournamentConfig, boards: Sequence[int]) -> list[dict[str, Any]]:
    return [play_tournament_board(config, b) for b in boards]


def run_tournament(config: TournamentConfig, *, jobs: int = 1,
                   boards: Iterable[int] | None = None,
                   progress: Callable[[int], None] | None = None,
                   backend: str = "local", address: str | None = None) -> TournamentStats:
    """Play ``boards`` (default ``range(config.boards)``) for every pair over ``jobs``
    processes; the statistics do not depend on ``jobs``. ``progress(k)`` is called as ``k``
    more boards finish. To shard a run, give each shard its own boards and
    :meth:`~TournamentStats.merge` the results.

    ``backend="ray"`` plays the boards as Ray tasks (:mod:`president.distributed`, extra
    ``ray``) on the cluster at ``address``, on a Ray started on this machine
    (``address=None``) or on the Ray this process already initialised; ``jobs`` is then not
    used. The statistics equal the local ones for the same seed.

    Raises:
        ValueError: ``jobs`` below 1, a board number below 0 or given twice, an unknown
            ``backend``, or an ``address`` for the local backend.
        ModuleNotFoundError: ``backend="ray"`` and ray is not installed.
    """
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs = {jobs!r} must be a whole number of at least 1")
    check_backend(backend, address)
    todo = list(range(config.boards)) if boards is None else list(boards)
    if any(not isinstance(b, int) or b < 0 for b in todo) or len(set(todo)) != len(todo):
        raise ValueError("boards must be distinct whole numbers of at least 0")
    stats = TournamentStats(config.bots, config.rules.players, config.rules.name, config.seed)
    results: dict[int, dict[str, Any]] = {}

    def take(ch: Sequence[int], res: list[dict[str, Any]]) -> None:
        results.update(zip(ch, res))
        if progress:
            progress(len(ch))

    run_boards(_run_boards, config, todo, take, jobs=jobs, backend=backend, address=address,
               largest=10, per_worker=4)
    for b in sorted(results):
        stats.add(b, results[b])
    return stats


def load_stats(path: str) -> TournamentStats:
    """Statistics saved by ``president tournament --save`` (JSON).

    Raises:
        ValueError: the file cannot be read or is not tournament statistics (saying which).
    """
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        raise ValueError(f"cannot read {path}: {e}") from None
    try:
        return TournamentStats.from_dict(data)
    except ValueError as e:
        raise ValueError(f"{path}: {e}") from None
