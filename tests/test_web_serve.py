"""``president serve``: starts the app on 127.0.0.1, prints the address, never fails for want
of a browser, refuses bad options with exit status 2."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

pytest.importorskip("uvicorn")

from president.cli import build_parser, main  # noqa: E402
from president.commands import serve  # noqa: E402


def test_options_and_defaults():
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.no_browser, args.bot_delay) == ("127.0.0.1", 8000, False, None)
    args = build_parser().parse_args(["serve", "--host", "0.0.0.0", "--port", "9001", "--no-browser",
                                      "--bot-delay", "0"])
    assert (args.host, args.port, args.no_browser, args.bot_delay) == ("0.0.0.0", 9001, True, 0.0)
    assert serve.HELP.startswith("Start the browser game")


@pytest.mark.parametrize("argv, words", [
    (["serve", "--port", "0"], "port 0 is out of range"),
    (["serve", "--port", "70000"], "out of range"),
    (["serve", "--bot-delay", "-1"], "--bot-delay -1.0 is out of range"),
])
def test_bad_options_exit_2(argv, words, capsys):
    assert main(argv + ["--no-browser"]) == 2
    assert words in capsys.readouterr().err


def test_opening_a_browser_never_raises(monkeypatch):
    def broken(url):
        raise RuntimeError("no display")
    monkeypatch.setattr(serve.webbrowser, "open", broken)
    serve._open_browser("http://127.0.0.1:1/")  # no exception


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_prints_the_address_and_serves_the_page(tmp_path):
    port = _free_port()
    env = dict(os.environ, PRESIDENT_WEB_SECRET="serve-test", BROWSER="false")
    proc = subprocess.Popen([sys.executable, "-m", "president", "serve", "--port", str(port),
                             "--no-browser", "--bot-delay", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            cwd=tmp_path)
    try:
        line = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in line
        deadline = time.monotonic() + 10
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
                    body = r.read().decode()
                break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        assert "<title>President</title>" in body
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_a_port_in_use_is_reported():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        proc = subprocess.run([sys.executable, "-m", "president", "serve", "--port", str(port),
                               "--no-browser"], capture_output=True, text=True, timeout=30,
                              env=dict(os.environ, PRESIDENT_WEB_SECRET="serve-test"))
    assert proc.returncode == 1
    assert f"could not listen on 127.0.0.1:{port}" in proc.stderr
