"""Lessons in the terminal (``president learn``), drawn with ``rich``.

:class:`LessonRunner` steps through one :class:`~president.lessons.Lesson`: each step shows
what happened (the engine's events in words), why, and the whole table face up (every hand,
the pile, who is to act). At the prompt:

- Enter: the next step (after the last one, the lesson ends);
- ``b`` or ``back``: the step before;
- a move (``2S``, ``KC KD``, ``pass``, or with a name or seat in front, ``Blair KD KS``):
  the engine says whether it is legal in the position shown and why, and what it would cause;
  the lesson does not change;
- ``help`` (or ``?``); ``q`` or ``quit`` (or end of input) to leave.

:func:`list_lessons` prints the lessons and :func:`choose_lesson` asks for one. The input
function and the :class:`rich.console.Console` are injectable, as in
:class:`~president.terminal.game.TerminalGame`, so a test drives a lesson with scripted lines.
"""

from __future__ import annotations

import re
from typing import Callable, Mapping

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ..cards import Card
from ..lessons import LESSONS, Lesson, LessonError, Position
from ..narration import card_label
from .game import can_show_suit_symbols, can_write, cards_text

# Cards the lessons name in brackets, "(QC QD)": the table shows them with suit symbols.
_BRACKETED_CARDS = re.compile(r"\(((?:10|[2-9JQKA])[CDHS](?: (?:10|[2-9JQKA])[CDHS])*)\)")


def symbols_in(text: str) -> str:
    """``text`` with the cards it names in brackets written as the table shows them
    (:func:`president.narration.card_label`): ``"a pair of queens (QC QD)"`` →
    ``"a pair of queens (Q♣ Q♦)"``."""
    return _BRACKETED_CARDS.sub(
        lambda m: "(" + " ".join(card_label(Card.parse(c)) for c in m.group(1).split()) + ")",
        text)

__all__ = ["LessonRunner", "list_lessons", "choose_lesson", "find_lesson", "LEARN_HELP"]

LEARN_HELP = (
    "  Enter     the next step\n"
    "  b, back   the step before\n"
    "  a move    try it here: cards such as [bold]2S[/] or [bold]KC KD[/], or [bold]pass[/];"
    " put a name\n"
    "            or seat in front to try it for another player ([bold]Blair KD KS[/]).\n"
    "            The engine says whether it is legal and why; the lesson goes on as before.\n"
    "  help, ?   this text\n"
    "  q, quit   leave the lesson")


def find_lesson(name: str, lessons: Mapping[str, Lesson] = LESSONS) -> Lesson | None:
    """The lesson called ``name`` (its id, any case) or numbered ``name`` in the list (from
    1), or ``None``."""
    text = name.strip().lower()
    if text.isdigit():
        k = int(text)
        return list(lessons.values())[k - 1] if 1 <= k <= len(lessons) else None
    return lessons.get(text)


def list_lessons(console: Console, lessons: Mapping[str, Lesson] = LESSONS) -> None:
    """Print the lessons: number, id, title, steps and where each comes from, in words."""
    t = Table(title="Lessons", title_justify="left", show_edge=False, pad_edge=False)
    t.add_column("#", justify="right")
    t.add_column("Lesson", no_wrap=True)
    t.add_column("What it shows")
    t.add_column("Steps", justify="right")
    t.add_column("From", no_wrap=True)
    for k, lesson in enumerate(lessons.values(), 1):
        t.add_row(str(k), lesson.id, lesson.title, str(len(lesson.steps)),
                  lesson.source_text)
    console.print(t)


def choose_lesson(console: Console, input_fn: Callable[[], str], *, echo: bool = False,
                  lessons: Mapping[str, Lesson] = LESSONS) -> Lesson | None:
    """Ask for a lesson by number or id until one is named; ``None`` when the answer is
    empty, ``q``/``quit``, or the input ends."""
    while True:
        console.print("Which lesson? A number or a name; Enter or [bold]q[/] leaves: ", end="")
        try:
            line = input_fn()
        except EOFError:
            if echo:
                console.print()
            return None
        if echo:
            console.print(escape(line.rstrip("\n")))
        word = line.strip()
        if word.lower() in ("", "q", "quit", "exit"):
            return None
        found = find_lesson(word, lessons)
        if found is not None:
            return found
        console.print(f"[red]No lesson {escape(word)!r}.[/] Give a number from 1 to "
                      f"{len(lessons)} or one of: {', '.join(lessons)}.")


class LessonRunner:
    """One lesson stepped through in the terminal.

    Args:
        lesson: the :class:`~president.lessons.Lesson`.
        input_fn: reads one line, ``() -> str``; raises :class:`EOFError` at the end of
            input (default: :func:`input`).
        console: where to draw (default: a new :class:`rich.console.Console`).
        echo: print each line read after its prompt (default: when ``input_fn`` is given,
            so a scripted transcript reads like a session).
        suit_symbols: suits as ``♣ ♦ ♥ ♠`` or as the letters C D H S; ``None`` (default)
            uses the symbols when the console can write them.
    """

    def __init__(self, lesson: Lesson, *, input_fn: Callable[[], str] | None = None,
                 console: Console | None = None, echo: bool | None = None,
                 suit_symbols: bool | None = None) -> None:
        self.lesson = lesson
        self.input_fn = input_fn or input
        self.console = console or Console(highlight=False)
        self.echo = input_fn is not None if echo is None else echo
        self.symbols = (can_show_suit_symbols(self.console) if suit_symbols is None
                        else suit_symbols)
        self._dot = "·" if can_write(self.console, "·") else "-"
        self.index = 0

    def run(self) -> int:
        """Step through the lesson; 0 when it ends or you leave, 130 on Ctrl-C."""
        try:
            return self._run()
        except KeyboardInterrupt:
            self.console.print("\nInterrupted: the lesson ends.")
            return 130

    def _run(self) -> int:
        c = self.console
        lesson = self.lesson
        self.intro()
        last = len(lesson.steps) - 1
        self.show_step()
        while True:
            line = self._read()
            if line is None or line.lower() in ("q", "quit", "exit"):
                c.print("You leave the lesson.")
                return 0
            word = line.lower()
            if word == "":
                if self.index == last:
                    c.print(f"[bold]End of the lesson[/] ({escape(lesson.title)}). "
                            "[bold]president learn[/] lists the others.")
                    return 0
                self.index += 1
                self.show_step()
            elif word in ("b", "back"):
                if self.index == 0:
                    c.print("This is the first step.")
                else:
                    self.index -= 1
                    self.show_step()
            elif word in ("help", "?", "h"):
                c.print(LEARN_HELP)
            else:
                self.try_move(line)

    def _read(self) -> str | None:
        step = self.lesson.steps[self.index]
        tries = ""
        if step.tries:
            tries = f" (e.g. {escape(step.tries[0])})"
        self.console.print(f"[bold]Enter[/] next {self._dot} [bold]b[/] back {self._dot} a move "
                           f"to try it{tries} {self._dot} [bold]q[/] quit: ", end="")
        try:
            line = self.input_fn()
        except EOFError:
            if self.echo:
                self.console.print()
            return None
        if self.echo:
            self.console.print(escape(line.rstrip("\n")))
        return line.strip()

    def intro(self) -> None:
        """The lesson's title, source, rules in words and what it shows."""
        c = self.console
        lesson = self.lesson
        c.rule(f"Lesson: {lesson.title}")
        c.print(f"From {escape(lesson.source_text)} {self._dot} rules [bold]{lesson.rules.name}[/] "
                f"{self._dot} {len(lesson.steps)} steps")
        for line in lesson.rules_text():
            c.print(f"  {escape(line)}")
        c.print(escape(lesson.summary))
        c.print("Every hand is shown face up. Type [bold]help[/] for what you can type.")

    def show_step(self) -> None:
        """The current step: what happened, why, and the table after it."""
        c = self.console
        step = self.lesson.steps[self.index]
        c.print()
        c.rule(f"Step {self.index + 1} of {len(self.lesson.steps)}", align="left")
        for line in step.narration:
            c.print(Text(self._cards(line), style="bold"))
        c.print(Text("Why: ", style="bold cyan") + Text(self._cards(step.why)))
        self.show_table(step.position)
        if step.tries:
            c.print("Try here: " + ", ".join(f"[bold]{escape(t)}[/]" for t in step.tries))

    def show_table(self, pos: Position) -> None:
        """Every seat's hand face up, who deals and who is to act, then the pile."""
        c = self.console
        t = Table(show_edge=False, pad_edge=False, box=None)
        t.add_column("Seat", justify="right")
        t.add_column("Player", no_wrap=True)
        t.add_column("Hand")
        t.add_column("Now")
        places = {s: i + 1 for i, s in enumerate(pos.finish_order)}
        for seat, name in enumerate(pos.names):
            notes = []
            if seat == pos.to_act:
                notes.append("to give" if pos.phase == "exchange" else "to act")
            if seat in places:
                notes.append(f"out: {pos.titles[seat]}")
            elif seat in pos.passed:
                notes.append("passed")
            if seat == pos.dealer:
                notes.append("dealer")
            if pos.previous_titles[seat]:
                notes.append(f"was {pos.previous_titles[seat]}")
            hand = cards_text(pos.hands[seat], self.symbols) if pos.hands[seat] else Text("—")
            label = Text(name, style="bold" if seat == pos.to_act else "")
            t.add_row(str(seat + 1), label, hand, ", ".join(notes))
        c.print(t)
        if pos.pending_text is not None:
            c.print(f"Exchange: {escape(pos.pending_text)}.")
        if pos.pile:
            line = Text("Pile (oldest first): ")
            for k, (seat, play) in enumerate(pos.pile):
                if k:
                    line.append(" | ")
                line.append(f"{pos.names[seat]} ")
                line.append_text(cards_text(play.cards, self.symbols))
            c.print(line)
            top = pos.pile[-1][1]
            c.print(f"To beat: {top.describe()}.")
        elif pos.phase == "play":
            c.print("The pile is empty.")

    def try_move(self, text: str) -> bool:
        """Ask the engine about ``text`` in the current position and print its answer;
        returns whether the move is legal. The lesson does not change."""
        try:
            ok, why = self.lesson.try_move(self.index, text)
        except LessonError as e:
            self.console.print(f"[red]Not a move:[/] {escape(e.message)}")
            return False
        style = "green" if ok else "red"
        self.console.print(Text(self._cards(why), style=style))
        return ok

    def _cards(self, text: str) -> str:
        """Lesson text with its bracketed cards as the table shows them (symbols or not)."""
        return symbols_in(text) if self.symbols else text
