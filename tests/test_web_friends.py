"""Friends at one table (docs/web.md, "Friends at one table"), driven in process: the waiting
room, presence, the stand-in computer for an away friend and their return, the host's tools
and pause, "ready" between deals, the rematch, and a restart in the middle (the log's ``s``
and ``r`` entries). Every message is checked against what its seat may know
(``test_web_security.Watch``) and against the declared server → page messages (``Page``)."""

from __future__ import annotations

import asyncio
import random

import pytest

pytest.importorskip("fastapi")

import orjson  # noqa: E402

from president.web import protocol as P  # noqa: E402
from president.web.messages import validate_to_page  # noqa: E402
from president.web.sealing import Sealer  # noqa: E402
from president.web.tables import Table, Tables  # noqa: E402

from tests.test_web_security import Watch  # noqa: E402
from tests.helpers import run_async  # noqa: E402



class Page:
    """A socket stand-in that keeps what it is sent, each message checked against the
    declared server → page messages (:mod:`president.web.messages`) as its socket would
    encode it."""

    def __init__(self) -> None:
        self.got: list[dict] = []

    async def send(self, message: dict) -> None:
        validate_to_page(orjson.dumps(message))
        self.got.extend(message["messages"] if message["type"] == "batch" else [message])

    def last(self, type_: str) -> dict:
        return [m for m in self.got if m["type"] == type_][-1]

    def presence(self) -> list[tuple[int, str]]:
        return [(m["player"], m["what"]) for m in self.got
                if m["type"] == "event" and m.get("kind") == "presence"]


def friends_table(tables: Tables, **extra) -> Table:
    """Alex (host), Blair and Casey (friends) and one simple computer, house rules."""
    table = tables.create(kind="match", preset="house", players=4, seed=7,
                          names=["Alex", "Blair", "Casey", "Drew"],
                          levels=["human", "human", "human", "simple"], **extra)
    return tables.get(table.id) or table


def make_tables() -> Tables:
    return Tables(sealer=Sealer(b"f" * 32), bot_delay=0.0, allow_seed=True, per_address=0)


async def act(table: Table, player: int, page: Page, rng: random.Random) -> None:
    """``player`` makes a random legal move (a play, pass or give)."""
    state = table.state_for(player)
    choice = rng.choice(state["legal"])
    if choice == "pass":
        msg = P.PassMsg(type="pass")
    elif state["phase"] == "exchange":
        msg = P.GiveMsg(type="give", cards=choice)
    else:
        msg = P.PlayMsg(type="play", cards=choice)
    await table.handle(player, page, msg)


async def until_settled(table: Table) -> None:
    await table.computers.run_bots_now()
    await asyncio.sleep(0)


def to_act(table: Table) -> int | None:
    m = table.match
    return None if m.to_act is None else m.seating[m.to_act]


def test_waiting_room_then_start_by_the_host_only():
    async def go():
        tables = make_tables()
        table = friends_table(tables)
        watch = Watch()
        watch.attach(table)
        alex, blair = Page(), Page()
        await table.join(0, alex)
        lobby = alex.last("state")
        assert lobby["table"]["lobby"] is True and lobby["hand"] == [] and lobby["legal"] == []
        assert alex.last("log")["events"] == []
        assert [s["joined"] for s in lobby["seats"] if s["player"] in (1, 2)] == [False, False]
        welcome = alex.last("welcome")
        assert welcome["host"] == 0 and [i["player"] for i in welcome["invites"]] == [1, 2]
        assert {i["token"] for i in welcome["invites"]} == {table.humans[1].token, table.humans[2].token}
        await table.join(1, blair)
        assert blair.last("welcome")["invites"] == []
        assert (1, "joined") in alex.presence() and alex.last("state")["seats"][1]["online"] is True
        # Nobody acts in the waiting room; only the host starts.
        await table.handle(1, blair, P.PassMsg(type="pass"))
        assert blair.last("error")["reason"] == "wrong-phase"
        await table.handle(1, blair, P.StartMsg(type="start"))
        assert blair.last("error")["reason"] == "host-only" and table.lobby
        await table.handle(0, alex, P.StartMsg(type="start"))
        assert not table.lobby and table.log[0] == "s"
        # Casey never came: the stand-in plays for them until they do.
        assert 2 in table.standins and (2, "standin") in alex.presence()
        state = alex.last("state")
        assert len(state["hand"]) == 13 and state["seats"][2]["standin"] == "simple"
        await table.handle(0, alex, P.StartMsg(type="start"))
        assert alex.last("error")["reason"] == "wrong-phase"
        assert watch.leaks == []
    run_async(go)


def test_an_away_friend_gets_the_stand_in_after_the_grace_period_and_the_seat_back():
    async def go():
        tables = make_tables()
        table = friends_table(tables, grace_seconds=0.2)
        watch = Watch()
        watch.attach(table)
        pages = {p: Page() for p in (0, 1, 2)}
        for p, page in pages.items():
            await table.join(p, page)
        await table.handle(0, pages[0], P.StartMsg(type="start"))
        rng = random.Random(3)
        # Play until it is Blair's turn, then Blair closes the page.
        for _ in range(60):
            await until_settled(table)
            if to_act(table) == 1:
                break
            await act(table, to_act(table), pages[to_act(table)], rng)
        assert to_act(table) == 1
        table.leave(1, pages[1])
        await asyncio.sleep(0.05)
        assert (1, "left") in pages[0].presence()
        assert pages[0].last("state")["seats"][table.seat_of(1)]["online"] is False
        timer = pages[0].last("state")["table"]["timer"]
        assert timer["player"] == 1 and 0 < timer["seconds"] <= 0.2
        actions = len(table.log)
        await asyncio.sleep(0.35)        # the grace period runs out: the stand-in plays
        await until_settled(table)
        assert 1 in table.standins and (1, "standin") in pages[0].presence()
        assert len(table.log) > actions
        # Blair comes back: the seat is theirs again, with their hand as the engine has it.
        back = Page()
        await table.join(1, back)
        assert 1 not in table.standins and (1, "back") in pages[0].presence()
        moved = sum(1 for entry in table.log[actions:] if entry[0] == table.seat_of(1))
        said = [m["text"] for m in back.got if m.get("what") == "back"]
        assert moved >= 1 and said == [f"Blair has their seat back (the computer made {moved} "
                                       f"move{'s' if moved != 1 else ''} for them)."]
        assert (1, "returned") in pages[0].presence()
        # Blair's log says the computer made those moves for them, not "You play"; the
        # others read them as Blair's.
        log = back.last("log")["events"]
        blair = table.seat_of(1)
        for_you = [e["text"] for e in log if e["kind"] in ("played", "passed")
                   and e["seat"] == blair and e["text"].startswith("The computer (for you) ")]
        assert len(for_you) == moved, (for_you, moved)
        assert all(t.startswith(tuple(f"The computer (for you) {verb} " for verb in
                                      ("plays", "passes", "leads")))
                   or t == "The computer (for you) passes." for t in for_you), for_you
        other = [e["text"] for e in pages[0].got if e.get("kind") in ("played", "passed")
                 and e.get("seat") == blair]
        assert other and not any("for you" in t for t in other)
        hand = back.last("state")["hand"]
        assert hand == [str(c) for c in table.match.deal.hand(table.seat_of(1))]
        assert watch.leaks == []
    run_async(go)


def test_host_hands_a_seat_over_and_back_and_only_the_host_pauses():
    async def go():
        tables = make_tables()
        table = friends_table(tables)
        pages = {p: Page() for p in (0, 1, 2)}
        for p, page in pages.items():
            await table.join(p, page)
        await table.handle(0, pages[0], P.StartMsg(type="start"))
        await table.handle(1, pages[1], P.SeatMsg(type="seat", player=2, computer=True))
        assert pages[1].last("error")["reason"] == "host-only" and 2 not in table.standins
        await table.handle(0, pages[0], P.SeatMsg(type="seat", player=0, computer=True))
        assert pages[0].last("error")["reason"] == "bad-seat"
        await table.handle(0, pages[0], P.SeatMsg(type="seat", player=2, computer=True))
        assert 2 in table.standins
        await table.handle(2, pages[2], P.PassMsg(type="pass"))
        assert pages[2].last("error")["reason"] == "standin"
        await table.handle(0, pages[0], P.SeatMsg(type="seat", player=2, computer=False))
        assert 2 not in table.standins and (2, "back") in pages[1].presence()
        # Pause: Blair may not; Alex may, and everyone sees who paused.
        await table.handle(1, pages[1], P.PauseMsg(type="pause"))
        assert pages[1].last("error")["reason"] == "host-only" and not table.paused
        await table.handle(0, pages[0], P.PauseMsg(type="pause"))
        assert table.paused and pages[2].last("state")["table"]["paused_by"] == "Alex"
        await table.handle(2, pages[2], P.ResumeMsg(type="resume"))
        assert table.paused and pages[2].last("error")["reason"] == "host-only"
        await table.handle(0, pages[0], P.ResumeMsg(type="resume"))
        assert not table.paused and pages[1].last("state")["table"]["paused_by"] is None
    run_async(go)


def test_no_hint_in_the_waiting_room_shows_a_hand():
    """An attack found hints answering in the waiting room with cards of the hand the asker
    would get (and "not your turn" to the others, which named the leader)."""
    async def go():
        tables = make_tables()
        table = friends_table(tables)
        pages = {p: Page() for p in (0, 1)}
        for p, page in pages.items():
            await table.join(p, page)
        for p in (0, 1):
            for level in ("simple", "expert"):
                answer = await table.hints.hint_async(p, level)
                assert answer["type"] == "error" and answer["reason"] == "wrong-phase", answer
                assert "cards" not in answer
        await table.handle(0, pages[0], P.StartMsg(type="start"))
        player = table.match.seating[table.match.to_act]
        assert (await table.hints.hint_async(player, "simple"))["type"] == "hint"
        table.close()
    run_async(go)


def test_a_host_who_leaves_a_paused_table_does_not_hold_the_friends():
    """An attack found that a host who paused and then closed their page left the friends
    stuck: paused, nobody allowed to resume, no stand-in. The host's pause ends when their
    last page closes (the grace period and the stand-in then work as for anyone away)."""
    async def go():
        tables = make_tables()
        table = friends_table(tables, grace_seconds=1)
        pages = {p: Page() for p in (0, 1)}
        for p, page in pages.items():
            await table.join(p, page)
        await table.handle(0, pages[0], P.StartMsg(type="start"))
        await table.handle(0, pages[0], P.PauseMsg(type="pause"))
        assert table.paused
        table.leave(0, pages[0])
        for _ in range(100):
            await asyncio.sleep(0.01)
            if not table.paused:
                break
        assert not table.paused and table.paused_by is None
        state = pages[1].last("state")
        assert state["table"]["paused"] is False and (0, "left") in pages[1].presence()
        # a friend's leaving does not end the host's pause
        await table.join(0, pages[0])
        await table.handle(0, pages[0], P.PauseMsg(type="pause"))
        table.leave(1, pages[1])
        await asyncio.sleep(0.05)
        assert table.paused
        table.close()
    run_async(go)


class ClosedAfterSending(Page):
    """A page that closed right after its last message: every send to it fails."""

    def __init__(self) -> None:
        super().__init__()
        self.gone = False

    async def send(self, message: dict) -> None:
        if self.gone:
            raise ConnectionResetError("the page has closed")
        await super().send(message)


def test_a_page_that_closes_right_after_a_message_still_leaves():
    """A re-attack found that a socket a failed send had already dropped was never marked as
    gone when its handler then left: no "left", the host's pause never ended, no stand-in.
    Leaving after such a drop now does everything a plain close does."""
    async def go():
        tables = make_tables()
        table = friends_table(tables, grace_seconds=1)
        host, friend = ClosedAfterSending(), Page()
        await table.join(0, host)
        await table.join(1, friend)
        await table.handle(0, host, P.StartMsg(type="start"))
        host.gone = True                         # the pause is its last message
        await table.handle(0, host, P.PauseMsg(type="pause"))
        assert table.paused and not table.humans[0].connections   # dropped by the failed send
        table.leave(0, host)                     # then its handler leaves
        for _ in range(100):
            await asyncio.sleep(0.01)
            if not table.paused:
                break
        assert not table.paused and (0, "left") in friend.presence()
        table.close()
    run_async(go)


async def play_out_deal(table: Table, pages: dict, rng: random.Random) -> None:
    for _ in range(400):
        await until_settled(table)
        if table.match.phase in ("between-deals", "match-over"):
            return
        p = to_act(table)
        await act(table, p, pages[p], rng)
    raise AssertionError("the deal did not end")


def test_next_deal_waits_for_every_present_friend_and_rematch_follows_everyone():
    async def go():
        tables = make_tables()
        table = friends_table(tables)
        watch = Watch()
        watch.attach(table)
        pages = {p: Page() for p in (0, 1, 2)}
        for p, page in pages.items():
            await table.join(p, page)
        await table.handle(0, pages[0], P.StartMsg(type="start"))
        rng = random.Random(11)
        await play_out_deal(table, pages, rng)
        assert table.match.phase == "between-deals"
        await table.handle(1, pages[1], P.NextDealMsg(type="next-deal"))
        assert table.match.deal_number == 1 and pages[0].last("state")["table"]["ready"] == [1]
        await table.handle(1, pages[1], P.NextDealMsg(type="next-deal", force=True))
        assert pages[1].last("error")["reason"] == "host-only"
        await table.handle(2, pages[2], P.NextDealMsg(type="next-deal"))
        assert table.match.deal_number == 1
        await table.handle(0, pages[0], P.NextDealMsg(type="next-deal"))
        assert table.match.deal_number == 2 and table.ready == set()
        # To the end of the match; the host forces each next deal.
        for _ in range(40):
            await play_out_deal(table, pages, rng)
            if table.match.phase == "match-over":
                break
            await table.handle(0, pages[0], P.NextDealMsg(type="next-deal", force=True))
        assert table.match.phase == "match-over"
        await table.handle(0, pages[0], P.NextDealMsg(type="next-deal"))
        assert pages[0].last("error")["reason"] == "wrong-phase"
        # A friend leaves; the two present say "play again": a new match at the same table.
        table.leave(2, pages[2])
        await asyncio.sleep(0.01)
        await table.handle(1, pages[1], P.RematchMsg(type="rematch"))
        assert table.match_number == 1
        await table.handle(0, pages[0], P.RematchMsg(type="rematch"))
        assert table.match_number == 2 and "r" in table.log
        state = pages[1].last("state")
        assert state["table"]["match_number"] == 2 and state["deal"] == 1 and state["deals"] == []
        assert state["scores"] == [0, 0, 0, 0] and len(state["hand"]) == 13
        assert (0, "rematch") in pages[1].presence()
        assert pages[1].last("log")["deal"] == 1
        assert watch.leaks == []
        # A restart: the record replays to the same table (the s, n and r entries included).
        again = Table.from_record(table.record(), bot_delay=0, sealer=None)
        assert again.match.snapshot() == table.match.snapshot()
        assert again.match_number == 2 and not again.lobby
    run_async(go)


def test_a_single_human_match_has_no_waiting_room_and_keeps_its_pause():
    async def go():
        tables = make_tables()
        table = tables.create(kind="match", preset="house", players=4, seed=3)
        page = Page()
        await table.join(0, page)
        assert not table.lobby and len(page.last("state")["hand"]) == 13
        await table.handle(0, page, P.PauseMsg(type="pause"))
        assert table.paused
        assert page.presence() == []
    run_async(go)


def test_the_create_route_checks_the_stand_in_and_timers(tmp_path):
    from fastapi.testclient import TestClient

    from president.web.app import create_app
    app = create_app(bot_delay=0, secret=b"f" * 32, state_dir=tmp_path)
    with TestClient(app) as client:
        body = {"kind": "match", "preset": "house", "players": 4,
                "names": ["Ann", "Bo", "", ""], "levels": ["human", "human", "simple", "simple"]}
        r = client.post("/api/tables", json={**body, "standin": "grandmaster"})
        assert r.status_code == 400 and "grandmaster" in r.json()["message"]
        assert "simple" in r.json()["message"]
        r = client.post("/api/tables", json={**body, "grace_seconds": 0})
        assert r.status_code == 422 and r.json()["error"] == "bad-request"
        r = client.post("/api/tables", json={**body, "standin": "beginner", "grace_seconds": 5,
                                             "turn_seconds": 20})
        assert r.status_code == 200
        table = app.state.tables.get(r.json()["table"])
        assert (table.standin, table.grace_seconds, table.turn_seconds) == ("beginner", 5, 20)
        assert table.lobby


def test_the_turn_timer_moves_once_for_an_idle_friend_who_keeps_the_seat():
    async def go():
        tables = make_tables()
        table = friends_table(tables, turn_seconds=0.2)
        pages = {p: Page() for p in (0, 1, 2)}
        for p, page in pages.items():
            await table.join(p, page)
        await table.handle(0, pages[0], P.StartMsg(type="start"))
        await until_settled(table)
        idle = to_act(table)
        assert idle in (0, 1, 2)
        timer = pages[idle].last("state")["table"]["timer"]
        assert timer["player"] == idle and 0 < timer["seconds"] <= 0.2
        actions, seat = len(table.log), table.seat_of(idle)
        await asyncio.sleep(0.3)
        await until_settled(table)
        assert len(table.log) > actions and table.log[actions][0] == seat   # the stand-in moved
        assert idle not in table.standins            # one move, the seat stays theirs
        # the idle player's own page, live: the computer moved for them
        moved = [m["text"] for m in pages[idle].got if m.get("kind") in ("played", "passed")
                 and m.get("seat") == seat]
        assert moved and moved[-1].startswith("The computer (for you) "), moved
    run_async(go)


def test_a_blank_seat_never_takes_a_name_another_seat_typed():
    """A new user's trial: naming a friend "Blair" in seat 2 made the blank seat 3 "Blair"
    too, and the table was refused for two seats alike."""
    from president.web.names import check_names
    from president.web.tables import DEFAULT_NAMES
    assert check_names(["Ann", "Blair", "", ""], defaults=DEFAULT_NAMES, friends=True) == \
        ["Ann", "Blair", "Alex", "Casey"]
    assert check_names(["", "", "", ""], defaults=DEFAULT_NAMES) == ["You", "Alex", "Blair", "Casey"]
    assert check_names(["Ann", "alex", "", "blair"], defaults=DEFAULT_NAMES) == \
        ["Ann", "alex", "Casey", "blair"]


def test_an_action_chosen_in_an_older_position_is_refused_as_stale():
    # Two pages of one seat both answer the same turn: the first is played, the second was
    # chosen for a position that has gone, so it is refused and nothing changes. A message
    # without "at" is played as before.
    async def go():
        tables = make_tables()
        table = tables.create(kind="practice")
        one, two = Page(), Page()
        await table.join(0, one)
        await table.join(0, two)
        state = table.state_for(0)
        at = state["table"]["actions"]
        first, second = state["legal"][0], state["legal"][-1]
        await table.handle(0, one, P.PlayMsg(type="play", cards=first, at=at))
        await until_settled(table)
        log, hand = list(table.log), table.state_for(0)["hand"]
        assert len(log) > at
        await table.handle(0, two, P.PlayMsg(type="play", cards=second, at=at))
        refusal = two.last("error")
        assert refusal["reason"] == "stale" and f"chosen at action {at}" in refusal["message"]
        assert table.log == log and table.state_for(0)["hand"] == hand
        now = table.state_for(0)
        if now["legal"] and now["legal"][0] != "pass":   # the same seat, up to date: played
            await table.handle(0, two, P.PlayMsg(type="play", cards=now["legal"][0],
                                                 at=now["table"]["actions"]))
            assert len(table.log) > len(log)
    run_async(go)


@pytest.mark.parametrize("at", ['"3"', "true", "3.0", "-1", "10000001"])
def test_the_action_count_is_a_plain_whole_number(at):
    with pytest.raises(P.MessageError, match="at"):
        P.parse_client('{"type": "pass", "at": %s}' % at)
    assert P.parse_client('{"type": "pass", "at": 3}').at == 3
