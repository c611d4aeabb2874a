"""Your own bot wherever a level is named (issue 13, item 3): the ten-line example of
docs/api.md, entered by import path in president simulate (in-process, and in worker
processes under the spawn start method) and president play; comparisons name the level
measured stronger; the commands work without rich."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import president.players as players
from president import Rules
from president.cli import main
from president.players import load_class, make_player
from president.simulate import SimulationConfig, simulate, summarise

ROOT = Path(__file__).parent.parent
BOT = "mybot:LowestBot"


def _example() -> str:
    doc = (ROOT / "docs" / "api.md").read_text()
    after = doc[doc.index("A ten-line example, `mybot.py`"):]
    return re.search(r"```python\n(.*?)```", after, re.S).group(1)


@pytest.fixture
def bot_dir(tmp_path, monkeypatch):
    (tmp_path / "mybot.py").write_text(_example())
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(players, "LEVELS", dict(players.LEVELS))  # undo register_level
    yield tmp_path
    sys.modules.pop("mybot", None)


def test_the_example_is_ten_lines():
    lines = [ln for ln in _example().splitlines() if ln.strip()]
    assert len(lines) == 10


def test_simulate_takes_the_bot_by_import_path(bot_dir, capsys):
    code = main(["simulate", "--seats", f"{BOT},simple,simple,simple", "--deals", "8",
                 "--seed", "1", "--json", "--quiet"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["levels"]) == {BOT, "simple"}
    total = out["levels"][BOT]["mean_place"]["mean"] + 3 * out["levels"]["simple"]["mean_place"]["mean"]
    assert total == pytest.approx(10.0)


def test_simulate_workers_import_the_bot_under_spawn(bot_dir):
    script = bot_dir / "run_spawn.py"
    script.write_text(
        "import json, multiprocessing\n"
        "from president import Rules\n"
        "from president.simulate import SimulationConfig, simulate\n"
        "if __name__ == '__main__':\n"
        "    multiprocessing.set_start_method('spawn')\n"
        f"    c = SimulationConfig(rules=Rules.preset('house', players=4), seats=('{BOT}', "
        "'random', 'random', 'random'), boards=4, seed=5)\n"
        "    r = simulate(c, jobs=2)\n"
        "    print(json.dumps({k: v['mean_place']['mean'] for k, v in r['levels'].items()}))\n")
    env = dict(os.environ, PYTHONPATH=f"{bot_dir}{os.pathsep}{ROOT}")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          env=env, cwd=bot_dir, timeout=120)
    assert done.returncode == 0, done.stderr
    spawned = json.loads(done.stdout)
    local = simulate(SimulationConfig(rules=Rules.preset("house", players=4),
                                      seats=(BOT, "random", "random", "random"), boards=4, seed=5))
    assert spawned == {k: v["mean_place"]["mean"] for k, v in local["levels"].items()}


def test_play_takes_the_bot_by_import_path(bot_dir, monkeypatch):
    import president.terminal as terminal
    seen = {}

    class Fake:
        def __init__(self, rules, **options):
            seen.update(options)

        def run(self):
            # what the terminal game does with each level: make_player(level, seed=...)
            seen["bots"] = [make_player(level, seed=1) for level in seen["levels"]]
            return 0
    monkeypatch.setattr(terminal, "TerminalGame", Fake)
    assert main(["play", "--levels", f"{BOT},simple", "--delay", "0"]) == 0
    assert seen["levels"][0] == BOT and type(seen["bots"][0]).__name__ == "LowestBot"


@pytest.mark.parametrize("argv, message", [
    (["simulate", "--seats", "nosuchmodule:Bot,simple,simple,simple", "--quiet"],
     "cannot import module 'nosuchmodule'"),
    (["simulate", "--seats", "president.players:Nothing,simple,simple,simple", "--quiet"],
     "module 'president.players' has no 'Nothing'"),
    (["play", "--levels", "nosuchmodule:Bot"], "cannot import module 'nosuchmodule'"),
    (["play", "--levels", "president.rules:Rules"], "is not a player class"),
])
def test_a_bad_import_path_is_refused_with_the_reason(argv, message, capsys):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_import_paths_need_imports_allowed(bot_dir):
    with pytest.raises(ValueError, match="an import path names a bot only where imports"):
        make_player(BOT, seed=1)
    assert type(make_player(BOT, seed=1, imports=True)) is load_class(BOT)


def test_player_classes_are_importable_from_president_players():
    import president.players as players
    from president.players import BUILT_IN, LEVELS

    assert list(LEVELS)[:len(BUILT_IN)] == list(BUILT_IN)
    for level, where in BUILT_IN.items():     # every built-in level, from the one registry
        cls = getattr(players, where.cls)
        assert where.cls in players.__all__
        assert type(make_player(level, seed=0)) is cls is players.level_class(level)
    with pytest.raises(ValueError, match="no built-in computer level 'wizard'; levels are: random"):
        players.level_class("wizard")


def test_the_browser_thinks_fast_levels_at_once_and_the_rest_in_workers():
    from president.players import BUILT_IN
    from president.web.levels import FAST_LEVELS

    assert FAST_LEVELS == {name for name, level in BUILT_IN.items() if level.fast}
    assert {"random", "simple", "intermediate"} <= FAST_LEVELS
    assert not {"expert", "master"} & FAST_LEVELS


def test_comparisons_name_the_level_measured_stronger():
    """'simple' comes first and is a stronger level by name, but here it measures behind."""
    config = SimulationConfig(rules=Rules.preset("house", players=4),
                              seats=("simple", "random", "random", "random"), boards=2)
    board = {"rows": [("simple", 4, 0, False, True), ("random", 1, 2, True, False),
                      ("random", 2, 1, False, False), ("random", 3, 0, False, False)],
             "matches": [], "stats": {}}
    comp = summarise(config, [board, board])["comparisons"]
    assert [(c["stronger"], c["weaker"]) for c in comp] == [("random", "simple")]
    assert comp[0]["places_ahead"]["mean"] == pytest.approx(2.0)  # 4 − 2


def test_simulate_and_bench_print_plain_tables_without_rich(monkeypatch, capsys):
    for name in ("rich", "rich.console", "rich.table", "rich.progress"):
        monkeypatch.setitem(sys.modules, name, None)  # import rich -> ImportError
    assert main(["simulate", "--seats", "simple,random,random,random", "--deals", "4"]) == 0
    out = capsys.readouterr().out
    assert "mean place" in out and "places ahead" in out and "[bold]" not in out
    assert re.search(r"^simple\s+1\s+\d\.\d{3}", out, re.M)
    assert main(["bench", "--deals", "3", "--no-presets"]) == 0
    out = capsys.readouterr().out
    assert "deals/s" in out and re.search(r"^house\s+4\s+3\s", out, re.M)


def test_a_bot_whose_constructor_takes_no_seed_is_refused_with_the_fix(tmp_path, monkeypatch):
    """A constructor with no parameters at all used to slip through and fail later with a
    TypeError at ``cls(seed=...)``."""
    (tmp_path / "noseed.py").write_text(
        "class NoSeed:\n    def __init__(self):\n        pass\n\n"
        "    def act(self, observation):\n        return observation.legal_actions[0]\n\n"
        "class Plain:\n    def act(self, observation):\n        return observation.legal_actions[0]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        for name in ("NoSeed", "Plain"):
            with pytest.raises(ValueError, match=r"constructor must take seed="):
                load_class(f"noseed:{name}")
    finally:
        sys.modules.pop("noseed", None)


def test_a_bot_that_breaks_the_rules_is_named_not_a_traceback(tmp_path, monkeypatch, capsys):
    (tmp_path / "cheat.py").write_text(
        "from president import PASS\n\n"
        "class AlwaysPass:\n    def __init__(self, *, seed=None):\n        pass\n\n"
        "    def act(self, observation):\n        return PASS\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        code = main(["simulate", "--seats", "cheat:AlwaysPass,simple,simple,simple",
                     "--deals", "4", "--quiet"])
    finally:
        sys.modules.pop("cheat", None)
    err = capsys.readouterr().err
    assert code == 2
    assert "president simulate: the computer player 'cheat:AlwaysPass' chose an action" in err
    assert "observation.legal_actions" in err and "Traceback" not in err


def test_a_bot_that_breaks_the_rules_in_a_tournament_is_named_not_a_traceback(
        tmp_path, monkeypatch, capsys):
    (tmp_path / "cheat2.py").write_text(
        "from president import PASS\n\n"
        "class AlwaysPass:\n    def __init__(self, *, seed=None):\n        pass\n\n"
        "    def act(self, observation):\n        return PASS\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        code = main(["tournament", "--seats", "cheat2:AlwaysPass,random", "--deals", "4",
                     "--quiet"])
    finally:
        sys.modules.pop("cheat2", None)
    err = capsys.readouterr().err
    assert code == 2
    assert "president tournament: the computer player 'cheat2:AlwaysPass' chose an action" in err
    assert "Traceback" not in err


def test_serve_level_names_a_built_in_level_as_offered_already(monkeypatch):
    monkeypatch.setattr(players, "LEVELS", dict(players.LEVELS))
    with pytest.raises(ValueError, match="'simple' is a built-in level, offered already"):
        players.register_level("simple")


def test_players_in_a_rules_name_is_the_table_size_and_checked(capsys):
    """A rules name may carry its table size (``str(rules)`` writes it so): a size no table
    has is refused in words, one that disagrees with ``--players`` too."""
    code = main(["simulate", "--rules", "house/players=9", "--deals", "4", "--quiet"])
    err = capsys.readouterr().err
    assert code == 2
    assert "players = 9 is not allowed; a table has 3 to 7 players" in err
    code = main(["simulate", "--rules", "house/players=5", "--players", "6", "--deals", "4",
                 "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and "give the table size once" in err


def test_a_bot_that_breaks_the_rules_in_the_terminal_game_is_named_not_a_traceback(
        tmp_path, monkeypatch):
    import io

    from rich.console import Console

    from president.terminal import TerminalGame
    (tmp_path / "cheat3.py").write_text(
        "from president import PASS\n\n"
        "class AlwaysPass:\n    def __init__(self, *, seed=None):\n        pass\n\n"
        "    def act(self, observation):\n        return PASS\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(players, "LEVELS", dict(players.LEVELS))
    players.register_level("cheat3:AlwaysPass")
    buf = io.StringIO()
    console = Console(file=buf, width=100, force_terminal=False)
    try:
        # The bot passes even when it must lead; the human passes or plays its lowest card.
        holder: list[TerminalGame] = []
        game = TerminalGame(Rules.preset("practice"), seed=3, console=console, delay=0,
                            levels=["cheat3:AlwaysPass"],
                            input_fn=lambda: str(holder[0].match.legal_actions()[0]))
        holder.append(game)
        code = game.run()
    finally:
        sys.modules.pop("cheat3", None)
    out = buf.getvalue()
    assert code == 2
    assert "The computer player 'cheat3:AlwaysPass' chose an action the rules refuse (pass)" in out
    assert "observation.legal_actions" in out and "Traceback" not in out
