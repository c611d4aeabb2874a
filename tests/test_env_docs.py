"""docs/env.md: its Python examples run as written, and its observation table is the one
the code builds (president.env.PIECES)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")

from president.env import PIECES, piece_slices  # noqa: E402

DOC = (Path(__file__).parent.parent / "docs" / "env.md").read_text()


def test_python_examples_run(capsys):
    blocks = re.findall(r"```python\n(.*?)```", DOC, re.S)
    assert len(blocks) >= 4
    for block in blocks:
        exec(compile(block, "docs/env.md", "exec"), {})
    reward, gym_vector, shapes = capsys.readouterr().out.strip().splitlines()
    assert reward in ("1.0", "0.5", "0.0", "-0.5", "-1.0")
    assert gym_vector == "(8, 702) (8,) bool"  # the GymVectorEnv example
    assert shapes == "(64, 702) (64, 4)"       # the VectorEnv example


def test_observation_table_matches_the_code():
    rows = re.findall(r"^\| `(\w+)` \| (\d+)(?:–(\d+))? \| \(([\d, ]+)\) \|", DOC, re.M)
    slices = piece_slices()
    assert [r[0] for r in rows] == [name for name, _, _ in PIECES]
    for name, start, end, shape in rows:
        assert slices[name].start == int(start)
        assert slices[name].stop - 1 == int(end or start)
        assert tuple(int(x) for x in shape.replace(" ", "").split(",") if x) == \
            dict((n, s) for n, s, _ in PIECES)[name]
