"""Computer levels against each other: duplicate deals with seat rotation, and statistics.

A *board* is one set of dealt cards (or, with ``matches=True``, one match seed). Every board
is played once per rotation of the seat assignment, so each seat's level moves one seat
clockwise per rotation and every level sits in every seat on the same cards (duplicate
play). Statistics treat the board as the unit: a level's figure per board is its mean over
the rotations (and the deals of a match), and the 95% confidence interval is
``mean ± 1.96 · sd / √boards`` over boards. Luck of the cards cancels within a board.

Figures per level: mean finishing place (1 = President), points per deal (``scoring`` of
the rules; 0 without scoring), chance of first place and of last place. For every pair of
levels at the table, the difference of their mean places (how many places the stronger is
ahead) with its interval (the stronger of a pair is the one measured ahead: the lower
mean place, whatever the order of the levels), and per level the *gain*: ``(players + 1) / 2`` minus its mean
place, i.e. places ahead of an even table.

This module is not part of the rules core: it drives :class:`~president.match.Match` with
players that each receive only their own seat's observation.
"""

from __future__ import annotations

import json
import math
import os
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from .deal import deal_hands
from .errors import IllegalAction
from .match import Match
from .parallel import run_boards
from .players import (LEVELS, Player, is_import_path, level_choices, level_class, load_class,
                      make_player)
from .rules import MatchEnd, Rules

__all__ = ["SimulationConfig", "simulate", "play_board", "interval", "seed_for", "run_key",
           "BoardStore"]


def seed_for(*parts: object) -> int:
    """A 63-bit seed derived from ``parts`` (stable across runs and processes)."""
    return random.Random("/".join(map(str, parts))).getrandbits(63)


@dataclass(frozen=True)
class SimulationConfig:
    """What to simulate.

    Attributes:
        rules: table rules (``rules.players`` seats).
        seats: a level name per seat, e.g. ``("expert", "intermediate", "intermediate",
            "intermediate")``, or your own bot's import path ``"package.module:ClassName"``
            (a class with ``act(observation)`` built as ``ClassName(seed=...)``; each worker
            process imports it by that path, so it works under every multiprocessing start
            method as long as the module is importable there).
        boards: number of boards (dealt cards, or match seeds with ``matches``).
        seed: master seed; board ``i`` and every player's seed derive from it.
        matches: play whole matches (with exchanges) instead of single deals.
        max_deals: with ``matches``, stop a match after this many deals (a match under
            ``match_end = never`` would not end).
        player_options: keyword arguments per level (or import path) for the player's
            constructor (e.g. ``{"expert": {"playouts": 200}}``).

    Raises:
        ValueError: on a wrong number of seats, an unknown level, an import path that does
            not load (saying why), or a count below 1.
    """

    rules: Rules
    seats: tuple[str, ...]
    boards: int
    seed: int = 0
    matches: bool = False
    max_deals: int = 30
    player_options: dict[str, dict[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        n = self.rules.players
        if len(self.seats) != n:
            raise ValueError(f"{len(self.seats)} seat level(s) given for a table of {n}; "
                             f"give exactly {n}, e.g. {','.join(['intermediate'] * n)}")
        for level in self.seats:
            if level in LEVELS:
                continue
            if is_import_path(level):
                load_class(level)  # raises ValueError saying why it does not load
                continue
            raise ValueError(f"no computer level {level!r}; levels are: {level_choices()}")
        if self.boards < 1:
            raise ValueError(f"boards = {self.boards} must be at least 1")
        if self.max_deals < 1:
            raise ValueError(f"max_deals = {self.max_deals} must be at least 1")


def run_key(config: SimulationConfig) -> str:
    """What a board's result depends on, as one line of JSON: the rules (every option), the
    seats, the seed, ``matches`` (and ``max_deals`` with it) and the ``player_options`` of
    the levels seated; not ``boards``, so a stored run can be extended to more boards. Two
    configurations with the same key play every board alike (bar players with a time limit,
    whose choices depend on the machine's speed). The key does not name the version of the
    code: start a new :class:`BoardStore` file when the players change."""
    options = {lv: o for lv, o in config.player_options.items() if lv in config.seats}
    return json.dumps({"rules": config.rules.to_dict(), "seats": list(config.seats),
                       "seed": config.seed, "matches": config.matches,
                       "max_deals": config.max_deals if config.matches else None,
                       "player_options": options},
                      sort_keys=True, default=repr)


_STORED_PREFIX = '{"key": '     # how every line BoardStore writes begins


def _result_problem(config: SimulationConfig, result: Any) -> str | None:
    """What keeps ``result`` from being a :func:`play_board` result of ``config``, if
    anything (a stored line edited or written by something else)."""
    if not isinstance(result, dict) or not {"rows", "matches", "stats"} <= result.keys():
        return "it lacks rows, matches or stats"
    n, seats = config.rules.players, set(config.seats)
    rows, matches, stats = result["rows"], result["matches"], result["stats"]
    if not isinstance(rows, list) or not rows or len(rows) % n:
        return f"its rows are not a whole number of deals of {n} seats"
    for row in rows:
        if not (isinstance(row, list) and len(row) == 5 and row[0] in seats
                and type(row[1]) is int and 1 <= row[1] <= n and type(row[2]) is int
                and type(row[3]) is bool and type(row[4]) is bool):
            return f"row {row!r} is not [level seated, place 1-{n}, points, first, last]"
    # a deal's rows are its finishing places in order, one a seat
    for start in range(0, len(rows), n):
        deal = rows[start:start + n]
        if ([r[1] for r in deal] != list(range(1, n + 1))
                or any(r[3] != (r[1] == 1) or r[4] != (r[1] == n) for r in deal)
                or sorted(r[0] for r in deal) != sorted(config.seats)):
            return (f"deal {start // n + 1} is not places 1 to {n} in order, one a seat "
                    "(first and last marked)")
    if not isinstance(matches, list) or not all(
            isinstance(m, list) and len(m) == 2 and m[0] in seats and type(m[1]) is bool
            for m in matches):
        return "its matches are not [level seated, won] pairs"
    if not isinstance(stats, dict) or not all(
            lv in seats and isinstance(st, dict) and all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in st.values())
            for lv, st in stats.items()):
        return "its stats are not numbers by level seated"
    return None


class BoardStore:
    """Per-board results (:func:`play_board`) kept in a file as JSON lines, one
    ``{"key": run_key(config), "board": b, "result": {...}}`` a board, so that a long run can
    stop, or be killed, and resume: :meth:`load` gives what is stored for a configuration,
    and :meth:`add` appends one board and flushes it to the operating system before
    returning (so killing the process loses nothing stored). A file may hold several runs
    (different keys). Used by ``president simulate --store`` and
    ``benchmarks/bench_players.py --ladder --store``.

    Args:
        path: the file (created by the first :meth:`add`; a missing file stores nothing).

    Attributes:
        others: after :meth:`load`, how many stored boards belong to other runs (keys).
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        self.others = 0
        self._keyed: tuple[SimulationConfig, str] | None = None   # run_key's last answer

    def _key(self, config: SimulationConfig) -> str:
        if self._keyed is None or self._keyed[0] is not config:
            self._keyed = (config, run_key(config))
        return self._keyed[1]

    def load(self, config: SimulationConfig) -> dict[int, dict[str, Any]]:
        """The stored results of ``config``'s run (:func:`run_key`): ``{board: result}``,
        every board number below ``config.boards`` or not. A line cut short (the process was
        killed while writing it; the next :meth:`add` starts a new line after it) is
        ignored, and its board is played again.

        Raises:
            ValueError: a line that is not a stored board, or a stored board of this run
                whose result is not a :func:`play_board` result (the message names the file
                and the line).
            OSError: the file exists but cannot be read.
        """
        key = self._key(config)
        try:
            with open(self.path, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            return {}
        lines = data.split(b"\n")
        found: dict[int, dict[str, Any]] = {}
        self.others = 0
        for number, raw in enumerate(lines, 1):
            if not raw.strip():
                continue
            where = f"{self.path} line {number}"
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                line, rec = "", None       # not text: not ours
            else:
                try:
                    rec = json.loads(line)
                except (ValueError, RecursionError):
                    if line.startswith(_STORED_PREFIX) or _STORED_PREFIX.startswith(line):
                        continue      # a write cut short: its board is played again
                    rec = None
            if not (isinstance(rec, dict) and isinstance(rec.get("key"), str)
                    and type(rec.get("board")) is int and rec["board"] >= 0 and "result" in rec):
                raise ValueError(f"{where} is not a stored board result; give a file "
                                 "written by --store, or a new file name")
            if rec["key"] != key:
                self.others += 1
                continue
            problem = _result_problem(config, rec["result"])
            if problem:
                raise ValueError(f"{where} holds board {rec['board']} of this run, but {problem}; "
                                 "delete that line to play the board again")
            found[rec["board"]] = rec["result"]
        return found

    def add(self, config: SimulationConfig, board: int, result: dict[str, Any]) -> None:
        """Append board ``board``'s ``result`` for ``config``'s run and flush it.

        Raises:
            OSError: the file cannot be written.
        """
        line = json.dumps({"key": self._key(config), "board": board, "result": result}) + "\n"
        with open(self.path, "a+b") as f:
            if f.tell() > 0:
                f.seek(-1, os.SEEK_END)
                if f.read(1) != b"\n":     # after a line cut short, start a new one
                    line = "\n" + line
            f.write(line.encode("utf-8"))


def _make(level: str, seed: int, options: dict[str, dict[str, Any]]) -> Player:
    opts = options.get(level)
    if not opts:
        return make_player(level, seed=seed, imports=True)
    if is_import_path(level):
        player: Player = load_class(level)(seed=seed, **opts)
        return player
    player = level_class(level)(seed=seed, **opts)
    return player


def play_board(config: SimulationConfig, board: int) -> dict[str, Any]:
    """Play board ``board`` in every rotation. Returns ``{"rows": [(level, place, points,
    first, last), ...], "matches": [(level, won), ...], "stats": {level: {...}}}``.

    Each player gets only ``match.observation(seat)`` for its own seat.
    """
    rules = config.rules
    n = rules.players
    board_seed = seed_for(config.seed, "board", board)
    rows: list[tuple[str, int, int, bool, bool]] = []
    match_rows: list[tuple[str, bool]] = []
    stats: dict[str, dict[str, float]] = {}
    for rot in range(n):
        # player index p is played by level seats[(p - rot) % n]
        levels = [config.seats[(p - rot) % n] for p in range(n)]
        players = [_make(levels[p], seed_for(config.seed, board, rot, p), config.player_options)
                   for p in range(n)]
        if config.matches:
            match = Match(rules, seed=board_seed, record_events=False)
        else:
            single = rules if rules.match_end == "single-deal" else _single_deal(rules)
            match = Match(single, hands=deal_hands(n, n - 1, board_seed), record_events=False)
        deals = 0
        while True:
            while match.to_act is not None:
                seat = match.to_act
                p = match.seating[seat]
                choice = players[p].act(match.observation(seat))
                try:
                    match.act(seat, choice)
                except IllegalAction as e:   # a bot of one's own that breaks the rules
                    raise ValueError(f"the computer player {levels[p]!r} chose an action the "
                                     f"rules refuse ({choice!r}): {e}; a player must return "
                                     "one of observation.legal_actions") from e
            result = match.results[-1]
            pts = result.points
            for place, p in enumerate(result.finish_order):
                rows.append((levels[p], place + 1, pts[p], place == 0, place == n - 1))
            deals += 1
            if match.phase == "match-over" or not config.matches or deals >= config.max_deals:
                break
            match.start_next_deal()
        if config.matches and (match.phase == "match-over" or rules.scoring is not None):
            # a match cut short by max_deals is won by the highest total (ties share it);
            # without scoring such a match has no winner and is left out
            top = max(match.scores)
            for p in range(n):
                won = (p in match.winners) if match.phase == "match-over" else match.scores[p] == top
                match_rows.append((levels[p], won))
        for p, player in enumerate(players):
            st = getattr(player, "stats", None)
            if st:
                agg = stats.setdefault(levels[p], {})
                for k, v in st.items():
                    agg[k] = max(agg.get(k, 0), v) if k.startswith("max") else agg.get(k, 0) + v
    return {"rows": rows, "matches": match_rows, "stats": stats}


def _single_deal(rules: Rules) -> Rules:
    from dataclasses import replace
    return replace(rules, match_end=MatchEnd("single-deal"))


def _run_boards(config: SimulationConfig, boards: Sequence[int]) -> list[dict[str, Any]]:
    return [play_board(config, b) for b in boards]


#: The ways to run the boards: in this process or a local process pool, or as Ray tasks.
def interval(values: Sequence[float]) -> dict[str, Any]:
    """Mean and 95% confidence interval (normal approximation over independent units):
    ``{"mean", "low", "high", "n"}``. With fewer than 2 values ``low`` and ``high`` are
    ``None`` (no interval), and with none ``mean`` is ``None`` too."""
    n = len(values)
    if n < 2:  # no spread to measure: no interval (``None``, JSON null), not NaN
        return {"mean": math.fsum(values) / n if n else None, "low": None, "high": None, "n": n}
    # fsum: exactly rounded, so the figures do not depend on the order of the boards (a
    # resumed run adds its stored boards first)
    mean = math.fsum(values) / n
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    return {"mean": mean, "low": mean - half, "high": mean + half, "n": n}


def simulate(config: SimulationConfig, *, jobs: int = 1,
             progress: Callable[[int], None] | None = None,
             boards: Sequence[int] | None = None, done: Sequence[dict[str, Any]] = (),
             on_result: Callable[[int, dict[str, Any]], None] | None = None,
             backend: str = "local", address: str | None = None) -> dict[str, Any]:
    """Play ``config.boards`` boards in every rotation and return the statistics as a
    JSON-ready dict (see the module docstring). ``jobs`` > 1 spreads boards over that many
    processes; results do not depend on ``jobs``. ``progress(k)`` is called as ``k`` more
    boards finish.

    ``backend="ray"`` plays the boards as Ray tasks instead (:mod:`president.distributed`,
    extra ``ray``): on the cluster at ``address``, or on a Ray started on this machine
    (``address=None``), or on the Ray this process already initialised; ``jobs`` is then
    not used (the cluster's CPUs are). The statistics are exactly the local ones for the
    same seed.

    To resume a long run: ``boards`` lists the board numbers still to play, ``done`` the
    :func:`play_board` results already at hand (included in the statistics), and
    ``on_result(board, result)`` is called as each board finishes (e.g. to store it); with
    ``on_result`` a pool or Ray hands each board back on its own as it finishes, not in
    chunks, so nothing finished waits unstored.

    Raises:
        ValueError: if ``jobs`` < 1, ``backend`` is not ``local`` or ``ray``, or an
            ``address`` is given to the local backend.
        ModuleNotFoundError: ``backend="ray"`` and ray is not installed.
    """
    if jobs < 1:
        raise ValueError(f"jobs = {jobs} must be at least 1")
    started = time.perf_counter()
    todo = list(range(config.boards)) if boards is None else list(boards)
    results: dict[int, dict[str, Any]] = {}

    def take(ch: Sequence[int], res: list[dict[str, Any]]) -> None:
        for b, r in zip(ch, res):
            results[b] = r
            if on_result:
                on_result(b, r)
        if progress:
            progress(len(ch))

    # with a store, chunks of one board: each is stored as soon as it finishes
    run_boards(_run_boards, config, todo, take, jobs=jobs, backend=backend, address=address,
               largest=1 if on_result else 25, per_worker=8)
    summary = summarise(config, list(done) + [results[b] for b in sorted(results)])
    summary["seconds"] = time.perf_counter() - started
    return summary


def summarise(config: SimulationConfig, results: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Statistics of per-board results from :func:`play_board` (see the module docstring)."""
    results = list(results)
    n = config.rules.players
    levels = list(dict.fromkeys(config.seats))
    per: dict[str, dict[str, list[float]]] = {
        lv: {"place": [], "points": [], "first": [], "last": [], "won": []} for lv in levels}
    stats: dict[str, dict[str, float]] = {}
    deals = 0
    for res in results:
        acc: dict[str, list[list[float]]] = {lv: [[], [], [], []] for lv in levels}
        for level, place, pts, first, last in res["rows"]:
            a = acc[level]
            a[0].append(place)
            a[1].append(pts)
            a[2].append(1.0 if first else 0.0)
            a[3].append(1.0 if last else 0.0)
        deals += len(res["rows"]) // n
        for lv in levels:
            a = acc[lv]
            for key, vals in zip(("place", "points", "first", "last"), a):
                per[lv][key].append(sum(vals) / len(vals))
        if res["matches"]:
            won: dict[str, list[float]] = {lv: [] for lv in levels}
            for level, w in res["matches"]:
                won[level].append(1.0 if w else 0.0)
            for lv in levels:
                per[lv]["won"].append(sum(won[lv]) / len(won[lv]))
        for lv, st in res["stats"].items():
            agg = stats.setdefault(lv, {})
            for k, v in st.items():
                agg[k] = max(agg.get(k, 0), v) if k.startswith("max") else agg.get(k, 0) + v
    even = (n + 1) / 2
    out_levels = {}
    for lv in levels:
        d = per[lv]
        entry = {
            "seats": config.seats.count(lv),
            "mean_place": interval(d["place"]),
            "gain": interval([even - v for v in d["place"]]),
            "points_per_deal": (interval(d["points"]) if config.rules.scoring
                                else {**interval([]), "n": len(d["points"])}),
            "first": interval(d["first"]),
            "last": interval(d["last"]),
        }
        if d["won"]:
            entry["match_won"] = interval(d["won"])
        if lv in stats:
            entry["search"] = _search_stats(stats[lv])
        out_levels[lv] = entry
    comparisons = []
    for i, lv_a in enumerate(levels):
        for lv_b in levels[i + 1:]:
            # the stronger is the one measured ahead: the lower mean place (a tie keeps
            # the order of the seats)
            mean_a = math.fsum(per[lv_a]["place"]) / len(per[lv_a]["place"])
            mean_b = math.fsum(per[lv_b]["place"]) / len(per[lv_b]["place"])
            strong, weak = (lv_b, lv_a) if mean_b < mean_a else (lv_a, lv_b)
            diff = [w - s for s, w in zip(per[strong]["place"], per[weak]["place"])]
            comparisons.append({"stronger": strong, "weaker": weak, "places_ahead": interval(diff)})
    return {
        "rules": config.rules.name,
        "players": n,
        "seats": list(config.seats),
        "boards": len(results),
        "rotations": n,
        "deals": deals,
        "matches": config.matches,
        "scored": bool(config.rules.scoring),
        "seed": config.seed,
        "levels": out_levels,
        "comparisons": comparisons,
    }


def _search_stats(st: dict[str, float]) -> dict[str, float]:
    out = dict(st)
    searched = st.get("searched", 0)
    if searched:
        out["mean_seconds_per_search"] = st.get("seconds", 0.0) / searched
        out["mean_cpu_seconds_per_search"] = st.get("cpu_seconds", 0.0) / searched
        out["mean_playouts_per_search"] = st.get("playouts", 0) / searched
        if "effective_worlds" in st:
            out["mean_effective_worlds_per_search"] = st["effective_worlds"] / searched
    if st.get("cpu_seconds"):
        out["playouts_per_cpu_second"] = st.get("playouts", 0) / st["cpu_seconds"]
    return out
