"""``president replay FILE [--json]``: check and replay a game record (``docs/records.md``).

Exit status: 0 when every step is legal, 1 when a step is illegal (the first one is
reported by deal, step and action, with the reason), 2 when the file cannot be read or is
not a valid record.

The words report numbers deals from 1, as the game does ("deal 1" is the first deal), and
gives the record's own 0-based indexes beside them (``record index: deal 0, action 5``);
``--json`` keeps the 0-based indexes of ``docs/records.md``. Both end with the next deal
(who deals, sits where, leads and gives whom what), or why there is none yet.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from ..records import (RecordError, ReplayResult, _format_json, count_deals_from_1, loads,
                       replay)

HELP = "Check and replay a game record (JSON)."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="the record (JSON); - reads standard input")
    parser.add_argument("--json", action="store_true",
                        help="print the outcome and the state after the last legal step as JSON")


def read_text(path: str) -> str:
    """The text of the record at ``path`` (``-``: standard input), decoded as UTF-8 (a
    byte order mark is skipped).

    Raises:
        OSError: the file cannot be read.
        RecordError: the file is not UTF-8 text.
    """
    if path == "-":
        stdin = getattr(sys.stdin, "buffer", None)
        if stdin is None:                   # a text stream put in place (tests)
            return sys.stdin.read()
        data: bytes = stdin.read()
    else:
        with open(path, "rb") as f:
            data = f.read()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise RecordError("", f"not UTF-8 text (byte {e.start})") from None


def run(args: argparse.Namespace) -> int:
    """Replay ``args.file``; print a report (or JSON with ``args.json``); return 0, 1 or 2."""
    name = "standard input" if args.file == "-" else args.file
    try:
        text = read_text(args.file)
        record = loads(text)
    except OSError as e:
        return _invalid(args, name, RecordError("", f"cannot read the file: {e.strerror or e}"))
    except RecordError as e:
        return _invalid(args, name, e)
    result = replay(record)
    if args.json:
        _emit(_format_json(result.to_dict(), 2, 0))
    else:
        _emit("\n".join(_report(name, result)))
    return 0 if result.ok else 1


def _emit(text: str) -> None:
    # A reader that stops early (``| head``) is not an error of the record.
    try:
        print(text)
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def _invalid(args: argparse.Namespace, name: str, e: RecordError) -> int:
    print(f"president replay: {name}: {e.message}", file=sys.stderr)
    if args.json:
        out: dict[str, Any] = {
            "ok": False,
            "error": {"deal": e.deal, "step": e.step, "action": e.index, "seat": None,
                      "entry": None, "field": e.field, "reason": e.reason, "message": e.message},
            "deals": [], "scores": None, "match_over": False, "winners": [], "winner_names": [],
            "next_deal": None}
        _emit(_format_json(out, 2, 0))
    return 2


def _report(name: str, result: ReplayResult) -> list[str]:
    rec = result.record
    names = rec.players
    lines = []
    actions = sum(len(d.actions) for d in rec.deals)
    exchanges = sum(len(d.exchange) for d in rec.deals)
    by_order = sum(d.by_order for d in rec.deals)
    err = result.error
    if err is None:
        kept = f", {by_order} by finishing order" if by_order else ""
        lines.append(f"{name}: all legal ({rec.rules.name}; {len(rec.deals)} deal"
                     f"{'s' if len(rec.deals) != 1 else ''}{kept}, {exchanges} exchange "
                     f"transfer{'s' if exchanges != 1 else ''}, {actions} action"
                     f"{'s' if actions != 1 else ''})")
    else:
        who = ""
        if err.seat is not None and result.match is not None:
            who = f" by seat {err.seat} ({names[result.match.seating[err.seat]]})"
        entry = f" {json.dumps(err.entry, ensure_ascii=False)}" if err.entry else ""
        # Deals count from 1 in words; the record's own indexes (0-based) follow.
        lines.append(f"{name}: illegal in deal {err.deal + 1} (record index: {err.where()})"
                     f"{entry}{who}: {err.reason}")
        lines.append(f"  {count_deals_from_1(err.message)}")
    match = result.match
    if match is None:
        return lines + _next_deal_lines(result)
    if result.deals:
        state = result.deals[-1]
        kept = (" (played with real cards, kept by its finishing order)"
                if state["hands"] is None else "")
        lines.append(f"State{' after the last legal step' if err else ''}: deal "
                     f"{len(result.deals)}, {state['phase']}{kept}")
        seat_names = [names[p] for p in state["seating"]]
        for seat, hand in enumerate(state["hands"] or ()):
            mark = " <- to act" if state["to_act"] == seat else ""
            lines.append(f"  seat {seat} {seat_names[seat]}: {hand or '(out)'}{mark}")
        if state["pile"]:
            lines.append("  pile (oldest first): " + " | ".join(state["pile"]))
        elif not state["over"] and state["hands"] is not None:
            lines.append("  pile: empty")
        if state["finish_order"]:
            lines.append("  finishing order: " + ", ".join(
                f"seat {s} {seat_names[s]}" for s in state["finish_order"]))
    if rec.rules.scoring is not None:
        lines.append("Scores: " + ", ".join(f"{n} {s}" for n, s in zip(names, result.scores)))
    if result.match_over:
        lines.append("Match over; winner" + ("s" if len(result.winners) > 1 else "") + ": "
                     + ", ".join(f"{names[p]} (player {p})" for p in result.winners))
    return lines + _next_deal_lines(result)


def _next_deal_lines(result: ReplayResult) -> list[str]:
    """The report's lines on the next deal (``next_deal`` of ``--json``): its number, dealer,
    leader, seats and exchange, or why there is none yet."""
    plan = result.next_deal
    if plan is None:
        if result.match_over:
            return ["Next deal: none; the match is over"]
        return [f"Next deal: not known yet; deal {len(result.deals)} has not ended"]
    names = result.record.players

    def seat(s: int) -> str:
        return f"seat {s} {names[plan['seating'][s]]}"

    if plan["leader"] is None:
        card = result.record.rules.first_lead.card
        lead = f"whoever is dealt {card} leads"
    else:
        lead = f"{seat(plan['leader'])} leads"
    lines = [f"Next deal: deal {plan['number']}, dealt by {seat(plan['dealer'])}; {lead}",
             "  seats: " + ", ".join(f"{s} {names[p]}" for s, p in enumerate(plan["seating"]))]
    if plan["exchange"]:
        steps = []
        for t in plan["exchange"]:
            count = f"{t['count']} card{'s' if t['count'] > 1 else ''}"
            steps.append(f"{seat(t['giver'])} gives {seat(t['receiver'])} {count}"
                         + (" (their highest)" if t["forced"] else ""))
        lines.append("  exchange: " + "; ".join(steps))
    return lines
