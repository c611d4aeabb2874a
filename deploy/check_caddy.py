"""A real check of docs/deploy.md's proxy on this machine: Caddy, with deploy/Caddyfile as it
is and its own local certificate authority (localhost), in front of
``president serve --trusted-proxy 127.0.0.1``; then, over https through Caddy:

1. ``GET /healthz`` and ``/readyz`` answer 200;
2. a practice table is made (``POST /api/tables`` with the page's https origin) and its
   websocket opens (``wss://``, ``Origin: https://localhost:PORT``, the origin check behind TLS)
   and joins it (``welcome``);
3. the per-address limit counts the real client behind Caddy: with 2 tables a minute per
   address, a client naming a new X-Forwarded-For each time (Caddy ignores it) gets 429 at
   the third; the server saw the client's own address, not Caddy's and not the forged one.

Not a test (CI may have no Caddy): run it where ``caddy`` is installed (Debian: ``apt-get
install caddy``)::

    .venv/bin/python deploy/check_caddy.py

Exits 0 and prints ``deploy check: ok`` when every step passes, 1 with the step that failed,
2 when caddy is not installed. Nothing outside a temporary folder is written (Caddy's data,
its certificates and the game's state live there; Caddy is told not to install its root
certificate in the system's trust store).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Callable, TypeVar

T = TypeVar("T")

HERE = Path(__file__).resolve().parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(what: str, check: Callable[[], T], seconds: float = 30.0) -> T:
    deadline = time.monotonic() + seconds
    while True:
        try:
            return check()
        except Exception as e:  # not up yet
            if time.monotonic() > deadline:
                raise SystemExit(f"deploy check: {what} did not come up ({e})") from None
            time.sleep(0.2)


def main() -> int:
    caddy = shutil.which("caddy")
    if caddy is None:
        print("deploy check: caddy is not installed (Debian: apt-get install caddy); skipped")
        return 2
    work = Path(tempfile.mkdtemp(prefix="president-deploy-"))
    game_port, https_port, http_port = free_port(), free_port(), free_port()
    site = f"https://localhost:{https_port}"
    # Caddy's global options for a check (ports of its own, no admin endpoint, no change to
    # the system's trust store), then deploy/Caddyfile as it is.
    (work / "Caddyfile").write_text(
        "{\n\tadmin off\n\tskip_install_trust\n"
        f"\thttp_port {http_port}\n\thttps_port {https_port}\n}}\n"
        f"import {HERE / 'Caddyfile'}\n")
    env = dict(os.environ, XDG_STATE_HOME=str(work / "state"), PRESIDENT_WEB_SECRET="deploy-check",
               PRESIDENT_WEB_TABLES_PER_MINUTE="2", BROWSER="false")
    env.pop("PRESIDENT_STORE", None)
    game = subprocess.Popen([sys.executable, "-m", "president", "serve", "--port", str(game_port),
                             "--no-browser", "--bot-delay", "0", "--trusted-proxy", "127.0.0.1"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    caddy_env = dict(os.environ, XDG_DATA_HOME=str(work / "caddy-data"),
                     XDG_CONFIG_HOME=str(work / "caddy-config"),
                     PRESIDENT_SITE=f"localhost:{https_port}",
                     PRESIDENT_UPSTREAM=f"127.0.0.1:{game_port}")
    proxy = subprocess.Popen([caddy, "run", "--config", str(work / "Caddyfile"),
                              "--adapter", "caddyfile"], env=caddy_env,
                             stdout=subprocess.DEVNULL, stderr=open(work / "caddy.log", "w"))
    try:
        root = work / "caddy-data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        wait_for("Caddy's local certificate authority", lambda: root.read_bytes())
        tls = ssl.create_default_context(cafile=str(root))

        def get(path: str) -> tuple[int, dict[str, object]]:
            with urllib.request.urlopen(site + path, context=tls, timeout=10) as r:
                return r.status, json.loads(r.read())

        status = wait_for("https through Caddy", lambda: get("/healthz"))
        assert status == (200, {"status": "ok"}), status
        print(f"1. GET {site}/healthz through Caddy: {status}")
        status = get("/readyz")
        assert status == (200, {"status": "ready"}), status
        print(f"   GET {site}/readyz: {status}")

        def new_table(forged: str | None = None) -> tuple[int, dict[str, object]]:
            headers = {"Content-Type": "application/json", "Origin": site}
            if forged:
                headers["X-Forwarded-For"] = forged
            req = urllib.request.Request(site + "/api/tables", data=b'{"kind": "practice"}',
                                         method="POST", headers=headers)
            try:
                with urllib.request.urlopen(req, context=tls, timeout=10) as r:
                    return r.status, json.loads(r.read())
            except urllib.error.HTTPError as e:
                return e.code, json.loads(e.read())

        code, made = new_table()
        assert code == 200, (code, made)
        from websockets.sync.client import connect
        from websockets.typing import Origin
        with connect(f"wss://localhost:{https_port}/ws", ssl=tls, origin=Origin(site),
                     open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "table": made["table"], "token": made["token"]}))
            first = json.loads(ws.recv(timeout=10))
            assert first["type"] == "welcome" and first["table"] == made["table"], first
        print(f"2. POST /api/tables (Origin {site}) and wss://localhost:{https_port}/ws: "
              f"joined table {made['table']} ({first['type']})")

        second = new_table("203.0.113.1")
        third = new_table("203.0.113.2")
        assert second[0] == 200 and third[0] == 429, (second, third)
        assert third[1]["error"] == "busy", third
        print(f"3. tables 2 and 3 with forged X-Forwarded-For through Caddy: {second[0]}, "
              f"{third[0]} {third[1]['error']} (the client's own address counted, 2 a minute)")
        print("deploy check: ok")
        return 0
    except AssertionError as e:
        print(f"deploy check: FAILED {e}")
        return 1
    finally:
        proxy.terminate()
        game.terminate()
        proxy.wait(timeout=20)
        game.wait(timeout=20)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
