#!/usr/bin/env python3
"""CPU time per decision of a policy level (default ``learned``), in milliseconds of this
process's CPU (``time.process_time``), over the decisions of whole deals it plays at one seat
of a ``house`` 4-player table against three ``intermediate`` players. Each decision is the
whole of ``act``: the observation vector, the mask, the network and the play.

    .venv/bin/python benchmarks/bench_learned.py --deals 200
"""

from __future__ import annotations

import argparse
import time

from president import Match, Rules
from president.players import make_player


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--level", default="learned")
    p.add_argument("--deals", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    rules = Rules.preset("house")
    bot = make_player(a.level, seed=0, imports=True)
    others = make_player("intermediate", seed=1)
    times: list[float] = []
    for d in range(a.deals):
        m = Match(rules, seed=a.seed + d)
        seat = d % rules.players
        while m.to_act is not None:
            s = m.to_act
            obs = m.observation(s)
            if s == seat:
                t = time.process_time()
                action = bot.act(obs)
                times.append(time.process_time() - t)
            else:
                action = others.act(obs)
            m.act(s, action)
    times.sort()
    ms = [t * 1000 for t in times]
    print(f"{a.level}: {len(ms)} decisions over {a.deals} deals; CPU per decision "
          f"mean {sum(ms) / len(ms):.3f} ms, median {ms[len(ms) // 2]:.3f} ms, "
          f"99th percentile {ms[int(len(ms) * 0.99)]:.3f} ms, slowest {ms[-1]:.3f} ms")


if __name__ == "__main__":
    main()
