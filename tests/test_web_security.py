"""No browser is ever sent a card outside its seat's view (docs/rules.md, "Information").

Every message the server sends is checked at the moment it is sent, against what that seat
may know then: its own hand, the cards played face up this deal, and the cards it gave or
received in an exchange. Many rounds over websockets (starlette's TestClient): practice rounds
(seed 003), house matches with the one-card exchange (seed 000), family matches that reseat
by finish (seed 001), first-night with the two-and-one swap (seed 004) at 3 to 7 players, and a
table with two humans.
"""

from __future__ import annotations

import random
import re
import threading

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from president.actions import PASS  # noqa: E402
from president.events import Dealt, Exchanged, Played  # noqa: E402
from president.web.app import create_app  # noqa: E402

NOTATION = re.compile(r"^(10|[2-9JQKA])[CDHS]$")
SYMBOLS = re.compile(r"(10|[2-9JQKA])([♣♦♥♠])")
SYMBOL_LETTER = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def cards_in(message) -> list[str]:
    """Every card named in a message: notation values anywhere and "A♣" in sentences (the
    sealed ``snapshot`` is opaque ciphertext and is checked separately)."""
    found: list[str] = []

    def walk(x, key=None):
        if key == "snapshot":
            return
        if isinstance(x, dict):
            for k, v in x.items():
                walk(v, k)
        elif isinstance(x, list):
            for v in x:
                walk(v, key)
        elif isinstance(x, str):
            if NOTATION.match(x):
                found.append(x)
            else:
                found.extend(r + SYMBOL_LETTER[s] for r, s in SYMBOLS.findall(x))
    walk(message)
    return found


def visible(table, player) -> set[str]:
    """What ``player`` may know now, computed from the full state (test side only): this
    deal's hand, face-up cards and own exchanges, and from earlier deals (the play log covers
    the whole match) the cards played face up then and the cards it gave or received then."""
    m = table.match
    seat = m.seating.index(player)
    known = set(m.deal.hand(seat))
    deal = -1
    for ev in m.events:
        if isinstance(ev, Dealt):
            deal += 1
            then = table.deal_seats[deal][0].index(player)
            if deal == len(table.deal_seats) - 1:
                break
        elif isinstance(ev, Played):
            known.update(ev.play.cards)
        elif isinstance(ev, Exchanged) and then in (ev.giver, ev.receiver):
            known.update(ev.cards)
    for _s, action in m.deal.history:
        if action is not PASS:
            known.update(action.cards)
    for step, give in m.exchange_log:
        if seat in (step.giver, step.receiver):
            known.update(give.cards)
    return {str(c) for c in known}


class Watch:
    """Checks every message of a table as it is sent (runs in the server's thread)."""

    def __init__(self) -> None:
        self.checked = 0
        self.messages = 0
        self.leaks: list[tuple[int, str, dict]] = []
        self.lock = threading.Lock()

    def attach(self, table) -> None:
        def on_send(player, message):
            allowed = visible(table, player)
            cards = cards_in(message)
            with self.lock:
                self.messages += 1
                self.checked += len(cards)
                for c in cards:
                    if c not in allowed:
                        self.leaks.append((player, c, message))
        table.on_send = on_send


def test_watch_catches_a_planted_leak(tmp_path):
    """The checker is not vacuous: another seat's card in a message is caught."""
    app = create_app(bot_delay=0, secret=b"s" * 32, allow_seed=True, state_dir=tmp_path)
    with TestClient(app) as client:
        info = client.post("/api/tables", json={"kind": "practice"}).json()
        table = app.state.tables.get(info["table"])
        watch = Watch()
        watch.attach(table)
        robin = table.match.deal.hand(1)
        table.on_send(0, {"type": "event", "text": f"Robin holds {robin[0].rank.symbol}{robin[0].suit.symbol}"})
        table.on_send(0, {"type": "state", "hand": [str(robin[-1])]})
        assert [c for _, c, _ in watch.leaks] == [str(robin[0]), str(robin[-1])]
        app.state.tables.drop(info["table"])


def play(ws, rng, *, deals: int, seat_of_me=None) -> dict:
    """Drive one human socket with random legal actions until the match ends or ``deals``
    deals are done; returns the last state."""
    while True:
        m = ws.receive_json()
        if m["type"] != "state":
            assert m["type"] in ("event", "welcome", "log"), m
            continue
        if m["phase"] == "match-over":
            return m
        if m["phase"] == "between-deals":
            if len(m["deals"]) >= deals:
                return m
            ws.send_json({"type": "next-deal"})
            continue
        if m["to_act"] == m["you"]["seat"]:
            action = rng.choice(m["legal"])
            if action == "pass":
                ws.send_json({"type": "pass"})
            else:
                ws.send_json({"type": "give" if m["phase"] == "exchange" else "play", "cards": action})


TABLES = [
    # (body, deals to play, how many)
    ({"kind": "practice"}, 1, 12),
    ({"kind": "match", "preset": "house", "players": 4}, 4, 3),
    ({"kind": "match", "preset": "house", "players": 7, "twists": ["sit-out"]}, 3, 2),
    ({"kind": "match", "preset": "family", "players": 5, "twists": ["once-around"]}, 3, 2),
    ({"kind": "match", "preset": "first-night", "players": 3, "twists": ["swap"]}, 3, 2),
    ({"kind": "match", "preset": "first-night", "players": 6, "twists": ["swap"]}, 3, 2),
]


def test_no_message_shows_a_card_outside_the_seat_view(tmp_path):
    app = create_app(bot_delay=0, secret=b"s" * 32, allow_seed=True, state_dir=tmp_path)
    rng = random.Random(2024)
    watch = Watch()
    rounds = 0
    with TestClient(app) as client:
        for body, deals, count in TABLES:
            for _ in range(count):
                n = body.get("players", 4)
                levels = ["human"] + [rng.choice(["random", "simple"]) for _ in range(n - 1)]
                full = dict(body, seed=rng.getrandbits(32))
                if body["kind"] == "match":
                    full["levels"] = levels
                info = client.post("/api/tables", json=full).json()
                table = app.state.tables.get(info["table"])
                watch.attach(table)
                with client.websocket_connect("/ws") as ws:
                    ws.send_json({"type": "hello", "table": info["table"], "token": info["token"]})
                    last = play(ws, rng, deals=deals)
                rounds += len(last["deals"])
                app.state.tables.drop(info["table"])
    print(f"rounds={rounds} messages={watch.messages} cards checked={watch.checked}")
    assert watch.leaks == []
    # With no computer delay, a human action and the instant replies after it go out as one
    # batch with one state, so there are fewer states to check than plays.
    assert rounds >= 40 and watch.messages > 5000 and watch.checked > 15000


def test_two_humans_each_see_only_their_own_hand(tmp_path):
    app = create_app(bot_delay=0, secret=b"s" * 32, allow_seed=True, state_dir=tmp_path)
    rng = random.Random(7)
    watch = Watch()
    with TestClient(app) as client:
        info = client.post("/api/tables", json={
            "kind": "match", "preset": "family", "players": 4, "seed": 99,
            "levels": ["human", "simple", "human", "random"]}).json()
        assert [i["player"] for i in info["invites"]] == [2]
        friend = info["invites"][0]["token"]
        assert friend != info["token"] and len(friend) >= 32
        table = app.state.tables.get(info["table"])
        watch.attach(table)
        with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
            a.send_json({"type": "hello", "table": info["table"], "token": info["token"]})
            b.send_json({"type": "hello", "table": info["table"], "token": friend})
            sockets = {0: a, 2: b}
            # The waiting room: read until each page sees both friends online, then the host
            # starts; from here every change sends each page exactly one state.
            for ws in sockets.values():
                while True:
                    m = ws.receive_json()
                    if m["type"] == "state":
                        assert m["table"]["lobby"] and m["hand"] == []
                        if all(seat["online"] for seat in m["seats"] if seat["level"] == "human"):
                            break
            a.send_json({"type": "start"})
            states = {}
            hands_seen = {0: set(), 2: set()}
            deals_done = 0
            while deals_done < 3:
                # Read whichever socket has something to do: the one whose turn it is.
                for p, ws in sockets.items():
                    while True:
                        m = ws.receive_json()
                        if m["type"] == "state":
                            states[p] = m
                            hands_seen[p].update(m["hand"])
                            break
                acting = [p for p, s in states.items() if s["to_act"] == s["you"]["seat"]]
                between = [p for p, s in states.items() if s["phase"] == "between-deals"]
                if all(s["phase"] == "match-over" for s in states.values()):
                    break
                if between and len(between) == 2 and states[0]["deals"] == states[2]["deals"]:
                    deals_done = len(states[0]["deals"])
                    if deals_done >= 3:
                        break
                    sockets[0].send_json({"type": "next-deal", "force": True})
                    # Both sockets get the new deal; discard stale states.
                    continue
                for p in acting:
                    s = states[p]
                    if s["phase"] not in ("play", "exchange"):
                        continue
                    action = rng.choice(s["legal"])
                    sockets[p].send_json({"type": "pass"} if action == "pass" else
                                         {"type": "give" if s["phase"] == "exchange" else "play",
                                          "cards": action})
            assert states[0]["you"]["player"] == 0 and states[2]["you"]["player"] == 2
    assert watch.leaks == [] and watch.checked > 500
    assert deals_done >= 3


def test_log_sent_on_joining_shows_only_the_seat_view(tmp_path):
    """The ``log`` a reconnecting page gets mid-deal (after an exchange) holds the cards of
    the plays and of your own exchange only: every event passes ``visible_to`` as live."""
    app = create_app(bot_delay=0, secret=b"s" * 32, allow_seed=True, state_dir=tmp_path)
    rng = random.Random(5)
    watch = Watch()
    checked_logs = 0
    with TestClient(app) as client:
        for seed in range(6):
            info = client.post("/api/tables", json={
                "kind": "match", "preset": "first-night", "players": 5, "twists": ["swap"],
                "seed": seed, "levels": ["human", "random", "simple", "random", "simple"]}).json()
            table = app.state.tables.get(info["table"])
            watch.attach(table)
            hello = {"type": "hello", "table": info["table"], "token": info["token"]}
            with client.websocket_connect("/ws") as ws:
                ws.send_json(hello)
                play(ws, rng, deals=1)
                ws.send_json({"type": "next-deal"})
                for _ in range(rng.randrange(2, 6)):   # a few turns into deal 2
                    m = ws.receive_json()
                    while m["type"] != "state" or m["to_act"] != m["you"]["seat"]:
                        if m["type"] == "state" and m["phase"] not in ("play", "exchange"):
                            break
                        m = ws.receive_json()
                    if m["phase"] not in ("play", "exchange"):
                        break
                    action = rng.choice(m["legal"])
                    ws.send_json({"type": "pass"} if action == "pass" else
                                 {"type": "give" if m["phase"] == "exchange" else "play", "cards": action})
                with client.websocket_connect("/ws") as again:
                    again.send_json(hello)
                    assert again.receive_json()["type"] == "welcome"
                    log = again.receive_json()
                    nxt = again.receive_json()
                    assert nxt["type"] == "state", nxt
                    me = nxt["you"]["seat"]      # seats change by finish
            assert log["type"] == "log" and log["deal"] == 2
            kinds = [e["kind"] for e in log["events"]]
            # the whole match: deal 1 (no exchange) to its end, then deal 2 with two swaps
            second = kinds.index("dealt", 1)
            assert kinds[0] == "dealt" and kinds[second - 1] == "deal-ended"
            assert [e["deal"] for e in log["events"] if e["kind"] == "dealt"] == [1, 2]
            assert kinds[:second].count("exchanged") == 0 and kinds.count("exchanged") == 4
            for e in log["events"][second:]:
                if e["kind"] == "exchanged":
                    assert (e["cards"] is None) == (me not in (e["giver"], e["receiver"]))
            checked_logs += 1
            app.state.tables.drop(info["table"])
    assert watch.leaks == [] and checked_logs == 6
