"""Your own computer player in the browser game, offered by the server's owner
(``president serve --level package.module:Class``, ``create_app(extra_levels=...)``), and
never loaded because a page asked for an import path."""

from __future__ import annotations

import sys

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

import president.players as players  # noqa: E402
from president.cli import main  # noqa: E402
from president.web import tables as web_tables  # noqa: E402
from president.web.app import create_app  # noqa: E402
from tests.test_own_bot import BOT, _example  # noqa: E402
from tests.test_web_protocol import SECRET, until_state  # noqa: E402


@pytest.fixture
def bot_dir(tmp_path, monkeypatch):
    (tmp_path / "mybot.py").write_text(_example())
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(players, "LEVELS", dict(players.LEVELS))   # undo register_level
    web_tables.known_levels.cache_clear()
    yield tmp_path
    sys.modules.pop("mybot", None)
    web_tables.known_levels.cache_clear()


def test_an_offered_bot_is_listed_and_plays_a_whole_deal(bot_dir, tmp_path):
    app = create_app(bot_delay=0, secret=SECRET, state_dir=tmp_path / "state", workers=1,
                     extra_levels=[BOT])
    with TestClient(app) as c:
        options = c.get("/api/options").json()
        assert BOT in options["levels"] and options["levels"][:2] == ["random", "beginner"]
        r = c.post("/api/tables", json={"kind": "match", "preset": "house", "players": 4,
                                        "levels": ["human", BOT, BOT, "simple"]})
        assert r.status_code == 200, r.text
        info = r.json()
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "table": info["table"], "token": info["token"]})
            state, _ = until_state(ws, lambda m: m["phase"] in ("exchange", "play"))
            events = []
            while state["phase"] not in ("between-deals", "match-over"):
                if state["to_act"] == state["you"]["seat"]:
                    ws.send_json({"type": "pass"} if "pass" in state["legal"] else
                                 {"type": "give" if state["phase"] == "exchange" else "play",
                                  "cards": state["legal"][0]})
                state, seen = until_state(ws)
                events += [m for m in seen if m["type"] == "event"]
            # The bot seats (their player thinks in a worker process, which imported it by
            # path) played cards in this deal.
            assert state["phase"] in ("between-deals", "match-over")
            bot_seats = {p["seat"] for p in state["seats"] if p["level"] == BOT}
            assert len(bot_seats) == 2
            played = {m["seat"] for m in events if m["kind"] == "played"}
            assert bot_seats <= played

def test_a_page_cannot_name_an_import_path_the_server_did_not_offer(bot_dir, tmp_path):
    with TestClient(create_app(bot_delay=0, secret=SECRET, state_dir=tmp_path)) as c:
        r = c.post("/api/tables", json={"kind": "match", "preset": "house", "players": 4,
                                        "levels": ["human", BOT, "simple", "simple"]})
        assert r.status_code == 400
        assert r.json()["error"] == "bad-table" and BOT in r.json()["message"]
        assert "mybot" not in sys.modules                 # nothing was imported for the page
        assert BOT not in c.get("/api/options").json()["levels"]


def test_serve_refuses_a_level_that_does_not_load(bot_dir, capsys):
    assert main(["serve", "--no-browser", "--level", "mybot:NoSuchBot"]) == 2
    err = capsys.readouterr().err
    assert "president serve:" in err and "NoSuchBot" in err
