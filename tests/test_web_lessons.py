"""The lessons over HTTP (``GET /api/lessons``, ``GET /api/lessons/{id}``, ``POST
/api/lessons/{id}/try``): the lessons as ``president.lessons`` gives them, the engine's answer
to a move, and every refusal in the shape ``{"error", "message"}``."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from president.lessons import LESSONS, MAX_MOVE_CHARS  # noqa: E402
from president.web.app import create_app  # noqa: E402


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    app = create_app(secret=b"lesson-test-secret-0123456789abc",
                     state_dir=tmp_path_factory.mktemp("state"), workers=1,
                     allowed_hosts=["testserver"])
    with TestClient(app) as c:
        yield c


def refused(r, status: int, error: str) -> str:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error", "message"} and body["error"] == error, body
    assert "Content-Security-Policy" in r.headers
    return body["message"]


def test_list_of_lessons(client):
    r = client.get("/api/lessons")
    assert r.status_code == 200
    lessons = r.json()["lessons"]
    assert [item["id"] for item in lessons] == list(LESSONS)
    first = lessons[0]
    assert set(first) == {"id", "title", "source", "source_text", "summary", "rules", "twist",
                          "steps"}
    assert first["steps"] == len(LESSONS[first["id"]].steps)
    assert "default-src 'self'" in r.headers["Content-Security-Policy"]


@pytest.mark.parametrize("lesson_id", list(LESSONS))
def test_each_lesson_is_served_whole(client, lesson_id):
    r = client.get(f"/api/lessons/{lesson_id}")
    assert r.status_code == 200
    assert r.json() == LESSONS[lesson_id].to_dict()


def test_try_a_legal_and_an_illegal_move(client):
    lesson = LESSONS["pass-and-re-enter"]
    r = client.post("/api/lessons/pass-and-re-enter/try", json={"step": 5, "move": "KD KS"})
    assert r.status_code == 200
    body = r.json()
    assert body["legal"] is True and body["as_lesson"] is True and body["code"] is None
    assert body["reason"] == lesson.try_move(5, "KD KS")[1]
    r = client.post("/api/lessons/pass-and-re-enter/try", json={"step": 3, "move": "8C 8D"})
    body = r.json()
    err = lesson.match_after(3).refusal(3, "8C 8D")
    assert body["legal"] is False and body["code"] == err.reason == "not-higher"
    assert err.message in body["reason"]


def test_unknown_lesson(client):
    assert "no lesson" in refused(client.get("/api/lessons/nope"), 404, "unknown-lesson")
    refused(client.post("/api/lessons/nope/try", json={"step": 0, "move": "pass"}), 404,
            "unknown-lesson")
    message = refused(client.get("/api/lessons/" + "x" * 300), 404, "unknown-lesson")
    assert len(message) < 120                   # the input is quoted 40 characters at most


@pytest.mark.parametrize("body", [
    {"step": 0},                                        # no move
    {"move": "pass"},                                   # no step
    {"step": 0, "move": "pass", "extra": 1},            # unknown field
    {"step": "1", "move": "pass"},                      # a number as text
    {"step": True, "move": "pass"},
    {"step": -1, "move": "pass"},
    {"step": 1000, "move": "pass"},
    {"step": 0, "move": 5},
    {"step": 0, "move": "x" * (MAX_MOVE_CHARS + 1)},
    [0, "pass"],
])
def test_bad_bodies_are_refused(client, body):
    message = refused(client.post("/api/lessons/single-against-pair/try", json=body), 422,
                      "bad-request")
    assert 'send JSON such as {"step": 1, "move": "KD KS"}' in message


@pytest.mark.parametrize("raw", [b"not json", b"\xff\xfe", b"[" * 10_000])
def test_bodies_that_are_not_json_are_refused(client, raw):
    r = client.post("/api/lessons/single-against-pair/try", content=raw,
                    headers={"Content-Type": "application/json"})
    refused(r, 422, "bad-request")


def test_a_step_the_lesson_does_not_have(client):
    n = len(LESSONS["sit-out"].steps)
    message = refused(client.post("/api/lessons/sit-out/try", json={"step": n, "move": "pass"}),
                      400, "bad-step")
    assert f"steps 0 to {n - 1}" in message


def test_a_big_body_and_a_wrong_method(client):
    r = client.post("/api/lessons/sit-out/try", content=b"{" + b" " * 20_000 + b"}",
                    headers={"Content-Type": "application/json"})
    refused(r, 413, "too-large")
    refused(client.get("/api/lessons/sit-out/try"), 405, "method-not-allowed")
