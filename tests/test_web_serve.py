"""``president serve``: starts the app on 127.0.0.1, prints the address, never fails for want
of a browser, refuses bad options with exit status 2."""

from __future__ import annotations

import json
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
    env = dict(os.environ, PRESIDENT_WEB_SECRET="serve-test", BROWSER="false",
               XDG_STATE_HOME=str(tmp_path / "state"), PRESIDENT_WEB_TABLES_PER_MINUTE="30")
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
        assert "<title>President — the card game, in your browser</title>" in body
        head = urllib.request.Request(f"http://127.0.0.1:{port}/", method="HEAD")
        with urllib.request.urlopen(head, timeout=5) as r:
            assert r.status == 200 and r.read() == b""
        _check_message_size_limits(port)
        _check_forwarded_for_is_not_the_address(port)
        assert (tmp_path / "state" / "president" / "web-saved-matches.sqlite3").exists()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_serving_every_interface_prints_the_address_for_friends_and_answers_to_it(tmp_path):
    """Issue 11: with --host 0.0.0.0 the command names this machine's own address for friends,
    and the server answers to it (a Host header with that address), not to any other name."""
    from president.commands.serve import own_addresses

    lan = own_addresses()
    if not lan:
        pytest.skip("this machine has no address besides loopback")
    port = _free_port()
    env = dict(os.environ, PRESIDENT_WEB_SECRET="serve-test", BROWSER="false",
               XDG_STATE_HOME=str(tmp_path / "state"))
    proc = subprocess.Popen([sys.executable, "-m", "president", "serve", "--host", "0.0.0.0",
                             "--port", str(port), "--no-browser"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            cwd=tmp_path)
    try:
        lines = [proc.stdout.readline() for _ in range(2)]
        assert f"served at http://{lan[0]}:{port}/" in lines[0]
        assert f"Friends on your network: open http://{lan[0]}:{port}/" in lines[1]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/options", timeout=5) as r:
            assert json.loads(r.read())["friend_url"] == f"http://{lan[0]}:{port}/"
        ok = urllib.request.Request(f"http://127.0.0.1:{port}/", headers={"Host": f"{lan[0]}:{port}"})
        with urllib.request.urlopen(ok, timeout=5) as r:
            assert r.status == 200
        bad = urllib.request.Request(f"http://127.0.0.1:{port}/", headers={"Host": "evil.example"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(bad, timeout=5)
        assert refused.value.code == 400
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_a_port_in_use_is_reported(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        proc = subprocess.run([sys.executable, "-m", "president", "serve", "--port", str(port),
                               "--no-browser"], capture_output=True, text=True, timeout=30,
                              env=dict(os.environ, PRESIDENT_WEB_SECRET="serve-test",
                                       XDG_STATE_HOME=str(tmp_path)))
    assert proc.returncode == 1
    # One line of our own that names the cause and the fix; nothing of uvicorn's before it.
    assert proc.stderr.strip().splitlines() == [
        f"president serve: port {port} is in use on 127.0.0.1 (another server, or president "
        f"serve already running?); choose another with --port, e.g. --port {port + 1} "
        f"(make play PORT={port + 1})"]


@pytest.mark.parametrize("host, words", [
    ("nosuchhost.invalid", "cannot find the address of --host nosuchhost.invalid"),
    ("192.0.2.1", "192.0.2.1 is not an address of this machine"),   # TEST-NET-1, never ours
])
def test_a_host_the_server_cannot_listen_on_is_named_with_the_reason(host, words):
    from president.commands.serve import listen_problem
    problem = listen_problem(host, 8000)
    assert problem is not None and problem.startswith(words), problem
    assert "port" not in problem.split(";")[0]      # not the port-in-use guess it made before


def test_a_free_port_has_no_listen_problem():
    from president.commands.serve import listen_problem
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert listen_problem("127.0.0.1", port) is None


def _check_forwarded_for_is_not_the_address(port: int) -> None:
    """A client's X-Forwarded-For header names no address the server trusts: with a new
    "address" in it each time, the tables one address may make are still counted (429)."""
    import urllib.error

    statuses = []
    for i in range(200):
        req = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/tables", data=b'{"kind": "practice"}', method="POST",
            headers={"Content-Type": "application/json", "X-Forwarded-For": f"10.9.{i // 250}.{i % 250}"})
        try:
            with urllib.request.urlopen(req, timeout=5) as r:
                statuses.append(r.status)
        except urllib.error.HTTPError as e:
            statuses.append(e.code)
            break
    assert statuses[-1] == 429, statuses


def _check_message_size_limits(port: int) -> None:
    """docs/web.md: a text over MAX_MESSAGE_CHARS gets a bad-message reply and the socket
    stays; a message over WS_MAX_BYTES (1 MiB) closes the socket with code 1009."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    from president.web.app import WS_MAX_BYTES
    from president.web.protocol import MAX_MESSAGE_CHARS
    url = f"ws://127.0.0.1:{port}/ws"
    with connect(url, max_size=None) as ws:
        ws.send("x" * (MAX_MESSAGE_CHARS + 10))
        reply = json.loads(ws.recv(timeout=10))
        assert reply["reason"] == "bad-message" and str(MAX_MESSAGE_CHARS) in reply["message"]
        ws.send('{"type": "pass"}')                      # still open: asks for a hello first
        assert "hello" in json.loads(ws.recv(timeout=10))["message"]
    with connect(url, max_size=None) as ws:
        ws.send("x" * (WS_MAX_BYTES + 1))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd.code == 1009


@pytest.mark.skipif(not __import__("shutil").which("make"), reason="no make")
def test_make_play_takes_a_port():
    """``make play`` serves on the default port; ``make play PORT=8001`` on 8001 (dry run)."""
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    env = {k: v for k, v in os.environ.items() if k != "PORT"}

    def last_line(*extra):
        out = subprocess.run(["make", "-n", "-s", "play", *extra], cwd=root, env=env,
                             capture_output=True, text=True, timeout=30)
        assert out.returncode == 0, out.stderr
        return out.stdout.strip().splitlines()[-1]
    assert last_line().endswith("/president serve")
    assert last_line("PORT=8001").endswith("/president serve --port 8001")


def test_the_server_tunes_the_garbage_collector_for_many_tables():
    # In a process of its own: the thresholds and the frozen objects would outlive the test.
    code = ("import gc\nfrom president.commands import serve\n"
            "assert gc.get_threshold() == (700, 10, 10)\n"
            "serve.tune_gc()\n"
            "print(gc.get_threshold(), gc.get_freeze_count() > 10000)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, check=True).stdout
    assert out.strip() == "(20000, 50, 100) True"
    assert serve.GC_THRESHOLDS == (20_000, 50, 100)


def test_a_second_server_on_the_same_state_folder_is_refused(tmp_path):
    """Two servers on one state folder would each keep their own copy of the same tables (a
    new-user trial saw a match rewound when another tester's server shared the default
    folder). The second one says which process holds the folder and exits 1; one with a
    folder of its own starts; after the first is killed (-9) the folder is free again."""
    pytest.importorskip("uvicorn")
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path / "state"), BROWSER="false",
               PRESIDENT_WEB_SECRET="lock-test")
    env.pop("PRESIDENT_WEB_HOSTS", None)

    def serve(port: int, extra: dict | None = None) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-m", "president", "serve", "--port",
                                 str(port), "--no-browser"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env={**env, **(extra or {})})
    first = serve(_free_port())
    try:
        assert "127.0.0.1" in first.stdout.readline()
        second = serve(_free_port())
        out, err = second.communicate(timeout=60)
        assert second.returncode == 1, (out, err)
        assert f"another president serve (pid {first.pid}) is using the state folder" in err
        assert "XDG_STATE_HOME" in err
        # Nothing in the folder gets past the lock: its pid file removed, a link planted in
        # its place (never followed: the file it points to is left as it was).
        pid_file = tmp_path / "state" / "president" / "serve.pid"
        pid_file.unlink()
        victim = tmp_path / "victim.txt"
        victim.write_text("keep me")
        pid_file.symlink_to(victim)
        third = serve(_free_port())
        out, err = third.communicate(timeout=60)
        assert third.returncode == 1 and "is using the state folder" in err, (out, err)
        assert victim.read_text() == "keep me"
        pid_file.unlink()
        own = serve(_free_port(), {"XDG_STATE_HOME": str(tmp_path / "other")})
        try:
            assert "127.0.0.1" in own.stdout.readline()
        finally:
            own.terminate()
            own.wait(timeout=10)
        first.kill()
        first.wait(timeout=10)
        again = serve(_free_port())
        try:
            assert "127.0.0.1" in again.stdout.readline()
        finally:
            again.terminate()
            again.wait(timeout=10)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait(timeout=10)


def test_a_server_that_cannot_start_lets_go_of_the_state_folder(tmp_path, monkeypatch):
    """A start refused after the folder was locked (here a bad --level) must leave it free:
    the lock once stayed with the test process, and the next server on the folder was
    told another was using it."""
    import os as _os
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert main(["serve", "--no-browser", "--level", "nosuchmodule:NoSuchBot"]) == 2
    fd, held = serve.hold_state_dir(tmp_path / "president")
    assert held is None and fd is not None
    _os.close(fd)
