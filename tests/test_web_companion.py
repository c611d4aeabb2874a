"""The table companion's HTTP routes (``president.web.companion``): stateless, the sheet sent
whole, one change at a time, every refusal in the documented shape with nothing changed."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from president import records  # noqa: E402
from president.companion import Sheet, view  # noqa: E402
from president.web.app import create_app  # noqa: E402

SHEET = {"rules": "house", "players": ["Alex", "Blair", "Casey", "Drew"], "first_dealer": 3,
         "entries": []}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    app = create_app(bot_delay=0, secret=b"companion-test-secret-0123456789ab",
                     allowed_hosts=["testserver"],
                     state_dir=tmp_path_factory.mktemp("state"))
    with TestClient(app) as c:
        yield c


def post(client, body, path="/api/companion"):
    return client.post(path, json=body)


def test_a_house_match_deal_by_deal_to_a_shared_win(client):
    sheet = SHEET
    r = post(client, {"sheet": sheet})
    assert r.status_code == 200
    v = r.json()["view"]
    assert v["now"]["dealer"] == "Drew" and v["now"]["leader"] == "Alex" and v["totals"] == [0] * 4
    orders = [["Blair", "Alex", "Casey"], ["Alex", "Blair", "Casey"]] * 2 + [
        ["Blair", "Alex", "Casey"], ["Blair", "Casey", "Alex"], ["Alex", "Casey", "Blair"],
        ["Alex", "Blair", "Casey"]]
    for i, order in enumerate(orders):
        r = post(client, {"sheet": sheet, "order": order})
        assert r.status_code == 200, r.text
        sheet = r.json()["sheet"]
        assert len(sheet["entries"]) == i + 1 and len(sheet["entries"][-1]) == 4
    v = r.json()["view"]
    assert v["over"] and v["winners"] == ["Alex", "Blair"] and v["totals"] == [11, 11, 2, 0]
    assert v == view(Sheet.from_dict(sheet))
    r = post(client, {"sheet": sheet, "order": ["Alex", "Blair", "Casey"]})
    assert r.status_code == 400 and r.json()["error"] == "match-over"


def test_replay_and_undo(client):
    r = post(client, {"sheet": SHEET, "order": ["Drew", "Casey", "Blair"]})
    sheet = r.json()["sheet"]
    again = post(client, {"sheet": sheet, "replay": True}).json()
    assert again["sheet"]["entries"][-1] == "replayed"
    assert again["view"]["now"]["exchange"] == r.json()["view"]["now"]["exchange"]
    assert again["view"]["now"]["replays"] == 1
    back = post(client, {"sheet": again["sheet"], "undo": True}).json()
    assert back["sheet"] == sheet
    r = post(client, {"sheet": SHEET, "undo": True})
    assert r.status_code == 400 and r.json()["error"] == "nothing-to-undo"
    r = post(client, {"sheet": SHEET, "undo": True, "replay": True})
    assert r.status_code == 422 and r.json()["error"] == "bad-request"


@pytest.mark.parametrize("change, error, words", [
    ({"order": ["Alex", "Alex", "Casey"]}, "name-twice", "Alex is named twice"),
    ({"order": ["Alex"]}, "missing-player", "leaves out Blair, Casey and Drew"),
    ({"order": ["Alex", "Blair", "Eve"]}, "unknown-name", "'Eve' is not at this table"),
    ({"sheet": {**SHEET, "players": ["Alex", "Blair", "alex", "Drew"]}}, "same-name",
     "seats 1 and 3"),
    ({"sheet": {**SHEET, "players": ["Alex", "Blair", "\u0410lex", "Drew"]}}, "same-name",
     "look alike"),
    ({"sheet": {**SHEET, "players": ["Alex", "Bl\u202eair", "Casey", "Drew"]}}, "bad-name",
     "U+202E"),
    ({"sheet": {**SHEET, "players": ["Alex", "Blair", "Casey", "Drew", "Eve", "Fay", "Gil"],
                "rules": "house+nope"}}, "bad-rules", "no twist 'nope'"),
    ({"sheet": {**SHEET, "entries": [["Alex", "Blair", "Casey", "Drew"]] * 60}}, "match-over",
     "the match is over"),
])
def test_bad_input_gets_a_clear_message(client, change, error, words):
    r = post(client, {"sheet": SHEET, **change})
    assert r.status_code == 400
    body = r.json()
    assert set(body) == {"error", "message"} and body["error"] == error
    assert words.lower() in body["message"].lower(), body["message"]


@pytest.mark.parametrize("body", [
    {"sheet": {**SHEET, "extra": 1}}, {"sheet": {**SHEET, "players": ["A"] * 8}},
    {"sheet": {**SHEET, "first_dealer": "3"}}, {"sheet": SHEET, "order": [{"x": 1}]},
    {"sheet": {**SHEET, "players": ["x" * 50, "B", "C", "D"]}}, [], "x",
])
def test_bodies_of_the_wrong_shape_are_422(client, body):
    r = post(client, body)
    assert r.status_code == 422 and r.json()["error"] == "bad-request", r.text
    assert "send JSON such as" in r.json()["message"]


def test_a_body_over_16_kib_is_413(client):
    r = client.post("/api/companion", content=b"{" + b" " * 17000 + b"}",
                    headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"] == "too-large"


def test_export_is_a_record_replay_accepts_and_import_gives_the_same_sheet(client):
    sheet = SHEET
    for change in ({"order": ["Drew", "Casey", "Blair"]}, {"replay": True},
                   {"order": ["Alex", "Blair", "Casey"]}, {"replay": True}):
        sheet = post(client, {"sheet": sheet, **change}).json()["sheet"]
    r = post(client, {"sheet": sheet}, "/api/companion/export")
    assert r.status_code == 200
    record = r.json()
    assert record["format"] == "president/2" and record["players"] == SHEET["players"]
    result = records.replay(records.loads(json.dumps(record)))
    assert result.ok and result.scores == view(Sheet.from_dict(sheet))["totals"] == [2, 1, 1, 2]
    back = post(client, record, "/api/companion/import")
    assert back.status_code == 200 and back.json()["sheet"] == sheet
    bad = post(client, {**record, "format": "president/9"}, "/api/companion/import")
    assert bad.status_code == 400 and bad.json()["error"] == "bad-record"
    assert "not a score sheet or game record" in bad.json()["message"]
    r = client.post("/api/companion/import", content=b"[1]",
                    headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["error"] == "bad-request"


def test_setup_refusals_are_sentences_and_equal_names_are_both_named(client):
    alike = post(client, {"sheet": {**SHEET, "players": ["Alex", "Blair", "alex", "Drew"]}}).json()
    assert alike["message"] == ("Seats 1 and 3 are named 'Alex' and 'alex', which look alike; "
                                "give each player a different name.")
    same = post(client, {"sheet": {**SHEET, "players": ["Alex ", "Blair", "Alex", "Drew"]}}).json()
    assert same["message"] == "Seats 1 and 3 are both named 'Alex'; give each player a different name."
    long = post(client, {"sheet": {**SHEET, "players": ["A" * 25, "Blair", "Casey", "Drew"]}})
    assert long.status_code == 400 and long.json()["message"].startswith("Seat 1's name")
    extra = post(client, {"format": "president/1", "rules": "house", "players": ["A", "B", "C"],
                          "deals": [], "comment": "", "notes": 1}, "/api/companion/import").json()
    assert extra["message"] == ("This file is not a score sheet or game record: it has a field "
                                "'notes' that a game record does not have.")
