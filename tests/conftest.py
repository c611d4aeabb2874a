"""Shared test settings.

Starlette's TestClient sends ``Host: testserver``. The web app answers only to the hosts it
was started for (``president.web.guard``), so every test here adds ``testserver`` through
``$PRESIDENT_WEB_HOSTS``, the variable a server reads for more host names; a real server never
answers to it. Tests of the host check itself pass ``create_app(allowed_hosts=...)``.
"""

from __future__ import annotations

import pytest

from tests.store_engines import store_engine  # noqa: F401  (the store tests' engines)


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
