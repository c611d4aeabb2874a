"""Shared test settings.

Starlette's TestClient sends ``Host: testserver``. The web app answers only to the hosts it
was started for (``president.web.guard``), so every test here adds ``testserver`` through
``$PRESIDENT_WEB_HOSTS``, the variable a server reads for more host names; a real server never
answers to it. Tests of the host check itself pass ``create_app(allowed_hosts=...)``.
"""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _testclient_host(monkeypatch):
    monkeypatch.setenv("PRESIDENT_WEB_HOSTS", "testserver")
