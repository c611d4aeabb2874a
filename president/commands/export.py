"""``president export``: decisions as training data (NPZ) from game records or self-play.

    president export --levels intermediate,simple,simple,simple --deals 1000 --out selfplay.npz
    president export --record game1.json game2.json --out games.npz

Each row is one decision: the acting seat's observation (702 float32), its action mask (66
int8), the action index, the deal's reward on the player's last row, the seat and player.
Needs the ``env`` extra (numpy). See :mod:`president.env.trajectories` and docs/env.md.
"""

from __future__ import annotations

import argparse
import sys

HELP = "Export decisions (observation, mask, action, reward, seat) from records or self-play to NPZ."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--record", nargs="+", metavar="FILE",
                        help="game records (JSON, docs/records.md) to export")
    source.add_argument("--levels", metavar="LEVEL,LEVEL,...",
                        help="self-play: a level or package.module:ClassName per player")
    parser.add_argument("--out", required=True, metavar="FILE.npz", help="the NPZ file to write")
    parser.add_argument("--rules", default="house", metavar="PRESET[+TWIST...][/OPTION=VALUE...]",
                        help="self-play rules (default: house); the table size is the number "
                             "of --levels")
    parser.add_argument("--deals", type=int, default=100, metavar="N",
                        help="self-play deals (default 100)")
    parser.add_argument("--matches", action="store_true",
                        help="self-play whole matches (with exchanges) instead of single deals")
    parser.add_argument("--max-deals", type=int, default=20, metavar="N",
                        help="with --matches, deals per match at most (default 20)")
    parser.add_argument("--seed", type=int, default=0, help="self-play seed (default 0)")
    parser.add_argument("--reward", choices=("place", "points"), default="place",
                        help="the reward of a deal (default: place)")


def _fail(message: str) -> int:
    print(f"president export: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    try:
        import numpy  # noqa: F401
    except ImportError:
        return _fail("needs numpy: pip install 'president-game[env]'")
    from ..errors import PresidentError
    from ..rules import Rules
    from ..env.trajectories import concatenate, from_record, save_npz, self_play

    if not args.out.endswith(".npz"):
        return _fail(f"--out {args.out!r} must end in .npz (numpy would add it)")
    if args.record:
        parts = []
        for path in args.record:
            try:
                with open(path, encoding="utf-8") as f:
                    parts.append(from_record(f, reward=args.reward))
            except OSError as e:
                return _fail(f"cannot read {path}: {e}")
            except (PresidentError, ValueError) as e:
                return _fail(f"{path}: {getattr(e, 'message', None) or e}")
        data = concatenate(parts)
        meta = {"source": "records: " + ", ".join(args.record)}
    else:
        levels = [x.strip() for x in args.levels.split(",") if x.strip()]
        try:
            rules = Rules.parse(args.rules, players=len(levels))
        except PresidentError as e:
            return _fail(f"--levels gives {len(levels)} players: {e.message}")
        try:
            data = self_play(rules, levels, deals=args.deals, seed=args.seed,
                             matches=args.matches, max_deals=args.max_deals, reward=args.reward)
        except ValueError as e:
            return _fail(str(e))
        meta = {"source": f"self-play: {','.join(levels)}", "rules": rules.name,
                "seed": str(args.seed)}
    try:
        save_npz(args.out, data, reward_kind=args.reward, **meta)
    except OSError as e:
        return _fail(f"cannot write {args.out}: {e}")
    deals = int(data["deal"].max()) + 1 if len(data["deal"]) else 0
    decisions = len(data["action"])
    print(f"wrote {decisions} decision{'s' if decisions != 1 else ''} from {deals} "
          f"deal{'s' if deals != 1 else ''} to {args.out}")
    return 0
