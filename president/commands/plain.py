"""Plain-text stand-ins for the few ``rich`` pieces the commands use, so ``president bench``
and ``president simulate`` work without the optional ``rich`` (the ``cli`` extra).

:func:`console_and_table` gives ``rich``'s ``Console`` and ``Table`` when it is installed,
else :class:`Console` and :class:`Table` here: the same calls, printing aligned columns and
dropping ``rich`` markup such as ``[bold]`` and ``[/]``.
"""

from __future__ import annotations

import re
import sys
from typing import Any

__all__ = ["Console", "Table", "console_and_table", "strip_markup"]

def strip_markup(text: str) -> str:
    """``text`` without ``rich`` style tags (``"[bold]x[/]"`` → ``"x"``)."""
    return re.sub(r"\[/\]|\[/?(?:bold|dim|italic|yellow|red|green|cyan|blue|magenta)\]", "",
                  text)


class Table:
    """Columns of text: ``add_column(header, justify="left"|"right")``, ``add_row(*cells)``."""

    def __init__(self, title: str | None = None, **_: Any) -> None:
        self.title = title
        self.headers: list[str] = []
        self.right: list[bool] = []
        self.rows: list[list[str]] = []

    def add_column(self, header: str, justify: str = "left", **_: Any) -> None:
        self.headers.append(header)
        self.right.append(justify == "right")

    def add_row(self, *cells: str) -> None:
        self.rows.append([strip_markup(str(c)) for c in cells])

    def render(self) -> str:
        """The table as lines of text, columns two spaces apart."""
        widths = [max([len(h)] + [len(r[i]) for r in self.rows if i < len(r)])
                  for i, h in enumerate(self.headers)]

        def line(cells: list[str]) -> str:
            if not cells:
                return ""
            return "  ".join(c.rjust(w) if right else c.ljust(w)
                             for c, w, right in zip(cells, widths, self.right)).rstrip()
        out = [self.title] if self.title else []
        out.append(line(self.headers))
        out.extend(line(r) for r in self.rows)
        return "\n".join(out)


class Console:
    """``print`` of text (markup removed) or of a :class:`Table`, to standard output or,
    with ``stderr=True``, to standard error."""

    def __init__(self, stderr: bool = False, **_: Any) -> None:
        self.file = sys.stderr if stderr else sys.stdout

    def print(self, obj: Any = "", **_: Any) -> None:
        text = obj.render() if isinstance(obj, Table) else strip_markup(str(obj))
        print(text, file=self.file)


def console_and_table() -> tuple[type, type]:
    """``(Console, Table)``: ``rich``'s when it is installed, else the plain ones here."""
    try:
        from rich.console import Console as RichConsole
        from rich.table import Table as RichTable
    except ImportError:
        return Console, Table
    return RichConsole, RichTable
