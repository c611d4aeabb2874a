"""Shared test settings.

Starlette's TestClient sends ``Host: testserver``. The web app answers only to the hosts it
was started for (``president.web.guard``), so every test here adds ``testserver`` through
``$PRESIDENT_WEB_HOSTS``, the variable a server reads for more host names; a real server never
answers to it. Tests of the host check itself pass ``create_app(allowed_hosts=...)``.

No test reads or writes the machine's own state folder (``~/.local/state/president``, where
a running ``president serve`` holds its lock, its key and its tables, and where ``president
keep-score`` keeps its sheet): ``$XDG_STATE_HOME`` is a fresh folder for the whole session
and another for each test, and a server or command a test starts as a subprocess inherits it.

The compiled extensions (``president._playout``, ``president._vector``) are built as optional
parts, and the tests that need them skip without them. ``PRESIDENT_REQUIRE_COMPILED=1`` (what
``make test`` and CI set) makes their absence fail the run instead: the session stops at its
start saying what to install, and any "not built" skip that still happens is a failure. A
developer without a C compiler runs ``make test PRESIDENT_REQUIRE_COMPILED=0`` or plain
``pytest`` to skip those tests on purpose.
"""

from __future__ import annotations

import importlib
import os
from typing import Any, Iterator

import pytest

from tests.helpers import HOW_TO_BUILD, NOT_BUILT, REQUIRE_COMPILED
from tests.store_engines import shared_schema, store_engine  # noqa: F401  (fixtures)

#: The compiled extensions a run under ``PRESIDENT_REQUIRE_COMPILED=1`` needs.
EXTENSIONS = ("president._playout", "president._vector")


def _missing_extensions() -> list[str]:
    """Why each compiled extension cannot be used here, in words (empty when all can)."""
    if os.environ.get("PRESIDENT_PURE") == "1":
        return ["PRESIDENT_PURE=1 is set, which turns the compiled code off"]
    missing = []
    for name in EXTENSIONS:
        try:
            importlib.import_module(name)
        except ImportError as e:
            missing.append(f"{name}: {e}")
    return missing


def pytest_sessionstart(session: pytest.Session) -> None:
    """Under ``PRESIDENT_REQUIRE_COMPILED=1``, stop before any test when an extension is
    missing, with what to install."""
    if REQUIRE_COMPILED and (missing := _missing_extensions()):
        pytest.exit("PRESIDENT_REQUIRE_COMPILED=1 but the compiled extensions cannot be used:\n  "
                    + "\n  ".join(missing) + "\n" + HOW_TO_BUILD, returncode=1)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]) -> Iterator[None]:
    """Under ``PRESIDENT_REQUIRE_COMPILED=1``, a skip for a missing extension (the reason
    :data:`tests.helpers.NOT_BUILT`: a build that lacks a part a test needs) is a failure."""
    outcome = yield
    report = outcome.get_result()
    if REQUIRE_COMPILED and report.skipped and isinstance(report.longrepr, tuple) \
            and NOT_BUILT in str(report.longrepr[2]):
        report.outcome = "failed"
        report.longrepr = f"{item.nodeid}: skipped as '{NOT_BUILT}'. {HOW_TO_BUILD}"


@pytest.fixture(autouse=True)
def _testclient_host(monkeypatch):
    monkeypatch.setenv("PRESIDENT_WEB_HOSTS", "testserver")


@pytest.fixture(autouse=True)
def _no_table_rate(monkeypatch):
    """Every test's client is one address making tables fast: no per-address rate limit on
    new tables unless a test asks for one (``create_app(per_address=...)`` wins over this)."""
    monkeypatch.setenv("PRESIDENT_WEB_TABLES_PER_MINUTE", "0")


@pytest.fixture(autouse=True)
def _no_store_from_environment(monkeypatch):
    """A ``$PRESIDENT_STORE`` of the shell (a PostgreSQL store) never reaches a test's app:
    tests name their store (``store_engine``), else they use their own SQLite files."""
    monkeypatch.delenv("PRESIDENT_STORE", raising=False)


@pytest.fixture(scope="session", autouse=True)
def _session_state_folder(tmp_path_factory) -> Iterator[None]:
    """``$XDG_STATE_HOME`` for session fixtures (a browser test's server, for one)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("xdg-state-session")))
        yield


@pytest.fixture(autouse=True)
def _own_state_folder(monkeypatch, tmp_path_factory):
    """Each test its own ``$XDG_STATE_HOME`` (made empty, not yet holding ``president``), so
    a ``president serve`` running on this machine with the default folder, or a sheet that
    ``president keep-score`` saved there, never changes a test's outcome. A test that names
    its own folder (``monkeypatch.setenv``, ``env=dict(os.environ, XDG_STATE_HOME=...)``)
    still wins."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("xdg-state")))
