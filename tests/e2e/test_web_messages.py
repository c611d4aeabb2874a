"""Every websocket frame the page and the server exchange, both ways, is a declared message
(docs/web.md, "Websocket messages"; ``docs/messages.schema.json``): a practice round played
by hints to its result and a new round, and a table for three friends and a computer (the
waiting room, the host's start, a whole deal played from the three pages, "Next deal"), in
Chromium. Each page's socket is routed through the test (``route_web_socket``), which
forwards every frame and keeps it; each kept frame is then checked against the schema's
``to_server`` part (page → server) or ``to_page`` part (server → page), with the committed
schema file (``jsonschema``, from the test extra) and with the models it is made from."""

from __future__ import annotations

import json
import re
from pathlib import Path

from president.web.messages import validate_to_page
from president.web.protocol import validate_to_server

from .test_web_browser import actions, play_to_result, wait_ready
from .test_web_friends import DESKTOP, PHONE, link, new_table

SCHEMA = Path(__file__).resolve().parents[2] / "docs" / "messages.schema.json"
SOCKET = re.compile(r"/ws(\?|$)")   # the page's socket is /ws?table=...


class Frames:
    """Routes the sockets of a browser context through the test: each frame is forwarded
    and kept as ``(direction, text)``, direction ``to_server`` or ``to_page``."""

    def __init__(self, context) -> None:
        self.kept: list[tuple[str, str]] = []
        self.sockets = 0
        context.route_web_socket(SOCKET, self._route)

    def _route(self, ws) -> None:
        server = ws.connect_to_server()
        self.sockets += 1

        def to_page(message) -> None:
            self.kept.append(("to_page", message if isinstance(message, str) else message.decode()))
            ws.send(message)

        def to_server(message) -> None:
            self.kept.append(("to_server", message if isinstance(message, str) else message.decode()))
            server.send(message)
        server.on_message(to_page)
        ws.on_message(to_server)

    def types(self, direction: str) -> set[str]:
        seen = set()
        for d, text in self.kept:
            if d == direction:
                m = json.loads(text)
                seen.add(m["type"])
                seen.update(f"event:{x['kind']}" for x in m.get("messages", [m])
                            if x["type"] == "event")
        return seen


def check(frames: Frames) -> int:
    """Every kept frame against the schema; returns how many were checked."""
    import jsonschema    # (the test extra installs it: never skipped)
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    validators = {part: jsonschema.Draft202012Validator(
        {"$defs": schema["$defs"], **schema["properties"][part]})
        for part in ("to_server", "to_page")}
    for direction, text in frames.kept:
        (validate_to_server if direction == "to_server" else validate_to_page)(text)
        errors = [e.message for e in validators[direction].iter_errors(json.loads(text))]
        assert not errors, (direction, text[:300], errors[:3])
    return len(frames.kept)


def turn(page) -> None:
    """This page's turn, as the hint says (Hint, then Play the selected cards or Pass)."""
    before = actions(page)
    page.evaluate("document.getElementById('message').textContent = ''")
    if page.get_attribute("#hint", "aria-disabled") == "true":
        page.click("#pass")
    else:
        page.click("#hint")
        page.wait_for_function("() => document.getElementById('message').textContent.startsWith('Hint')")
        page.click("#play" if page.locator("#hand .card[aria-pressed=true]").count() else "#pass")
    page.wait_for_function(f"() => Number(document.getElementById('table').dataset.actions) > {before}")


def test_a_practice_round_sends_and_gets_only_declared_messages(browser, served):
    context = browser.new_context(base_url=served.url, **PHONE)
    frames = Frames(context)
    try:
        page = context.new_page()
        page.goto("/")
        page.click("#start-practice")
        assert play_to_result(page) >= 1
        page.get_by_role("button", name="New round").last.click()
        page.wait_for_selector("#result", state="hidden")
        wait_ready(page)
    finally:
        context.close()
    assert frames.sockets >= 2                      # the first round's and the new round's
    assert {"hello", "hint", "speed"} <= frames.types("to_server")
    assert frames.types("to_server") & {"play", "pass"}
    # (the round was dealt before the page joined: its deal is in the log)
    assert {"welcome", "log", "state", "batch", "hint", "event:played",
            "event:deal-ended"} <= frames.types("to_page")
    assert check(frames) >= 20


def test_three_friends_send_and_get_only_declared_messages(browser, served):
    names = ["Alex", "Blair", "Casey", "Drew"]
    contexts = []
    all_frames: list[Frames] = []
    try:
        pages = []
        info = None
        for player, size in ((0, DESKTOP), (1, PHONE), (2, DESKTOP)):
            context = browser.new_context(base_url=served.url, **size)
            contexts.append(context)
            context.add_init_script("localStorage.setItem('president.guide-seen', 'true')")
            all_frames.append(Frames(context))
            if info is None:
                info = new_table(context.request, served, names, ["human", "human", "human", "simple"])
            page = context.new_page()
            page.goto(link(served, info, player))
            page.wait_for_selector("#lobby", state="visible")
            pages.append(page)
        host = pages[0]
        host.wait_for_function("() => document.getElementById('lobby-lead').textContent.endsWith('Everyone is here.')")
        host.get_by_role("button", name="Start the match").click()
        for page in pages:
            page.wait_for_selector("#lobby", state="hidden")
            page.wait_for_function("() => document.querySelectorAll('#hand .card').length === 13")
        # A whole deal, every human move made on its own page.
        for _ in range(400):
            if all(page.is_visible("#result") for page in pages):
                break
            mine = [p for p in pages if p.get_attribute("#table", "data-turn") == "you"
                    and not p.is_visible("#result")]
            if mine:
                turn(mine[0])
            else:
                host.wait_for_timeout(30)
        for page in pages:
            page.wait_for_selector("#result", state="visible")
        for page in pages:   # every friend ready: the next deal comes
            page.get_by_role("button", name="Next deal").click()
        for page in pages:
            page.wait_for_function("() => document.getElementById('table').dataset.phase === 'exchange'"
                                   " || document.getElementById('table').dataset.phase === 'play'")
    finally:
        for context in contexts:
            context.close()
    sent = set().union(*(f.types("to_server") for f in all_frames))
    got = set().union(*(f.types("to_page") for f in all_frames))
    assert {"hello", "start", "hint", "next-deal"} <= sent and sent & {"play", "pass"}
    assert {"welcome", "log", "state", "batch", "hint", "event:presence", "event:dealt",
            "event:played", "event:deal-ended"} <= got
    assert sum(check(f) for f in all_frames) >= 60
