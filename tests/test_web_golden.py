"""Golden transcripts of the browser game's server: every message each page is sent over whole
seeded matches, practice rounds, a table for friends and a restored table, compared with the
transcripts the server produced before its per-action work was made cheaper (issue 9).

A transcript is each message as its socket would encode it (orjson), with the opaque sealed
record (``snapshot``) replaced by what it opens to (the seal's random nonce and clock make the
sealed text itself differ every time): the number of actions of that record and the first 16
hex digits of the SHA-256 of its JSON text (the whole record on every state line made the files
24 MB), one line per message, each line starting with the page's name. The expected transcripts are the text files ``tests/golden/<case>.txt``; on a mismatch
the test names the first line that differs (and where in it) and writes the new transcript
to ``$PRESIDENT_GOLDEN_DIR`` (default: the test's tmp folder) for a diff. Every message is
also checked against the declared server → page messages (:mod:`president.web.messages`).

After a deliberate change to what the server sends, rewrite the files and read the diff:

    PRESIDENT_GOLDEN_UPDATE=1 .venv/bin/python -m pytest tests/test_web_golden.py
    git diff --word-diff tests/golden/

(the files were first written from the transcripts whose SHA-256 and line counts this test
held before, and hashed to exactly those values, each record then in full; the records were
then shortened to their digests by the same code).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import random
from pathlib import Path
from typing import Any

import orjson
import pytest

from president.rules import Rules
from president.web import protocol as P
from president.web.messages import validate_to_page
from president.web.sealing import Sealer
from president.web.tables import PRACTICE_NAMES, Table
from tests.helpers import run_async

SEALER = Sealer(b"golden-transcript-secret-0123456")
GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("PRESIDENT_GOLDEN_UPDATE") == "1"


class Page:
    """A browser page: records what it is sent; remembers its last ``state``. The pages of
    one transcript are kept in ``out`` in the order they were opened; the transcript is each
    page's messages in turn (the pages of one seat are sent to in no fixed order)."""

    def __init__(self, name: str, out: list[Page], *, batches: bool) -> None:
        self.name = name
        self.out: list[str] = []
        self.sent: list[bytes] = []
        """Each message as its socket would encode it."""
        out.append(self)
        self.batches = batches
        self.state: dict[str, Any] | None = None

    def _line(self, message: dict[str, Any]) -> str:
        if message.get("type") == "state":
            self.state = message
            if message.get("snapshot") is not None:
                opened = SEALER.open(message["snapshot"])
                message = {**message, "snapshot": "<sealed>"}
                record = json.dumps(opened, separators=(",", ":"))
                return (orjson.dumps(message).decode() + f" SEALED {len(opened['log'])} "
                        f"actions sha256:{hashlib.sha256(record.encode()).hexdigest()[:16]}")
        return orjson.dumps(message).decode()

    async def send(self, message: dict[str, Any]) -> None:
        encoded = orjson.dumps(message)
        validate_to_page(encoded)   # declared, every field as sent
        self.sent.append(encoded)
        if message.get("type") == "batch":
            lines = [self._line(m) for m in message["messages"]]
            self.out.append(f"{self.name} batch[" + " | ".join(lines) + "]")
        else:
            self.out.append(f"{self.name} {self._line(message)}")


def _table(kind: str, rules: Rules, names: list[str], levels: list[str], seed: int,
           **kw: Any) -> Table:
    humans = [p for p, lv in enumerate(levels) if lv == "human"]
    tokens = {p: f"token-{kind}-{seed}-{p}-abcdefgh" for p in humans}
    return Table(f"golden-{kind}-{seed}", kind, rules, names, levels, seed, tokens=tokens,
                 bot_delay=0.0, sealer=SEALER, deal_seed_bits=32, **kw)


def _choose(state: dict[str, Any], rng: random.Random) -> Any:
    choice = rng.choice(state["legal"])
    if choice == "pass":
        return P.PassMsg(type="pass")
    if state["phase"] == "exchange":
        return P.GiveMsg(type="give", cards=choice)
    return P.PlayMsg(type="play", cards=choice)


async def _drive(table: Table, pages: dict[int, Page], rng: random.Random, actions: int,
                 *, extras: bool = True, rematch: bool = True) -> None:
    """Play ``actions`` human actions (random legal ones, from each page's own last state),
    the next deals, and a rematch once the match is over; now and then an illegal play, a
    hint and a speed change."""
    done = 0
    rematches = 0
    while done < actions:
        m = table.match
        if table.lobby:
            await table.handle(table.host, pages[table.host], P.StartMsg(type="start"))
        elif m.phase == "between-deals":
            for p in sorted(pages):
                if table.match.phase == "between-deals":
                    await table.handle(p, pages[p], P.NextDealMsg(type="next-deal"))
        elif m.phase == "match-over":
            if not rematch or rematches:
                return
            rematches += 1
            for p in sorted(pages):
                if table.match.phase == "match-over":
                    await table.handle(p, pages[p], P.RematchMsg(type="rematch"))
        else:
            assert m.to_act is not None
            player = m.seating[m.to_act]
            page = pages[player]
            assert page.state is not None and page.state["to_act"] == page.state["you"]["seat"]
            if extras and done % 17 == 5:   # a play of cards the player does not hold
                held = set(page.state["hand"])
                other = next(f"{r}{s}" for r in "3456789JQKA" for s in "CDHS" if f"{r}{s}" not in held)
                await table.handle(player, page, P.PlayMsg(type="play", cards=[other]))
            if extras and done % 23 == 7:
                await table.handle(player, page, P.HintMsg(type="hint", level="simple"))
            if extras and done % 41 == 11:
                await table.handle(player, page, P.SpeedMsg(type="speed", speed="instant"))
            await table.handle(player, page, _choose(page.state, rng))
            done += 1
        await table.computers.run_bots_now()


def _text(pages: list[Page]) -> str:
    return "".join(line + "\n" for page in pages for line in page.out)


def _first_difference(expected: str, got: str) -> str:
    """Where two transcripts first differ: the line number and both lines around the first
    character that differs."""
    old, new = expected.split("\n"), got.split("\n")
    for n, (a, b) in enumerate(zip(old, new), 1):
        if a != b:
            at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            start = max(0, at - 80)
            return (f"line {n} differs at character {at + 1}:\n"
                    f"  expected: ...{a[start:at + 160]!r}\n  got:      ...{b[start:at + 160]!r}")
    return f"the expected transcript has {len(old) - 1} lines, this one {len(new) - 1}"


def _solo(preset: str, players: int, twists: list[str], seed: int, actions: int) -> list[Page]:
    async def run() -> list[Page]:
        out: list[Page] = []
        rules = Rules.preset(preset, players=players, twists=twists)
        levels = ["human"] + ["simple", "intermediate", "beginner", "simple", "intermediate",
                              "beginner"][:players - 1]
        names = ["Ann", "Bo", "Cy", "Di", "Ed", "Fay", "Gus"][:players]
        table = _table("match", rules, names, levels, seed)
        batch, single = Page("A", out, batches=True), Page("B", out, batches=False)
        await table.join(0, batch)
        await table.join(0, single)
        await table.computers.run_bots_now()
        await _drive(table, {0: batch}, random.Random(seed), actions)
        # The same table rebuilt from its record (a server restart), then joined again.
        again = Table.from_record(table.record(), bot_delay=0.0, sealer=SEALER)
        page = Page("C", out, batches=True)
        await again.join(0, page)
        await again.computers.run_bots_now()
        await _drive(again, {0: page}, random.Random(seed + 1), 12)
        table.close()
        again.close()
        return out
    return run_async(run)


def _practice(seed: int) -> list[Page]:
    async def run() -> list[Page]:
        out: list[Page] = []
        table = _table("practice", Rules.preset("practice"), list(PRACTICE_NAMES),
                       ["human", "simple", "simple", "simple"], seed)
        page = Page("P", out, batches=True)
        await table.join(0, page)
        await table.computers.run_bots_now()
        await _drive(table, {0: page}, random.Random(seed), 200, rematch=False)
        table.close()
        return out
    return run_async(run)


def _friends(seed: int) -> list[Page]:
    async def run() -> list[Page]:
        out: list[Page] = []
        rules = Rules.preset("house", players=4, twists=["reversal"])
        table = _table("match", rules, ["Ann", "Bo", "Cy", "Di"],
                       ["human", "human", "simple", "beginner"], seed, grace_seconds=3600)
        a, b = Page("A", out, batches=True), Page("B", out, batches=False)
        await table.join(0, a)
        await table.join(1, b)
        await _drive(table, {0: a, 1: b}, random.Random(seed), 40)
        # B leaves (A hears it), the host hands B's seat to the stand-in, B comes back.
        table.leave(1, b)
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        await table.handle(0, a, P.SeatMsg(type="seat", player=1, computer=True))
        await table.computers.run_bots_now()
        b2 = Page("B2", out, batches=True)
        await table.join(1, b2)
        await table.computers.run_bots_now()
        await table.handle(0, a, P.PauseMsg(type="pause"))
        await table.handle(0, a, P.ResumeMsg(type="resume"))
        await table.computers.run_bots_now()
        await _drive(table, {0: a, 1: b2}, random.Random(seed + 1), 400)
        table.close()
        return out
    return run_async(run)


CASES = {
    # name: make the transcript (expected: tests/golden/<name>.txt)
    "house-4": lambda: _solo("house", 4, [], 11, 400),
    "family-5-twists": lambda: _solo("family", 5, ["equal-plays", "reversal"], 12, 400),
    "first-night-3": lambda: _solo("first-night", 3, ["swap"], 13, 120),
    "practice-a": lambda: _practice(3),
    "practice-b": lambda: _practice(4),
    "friends": lambda: _friends(14),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_transcripts_are_unchanged(name, tmp_path):
    got = _text(CASES[name]())
    golden = GOLDEN / f"{name}.txt"
    if UPDATE:
        golden.write_text(got, encoding="utf-8", newline="\n")
    expected = golden.read_text(encoding="utf-8")
    if got != expected:
        folder = Path(os.environ.get("PRESIDENT_GOLDEN_DIR") or tmp_path)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{name}.txt").write_text(got, encoding="utf-8", newline="\n")
        pytest.fail(f"transcript {name} changed ({_first_difference(expected, got)}); the new "
                    f"one is {folder / name}.txt; rewrite tests/golden/ with "
                    f"PRESIDENT_GOLDEN_UPDATE=1 if the change is meant", pytrace=False)
