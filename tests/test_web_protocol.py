"""The browser game's server: message validation, refusals that change nothing, HTTP bad
requests, saved matches (sealed records) and the seed-003 practice round over a websocket."""

from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from president.actions import PASS  # noqa: E402
from president.players import LEVELS  # noqa: E402
from president.rules import TWISTS  # noqa: E402
from president.web import protocol as P  # noqa: E402
from president.web.app import create_app  # noqa: E402
from president.web.sealing import SealError, Sealer  # noqa: E402
from tests.helpers import run_async  # noqa: E402

SECRET = b"protocol-test-secret-0123456789ab"


@pytest.fixture
def client(tmp_path):
    app = create_app(bot_delay=0, secret=SECRET, allow_seed=True, state_dir=tmp_path)
    with TestClient(app) as c:
        yield c


def new_table(client, **body):
    r = client.post("/api/tables", json={"kind": "practice", **body})
    assert r.status_code == 200, r.text
    return r.json()


def until_state(ws, pred=lambda m: True, limit=2000):
    """Messages until a ``state`` for which ``pred`` holds; returns (state, all messages)."""
    seen = []
    for _ in range(limit):
        m = ws.receive_json()
        seen.append(m)
        if m["type"] == "state" and pred(m):
            return m, seen
    raise AssertionError("no such state")


def my_turn(m):
    return m["to_act"] == m["you"]["seat"] or m["phase"] in ("between-deals", "match-over")


def join(client, ws, info):
    ws.send_json({"type": "hello", "table": info["table"], "token": info["token"]})
    welcome = ws.receive_json()
    assert welcome["type"] == "welcome" and welcome["table"] == info["table"]
    state, _ = until_state(ws)
    return state


def fingerprint(client, table_id):
    table = client.app.state.tables.get(table_id)
    return json.dumps(table.match.snapshot(), sort_keys=True, default=str), len(table.log), table.paused


# ----- parsing --------------------------------------------------------------------------

@pytest.mark.parametrize("raw, words", [
    ("not json", "not JSON"),
    ("[1, 2]", "JSON object"),
    ('{"cards": ["9S"]}', "JSON object"),
    ('{"type": "dance"}', "unknown message type 'dance'"),
    ('{"type": "play"}', "cards"),
    ('{"type": "play", "cards": []}', "at least 1"),
    ('{"type": "play", "cards": ["9S", "9D", "9H", "9C", "10S"]}',
     "that is 5 cards: a play is at most 4 cards, all of one rank"),
    ('{"type": "play", "cards": ["1S"]}', 'such as "9S"'),
    ('{"type": "play", "cards": [9]}', "cards"),
    ('{"type": "pass", "extra": 1}', "extra"),
    ('{"type": "give", "cards": ["2S", "AS", "KS"]}', "that is 3 cards: the exchange gives at most 2"),
    ('{"type": "hello", "table": "x", "token": "y"}', "table"),
    ('{"type": "hello", "table": "../../etc/passwd", "token": "aaaaaaaaaa"}', "table"),
])
def test_parse_client_refuses_with_what_was_wrong(raw, words):
    with pytest.raises(P.MessageError) as e:
        P.parse_client(raw)
    assert words in e.value.message


def test_parse_client_accepts_each_type():
    assert isinstance(P.parse_client('{"type": "play", "cards": ["10h", "TS"]}'), P.PlayMsg)
    assert isinstance(P.parse_client(b'{"type": "pass"}'), P.PassMsg)
    assert isinstance(P.parse_client('{"type": "give", "cards": ["2S"]}'), P.GiveMsg)
    for t, cls in [("hint", P.HintMsg), ("next-deal", P.NextDealMsg), ("pause", P.PauseMsg),
                   ("resume", P.ResumeMsg)]:
        assert isinstance(P.parse_client(json.dumps({"type": t})), cls)
    with pytest.raises(P.MessageError, match="limit"):
        P.parse_client(" " * (P.MAX_MESSAGE_CHARS + 1))
    with pytest.raises(P.MessageError, match="UTF-8"):
        P.parse_client(b"\xff\xfe")


def test_readable_names_the_players():
    names = ["You", "Robin", "Alex", "Sam"]
    assert P.readable("it is seat 2's turn, not seat 0's", names, 0) == "it is Alex's turn, not yours"
    assert P.readable("seat 9 does not exist", names, 0) == "seat 9 does not exist"


# ----- HTTP -------------------------------------------------------------------------------

@pytest.mark.parametrize("body, status, words", [
    ({"kind": "match", "preset": "poker"}, 400, "no preset 'poker'"),
    ({"kind": "match", "preset": "house", "players": 3}, 400, "4 to 7"),
    ({"kind": "match", "preset": "house", "players": 9}, 422, "players"),
    ({"kind": "match", "preset": "house", "twists": ["jokers"]}, 400, "jokers"),
    ({"kind": "match", "players": 4, "levels": ["human", "simple", "genius", "simple"]}, 400, "genius"),
    ({"kind": "match", "players": 4, "levels": ["simple", "simple", "simple", "simple"]}, 400, "human"),
    ({"kind": "match", "players": 4, "names": ["a", "b"]}, 400, "give 4 names"),
    ({"kind": "casino"}, 422, "kind"),
    ({"kind": "match", "seed": -1}, 422, "seed"),
    ({"kind": "practice", "surprise": True}, 422, "surprise"),
])
def test_bad_table_requests_are_refused_and_change_nothing(client, body, status, words):
    before = len(client.app.state.tables)
    r = client.post("/api/tables", json=body)
    assert r.status_code == status
    assert words in r.json()["message"]
    assert len(client.app.state.tables) == before
    assert client.get("/api/options").status_code == 200  # the server is still up


def test_non_json_body_and_unknown_routes(client):
    r = client.post("/api/tables", content=b"\x00garbage", headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["error"] == "bad-request"
    assert client.get("/api/tables").status_code == 405
    assert client.get("/static/../app.py").status_code == 404
    assert client.get("/nope").status_code == 404


def test_chosen_seed_only_on_a_test_server(tmp_path):
    with TestClient(create_app(bot_delay=0, secret=SECRET, allow_seed=False, state_dir=tmp_path)) as c:
        r = c.post("/api/tables", json={"kind": "match", "seed": 5})
        assert r.status_code == 400 and "seed" in r.json()["message"]


def test_page_and_options_need_nothing_from_another_host(client):
    page = client.get("/")
    assert page.status_code == 200 and "default-src 'self'" in page.headers["content-security-policy"]
    html = page.text
    assert "http://" not in html and "https://" not in html
    js = client.get("/static/app.js").text
    assert "https://" not in js and "http://" not in js
    opts = client.get("/api/options").json()
    house = next(p for p in opts["presets"] if p["name"] == "house")
    assert (house["min_players"], house["max_players"]) == (4, 7)
    assert {t["name"] for t in house["twists"]} == set(TWISTS["house"])  # the registry
    assert "simple" in opts["levels"]


# ----- websocket ----------------------------------------------------------------------------

def test_practice_round_is_seed_003(client):
    info = new_table(client)
    with client.websocket_connect("/ws") as ws:
        state = join(client, ws, info)
        assert [s["name"] for s in state["seats"]] == ["You", "Robin", "Alex", "Sam"]
        assert [s["level"] for s in state["seats"]] == ["human", "simple", "simple", "simple"]
        assert state["to_act"] == 0 and state["to_beat"] is None and len(state["hand"]) == 13
        assert state["snapshot"] is None                      # a practice round is not saved
        # Play by hints to the end: after you go out the others play on to the last place.
        while state["phase"] == "play":
            ws.send_json({"type": "hint"})
            hint = ws.receive_json()
            assert hint["type"] == "hint"
            ws.send_json({"type": "pass"} if hint["pass"] else {"type": "play", "cards": hint["cards"]})
            state, _ = until_state(ws, my_turn)
        assert state["phase"] == "match-over"
        assert sorted(state["deals"][0]["order"][i]["name"] for i in range(4)) == ["Alex", "Robin", "Sam", "You"]
        order = state["finish_order"]
        assert len(order) == 4 and state["seats"][order[-1]]["cards"] > 0   # the last keeps theirs
        assert all(state["seats"][s]["cards"] == 0 for s in order[:3])
    assert client.app.state.tables.get(info["table"]) is None   # leaving clears the round


@pytest.mark.parametrize("raw", [
    "}{", '{"type": "play", "cards": ["ZZ"]}', '{"type": "hello", "table": "x"}',
    '{"type": "give", "cards": ["2S"]}', '{"type": "next-deal"}', '{"type": "play", "cards": ["3C", "3C"]}',
    '{"type": "pass"}', '{"type": "play", "cards": ["3C", "4C"]}', "x" * 500_000,
])
def test_malformed_or_illegal_message_changes_nothing(client, raw):
    info = new_table(client)
    with client.websocket_connect("/ws") as ws:
        state = join(client, ws, info)
        before = fingerprint(client, info["table"])
        ws.send_text(raw)
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["message"]
        assert fingerprint(client, info["table"]) == before
        # The same socket still plays: a legal lead is taken.
        lead = state["legal"][0]
        ws.send_json({"type": "play", "cards": lead})
        after, seen = until_state(ws)
        assert seen[0]["kind"] == "played" and seen[0]["cards"] == lead and seen[0]["seat"] == 0


def test_binary_garbage_and_messages_before_hello(client):
    info = new_table(client)
    with client.websocket_connect("/ws") as ws:
        ws.send_bytes(b"\xff\x00\x01")
        assert ws.receive_json()["reason"] == "bad-message"
        ws.send_json({"type": "pass"})
        reply = ws.receive_json()
        assert reply["reason"] == "bad-message" and "hello" in reply["message"]
        ws.send_json({"type": "hello", "table": info["table"], "token": "A" * 32})
        assert ws.receive_json()["reason"] == "unknown-table"
        state = join(client, ws, info)                       # the right token still works
        assert state["you"]["seat"] == 0
        ws.send_json({"type": "hello", "table": info["table"], "token": info["token"]})
        assert ws.receive_json()["type"] == "error"          # joining twice is refused


def test_refusals_carry_the_engine_reason_in_plain_words(client):
    info = new_table(client)
    with client.websocket_connect("/ws") as ws:
        state = join(client, ws, info)
        ws.send_json({"type": "pass"})
        r = ws.receive_json()
        assert r["reason"] == "cannot-pass-lead" and "you lead" in r["message"]
        missing = next(f"{rank}{suit}" for rank in "3456789JQKA" for suit in "CDHS"
                       if f"{rank}{suit}" not in state["hand"])
        ws.send_json({"type": "play", "cards": [missing]})
        r = ws.receive_json()
        assert r["reason"] == "not-in-hand" and missing in r["message"]
        ws.send_json({"type": "give", "cards": [state["hand"][0]]})
        assert ws.receive_json()["reason"] == "wrong-phase"


def house_match(client, **extra):
    body = {"kind": "match", "preset": "house", "players": 4, "seed": 11, **extra}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def test_restore_from_sealed_record_after_restart(client):
    info = house_match(client)
    tables = client.app.state.tables
    with client.websocket_connect("/ws") as ws:
        state = join(client, ws, info)
        for _ in range(3):                                  # a few turns in
            if state["phase"] != "play":
                break
            ws.send_json({"type": "play", "cards": state["legal"][0]} if "pass" not in state["legal"]
                         else {"type": "pass"})
            state, _ = until_state(ws, my_turn)
        snapshot = state["snapshot"]
        assert snapshot and state["table"]["waiting_for_human"]
    # The server forgets the table (as after a restart); the sealed record brings it back.
    client.portal.call(tables.drop, info["table"])
    assert tables.get(info["table"]) is None
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "table": info["table"], "token": info["token"]})
        assert ws.receive_json()["reason"] == "unknown-table"
        ws.send_json({"type": "hello", "table": info["table"], "token": info["token"], "snapshot": snapshot})
        assert ws.receive_json()["type"] == "welcome"
        again, _ = until_state(ws)
    for key in ("hand", "pile", "to_act", "deal", "scores", "phase", "legal", "seats"):
        assert again[key] == state[key], key


def test_sealed_records_are_opaque_and_tamper_proof(client):
    info = house_match(client)
    with client.websocket_connect("/ws") as ws:
        state = join(client, ws, info)
    snapshot = state["snapshot"]
    box = Sealer(SECRET)
    record = box.open(snapshot)
    assert record["seed"] == 11 and record["tokens"]["0"] == info["token"]
    for secret_text in (info["token"], '"seed"', '"log"', "house"):
        assert secret_text not in snapshot
    with pytest.raises(SealError):
        Sealer(b"another server's secret........").open(snapshot)
    flipped = snapshot[:40] + ("A" if snapshot[40] != "A" else "B") + snapshot[41:]
    client.portal.call(client.app.state.tables.drop, info["table"])
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "table": info["table"], "token": info["token"], "snapshot": flipped})
        r = ws.receive_json()
        assert r["reason"] == "bad-record" and "damaged" in r["message"]
    assert client.app.state.tables.get(info["table"]) is None


def test_match_deals_exchange_and_scores(client):
    """House rules (seed 000): 2 and 1 points, the exchange before deal 2, next-deal only
    between deals."""
    info = house_match(client)
    with client.websocket_connect("/ws") as ws:
        state = join(client, ws, info)
        ws.send_json({"type": "next-deal"})
        assert ws.receive_json()["reason"] == "wrong-phase"
        while state["phase"] == "play":
            ws.send_json({"type": "hint"})
            hint = ws.receive_json()
            ws.send_json({"type": "pass"} if hint["pass"] else {"type": "play", "cards": hint["cards"]})
            state, _ = until_state(ws, my_turn)
        assert state["phase"] == "between-deals"
        deal = state["deals"][0]
        assert [o["points"] for o in deal["order"]] == [2, 1, 0, 0]
        assert [o["title"] for o in deal["order"]] == ["President", "Vice-President", "3rd", "last"]
        assert sorted(state["scores"]) == [0, 0, 1, 2]
        ws.send_json({"type": "next-deal"})
        state, seen = until_state(ws, my_turn)
        kinds = [m.get("kind") for m in seen if m["type"] == "event"]
        assert kinds[0] == "dealt" and "exchanged" in kinds
        dealt = next(m for m in seen if m.get("kind") == "dealt")
        # Seed 000: the dealer moves one seat clockwise (seat 3 dealt first, so seat 0 now);
        # the previous President leads.
        assert dealt["dealer"] == state["dealer"] == 0
        president = deal["order"][0]["name"]
        why = " (the President leads)."      # the rules say why that seat leads
        assert dealt["text"] == f"Deal 2: You deal. {president} leads the first pile{why}" or \
            (president == "You" and dealt["text"] == f"Deal 2: You deal. You lead the first pile{why}")
        assert state["deal"] == 2


def seed_where_seat0_is(place_index: int) -> int:
    """A house-match seed after whose first deal, played by hints at every seat, seat 0 has
    the finishing place ``place_index`` (0 first, -1 last)."""
    from president import Match, Rules
    from president.players.simple import simple_choice
    for seed in range(500):
        m = Match(Rules.preset("house", players=4), ["You", "Alex", "Blair", "Casey"], seed=seed)
        while m.phase == "play":
            obs = m.observation(m.to_act)
            m.act(m.to_act, simple_choice(obs))
        if m.results[0].finish_order[place_index] == 0:
            return seed
    raise AssertionError("no such seed")


def test_bottom_gives_the_highest_card_and_a_lower_one_is_refused(client):
    """Seed 000: the previous last player hands their single highest card to the President."""
    info = house_match(client, seed=seed_where_seat0_is(-1))
    with client.websocket_connect("/ws") as ws:
        state = join(client, ws, info)
        while state["phase"] == "play":
            ws.send_json({"type": "hint"})
            hint = ws.receive_json()
            ws.send_json({"type": "pass"} if hint["pass"] else {"type": "play", "cards": hint["cards"]})
            state, _ = until_state(ws, my_turn)
        assert state["deals"][0]["order"][-1]["name"] == "You"
        ws.send_json({"type": "next-deal"})
        state, _ = until_state(ws, my_turn)
        pending = state["exchange"]["pending"]
        assert state["phase"] == "exchange" and pending["giver"] == state["you"]["seat"]
        assert pending["forced"] and pending["count"] == 1
        from president.cards import Card
        hand = [Card.parse(c) for c in state["hand"]]
        top = max(c.rank for c in hand)
        assert sorted(g[0] for g in state["legal"]) == sorted(str(c) for c in hand if c.rank == top)
        low = str(min(hand))
        ws.send_json({"type": "give", "cards": [low]})
        r = ws.receive_json()
        assert r["reason"] == "bad-exchange" and "highest" in r["message"]
        ws.send_json({"type": "hint"})
        assert ws.receive_json()["cards"] in state["legal"]
        ws.send_json({"type": "give", "cards": state["legal"][0]})
        state, seen = until_state(ws, lambda m: m["phase"] == "play")
        texts = [m["text"] for m in seen if m["type"] == "event"]
        assert texts[0].startswith("You give ") and texts[0].endswith(" (your highest).")
        assert any(" gives you " in t for t in texts)        # the President gives one back
        assert len(state["hand"]) == 13


def test_a_slow_computer_level_does_not_hold_up_other_tables(client):
    """``expert`` decides in the thinker's worker processes: while one of its decisions is
    held back, another table still answers."""
    import asyncio
    import threading
    from president.web.thinker import decide
    tables = client.app.state.tables
    slow = house_match(client, levels=["human", "expert", "expert", "expert"], seed=4)
    fast = new_table(client)
    release, started, finished = threading.Event(), threading.Event(), threading.Event()
    held = {"answered_while_thinking": None}

    async def thinking(level, obs, seed, hint=False):
        started.set()
        await asyncio.to_thread(release.wait, 10)
        finished.set()
        return decide(level, obs, seed)
    tables.thinker.decide = thinking
    with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
        state = join(client, a, slow)
        join(client, b, fast)
        assert state["to_act"] == 0                       # seat 0 leads the first deal
        a.send_json({"type": "play", "cards": state["legal"][0]})
        assert started.wait(timeout=10)                   # seat 1 (expert) is thinking
        b.send_json({"type": "hint"})
        reply = b.receive_json()
        held["answered_while_thinking"] = not finished.is_set()
        release.set()
        assert reply["type"] == "hint"
        state, _ = until_state(a, my_turn)
    assert held["answered_while_thinking"] is True
    assert tables.get(slow["table"]).match.deal.history[1][0] == 1   # the expert then played its turn


# ----- tester's findings: hostile messages, API consistency --------------------------------

@pytest.mark.parametrize("raw", [
    "[" * 990 + "]" * 990,                                        # ~2 KB, deeper than the stack allows
    '{"type": "play", "cards": ' + "[" * 990 + "]" * 990 + "}",
    "[" * 100_000,
    '{"type": "hint", "level": {"a": {"b": {"c": {"d": {"e": {"f": {"g": {"h": 1}}}}}}}}}',
])
def test_deeply_nested_json_gets_bad_message_and_keeps_the_socket(client, raw):
    info = new_table(client)
    with client.websocket_connect("/ws") as ws:
        state = join(client, ws, info)
        ws.send_text(raw)
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["reason"] == "bad-message"
        assert "brackets" in reply["message"] or "not JSON" in reply["message"]
        ws.send_json({"type": "play", "cards": state["legal"][0]})   # the round goes on
        _, seen = until_state(ws)
        assert seen[0]["kind"] == "played" and seen[0]["seat"] == 0
    with pytest.raises(P.MessageError, match="at most 8"):
        P.parse_client("[" * 990 + "]" * 990)


def test_garbage_snapshots_count_towards_the_bad_hello_limit(client):
    from starlette.websockets import WebSocketDisconnect
    from president.web.app import MAX_BAD_HELLOS
    hello = {"type": "hello", "table": "T" * 22, "token": "K" * 32, "snapshot": "garbage" * 10}
    with client.websocket_connect("/ws") as ws:
        for _ in range(MAX_BAD_HELLOS):
            ws.send_json(hello)
            assert ws.receive_json()["reason"] == "bad-record"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()          # the server closed the socket after the fifth
        assert closed.value.code == 1008   # policy violation, as for junk before a hello


def test_practice_is_not_a_match_preset(client):
    r = client.post("/api/tables", json={"kind": "match", "preset": "practice"})
    assert r.status_code == 400 and r.json()["error"] == "bad-rules"
    assert 'kind "practice"' in r.json()["message"] and "house" in r.json()["message"]
    assert "practice" not in [p["name"] for p in client.get("/api/options").json()["presets"]]
    assert len(client.app.state.tables) == 0


@pytest.mark.parametrize("names, pair", [
    (["Me", "Alex", "Alex", "Sam"], "seats 2 and 3"),
    (["Me", "alex", "Sam", " ALEX "], "seats 2 and 4"),
    (["You", "Alex", "Sam", "you"], "seats 1 and 4"),
])
def test_duplicate_names_are_refused(client, names, pair):
    r = client.post("/api/tables", json={"kind": "match", "players": 4, "names": names})
    assert r.status_code == 400 and r.json()["error"] == "bad-table"
    assert pair in r.json()["message"] and "different name" in r.json()["message"]
    assert len(client.app.state.tables) == 0


def test_head_and_favicon(client):
    r = client.head("/")
    assert r.status_code == 200 and r.text == ""
    assert r.headers["content-type"].startswith("text/html")
    html = client.get("/").text
    assert re.search(r'<link rel="icon" [^>]*href="data:image/svg\+xml,', html)


# ----- hints at any level -------------------------------------------------------------------

def test_options_list_hint_levels(client):
    from president.players import available_levels
    opts = client.get("/api/options").json()
    assert opts["hint_levels"] == available_levels() and opts["default_hint_level"] == "simple"


@pytest.mark.parametrize("level", list(LEVELS))
def test_hint_at_each_level_is_legal(client, level):
    from president.players import available_levels
    if level not in available_levels():
        pytest.skip(f"{level} is not installed")
    info = new_table(client)
    with client.websocket_connect("/ws") as ws:
        state = join(client, ws, info)
        ws.send_json({"type": "hint", "level": level})
        hint = ws.receive_json()
        assert hint["type"] == "hint" and not hint["pass"]      # a lead cannot pass
        assert hint["cards"] in state["legal"]


def test_a_pass_hint_says_whether_the_pass_is_forced():
    """A level may prefer to pass while a play beats the pile: the hint must not claim that
    nothing beats it (found by a new user asking the expert)."""
    from president import Match, Rules
    from president.web.hints import Hints
    m = Match(Rules.preset("practice"), hands=["3C 9S KH QS", "4C 5C 2S JD", "8C 8D 10C JC",
                                                "QC AC 2C 2D"])
    m.act(0, "KH")
    free = Hints._hint_text(PASS, m.observation(1), "intermediate")  # 2S beats, pass allowed
    assert free == {"type": "hint", "cards": None, "pass": True,
                    "text": "Pass: you could beat the pile, but the intermediate player would "
                            "keep its cards for later."}
    m.act(1, "2S")
    forced = Hints._hint_text(PASS, m.observation(2), "simple")      # nothing beats a 2
    assert forced["text"] == "Nothing you hold beats the pile: pass."


def test_a_browser_leaving_mid_answer_is_not_logged_as_a_failure(client, monkeypatch, caplog):
    from starlette.websockets import WebSocketDisconnect

    from president.web.tables import Table

    async def gone(self, player, conn, msg):
        raise WebSocketDisconnect(1001)

    info = new_table(client)
    with client.websocket_connect("/ws") as ws:
        join(client, ws, info)
        monkeypatch.setattr(Table, "handle", gone)
        ws.send_json({"type": "hint", "level": "expert"})
    monkeypatch.undo()
    assert not [r for r in caplog.records if "failed on" in r.getMessage()]
    assert client.get("/api/options").status_code == 200


def test_hint_level_is_validated(client):
    info = new_table(client)
    with client.websocket_connect("/ws") as ws:
        join(client, ws, info)
        before = fingerprint(client, info["table"])
        ws.send_json({"type": "hint", "level": "genius"})
        r = ws.receive_json()
        assert r["type"] == "error" and r["reason"] == "bad-level" and "simple" in r["message"]
        ws.send_json({"type": "hint", "level": "Expert; drop"})
        assert ws.receive_json()["reason"] == "bad-message"
        assert fingerprint(client, info["table"]) == before


def test_slow_hint_thinks_in_a_worker_with_the_seat_view_only(client):
    """An expert hint does not hold up the event loop (it goes to the thinker's worker
    processes), and its player is given only the human seat's own observation."""
    import asyncio
    import threading
    from president.observation import Observation
    release, started = threading.Event(), threading.Event()
    seen = []

    async def slow(level, obs, seed, hint=False):
        seen.append((level, obs))
        started.set()
        await asyncio.to_thread(release.wait, 10)
        return obs.legal_actions[-1]
    client.app.state.tables.thinker.decide = slow
    slow, fast = new_table(client), new_table(client)
    with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
        state = join(client, a, slow)
        join(client, b, fast)
        a.send_json({"type": "hint", "level": "expert"})
        assert started.wait(timeout=10)
        b.send_json({"type": "hint"})                  # another table answers meanwhile
        other = b.receive_json()
        answered_while_thinking = not release.is_set()
        release.set()
        hint = a.receive_json()
    assert answered_while_thinking and other["type"] == "hint"
    assert hint["cards"] == state["legal"][-1]
    assert len(seen) == 1 and seen[0][0] == "expert"
    assert isinstance(seen[0][1], Observation) and seen[0][1].seat == 0
    assert [str(c) for c in seen[0][1].hand] == state["hand"]


# ----- the play log comes back on reconnect ---------------------------------------------------

def test_reconnect_sends_this_deals_log(client):
    info = new_table(client)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "table": info["table"], "token": info["token"]})
        first = [ws.receive_json() for _ in range(2)]
        assert first[0]["type"] == "welcome" and first[1]["type"] == "log"
        texts = [e["text"] for e in first[1]["events"]]
        state, _ = until_state(ws)
        for _ in range(3):
            ws.send_json({"type": "hint"})
            hint = ws.receive_json()
            ws.send_json({"type": "pass"} if hint["pass"] else {"type": "play", "cards": hint["cards"]})
            state, seen = until_state(ws, my_turn)
            texts += [m["text"] for m in seen if m["type"] == "event"]
            if state["phase"] != "play":
                break
        with client.websocket_connect("/ws") as again:   # a reload: the first socket keeps the round
            again.send_json({"type": "hello", "table": info["table"], "token": info["token"]})
            assert again.receive_json()["type"] == "welcome"
            log = again.receive_json()
            assert log["type"] == "log" and log["deal"] == 1
            assert [e["text"] for e in log["events"]] == texts
            assert log["events"][0]["kind"] == "dealt" and texts[0].startswith("Deal 1:")
            assert sum(e["kind"] == "played" for e in log["events"]) >= 4


def test_the_deal_end_says_who_is_left_holding_cards_live_and_on_reconnect(client):
    """The terminal's "Sam is left holding 1 card: 4th place (last)." reaches the browser in
    the deal-ended event (``left_holding``), live and in the log a reload gets."""
    info = new_table(client)
    with client.websocket_connect("/ws") as ws:
        state = join(client, ws, info)
        events = []
        while state["phase"] == "play":
            ws.send_json({"type": "hint"})
            hint = ws.receive_json()
            ws.send_json({"type": "pass"} if hint["pass"] else {"type": "play", "cards": hint["cards"]})
            state, seen = until_state(ws, my_turn)
            events += [m for m in seen if m["type"] == "event"]
        ended = [e for e in events if e["kind"] == "deal-ended"]
        assert len(ended) == 1
        last = state["finish_order"][-1]
        held = state["seats"][last]["cards"]
        name = "You" if last == state["you"]["seat"] else state["seats"][last]["name"]
        be = "are" if last == state["you"]["seat"] else "is"
        cards = f"{held} card{'s' if held != 1 else ''}"
        assert ended[0]["left_holding"] == {
            "seat": last, "cards": held, "text": f"{name} {be} left holding {cards}: 4th place (last)."}
        with client.websocket_connect("/ws") as again:   # a reload: the same sentence in the log
            again.send_json({"type": "hello", "table": info["table"], "token": info["token"]})
            assert again.receive_json()["type"] == "welcome"
            log = again.receive_json()
            assert [e for e in log["events"] if e["kind"] == "deal-ended"] == ended


def test_left_holding_after_an_exchange_is_the_same_live_and_in_the_log(client):
    """Deal 2 of a house match (cards changed hands in the exchange): the count the log
    follows through the deal's events is the count the table had at the deal's end."""
    info = house_match(client)
    with client.websocket_connect("/ws") as ws:
        state = join(client, ws, info)
        live, held = [], []
        for deal in range(2):
            while state["phase"] in ("play", "exchange"):
                ws.send_json({"type": "hint"})
                hint = ws.receive_json()
                kind = "give" if state["phase"] == "exchange" else "play"
                ws.send_json({"type": "pass"} if hint["pass"] else {"type": kind, "cards": hint["cards"]})
                state, seen = until_state(ws, my_turn)
                live += [m for m in seen if m["type"] == "event" and m["kind"] == "deal-ended"]
            held.append(state["seats"][state["finish_order"][-1]]["cards"])
            if deal == 0:
                ws.send_json({"type": "next-deal"})
                state, seen = until_state(ws, my_turn)
                assert any(m.get("kind") == "exchanged" for m in seen)
        assert [e["left_holding"]["cards"] for e in live] == held and len(held) == 2
        with client.websocket_connect("/ws") as again:
            again.send_json({"type": "hello", "table": info["table"], "token": info["token"]})
            assert again.receive_json()["type"] == "welcome"
            log = again.receive_json()
            assert [e for e in log["events"] if e["kind"] == "deal-ended"] == live


def test_left_holding_only_with_a_count():
    from president.events import DealEnded
    names = ["You", "Robin", "Alex", "Sam"]
    ev = DealEnded(finish_order=(2, 0, 1, 3), points=(1, 0, 2, 0), totals=(1, 0, 2, 0),
                   titles=("Vice-President", "3rd", "President", "last"))
    assert "left_holding" not in P.event_message(ev, 0, names, 4, names)
    assert P.event_message(ev, 0, names, 4, names, held=3)["left_holding"] == {
        "seat": 3, "cards": 3, "text": "Sam is left holding 3 cards: 4th place (last)."}
    assert P.event_message(ev, 3, names, 4, names, held=1)["left_holding"]["text"] == \
        "You are left holding 1 card: 4th place (last)."


# ----- issue 8: speed, cards gone per rank, rules in plain words ---------------------------


def test_speed_message_paces_the_table_and_is_shown(client):
    info = new_table(client)
    table = client.app.state.tables.get(info["table"])
    table.bot_delay = 0.8            # as under `president serve`
    with client.websocket_connect("/ws") as ws:
        state = join(client, ws, info)
        assert state["table"]["speed"] == "normal" and table.delay == pytest.approx(0.8)
        ws.send_json({"type": "speed", "speed": "slow"})
        state, _ = until_state(ws, lambda m: m["table"]["speed"] == "slow")
        assert table.delay == pytest.approx(1.6)
        ws.send_json({"type": "speed", "speed": "instant"})
        until_state(ws, lambda m: m["table"]["speed"] == "instant")
        assert table.delay == 0
        ws.send_json({"type": "speed", "speed": "ludicrous"})
        err = ws.receive_json()
        assert err["type"] == "error" and err["reason"] == "bad-message" and "speed" in err["message"]
        assert table.speed == "instant"


def test_gone_by_rank_counts_face_up_cards_only():
    from president import Match, Rules
    m = Match(Rules.preset("practice"), ["You", "Robin", "Alex", "Sam"], seed=3)
    lowest = min(m.deal.hand(0))
    m.act(0, [lowest])
    obs = m.observation(1)
    gone = dict(P.gone_by_rank(obs))
    assert list(dict(P.gone_by_rank(obs))) == ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
    assert gone[lowest.rank.symbol] == 1 and sum(gone.values()) == 1
    while m.to_act is not None and sum(dict(P.gone_by_rank(m.observation(0))).values()) < 12:
        seat = m.to_act
        m.act(seat, m.legal_actions()[-1] if len(m.legal_actions()) > 1 else m.legal_actions()[0])
    obs = m.observation(2)
    face_up = [c for c in obs.cleared] + [c for _, p in obs.pile for c in p.cards]
    assert sum(n for _, n in P.gone_by_rank(obs)) == len(face_up) >= 12


def test_rules_panel_is_in_plain_words(client):
    info = new_table(client)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "table": info["table"], "token": info["token"]})
        welcome = ws.receive_json()
    rules = {r["label"]: r["text"] for r in welcome["rules"]}
    assert rules["First deal's lead"] == "you"          # seed 003: you lead the opening pile
    text = json.dumps(welcome["rules"])
    assert "seat 0" not in text and "seed" not in text and "docs/" not in text
    assert all(r["help"] for r in welcome["rules"])


def test_match_over_says_you_win_to_the_winner():
    from president.events import MatchEnded
    names = ["You", "Robin", "Alex", "Sam"]
    ev = MatchEnded(winners=(0,), scores=(11, 3, 2, 1))
    assert P.event_message(ev, 0, names, 4, names)["text"] == "Match over: You win."
    assert P.event_message(ev, 1, names, 4, names)["text"] == "Match over: You wins."
    both = MatchEnded(winners=(0, 2), scores=(11, 3, 11, 1))
    assert P.event_message(both, 0, names, 4, names)["text"] == "Match over: You and Alex share the win."
    assert P.event_message(both, 3, names, 4, names)["text"] == "Match over: You and Alex share the win."


def test_thinker_decides_in_another_process_and_by_its_seed():
    import os
    from president import Match, Rules
    from president.web.thinker import Thinker
    thinker = Thinker(1)
    try:
        assert thinker._executor().submit(os.getpid).result(timeout=30) != os.getpid()
        m = Match(Rules.preset("house", players=4), ["A", "B", "C", "D"], seed=9)
        obs = m.observation(m.to_act)

        async def twice():
            return [await thinker.decide("intermediate", obs, 5) for _ in range(2)]
        first, second = run_async(twice)
        assert first in obs.legal_actions and first == second        # same seed, same choice
        assert thinker.pending == 0 and thinker.hints == 0 and not thinker.busy()
        # A worker that outlives its server would leak: each worker dies with its parent.
        pdeathsig = thinker._executor().submit(_parent_death_signal).result(timeout=30)
        assert pdeathsig == 9
        # A search runs only when the event loop leaves a core idle (Linux's SCHED_IDLE):
        # with nice 10 a worker still took turns with the loop and doubled other players' p95.
        if hasattr(os, "SCHED_IDLE"):
            assert thinker._executor().submit(os.sched_getscheduler, 0).result(timeout=30) \
                == os.SCHED_IDLE
        # Hints fill at most one place per worker; the seats' decisions never count.
        thinker.hints = thinker.max_pending
        assert thinker.busy()
    finally:
        thinker.close()


def test_a_dead_worker_is_replaced_and_the_decision_asked_again():
    """An attack found that one worker killed (the OOM killer, a crash) broke the pool for
    good: every expert seat and hint of every table stopped until a restart."""
    import os
    import time
    from president import Match, Rules
    from president.web.thinker import Thinker
    thinker = Thinker(1)
    try:
        m = Match(Rules.preset("house", players=4), ["A", "B", "C", "D"], seed=9)
        obs = m.observation(m.to_act)
        broken = thinker._executor()
        broken.submit(os._exit, 1)                       # the worker dies
        deadline = time.monotonic() + 30
        while not broken._broken and time.monotonic() < deadline:
            time.sleep(0.05)
        assert broken._broken

        async def twice():
            return [await thinker.decide("intermediate", obs, 5) for _ in range(2)]
        first, second = run_async(twice)
        assert first in obs.legal_actions and first == second
        assert thinker._pool is not None and thinker._pool is not broken
        assert thinker.pending == 0
    finally:
        thinker.close()


def test_a_hung_worker_is_replaced_and_the_decision_times_out():
    """A re-attack stopped the one worker (kill -STOP): every expert seat and hint waited
    for ever. A decision past its time kills and replaces the pool and raises TimeoutError
    (the table's fallback level then decides); the next decision runs on new workers."""
    import asyncio
    import os
    import signal
    from president import Match, Rules
    from president.web.thinker import Thinker
    thinker = Thinker(1, timeout=2.0)
    try:
        m = Match(Rules.preset("house", players=4), ["A", "B", "C", "D"], seed=9)
        obs = m.observation(m.to_act)
        hung = thinker._executor()
        worker = hung.submit(os.getpid).result(timeout=30)
        os.kill(worker, signal.SIGSTOP)

        async def stuck():
            try:
                await thinker.decide("intermediate", obs, 5)
            except asyncio.TimeoutError:
                return "timed out"
            return "answered"
        assert run_async(stuck) == "timed out"
        assert thinker._pool is None and thinker.pending == 0
        # New workers (started from this thread: a worker dies with the thread that started
        # it, PR_SET_PDEATHSIG, and run_async's thread ends after each call)
        assert thinker._executor().submit(os.getpid).result(timeout=30) != worker

        async def again():
            return await thinker.decide("intermediate", obs, 5)
        assert run_async(again) in obs.legal_actions
    finally:
        thinker.close()


def test_a_failed_search_lets_the_fallback_level_choose(caplog):
    """A slow level that cannot decide (its worker died twice, a bot of your own raised)
    gets the fallback level's choice, so the table goes on, and the failure is logged."""
    from president.players import make_player
    from president.web.levels import THINK_FALLBACK
    from president.web.state import TableState

    class Failing:
        async def decide(self, *args: object, **kwargs: object) -> object:
            raise RuntimeError("the worker is gone")

    from president import Match, Rules
    m = Match(Rules.preset("house", players=4), ["A", "B", "C", "D"], seed=9)
    obs = m.observation(m.to_act)
    table = object.__new__(TableState)
    table.thinker = Failing()
    with caplog.at_level("ERROR", logger="president.web"):
        choice = run_async(lambda: table._think("expert", obs, 77))
    assert choice == make_player(THINK_FALLBACK, seed=77).act(obs)
    assert "the expert computer player failed to decide" in caplog.text


def test_the_search_pool_leaves_the_event_loop_a_core():
    from president.web.thinker import Thinker, default_workers
    assert [default_workers(c) for c in (1, 2, 4, 16)] == [1, 1, 3, 15]
    assert Thinker().workers == default_workers() and Thinker(3).workers == 3


def test_a_seat_opens_in_at_most_four_pages(client):
    from president.web.tables import MAX_SOCKETS_PER_SEAT
    info = house_match(client, seed=1)
    sockets = [client.websocket_connect("/ws") for _ in range(MAX_SOCKETS_PER_SEAT + 1)]
    opened = [s.__enter__() for s in sockets]
    try:
        for ws in opened[:MAX_SOCKETS_PER_SEAT]:
            join(client, ws, info)
        extra = opened[-1]
        extra.send_json({"type": "hello", "table": info["table"], "token": info["token"]})
        err = extra.receive_json()
        assert err["type"] == "error" and err["reason"] == "too-many-pages" and "4 pages" in err["message"]
        table = client.app.state.tables.get(info["table"])
        assert table.connected == MAX_SOCKETS_PER_SEAT
    finally:
        for s in sockets:
            try:
                s.__exit__(None, None, None)
            except Exception:
                pass


def test_store_keeps_every_table_and_forgets_stale_ones(tmp_path):
    import time as _time
    from president.web.app import create_app as make
    app = make(bot_delay=0, secret=SECRET, allow_seed=True, state_dir=tmp_path)
    with TestClient(app) as c:
        tables = c.app.state.tables
        info = new_table(c, kind="match", preset="house", players=4, seed=2)
        assert info["table"] in tables.store and len(tables) == 1
        # Out of memory, still on disk: the same table comes back on the next look-up.
        tables.tables.clear()
        tables._fresh.clear()
        back = tables.get(info["table"])
        assert back is not None and back.id == info["table"] and back.humans[0].token == info["token"]
        # Nobody joined it: after unjoined_seconds it is forgotten, found by index.
        tables.unjoined_seconds = 0
        _time.sleep(0.01)
        tables._sweep(force=True)
        assert tables.get(info["table"]) is None and len(tables) == 0


def test_a_table_with_an_open_page_is_never_forgotten_as_idle(tmp_path):
    """An attack found the idle expiry (6 hours without an action) deleting a table whose
    pages were still open: a reload then got unknown-table, or rebuilt a second copy beside
    the first from its record. A table with a socket is in use: it stays (its idle clock
    starts again), and a table that was closed anyway refuses what its old sockets send."""
    import time as _time
    from president.web.app import create_app as make
    app = make(bot_delay=0, secret=SECRET, allow_seed=True, state_dir=tmp_path)
    with TestClient(app) as c:
        tables = c.app.state.tables
        info = new_table(c, kind="match", preset="house", players=4, seed=2)
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "table": info["table"], "token": info["token"]})
            assert ws.receive_json()["type"] == "welcome"
            tables.idle_seconds = 0
            _time.sleep(0.01)
            tables._sweep(force=True)
            assert info["table"] in tables.store and info["table"] in tables.tables
            assert len(tables) == 1
            table = tables.tables[info["table"]]
            # the idle clock started again: a later sweep with a real limit keeps it too
            tables.idle_seconds = 3600
            tables._sweep(force=True)
            assert info["table"] in tables.store
            # a table closed under its sockets (it cannot happen by expiry now) refuses
            table.close()
            while True:
                msg = ws.receive_json()
                if msg["type"] == "state":
                    break
            ws.send_json({"type": "pass"})
            err = ws.receive_json()
            assert err["type"] == "error" and err["reason"] == "unknown-table", err
        # without a socket it is forgotten when idle, as before
        tables.idle_seconds = 0
        tables.tables.pop(info["table"], None)
        _time.sleep(0.01)
        tables._sweep(force=True)
        assert info["table"] not in tables.store and len(tables) == 0


def test_a_stored_table_is_rebuilt_only_for_its_own_seat_token(tmp_path, monkeypatch):
    """An attack found that a hello with any token for a stored table (on disk, not in
    memory) replayed its whole log on the event loop before the token was checked: a long
    table stalled the server for every hello. Now a wrong token costs one row read and
    rebuilds nothing; the right one rebuilds it (in a worker thread) and joins."""
    from president.web import tables as tables_mod
    from president.web.app import create_app as make
    rebuilt = []
    real = tables_mod.Table.from_record.__func__

    def counting(cls, record, **kw):
        rebuilt.append(record["id"])
        return real(cls, record, **kw)
    monkeypatch.setattr(tables_mod.Table, "from_record", classmethod(counting))
    app = make(bot_delay=0, secret=SECRET, allow_seed=True, state_dir=tmp_path)
    with TestClient(app) as c:
        tables = c.app.state.tables
        info = new_table(c, kind="match", preset="house", players=4, seed=2)
        snapshot = tables.get(info["table"]).snapshot()
        rebuilt.clear()
        tables.tables.clear()                       # on disk only, as after a restart
        tables._fresh.clear()
        with c.websocket_connect("/ws") as ws:
            # the seat token with its last character changed (to "x", or "y" when it
            # already ends in "x": 1 token in 64 did, and then this "wrong" token was right)
            near = info["token"][:-1] + ("y" if info["token"].endswith("x") else "x")
            assert near != info["token"]
            for wrong in ("A" * 22, near):
                ws.send_json({"type": "hello", "table": info["table"], "token": wrong})
                assert ws.receive_json()["reason"] == "unknown-table"
            # nor with the table's own sealed record beside a wrong token
            ws.send_json({"type": "hello", "table": info["table"], "token": "B" * 22,
                          "snapshot": snapshot})
            assert ws.receive_json()["reason"] == "unknown-table"
            assert rebuilt == [] and info["table"] not in tables.tables
            state = join(c, ws, info)
            assert rebuilt == [info["table"]] and state["you"]["player"] == 0
        # a table in memory answers from memory: no second rebuild
        with c.websocket_connect("/ws") as ws:
            join(c, ws, info)
        assert rebuilt == [info["table"]]


def test_a_table_being_rebuilt_is_not_forgotten_under_its_waiting_page(tmp_path):
    """A re-attack found the idle expiry deleting a stored table while a hello was
    rebuilding it: the page then played on a table the store no longer had (its actions
    written without a table row). A table being rebuilt is in use; and a rebuilt table the
    store no longer holds is not put back into play."""
    import asyncio as _asyncio
    import time as _time
    from president.web.app import create_app as make
    app = make(bot_delay=0, secret=SECRET, allow_seed=True, state_dir=tmp_path)
    with TestClient(app) as c:
        tables = c.app.state.tables
        info = new_table(c, kind="match", preset="house", players=4, seed=2)
        tables.tables.clear()
        tables._fresh.clear()
        loop = _asyncio.new_event_loop()
        try:
            tables._rebuilding[info["table"]] = loop.create_future()   # a hello is waiting
            tables.idle_seconds = tables.unjoined_seconds = 0
            _time.sleep(0.01)
            tables._sweep(force=True)
            assert info["table"] in tables.store
            del tables._rebuilding[info["table"]]
            built = tables._rebuild(info["table"])
            tables.store.remove(info["table"])                          # gone meanwhile
            assert tables._settle_rebuilt(info["table"], built) is None
            assert info["table"] not in tables.tables
        finally:
            loop.close()


def test_a_hello_cancelled_during_a_rebuild_leaves_the_table_to_the_next(tmp_path):
    """Hellos for one stored table share one rebuild; if the first one's socket goes away
    meanwhile (its task cancelled), the next still gets the table."""
    import asyncio as _asyncio
    from president.web.sealing import Sealer
    from president.web.store import TableStore
    from president.web.tables import Tables
    from tests.helpers import run_async
    tables = Tables(sealer=Sealer(b"k" * 32), bot_delay=0, allow_seed=True, per_address=0,
                    store=TableStore(tmp_path / "tables.sqlite3"))
    made = tables.create(kind="match", preset="house", players=4, seed=3)
    token = made.humans[0].token
    tables.tables.clear()
    tables._fresh.clear()

    async def go():
        first = _asyncio.ensure_future(tables.get_async(made.id, token))
        second = _asyncio.ensure_future(tables.get_async(made.id, token))
        await _asyncio.sleep(0)
        first.cancel()
        got = await second
        assert first.cancelled()
        return got
    got = run_async(go)
    assert got is not None and got.id == made.id and tables.tables[made.id] is got
    got.close()


def test_a_table_stops_dealing_at_its_most_actions(tmp_path, monkeypatch):
    """One table's log is bounded (MAX_TABLE_ACTIONS): past it no next deal or rematch
    starts there, with a clear refusal; the deal in play was played to its end."""
    from president.web import tables as tables_mod
    from president.web.app import create_app as make
    monkeypatch.setattr(tables_mod, "MAX_TABLE_ACTIONS", 10)
    app = make(bot_delay=0, secret=SECRET, allow_seed=True, state_dir=tmp_path)
    with TestClient(app) as c:
        info = new_table(c, kind="match", preset="house", players=4, seed=2)
        with c.websocket_connect("/ws") as ws:
            state = join(c, ws, info)
            while state["phase"] not in ("between-deals", "match-over"):
                if state["to_act"] == state["you"]["seat"]:
                    move = state["legal"][-1]
                    ws.send_json({"type": "pass"} if move == "pass" else
                                 {"type": "play", "cards": move})
                state, _ = until_state(ws, my_turn)
            assert len(c.app.state.tables.get(info["table"]).log) > 10
            ws.send_json({"type": "next-deal"})
            err = ws.receive_json()
            assert err["type"] == "error" and err["reason"] == "table-full"
            assert "10" in err["message"] and "new table" in err["message"]


def test_per_address_rate_of_new_tables(tmp_path):
    from president.web.app import create_app as make
    app = make(bot_delay=0, secret=SECRET, allow_seed=True, state_dir=tmp_path, per_address=3)
    with TestClient(app) as c:
        codes = [c.post("/api/tables", json={"kind": "practice"}).status_code for _ in range(5)]
        assert codes == [200, 200, 200, 429, 429]
        r = c.post("/api/tables", json={"kind": "practice"})
        assert r.json()["error"] == "busy" and "a minute" in r.json()["message"]



def _parent_death_signal() -> int:
    """The signal this process gets when its parent dies (Linux ``PR_GET_PDEATHSIG``)."""
    import ctypes
    out = ctypes.c_int(0)
    ctypes.CDLL(None, use_errno=True).prctl(2, ctypes.byref(out))
    return out.value


def test_remembered_sentences_of_plays_and_passes_are_the_narrators_own():
    """event_message keeps the sentences of plays and passes (protocol._said); each one is
    what narrate writes for that event, reader and rules, quads under the reversal twist
    included."""
    import random as _random

    from president.actions import Play
    from president.events import Passed, Played
    from president.match import Match
    from president.narration import narrate
    from president.rules import Rules
    from president.web.protocol import FOR_YOU, Reader, event_message, reader_for

    names = ["You", "Robin", "Sam", "Alex"]
    checked = 0
    for rules in (Rules.preset("house"), Rules.preset("house", twists=["reversal"])):
        rng = _random.Random(7)
        match = Match(rules, seed=11)
        events = []
        while len(events) < 300 and match.phase in ("play", "exchange", "between-deals"):
            if match.phase == "between-deals":
                match.start_next_deal()
                continue
            events += match.act(match.to_act, rng.choice(match.legal_actions()))
        quad = Played(2, Play.parse("9C 9D 9H 9S"), True)
        for ev in [e for e in events if isinstance(e, (Played, Passed))] + [quad]:
            for seat in range(4):
                for for_you in (False, True):
                    reader = reader_for(seat, names, names)
                    if for_you and getattr(ev, "seat", None) == seat:
                        said = list(names)
                        said[seat] = FOR_YOU
                        reader = Reader(tuple(said), None, symbols=reader.symbols,
                                        player=reader.player)
                    for _ in range(2):       # written, then remembered
                        text = event_message(ev, seat, names, 4, names, rules=rules,
                                             for_you=for_you)["text"]
                        assert text == narrate(ev, reader, rules=rules).full
                    checked += 1
        reversed_words = "turns the rank order around" in event_message(
            quad, 0, names, 4, names, rules=rules)["text"]
        assert reversed_words == rules.reversal
    assert checked > 1000
