"""Self-play in a league: a numpy network learns against past snapshots of itself and the
built-in levels, and the snapshots are rated on duplicate deals.

The recipe (after DouZero's Monte-Carlo learning and AlphaStar's league):

- **The learner** is an :class:`~president.env.policy.MLP` (702 inputs, ``hidden`` ReLU
  layers, 66 outputs) read as the expected reward of each action; it takes the legal action
  with the largest output, and a uniformly random legal action with probability
  ``epsilon`` while training.
- **The target** is Monte-Carlo: every decision the learner made in a deal is trained
  towards that deal's final reward, its finishing place on the environments' scale (+1 for
  first, -1 for last, ``1 - 2 (place - 1) / (players - 1)``). The loss is the squared error
  of the chosen action's output, minimised by Adam on batches of ``batch`` decisions.
- **The league**: the learner always sits at one seat of a one-deal table; the other seats
  are all one opponent, drawn from the pool when the table deals again. The pool is the
  levels named in ``ladder`` (through the engine, :class:`~president.players.make_player`),
  the ``play your lowest`` and ``play your highest`` bots, and the snapshots of the learner
  saved so far (the first and the latest ``keep``). An opponent is drawn with weight
  ``(1 - s) ** 2 + 0.05``, ``s`` the learner's recent mean score against it (place reward
  mapped to 0..1): opponents that beat the learner come up more often (prioritised
  fictitious self-play).
- **Snapshots** are saved every ``snapshot_seconds`` as ``.npz`` files
  (:meth:`~president.env.policy.MLP.save`), and at the end a duplicate tournament
  (:func:`president.tournament.run_tournament`) rates up to ``rate_snapshots`` of them
  (the first, the last, and evenly between) against the ``rate_against`` levels; the best
  rated is copied to ``best.npz``.

Tables run in three kinds of group (:class:`~president.env.vector.VectorEnv`): opponents
that choose from the observation vector and mask (snapshots, the lowest and highest bots)
play in compiled tables, all their seats in one batched call each; the levels the compiled
core plays itself (``random``, ``simple``, ``intermediate``:
:data:`~president.env.vector.OPPONENT_LEVELS`) each get their own tables with that level at
every other seat (``VectorEnv(opponents=...)``), so every step is one learner decision per
table; any other level plays in Python tables, where each decision is the level's ``act``
on its seat's :class:`~president.observation.Observation`. An opponent says which kind it
is (:attr:`Opponent.batched`, :attr:`Opponent.compiled`). Each round of the loop steps the
batched tables, the Python tables, and the tables of one compiled level drawn by the
opponents' weights.

``init`` starts the learner from a saved network (``.npz``) instead of random weights.

Run it::

    python -m president.env.league --seconds 2400 --out league-run
    python -m president.env.league --seconds 1200 --init president/players/data/learned.npz \
        --boost intermediate=3 --out league-run

It prints progress, writes ``league-run/snapshot-NNN.npz``, ``league-run/league.json`` (the
summary of :func:`train_league`, ratings included) and ``league-run/best.npz``. numpy only;
one CPU core.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from ..actions import Give
from ..players import Player, make_player, register_policy
from ..rules import Rules
from .encoding import NUM_ACTIONS, OBS_SIZE, PASS_ACTION, play_action
from .policy import MLP
from .vector import OPPONENT_LEVELS, VectorEnv, sample_legal

__all__ = ["LeagueConfig", "Opponent", "train_league", "rate_snapshots", "batch_lowest",
           "batch_highest", "main"]

BatchFn = Callable[[np.ndarray, np.ndarray], np.ndarray]


def batch_lowest(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """"Play your lowest" for many rows: the legal index of each row's smallest index
    (the lowest rank, fewest cards; a pass only when no play is legal). ``(rows, 66)`` int8
    mask -> ``(rows,)`` int64."""
    return np.asarray((np.asarray(mask) > 0).argmax(axis=1), dtype=np.int64)


def batch_highest(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """"Play your highest" for many rows: each row's legal play of the largest index (the
    highest rank, most cards), or its pass when no play is legal."""
    m = np.asarray(mask) > 0
    plays = m[:, :PASS_ACTION]
    last_play = PASS_ACTION - 1 - plays[:, ::-1].argmax(axis=1)
    return np.where(plays.any(axis=1), last_play, PASS_ACTION).astype(np.int64)


@dataclass
class Opponent:
    """One entry of the league's pool.

    Attributes:
        name: shown in logs and ratings (``"intermediate"``, ``"snapshot-003"``).
        act_batch: for a batched opponent, ``(obs (rows, 702), mask (rows, 66)) -> (rows,)``
            action indices; ``None`` for an engine level.
        level: for an engine level, its name for :func:`~president.players.make_player`.
        score: the learner's recent mean score against it (0..1; 0.5 before any game).
        games: deals the learner has finished against it.
        boost: a factor on its drawing weight (1: none).
    """

    name: str
    act_batch: BatchFn | None = None
    level: str | None = None
    score: float = 0.5
    games: int = 0
    boost: float = 1.0

    @property
    def batched(self) -> bool:
        """Whether it plays from the observation vector and mask (the compiled tables)."""
        return self.act_batch is not None

    @property
    def compiled(self) -> bool:
        """Whether it is a level :class:`~president.env.vector.VectorEnv` seats itself
        (``opponents=``; inside the compiled core when it is built)."""
        return self.level in OPPONENT_LEVELS

    def weight(self) -> float:
        """Its drawing weight, ``boost * ((1 - score) ** 2 + 0.05)``."""
        return self.boost * ((1.0 - self.score) ** 2 + 0.05)


@dataclass
class LeagueConfig:
    """What :func:`train_league` does.

    Attributes:
        seconds: training time (wall clock, seconds).
        rules: the tables' rules (a preset name with twists, ``"house"``), one-deal episodes.
        players: seats per table (3..7).
        hidden: the hidden layer sizes.
        ladder: engine levels in the pool (``make_player`` names).
        batched_tables / level_tables: tables in the batched group, and in each level's
            group (each compiled level's own tables, and the Python tables of the others);
            a group with no opponents plays no table.
        boost: ``(name, factor)`` pairs multiplying opponents' drawing weights.
        init: a saved network (``.npz``) to start from (its layer sizes replace ``hidden``),
            or ``None`` for random weights.
        batch: decisions per gradient step. lr: Adam step size. epsilon: exploration rate.
        snapshot_seconds: time between snapshots; keep: the latest snapshots kept in the pool
            (the first stays too).
        rate_snapshots: snapshots rated at the end (0: none); rate_against: levels in that
            tournament; rate_boards: its boards per pair.
        seed: seeds the network, the exploration and the deals.
        out: folder for the snapshots, ``league.json`` and ``best.npz``.
    """

    seconds: float = 60.0
    rules: str = "house"
    players: int = 4
    hidden: tuple[int, ...] = (256, 128)
    ladder: tuple[str, ...] = ("random", "simple", "intermediate")
    batched_tables: int = 128
    level_tables: int = 32
    batch: int = 2048
    lr: float = 3e-4
    epsilon: float = 0.03
    snapshot_seconds: float = 120.0
    keep: int = 6
    rate_snapshots: int = 6
    rate_against: tuple[str, ...] = ("simple", "intermediate")
    rate_boards: int = 25
    seed: int = 0
    out: str = "league-run"
    boost: tuple[tuple[str, float], ...] = ()
    init: str | None = None
    log: Callable[[str], object] | None = field(default=None, repr=False)


class _Adam:
    """Adam over a network's layers, in place."""

    def __init__(self, net: MLP, lr: float) -> None:
        self.net, self.lr, self.t = net, lr, 0
        self.m = [(np.zeros_like(w), np.zeros_like(b)) for w, b in net.layers]
        self.v = [(np.zeros_like(w), np.zeros_like(b)) for w, b in net.layers]

    def step(self, grads: list[tuple[np.ndarray, np.ndarray]]) -> None:
        self.t += 1
        c1, c2 = 1 - 0.9 ** self.t, 1 - 0.999 ** self.t
        for k, (g_w, g_b) in enumerate(grads):
            for j, g in ((0, g_w), (1, g_b)):
                p, m, v = self.net.layers[k][j], self.m[k][j], self.v[k][j]
                m *= 0.9
                m += 0.1 * g
                v *= 0.999
                v += 0.001 * g * g
                p -= self.lr * (m / c1) / (np.sqrt(v / c2) + 1e-8)


def mc_gradients(net: MLP, obs: np.ndarray, actions: np.ndarray, targets: np.ndarray,
                 ) -> tuple[float, list[tuple[np.ndarray, np.ndarray]]]:
    """The mean squared error ``(out[a] - target) ** 2 / 2`` of the chosen actions' outputs,
    and its gradients by layer (``relu`` networks): ``obs`` ``(rows, 702)``, ``actions``
    ``(rows,)`` ints, ``targets`` ``(rows,)``."""
    xs = [obs]
    x = obs
    last = len(net.layers) - 1
    for k, (w, b) in enumerate(net.layers):
        x = x @ w + b
        if k < last:
            x = np.maximum(x, 0.0)
        xs.append(x)
    rows = np.arange(len(obs))
    err = x[rows, actions] - targets
    d = np.zeros_like(x)
    d[rows, actions] = err / len(obs)
    grads: list[tuple[np.ndarray, np.ndarray]] = []
    for k in range(last, -1, -1):
        w, _ = net.layers[k]
        grads.append((xs[k].T @ d, d.sum(axis=0)))
        if k:
            d = (d @ w.T) * (xs[k] > 0)
    grads.reverse()
    return float(0.5 * np.mean(err * err)), grads


class _Group:
    """One group of tables (compiled or Python) with its opponents."""

    def __init__(self, env: VectorEnv, pool: list[Opponent], rng: np.random.Generator,
                 seed: int) -> None:
        self.env, self.pool, self.rng = env, pool, rng
        self.obs, info = env.reset(seed=seed)
        self.mask, self.player = info["action_mask"], info["player"]
        self.opp = [self._draw() for _ in range(env.num_envs)]
        self.bots: list[dict[int, Player]] = [self._bots(i) for i in range(env.num_envs)]
        self.trace: list[list[tuple[np.ndarray, int]]] = [[] for _ in range(env.num_envs)]

    def _draw(self) -> Opponent:
        w = np.array([o.weight() for o in self.pool])
        return self.pool[int(self.rng.choice(len(self.pool), p=w / w.sum()))]

    def _bots(self, i: int) -> dict[int, Player]:
        o = self.opp[i]
        if o.level is None:
            return {}
        return {p: make_player(o.level, seed=int(self.rng.integers(1 << 31)))
                for p in range(1, self.env.players)}

    def step(self, learner: MLP, epsilon: float) -> list[tuple[list[tuple[np.ndarray, int]],
                                                               float]]:
        """One step of every table; returns the learner's finished deals as
        ``(decisions, reward)``."""
        obs, mask, player = self.obs, self.mask, self.player
        n = len(player)
        actions = np.zeros(n, dtype=np.int64)
        mine = np.flatnonzero(player == 0)
        if len(mine):
            chosen = learner.act(obs[mine], mask[mine])
            explore = self.rng.random(len(mine)) < epsilon
            if explore.any():
                chosen[explore] = sample_legal(mask[mine[explore]], self.rng)
            actions[mine] = chosen
            seen = obs[mine].copy()      # the learner's views, kept until its deal ends
            for row, table_index in enumerate(mine.tolist()):
                self.trace[table_index].append((seen[row], int(chosen[row])))
        others = np.flatnonzero(player != 0)
        by_opp: dict[int, list[int]] = {}
        for other in others.tolist():
            by_opp.setdefault(id(self.opp[other]), []).append(other)
        for rows in by_opp.values():
            o = self.opp[rows[0]]
            if o.act_batch is not None:
                actions[rows] = o.act_batch(obs[rows], mask[rows])
                continue
            for i in rows:
                table = self.env.tables[i]
                assert table.match is not None
                p = int(player[i])
                action = self.bots[i][p].act(table.match.observation(table.seat_of[p]))
                assert not isinstance(action, Give)      # one-deal tables have no exchange
                actions[i] = play_action(action)
        self.obs, rewards, term, trunc, info = self.env.step(actions)
        self.mask, self.player = info["action_mask"], info["player"]
        done = []
        for i in np.flatnonzero(term | trunc).tolist():
            reward = float(rewards[i, 0])
            done.append((self.trace[i], reward))
            self.trace[i] = []
            o = self.opp[i]
            o.games += 1
            o.score += 0.02 * ((reward + 1.0) / 2.0 - o.score)
            self.opp[i] = self._draw()
            self.bots[i] = self._bots(i)
        return done


class _LevelTables:
    """The tables of one compiled level: the learner at seat 0, the level at every other
    seat, played by :class:`~president.env.vector.VectorEnv` itself; every step is one
    learner decision per table."""

    def __init__(self, opponent: Opponent, rules: Rules, tables: int,
                 rng: np.random.Generator, seed: int) -> None:
        assert opponent.level is not None
        self.opponent, self.rng = opponent, rng
        self.pool = [opponent]
        self.env = VectorEnv(tables, rules=rules,
                             opponents=[None] + [opponent.level] * (rules.players - 1))
        self.obs, info = self.env.reset(seed=seed)
        self.mask = info["action_mask"]
        self.trace: list[list[tuple[np.ndarray, int]]] = [[] for _ in range(tables)]

    def step(self, learner: MLP, epsilon: float) -> list[tuple[list[tuple[np.ndarray, int]],
                                                               float]]:
        """One learner decision at every table; returns the finished deals as
        ``(decisions, reward)``."""
        chosen = learner.act(self.obs, self.mask)
        explore = self.rng.random(len(chosen)) < epsilon
        if explore.any():
            chosen[explore] = sample_legal(self.mask[explore], self.rng)
        seen = self.obs.copy()       # the learner's views, kept until its deal ends
        for i, row in enumerate(seen):
            self.trace[i].append((row, int(chosen[i])))
        self.obs, rewards, term, trunc, info = self.env.step(chosen)
        self.mask = info["action_mask"]
        done = []
        o = self.opponent
        for i in np.flatnonzero(term | trunc).tolist():
            reward = float(rewards[i, 0])
            done.append((self.trace[i], reward))
            self.trace[i] = []
            o.games += 1
            o.score += 0.02 * ((reward + 1.0) / 2.0 - o.score)
        return done


def train_league(config: LeagueConfig) -> dict[str, Any]:
    """Run the league of the module docstring for ``config.seconds``.

    Returns:
        a summary dict: ``snapshots`` (paths, in order), ``deals`` and ``decisions`` trained
        on, ``updates``, ``pool`` (per opponent the learner's last score and deals),
        ``curve`` (per snapshot: seconds, deals, mean reward of the last 1000 deals, loss),
        ``ratings`` (the tournament summary, or ``None``) and ``best`` (its path, or
        ``None``). The same dict is written to ``out/league.json``.

    Raises:
        ValueError: bad rules or players, an unknown level in ``ladder`` or
            ``rate_against``, ``seconds`` or ``batch`` not positive, an ``init`` network
            that is not a 702-input, 66-output file, a ``boost`` not positive.
    """
    c = config
    if not c.seconds > 0 or c.batch < 1:
        raise ValueError(f"seconds = {c.seconds!r} and batch = {c.batch!r} must be positive")
    for level in (*c.ladder, *c.rate_against):
        make_player(level, seed=0)      # an unknown level fails here, saying which exist
    os.makedirs(c.out, exist_ok=True)
    say = c.log or (lambda text: None)
    rules = Rules.parse(c.rules, players=c.players)
    boosts = dict(c.boost)
    for name, factor in boosts.items():
        if not factor > 0:
            raise ValueError(f"boost {name}={factor!r}: give a factor above 0, e.g. 3")
    rng = np.random.default_rng(c.seed)
    if c.init is not None:
        net = MLP.load(c.init)
        if net.sizes[0] != OBS_SIZE or net.sizes[-1] != NUM_ACTIONS:
            raise ValueError(f"init {c.init!r} has layer sizes {net.sizes}; give a network of "
                             f"{OBS_SIZE} inputs and {NUM_ACTIONS} outputs")
        net.layers = [(w.astype(np.float32), b.astype(np.float32)) for w, b in net.layers]
        net.exchange = "simple"
    else:
        net = MLP.random(c.hidden, seed=c.seed, exchange="simple")
    net.trained = {"recipe": "president.env.league", "rules": rules.name,
                   "players": rules.players, "seed": c.seed, "init": c.init}
    adam = _Adam(net, c.lr)
    fixed = [Opponent("lowest", batch_lowest), Opponent("highest", batch_highest)]
    batched_pool = [*fixed]
    level_pool: list[Opponent] = []
    compiled_pool: list[Opponent] = []
    for level in c.ladder:
        entry = Opponent(level, level=level)
        (compiled_pool if entry.compiled else level_pool).append(entry)
    for o in fixed + level_pool + compiled_pool:
        o.boost = boosts.get(o.name, 1.0)
    snapshots: list[Opponent] = []
    groups: list[_Group | _LevelTables] = []
    if c.batched_tables:
        groups.append(_Group(VectorEnv(c.batched_tables, rules=rules), batched_pool, rng,
                             c.seed * 7919))
    if c.level_tables and level_pool:
        groups.append(_Group(VectorEnv(c.level_tables, rules=rules, backend="python"),
                             level_pool, rng, c.seed * 7919 + 100_000))
    compiled_groups = [_LevelTables(o, rules, c.level_tables, rng,
                                    c.seed * 7919 + 200_000 * (k + 1))
                       for k, o in enumerate(compiled_pool)] if c.level_tables else []
    groups.extend(compiled_groups)
    steady = [g for g in groups if not isinstance(g, _LevelTables)]
    obs_buf: list[np.ndarray] = []
    act_buf: list[int] = []
    tgt_buf: list[float] = []
    recent: list[float] = []
    deals = decisions = updates = 0
    loss = float("nan")
    paths: list[str] = []
    curve: list[dict[str, float]] = []
    start = time.perf_counter()
    next_snap = c.snapshot_seconds

    def snapshot(elapsed: float) -> None:
        k = len(paths)
        path = os.path.join(c.out, f"snapshot-{k:03d}.npz")
        net.trained.update(deals=deals, decisions=decisions, seconds=round(elapsed, 1))
        net.save(path)
        paths.append(path)
        frozen = MLP.load(path)
        snapshots.append(Opponent(f"snapshot-{k:03d}", frozen.act))
        # the pool: the fixed bots, the first snapshot and the latest `keep`
        keep = snapshots[:1] + snapshots[1:][-c.keep:]
        batched_pool[:] = [o for o in batched_pool if not o.name.startswith("snapshot-")]
        batched_pool.extend(keep)
        mean = float(np.mean(recent[-1000:])) if recent else 0.0
        curve.append({"seconds": round(elapsed, 1), "deals": deals, "reward": round(mean, 4),
                      "loss": round(loss, 5)})
        scores = ", ".join(f"{o.name} {o.score:.2f}" for g in groups for o in g.pool if o.games)
        say(f"{elapsed:7.1f} s  {deals:8d} deals  reward of the last 1000 {mean:+.3f}  loss "
            f"{loss:.4f}  -> {path}\n          scores: {scores}")

    while True:
        elapsed = time.perf_counter() - start
        if elapsed >= c.seconds:
            break
        if elapsed >= next_snap:
            snapshot(elapsed)
            next_snap += c.snapshot_seconds
        stepped: list[_Group | _LevelTables] = list(steady)
        if compiled_groups:      # one compiled level per round, drawn by weight
            w = np.array([g.opponent.weight() for g in compiled_groups])
            stepped.append(compiled_groups[int(rng.choice(len(w), p=w / w.sum()))])
        for g in stepped:
            for steps, reward in g.step(net, c.epsilon):
                deals += 1
                recent.append(reward)
                for seen, a in steps:
                    obs_buf.append(seen)
                    act_buf.append(a)
                    tgt_buf.append(reward)
        if len(recent) > 5000:
            del recent[:-1000]
        if len(act_buf) >= c.batch:
            x = np.stack(obs_buf)
            loss, grads = mc_gradients(net, x, np.array(act_buf), np.array(tgt_buf,
                                                                            dtype=np.float32))
            adam.step(grads)
            updates += 1
            decisions += len(act_buf)
            obs_buf, act_buf, tgt_buf = [], [], []
    snapshot(time.perf_counter() - start)
    ratings = rate_snapshots(paths, count=c.rate_snapshots, against=c.rate_against,
                             rules=rules, boards=c.rate_boards, seed=c.seed,
                             log=say) if c.rate_snapshots else None
    best = None
    if ratings is not None:
        names = {f"snapshot-{k:03d}": p for k, p in enumerate(paths)}
        for r in ratings["ratings"]:             # best first
            if r["bot"] in names:
                best = os.path.join(c.out, "best.npz")
                shutil.copyfile(names[r["bot"]], best)
                say(f"best: {r['bot']} ({r['places_ahead']['mean']:+.3f} places ahead of the "
                    f"field) -> {best}")
                break
    summary = {"snapshots": paths, "deals": deals, "decisions": decisions, "updates": updates,
               "pool": {o.name: {"score": round(o.score, 4), "deals": o.games}
                        for g in groups for o in g.pool},
               "curve": curve, "ratings": ratings, "best": best,
               "config": {k: v for k, v in vars(c).items() if k != "log"}}
    with open(os.path.join(c.out, "league.json"), "w") as f:
        json.dump(summary, f, indent=1, default=list)
    return summary


def rate_snapshots(paths: Sequence[str], *, count: int = 6,
                   against: Sequence[str] = ("simple", "intermediate"),
                   rules: Rules | None = None, boards: int = 25, seed: int = 0,
                   log: Callable[[str], object] | None = None) -> dict[str, Any]:
    """Rate up to ``count`` of the snapshot files ``paths`` (the first, the last and evenly
    between) with the levels ``against`` in a duplicate round robin
    (:func:`president.tournament.run_tournament`, ``boards`` per pair). Each snapshot plays
    as the level ``snapshot-NNN`` (its index in ``paths``; registered in this process).

    Returns:
        the tournament's summary (:meth:`~president.tournament.TournamentStats.summary`):
        ``ratings`` best first, each with ``places_ahead`` of the field and its 95% interval.

    Raises:
        ValueError: no paths, a file that does not load, fewer than two bots in all.
    """
    from ..tournament import TournamentConfig, run_tournament
    if not paths:
        raise ValueError("no snapshots to rate")
    picks = sorted({round(i * (len(paths) - 1) / max(count - 1, 1))
                    for i in range(min(count, len(paths)))})
    names = [register_policy(f"snapshot-{k:03d}", paths[k]) for k in picks]
    table = rules or Rules.parse("house", players=4)
    config = TournamentConfig(rules=table, bots=tuple(names) + tuple(against), boards=boards,
                              seed=seed)
    summary = run_tournament(config).summary()
    if log:
        for r in summary["ratings"]:
            a = r["places_ahead"]
            low = "?" if a["low"] is None else f"{a['low']:+.3f}"
            high = "?" if a["high"] is None else f"{a['high']:+.3f}"
            log(f"  {r['bot']:14s} {a['mean']:+.3f} [{low}, {high}] places ahead of the field")
    return summary


def main(argv: list[str] | None = None) -> int:
    """``python -m president.env.league``: train, rate, report (see the module docstring)."""
    d = LeagueConfig()
    p = argparse.ArgumentParser(prog="python -m president.env.league",
                                description="Train a numpy network by self-play in a league "
                                "and rate its snapshots on duplicate deals.")
    p.add_argument("--seconds", type=float, default=d.seconds, help="training time")
    p.add_argument("--out", default=d.out, help="folder for snapshots and ratings")
    p.add_argument("--rules", default=d.rules, help="preset (and +twists) of the tables")
    p.add_argument("--players", type=int, default=d.players)
    p.add_argument("--hidden", default=",".join(map(str, d.hidden)),
                   help="hidden layer sizes, comma separated")
    p.add_argument("--ladder", default=",".join(d.ladder), help="levels in the pool")
    p.add_argument("--batched-tables", type=int, default=d.batched_tables)
    p.add_argument("--level-tables", type=int, default=d.level_tables)
    p.add_argument("--batch", type=int, default=d.batch)
    p.add_argument("--lr", type=float, default=d.lr)
    p.add_argument("--epsilon", type=float, default=d.epsilon)
    p.add_argument("--snapshot-seconds", type=float, default=d.snapshot_seconds)
    p.add_argument("--keep", type=int, default=d.keep)
    p.add_argument("--rate-snapshots", type=int, default=d.rate_snapshots)
    p.add_argument("--rate-against", default=",".join(d.rate_against))
    p.add_argument("--rate-boards", type=int, default=d.rate_boards)
    p.add_argument("--seed", type=int, default=d.seed)
    p.add_argument("--init", default=None,
                   help="a saved network (.npz) to start from instead of random weights")
    p.add_argument("--boost", default="",
                   help="drawing-weight factors, e.g. intermediate=3,simple=1.5")
    a = p.parse_args(argv)

    def names(text: str) -> tuple[str, ...]:
        return tuple(w.strip() for w in text.split(",") if w.strip())
    try:
        hidden = tuple(int(h) for h in names(a.hidden))
    except ValueError:
        p.error(f"--hidden {a.hidden!r}: give whole numbers separated by commas, e.g. 256,128")
    boost: list[tuple[str, float]] = []
    for item in names(a.boost):
        name, _, factor = item.partition("=")
        try:
            boost.append((name.strip(), float(factor)))
        except ValueError:
            p.error(f"--boost {item!r}: give name=factor pairs separated by commas, e.g. "
                    "intermediate=3")
    config = LeagueConfig(seconds=a.seconds, rules=a.rules, players=a.players, hidden=hidden,
                          ladder=names(a.ladder), batched_tables=a.batched_tables,
                          level_tables=a.level_tables, batch=a.batch, lr=a.lr,
                          epsilon=a.epsilon, snapshot_seconds=a.snapshot_seconds, keep=a.keep,
                          rate_snapshots=a.rate_snapshots, rate_against=names(a.rate_against),
                          rate_boards=a.rate_boards, seed=a.seed, out=a.out,
                          boost=tuple(boost), init=a.init,
                          log=lambda text: print(text, flush=True))
    try:
        summary = train_league(config)
    except ValueError as e:
        print(f"python -m president.env.league: {e}", file=sys.stderr)
        return 2
    print(f"{summary['deals']} deals, {summary['decisions']} decisions, {summary['updates']} "
          f"updates; {len(summary['snapshots'])} snapshots in {a.out}; best: {summary['best']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
