"""The Ray backend (``--backend ray``, :mod:`president.distributed`): the same seed gives
exactly the local result, for ``simulate`` and ``tournament``, through the library and the
command line; and the default path never imports ray.

Ray runs on this machine with one CPU (``ray.init(num_cpus=1)``: Ray 2.60 no longer offers a
useful ``local_mode``), started once for the module and shut down at its end; one test lets
the command start and stop a Ray of its own, as ``--backend ray`` without ``--address`` does.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from president.cli import main
from president.rules import Rules
from president.simulate import SimulationConfig, simulate
from president.tournament import TournamentConfig, run_tournament

SIM_ARGS = ["simulate", "--rules", "house", "--seats", "intermediate,simple,random,simple",
            "--deals", "24", "--seed", "7", "--json", "--quiet"]
TOURNAMENT_ARGS = ["tournament", "--seats", "random,simple,intermediate", "--players", "4",
                   "--deals", "12", "--seed", "3", "--json", "--quiet"]


def _sim_config() -> SimulationConfig:
    return SimulationConfig(rules=Rules.parse("first-night", players=5),
                            seats=("intermediate", "simple", "simple", "random", "beginner"),
                            boards=5, seed=11)


def _without_seconds(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k != "seconds"}


def _json_of(capsys, argv: list[str]) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


@pytest.fixture(scope="module")
def ray():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()


def test_simulate_on_ray_equals_the_local_run(ray):
    config = _sim_config()
    local = simulate(config)
    done = []
    remote = simulate(config, backend="ray", progress=done.append)
    assert _without_seconds(remote) == _without_seconds(local)
    assert sum(done) == config.boards
    assert ray.is_initialized()        # a Ray the caller started is left running


def test_tournament_on_ray_equals_the_local_run(ray):
    config = TournamentConfig(rules=Rules.parse("first-night", players=3),
                              bots=("random", "simple", "beginner"), boards=3, seed=5)
    local = run_tournament(config)
    remote = run_tournament(config, backend="ray")
    assert remote == local
    assert remote.summary() == local.summary()


def test_the_commands_with_backend_ray_print_the_local_figures(ray, capsys):
    local = _json_of(capsys, SIM_ARGS)
    remote = _json_of(capsys, SIM_ARGS + ["--backend", "ray"])
    assert _without_seconds(remote) == _without_seconds(local)
    assert _json_of(capsys, TOURNAMENT_ARGS + ["--backend", "ray"]) == \
        _json_of(capsys, TOURNAMENT_ARGS)


def test_backend_ray_without_address_starts_a_ray_and_stops_it(capsys):
    # the command starts a Ray of its own only when none runs in its process, so this runs
    # in a fresh process (this one has the module's Ray)
    pytest.importorskip("ray")
    code = ("import json, sys, ray\n"
            "from president.cli import main\n"
            f"status = main({TOURNAMENT_ARGS + ['--backend', 'ray']!r})\n"
            "assert status == 0, status\n"
            "assert not ray.is_initialized()\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    remote = json.loads(proc.stdout)
    assert remote == _json_of(capsys, TOURNAMENT_ARGS)


@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_without_ray_the_command_names_the_extra(monkeypatch, capsys, command):
    monkeypatch.setitem(sys.modules, "ray", None)       # import ray -> ModuleNotFoundError
    argv = (SIM_ARGS if command == "simulate" else TOURNAMENT_ARGS) + ["--backend", "ray"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"president {command}: needs ray")
    assert "pip install 'president-game[ray]'" in err
    assert "Traceback" not in err


def test_without_ray_the_library_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ModuleNotFoundError, match=r"president-game\[ray\]") as caught:
        simulate(_sim_config(), backend="ray")
    assert caught.value.name == "ray"


@pytest.mark.parametrize("extra, message", [
    (["--address", "auto"], "--address auto is for --backend ray"),
    (["--backend", "ray", "--jobs", "2"], "--jobs is for --backend local"),
])
@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_backend_options_that_do_not_go_together(capsys, command, extra, message):
    argv = (SIM_ARGS if command == "simulate" else TOURNAMENT_ARGS) + extra
    assert main(argv) == 2
    assert capsys.readouterr().err == f"president {command}: {message}" + (
        " (a Ray cluster)\n" if "address" in message else
        "; with --backend ray the boards are spread over every CPU of the Ray cluster\n")


def test_the_library_refuses_an_unknown_backend_or_a_local_address():
    with pytest.raises(ValueError, match="backends are: local, ray"):
        simulate(_sim_config(), backend="spark")
    config = TournamentConfig(rules=Rules.parse("house", players=4), bots=("random", "simple"),
                              boards=1)
    with pytest.raises(ValueError, match="is for backend 'ray'"):
        run_tournament(config, address="auto")


def test_the_default_path_never_imports_ray():
    code = ("import sys\n"
            "from president.cli import main\n"
            "assert main(['simulate', '--deals', '4', '--quiet', '--json']) == 0\n"
            "assert main(['tournament', '--seats', 'random,simple', '--deals', '4', "
            "'--quiet', '--json']) == 0\n"
            "import president.simulate, president.tournament\n"
            "assert 'ray' not in sys.modules, 'ray imported'\n"
            "assert 'president.distributed' not in sys.modules\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
