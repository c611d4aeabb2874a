"""End-to-end browser tests: Debian's Chromium (never ``playwright install``) driven by
pytest-playwright, against the app served by uvicorn in a thread (BROWSER-TESTS.md)."""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
import threading
import time
from pathlib import Path

import pytest

uvicorn = pytest.importorskip("uvicorn")

from president.web.app import create_app  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"


def pytest_collection_modifyitems(items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    """An app served by uvicorn in a daemon thread (``port`` and ``state_dir``: those of a
    server stopped with ``keep_state=True``, to start it again as after a restart)."""

    def __init__(self, *, port: int | None = None, state_dir: str | None = None,
                 **options) -> None:
        self.state_dir = state_dir or tempfile.mkdtemp(prefix="president-e2e-")
        # Every browser test comes from 127.0.0.1: no per-address limit on new tables here
        # (the limit has its own tests), or a quick run of the suite would meet it.
        options.setdefault("per_address", 0)
        self.app = create_app(secret=b"e2e-test-secret-0123456789abcdef", allow_seed=True,
                              state_dir=self.state_dir, **options)
        self.port = port or _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port,
                                                    log_level="warning", lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)

    @property
    def tables(self):
        return self.app.state.tables

    def stop(self, *, keep_state: bool = False) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=5)
        if not keep_state:
            shutil.rmtree(self.state_dir, ignore_errors=True)


@pytest.fixture(scope="session")
def served():
    s = Served(bot_delay=0)
    yield s
    s.stop()


@pytest.fixture(scope="session")
def served_slow():
    """Computer players paced at 0.5 s, to see a pause hold them."""
    s = Served(bot_delay=0.5)
    yield s
    s.stop()


@pytest.fixture(scope="session")
def base_url(served):
    return served.url


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
