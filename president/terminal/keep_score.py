"""The table companion in the terminal (``president keep-score``): the score sheet of a match
played at a real table with a real deck.

:class:`ScoreKeeper` asks for the rules (a preset and its twists), the players' names in
seating order and the first dealer, then loops: it shows the sheet (each deal's places,
titles and points, the running totals, or roles only where the rules keep no score) and the
deal being played now (who deals, the seating, who leads, the exchange in plain words), and
reads the next finishing order. Everything it shows comes from
:func:`president.companion.view`; it states no rule itself.

What you can type at the prompt:

- a finishing order, first out first: names (``Blair, Alex, Drew``) or the players' numbers
  (``2 1 4``); the last player is filled in. Names are separated by commas, or by spaces
  when no name holds one; case does not matter;
- ``undo``: take back the last entry; ``replay``: this deal is dealt again (scores, ranks,
  dealer, seats and exchange unchanged, seed ``000_2ebb75a2290c9d05.txt``);
- ``export FILE`` / ``import FILE``: the sheet as a game record (``president replay``
  checks it); ``new``: a new match (players change only between matches); ``help``;
  ``quit`` (or end of input); ``q`` alone asks first (y/N).

The sheet is saved after every change to ``$XDG_STATE_HOME/president/keep-score.json``
(mode 0600, the folder 0700) and resumed from there the next time. The input function and
the :class:`rich.console.Console` are injectable, so a test can drive a whole match.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Callable

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..companion import Sheet, SheetError, record_from_sheet, same_name, sheet_from_record, view
from ..errors import PresidentError, RulesError
from ..records.read import decode_json
from ..rules import PRESETS, TWISTS, Rules

__all__ = ["ScoreKeeper", "SHEET_FILE", "default_sheet_path", "HELP"]

SHEET_FILE = "keep-score.json"
"""The saved sheet's file name in the state folder."""

#: Deals shown one by one in the sheet; the totals count every deal.
SHEET_COLUMNS = 8

HELP = (
    "Type the finishing order, first out first: names ([bold]Blair, Alex, Drew[/]) or\n"
    "numbers ([bold]2 1 4[/]); the last player is filled in. Or:\n"
    "  undo         take back the last entry\n"
    "  replay       this deal is dealt again: scores, ranks, dealer, seats and\n"
    "               exchange stay as they are\n"
    "  export FILE  write the sheet as a game record (president replay FILE checks it)\n"
    "  import FILE  read a sheet from a game record (replaces this one)\n"
    "  new          a new match: everyone at zero, players may change\n"
    "  help         this text\n"
    "  quit         leave (the sheet stays saved); also Ctrl-D; q asks first")


class _Quit(Exception):
    pass


def default_sheet_path() -> Path:
    """``$XDG_STATE_HOME/president/keep-score.json`` (``~/.local/state/president/…``)."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "president" / SHEET_FILE


def _write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole (a new file renamed over it), mode 0600, in a folder
    made with mode 0700 if it is missing.

    Raises:
        OSError: the folder or the file cannot be written.
    """
    if not path.parent.exists():
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".keep-score-", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fp:
            fp.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


class ScoreKeeper:
    """The score sheet of one table, in the terminal.

    Args:
        input_fn: reads one line, ``(prompt) -> str``; raises :class:`EOFError` at the end
            of input (default: :func:`input`).
        console: where to draw (default: a new :class:`rich.console.Console`).
        path: the saved sheet (default :func:`default_sheet_path`); ``None`` to keep
            nothing on disk.
        echo: print each line typed after its prompt (default: when ``input_fn`` is given or
            standard input is not a terminal, so a transcript reads like a session).
    """

    def __init__(self, *, input_fn: Callable[[str], str] | None = None,
                 console: Console | None = None,
                 path: str | os.PathLike[str] | bool | None = True,
                 echo: bool | None = None) -> None:
        self.console = console or Console(highlight=False)
        self.input_fn = input_fn or input
        if echo is None:
            import sys
            echo = input_fn is not None or not sys.stdin.isatty()
        self.echo = echo
        self.path = default_sheet_path() if path is True else (
            None if path in (None, False) else Path(path))  # type: ignore[arg-type]
        self.sheet: Sheet | None = None

    # ----- input ----------------------------------------------------------------------

    def ask(self, prompt: str) -> str:
        """One line of input after ``prompt``, stripped. Raises :class:`_Quit` at the end of
        input."""
        try:
            line = self.input_fn(prompt if not self.echo else "")
        except (EOFError, KeyboardInterrupt):
            raise _Quit from None
        if self.echo:
            self.console.print(f"{escape(prompt)}{escape(line)}", soft_wrap=True)
        return line.strip()

    def say(self, text: str) -> None:
        # wrapped between words at the console's width (a soft wrap left it to the terminal,
        # which broke words in two: "went ou" / "t first")
        self.console.print(text)

    def refuse(self, e: PresidentError | OSError | str) -> None:
        why = e if isinstance(e, str) else (e.message if isinstance(e, PresidentError)
                                            else (e.strerror or str(e)))
        why = why.strip()
        why = why[:1].upper() + why[1:]
        stop = "" if why.endswith((".", "!", "?")) else "."
        self.say(f"[red]{escape(why)}{stop}[/] Nothing changed.")

    # ----- the loop -------------------------------------------------------------------

    def run(self) -> int:
        """Keep score until ``quit`` or the end of input; returns the exit status 0."""
        try:
            self.sheet = self.load()
            if self.sheet is None:
                self.say("[bold]Keep score at a real table[/]: you deal and play with your own "
                         "cards; after each deal, type who went out first, second, and so on.")
                self.sheet = self.setup()
                self.save()
            self.show()
            while True:
                before = self.sheet
                if not self.step():
                    break
                if self.sheet is not before:
                    self.show()
        except _Quit:
            pass
        if self.path is not None and self.sheet is not None:
            self.say(f"The sheet stays saved in {escape(str(self.path))}; "
                     "[bold]president keep-score[/] goes on from there.")
        return 0

    def load(self) -> Sheet | None:
        """The saved sheet, or ``None`` (none saved, or unreadable: said, then set aside)."""
        if self.path is None or not self.path.exists():
            return None
        try:
            sheet = Sheet.from_dict(decode_json(self.path.read_text(encoding="utf-8")))
        except (OSError, ValueError) as e:
            why = e.message if isinstance(e, PresidentError) else str(e)
            self.say(f"[red]The saved sheet in {escape(str(self.path))} cannot be read[/] "
                     f"({escape(why)}); starting a new one.")
            return None
        self.say(f"Resuming the sheet saved in {escape(str(self.path))} (type "
                 "[bold]new[/] for a new match).")
        return sheet

    def save(self) -> None:
        """Write the sheet to :attr:`path` (a failure is reported, not raised)."""
        if self.path is None or self.sheet is None:
            return
        try:
            _write_private(self.path, json.dumps(self.sheet.to_dict(), ensure_ascii=False,
                                                  indent=1) + "\n")
        except OSError as e:
            self.say(f"[red]Could not save the sheet to {escape(str(self.path))}:[/] "
                     f"{escape(e.strerror or str(e))}")

    def setup(self, previous: Sheet | None = None) -> Sheet:
        """Ask for the rules, the names in seating order and the first dealer (each asked
        again until it is right); ``previous`` gives the defaults."""
        if self.path is None:
            self.say("This sheet is not saved (no file was given).")
        else:
            self.say(f"Saved on this device only, in {escape(str(self.path))}; deleting that "
                     "file removes the sheet (no account backup).")
        presets = ", ".join(PRESETS)
        default = previous.rules.split("+")[0] if previous else "house"
        while True:
            preset = self.ask(f"Rules ({presets}) [{default}]: ") or default
            if preset in PRESETS:
                break
            self.refuse(f"There is no preset {preset!r}; choose one of: {presets}.")
        twists = list(TWISTS[preset])
        chosen: list[str] = []
        if twists:
            for name in twists:
                self.say(f"  [bold]{name}[/]: {escape(TWISTS[preset][name][0])}")
            before = [t for t in (previous.rules.split("+")[1:] if previous else [])
                      if t.partition(":")[0] in twists]
            shown = ",".join(before) or "none"
            while True:
                line = self.ask(f"Twists ({', '.join(twists)}), comma separated [{shown}]: ")
                if not line:
                    chosen = before
                elif line.lower() == "none":
                    chosen = []
                else:
                    chosen = [t.strip() for t in line.split(",") if t.strip()]
                try:
                    Rules.parse("+".join([preset, *chosen]))
                    break
                except RulesError as e:
                    self.refuse(e)
        spec = "+".join([preset, *chosen])
        lo, hi = PRESETS[preset][0], PRESETS[preset][1]
        names_before = ", ".join(previous.players) if previous else ""
        while True:
            line = self.ask(f"Players in seating order, clockwise, comma separated ({lo} to "
                            f"{hi})" + (f" [{names_before}]" if names_before else "") + ": ")
            names = [n.strip() for n in line.split(",")] if line else (
                list(previous.players) if previous else [])
            try:
                Sheet(spec, tuple(names))
                break
            except SheetError as e:
                self.refuse(e)
        while True:
            listed = "  ".join(f"{i + 1} {n}" for i, n in enumerate(names))
            line = self.ask(f"First dealer ({listed}) [{names[-1]}]: ")
            try:
                dealer = self._player(line, names) if line else len(names) - 1
                return Sheet(spec, tuple(names), dealer)
            except SheetError as e:
                self.refuse(e)

    @staticmethod
    def _player(text: str, names: list[str] | tuple[str, ...]) -> int:
        if text.isdigit():
            p = int(text) - 1
            if not 0 <= p < len(names):
                raise SheetError("unknown-name", f"there is no player {text}; players are "
                                 f"numbered 1 to {len(names)}")
            return p
        for p, name in enumerate(names):
            if same_name(name, text):
                return p
        raise SheetError("unknown-name", f"{text[:24]!r} is not at this table; the players "
                         f"are {', '.join(names)}")

    def parse_order(self, line: str) -> list[str | int]:
        """An order typed as names or numbers (1-based), separated by commas or spaces."""
        assert self.sheet is not None
        names = self.sheet.players
        parts = [p.strip() for p in line.split(",")] if "," in line else line.split()
        out: list[str | int] = []
        for part in parts:
            if not part:
                continue
            if part.isdigit():
                k = int(part) - 1
                if not 0 <= k < len(names):
                    raise SheetError("unknown-name", f"there is no player {part}; players are "
                                     f"numbered 1 to {len(names)}")
                out.append(k)
            else:
                out.append(part)
        return out

    def step(self) -> bool:
        """Read and do one line; ``False`` to stop."""
        sheet = self.sheet
        assert sheet is not None
        v = view(sheet)
        prompt = ("Type new, export FILE or quit: " if v["over"] else
                  f"Deal {v['now']['number']} finishing order (or help): ")
        line = self.ask(prompt)
        word, _, rest = line.partition(" ")
        word = word.lower()
        rest = rest.strip()
        if not line:
            return True
        if word in ("quit", "exit"):
            return False
        if line.lower() == "q":    # a slip of the finger is easy: ask first
            kept = " The sheet stays saved." if self.path is not None else ""
            answer = self.ask(f"Quit keeping score?{kept} (y/N): ")
            if answer.lower() in ("y", "yes"):
                return False
            self.say("Not quitting.")
            return True
        if word in ("help", "?"):
            self.say(HELP)
            return True
        try:
            if word == "undo":
                self.sheet = sheet.undo()
                self.say("Took back the last entry.")
            elif word in ("replay", "again"):
                self.sheet = sheet.replay_deal()
                self.say(f"Deal {v['now']['number'] if v['now'] else ''} is dealt again: scores "
                         "and ranks unchanged.")
            elif word == "export":
                self.export(rest)
                return True
            elif word == "import":
                self.import_(rest)
            elif word == "new":
                if not v["over"] and sheet.entries:
                    yes = self.ask("This match is not over. Start a new one? (yes/no): ")
                    if yes.lower() not in ("y", "yes"):
                        return True
                self.sheet = self.setup(sheet)
            else:
                self.sheet = sheet.enter(self.parse_order(line))
        except SheetError as e:
            self.refuse(e)
            return True
        self.save()
        return True

    def export(self, path: str) -> None:
        """Write the sheet as a game record to ``path`` (:func:`record_from_sheet`)."""
        if not path:
            self.refuse("Give a file name: export game.json")
            return
        assert self.sheet is not None
        try:
            text = json.dumps(record_from_sheet(self.sheet), ensure_ascii=False, indent=2)
            Path(path).write_text(text + "\n", encoding="utf-8")
        except (OSError, PresidentError) as e:
            self.refuse(e)
            return
        self.say(f"Wrote the sheet to {escape(path)} as a game record; check it with: "
                 f"president replay {escape(path)}")

    def import_(self, path: str) -> None:
        """Replace the sheet by the one in the game record at ``path``
        (:func:`sheet_from_record`).

        Raises:
            SheetError: the file cannot be read or holds no sheet.
        """
        if not path:
            raise SheetError("bad-sheet", "Give a file name: import game.json")
        try:
            text = Path(path).read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as e:
            why = getattr(e, "strerror", None) or str(e)
            raise SheetError("bad-sheet", f"cannot read {path}: {why}") from None
        self.sheet = sheet_from_record(text)
        self.say(f"Read the sheet from {escape(path)}.")

    # ----- drawing --------------------------------------------------------------------

    def show(self) -> None:
        """The sheet and the deal being played now."""
        assert self.sheet is not None
        v = view(self.sheet)
        c = self.console
        scored = v["totals"] is not None
        deals = [d for d in v["deals"] if not d["replayed"]]
        shown = deals[-SHEET_COLUMNS:]
        self.say(f"[bold]{escape(v['rules']['name'])}[/] — "
                 f"{'score sheet' if scored else 'roles (no score)'}")
        table = Table()
        table.add_column("#", justify="right")
        table.add_column("Player")
        for d in shown:
            table.add_column(f"Deal {d['number']}")
        if scored:
            table.add_column("Total", justify="right")
        for p, name in enumerate(v["players"]):
            cells = []
            for d in shown:
                mine = next(o for o in d["order"] if o["name"] == name)
                cells.append(mine["title"] + (f" +{mine['points']}" if scored and mine["points"]
                                              else ""))
            total = [str(v["totals"][p])] if scored else []
            mark = " ★" if name in v["winners"] else ""
            table.add_row(str(p + 1), escape(name) + mark, *map(escape, cells), *total)
        c.print(table)
        if len(deals) > len(shown):
            self.say(f"(deals 1 to {len(deals) - len(shown)} not shown; the totals count them)")
        again = [d["number"] for d in v["deals"] if d["replayed"]]
        if again:
            self.say("Dealt again: " + ", ".join(f"deal {n}" for n in again) + ".")
        self.say(escape(v["rules"]["end"]))
        if v["over"]:
            self.say(f"[bold]Match over.[/] {escape(v['result'])}")
            return
        now = v["now"]
        self.say(f"[bold]Deal {now['number']}[/]"
                 + (f" (dealt again {now['replays']}×)" if now["replays"] else "") + ": "
                 + escape(now["deal"]) + " " + escape(now["lead"]))
        if now["reseated"]:
            self.say("[bold]New seats, clockwise[/]: " + escape(now["seating_words"]))
        self.say("[bold]Exchange[/]: " + escape(" ".join(now["exchange"])))
