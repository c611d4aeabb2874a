"""The terminal game's input: what you type at your turn, read into an action.

What you can type at your turn:

- a rank alone (``9``, ``10`` or ``T``, ``k``, ``2``) or its name (``nine``, ``queens``):
  the cards of that rank from your hand. On a lead that is all of them (your whole set);
  when following, as many as the pile needs, the lowest suits first (suits never matter in
  play). Repeat it to choose how many (``9 9`` is a pair of nines). If you hold none of
  that rank, or too few, you are told so;
- cards, by their text (``9s 9d``, ``10H``, ``th``, ``9♠``), to choose the exact cards;
- ``pass`` (or ``p``); an empty line (Enter) passes too, but only when nothing you hold
  beats the pile, and says why; otherwise it asks again;
- ``hint``: asks a computer player of the hint level to choose for you, from your own
  observation only, and shows its choice (nothing is played); ``hint LEVEL`` (e.g.
  ``hint expert``) asks that level instead;
- ``history`` (this deal's plays and passes, in order), ``score`` (totals, and each
  deal's places and titles), ``seen`` (the cards gone this deal, per rank);
- ``help`` (or ``?``) and ``quit``.

Cards are never typed by their place in your hand: ranks are numbers too, so a number
always means a rank. ``q`` alone never plays a card: it asks whether you want to quit
(queens are ``queen``, ``q q`` or the cards, e.g. ``QS``). During an exchange each rank
typed gives one card of that rank (``K A`` gives a king and an ace).

A refused entry shows the engine's reason (:attr:`IllegalAction.message`) and asks again;
the match does not change. :class:`TurnInput` holds the prompts, the commands and the
parsing; :class:`~president.terminal.loop.TerminalGame` is one.
"""

from __future__ import annotations

import re
import textwrap
from typing import Any, Callable

from rich.markup import escape
from rich.text import Text

from ..actions import KIND_NAMES, PASS, Give, Pass, Play
from ..cards import Card, Rank
from ..errors import IllegalAction, NotationError, PresidentError
from ..narration import NOTHING_BEATS, exchange_duty, pass_hint_reason, why_pass
from ..observation import Observation
from ..players import BUILT_IN, available_levels, make_player
from .view import TableView, cards_text

__all__ = ["TurnInput", "HELP_TEXT", "RANK_NAMES", "Quit", "help_text", "describe_action"]

# The levels a hint may name, from the one registry, wrapped for the help text.
_LEVEL_LIST = "\n          ".join(textwrap.wrap(", ".join(BUILT_IN), 54))

HELP_TEXT = (
    "At your turn, type one of:\n"
    "  a rank  [bold]9[/], [bold]10[/] (or [bold]T[/]), [bold]k[/], [bold]2[/], or a name"
    " ([bold]nine[/], [bold]queens[/]): your cards\n"
    "          of that rank. On a lead, all of them; when following, as\n"
    "          many as the pile needs (lowest suits first); [bold]9 9[/]: two 9s.\n"
    "  cards   [bold]9s 9d[/], [bold]10H[/], [bold]th[/], [bold]9♠[/]"
    " (rank, then suit: C D H S or ♣ ♦ ♥ ♠)\n"
    "  pass    decline this turn (not on a lead); also [bold]p[/]\n"
    "  Enter   passes when nothing you hold beats the pile (says why)\n"
    "  hint    ask a computer player for a suggestion; [bold]hint expert[/] asks\n"
    f"          that level ({_LEVEL_LIST})\n"
    "  history this deal's plays and passes, in order\n"
    "  score   the scores, and each deal's places and titles\n"
    "  seen    the cards gone this deal (played face up), per rank\n"
    "  help    show this text; also [bold]?[/]\n"
    "  quit    leave the match; also Ctrl-D. [bold]q[/] alone asks first and\n"
    "          never plays queens: for queens type [bold]queen[/], [bold]q q[/] or [bold]QS[/]\n"
    "A play is 1 to 4 cards of one rank. To beat the pile, play as\n"
    "many cards as the lead, of a higher rank (or an equal one where\n"
    "the rules allow it). 3 is the lowest rank, 2 the highest.")

#: Rank names typed instead of a rank symbol (``queen``, ``queens``, ``sixes``): the
#: unambiguous way to name queens, since ``q`` alone asks whether you want to quit.
RANK_NAMES = {name: rank for rank in Rank
              for name in (rank.word, "sixes" if rank.word == "six" else rank.word + "s")}


class Quit(Exception):
    """Raised inside the game loop when you ask to leave (``quit``, end of input)."""


def help_text(symbols: bool = True) -> str:
    """:data:`HELP_TEXT`, without the suit symbols when the console cannot show them."""
    if symbols:
        return HELP_TEXT
    return HELP_TEXT.replace(", [bold]9♠[/]", "").replace(" or ♣ ♦ ♥ ♠", "")


def _plural(rank: Rank) -> str:
    word = rank.word
    return "sixes" if word == "six" else word + "s"


def _short_of(rank: Rank, held: int, wanted: int, why: str = "") -> str:
    """The refusal when you hold fewer cards of ``rank`` than your entry asks for."""
    if not held:
        return f"you hold no {_plural(rank)} ({rank.symbol})"
    have = f"one {rank.word}" if held == 1 else f"{held} {_plural(rank)}"
    return f"you hold only {have} ({rank.symbol}) and {why or f'asked for {wanted}'}"


def describe_action(action: Play | Pass | Give) -> str:
    """Plain words for an action: ``"pair of nines (9D 9S)"``, ``"pass"``, ``"give 2S"``."""
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Give):
        return f"give {action}"
    return f"{action.describe()} ({action})"


class TurnInput(TableView):
    """The reading half of the terminal game: your turn's prompt, the commands you may type
    and your entry read into an action. A base of
    :class:`~president.terminal.loop.TerminalGame`, which sets the attributes below.
    """

    input_fn: Callable[[], str]
    echo: bool
    auto_pass: bool
    hint_level: str
    _hint_players: dict[str, Any]
    _hint_memo: dict[tuple[Any, ...], Any]

    def _read(self, prompt: str) -> str:
        self.console.print(prompt, end="", markup=True)
        try:
            line = self.input_fn()
        except EOFError:
            if self.echo:
                self.console.print()
            raise Quit from None
        if self.echo:
            self.console.print(escape(line.rstrip("\n")), markup=True)
        return line.strip()

    def _ask_another_deal(self) -> bool:
        while True:
            line = self._read("Another deal? [bold]Enter[/] or [bold]y[/] to deal, "
                              "[bold]quit[/] to stop: ").lower()
            if line in ("", "y", "yes"):
                return True
            if line in ("q", "quit", "exit", "n", "no"):
                return False
            self.console.print("Please answer y (or just Enter) or quit.")

    # ----- your turn ----------------------------------------------------------------

    def _your_action(self) -> Play | Pass | Give:
        obs = self.observation()
        forced_pass = self.nothing_beats(obs)
        if forced_pass is not None and self.auto_pass:
            self.console.print(f"{forced_pass} (auto-pass).")
            return PASS
        self.show_table(obs)
        exchange = obs.phase == "exchange"
        if exchange:
            step = obs.pending_exchange
            assert step is not None  # your step of the exchange
            legal = obs.legal_actions
            said = exchange_duty(step, self.reader(obs), obs.rules.give_back)
            duty = escape(said)
            if step.forced and len(legal) == 1:
                give = legal[0]
                assert isinstance(give, Give)  # an exchange's actions are gives
                t = Text(f"{said}: ")
                t.append_text(cards_text(give.cards, self.symbols))
                t.append(" goes.")
                self.console.print(t)
                return give
            if step.forced or obs.rules.give_back == "lowest":
                prompt = f"{duty}; type which (e.g. {legal[0]}): "
            else:
                example = " ".join(str(c) for c in obs.hand[:step.count])
                prompt = (f"{duty}; type the card{'s' if step.count > 1 else ''} "
                          f"(e.g. {example}): ")
        elif obs.to_beat is not None and (forced_pass is not None or obs.pile):
            to_beat = obs.to_beat
            if forced_pass is not None:
                prompt = (f"Nothing you hold beats {self._labels(to_beat.cards)}: "
                          "[bold]Enter[/] passes: ")
            else:
                kind = KIND_NAMES[to_beat.count]
                prompt = (f"Beat {self._labels(to_beat.cards)}: a rank (a {kind} of it) or "
                          "cards, or pass: ")
        else:
            prompt = "You lead: a rank (all your cards of it) or cards: "
        while True:
            line = self._read(prompt)
            word = line.lower()
            if not word:
                if forced_pass is not None:
                    self.console.print(f"{forced_pass}.")
                    return PASS
                self._enter_does_not_pass(obs)
                continue
            if word in ("quit", "exit"):
                raise Quit
            if word == "q":
                self._confirm_quit()
                continue
            if word in ("help", "?", "h"):
                self.console.print(self.exchange_help(obs) if exchange
                                   else help_text(self.symbols))
                continue
            if word == "history":
                self.show_history(obs)
                continue
            if word in ("score", "scores"):
                self.show_score()
                continue
            if word in ("seen", "gone"):
                self.show_seen(obs)
                continue
            words = word.split()
            if words[0] == "hint" and len(words) <= 2:
                self._hint(obs, words[1] if len(words) == 2 else self.hint_level)
                continue
            if word == "p":
                line = "pass"
            try:
                action = self._parse(line, obs)
            except PresidentError as e:
                self.console.print(f"[red]Not accepted:[/] {escape(e.message)}")
                continue
            refusal = self.match.refusal(self.seat, action)
            if refusal is not None:
                self.console.print(f"[red]Not accepted:[/] {escape(refusal.message)}")
                continue
            return action

    def nothing_beats(self, obs: Observation) -> str | None:
        """Why you must pass, when passing is your only legal action: ``"Nothing you hold
        beats the pair of nines (9♦ 9♠): no pair of a higher rank"``
        (:func:`president.narration.why_pass`). ``None`` when you can play (or lead, or
        are not to act, or it is the exchange).

        Args:
            obs: your observation.
        """
        return why_pass(obs, symbols=self.symbols)

    def _enter_does_not_pass(self, obs: Observation) -> None:
        """The note for an empty line when it does not pass: a lead, a pile you can beat,
        or the exchange. Nothing is played."""
        if obs.phase == "exchange":
            note = "Enter does not give cards: type the cards (or ranks) to give."
        elif not obs.pile:
            note = "You lead, so you cannot pass: type a rank or cards (help for more)."
        else:
            note = ("You can beat the pile, so Enter does not pass: type a rank or cards to "
                    "play, or [bold]pass[/] (p).")
        self.console.print(note)

    def _confirm_quit(self) -> None:
        """``q`` alone: ask before leaving (``q`` never plays queens).

        Raises:
            Quit: when you answer ``y`` (or ``yes``, ``quit``), or at the end of input.
        """
        answer = self._read("Quit the match? [bold]y[/] quits, [bold]Enter[/] goes on: ")
        if answer.lower() in ("y", "yes", "quit"):
            raise Quit
        self.console.print("Not quitting. (q alone never plays queens: type [bold]queen[/], "
                           "[bold]q q[/] or the cards, e.g. [bold]QS[/].)")

    def exchange_help(self, obs: Observation) -> str:
        """The help shown for ``help`` during an exchange: what you give, to whom, and how
        to type it (docs/rules.md ``exchange``: ``one-card`` and ``two-and-one``).

        Args:
            obs: your observation; its ``pending_exchange`` is your step.
        """
        step = obs.pending_exchange
        assert step is not None  # asked during the exchange
        to = obs.names[step.receiver]
        n = step.count
        what = f"{n} card{'s' if n > 1 else ''}"
        rule = escape(exchange_duty(step, self.reader(obs), obs.rules.give_back)) + "."
        if step.forced or obs.rules.give_back == "lowest":
            rule += " When several of your cards share that rank, you choose which."
        hand = obs.hand
        card_example = " ".join(str(c) for c in (hand[-n:] if step.forced else hand[:n]))
        rank_example = " ".join(c.rank.symbol for c in (hand[-n:] if step.forced else hand[:n]))
        return (f"Exchange: you give {what} to {escape(to)} before the deal is played.\n"
                f"  {rule}\n"
                f"  Type the card{'s' if n > 1 else ''}: [bold]{card_example}[/] (rank, then "
                "suit C D H S),\n"
                f"  or rank{'s' if n > 1 else ''}: [bold]{rank_example}[/] (each rank gives "
                "one card of it, lowest suit first).\n"
                "  hint    ask a computer player for a suggestion (hint LEVEL: that level)\n"
                "  quit    leave the match")

    def _hint(self, obs: Observation, level: str) -> None:
        """Print the choice of the ``level`` computer player for ``obs`` (plays nothing)."""
        if level not in self._hint_players:
            try:
                self._hint_players[level] = make_player(level, seed=self.seed * 31)
            except ValueError:
                levels = ", ".join(available_levels())
                self.console.print(f"[red]Not accepted:[/] no computer level {escape(level)!r} "
                                   f"for a hint; type hint or hint LEVEL, LEVEL one of {levels}")
                return
        # Asked again in the same position, the same answer (a search can differ between runs).
        where = (level, obs.seat, obs.deal_number, obs.phase, len(obs.history), len(obs.exchanges))
        choice = self._hint_memo.get(where)
        if choice is None:
            choice = self._hint_memo[where] = self._hint_players[level].act(obs)
        why = ""
        if choice is PASS:   # say why, as the browser does
            forced = all(a is PASS for a in obs.legal_actions)
            why = f" ({NOTHING_BEATS if forced else pass_hint_reason(level)})"
        self.console.print(f"Hint ({level}): {describe_action(choice)}{why}")

    def _parse(self, line: str, obs: Observation) -> Play | Pass | Give:
        """Your entry as an action. A rank alone (or its name, :data:`RANK_NAMES`) stands
        for your cards of that rank.

        During play, one rank alone means all your cards of it on a lead, and as many as
        the pile needs when following (lowest suits first; suits never matter, docs/rules.md
        "Core"); a rank typed ``k`` times means ``k`` cards of it. During an exchange each
        rank typed is one card of that rank. Anything else is read as card notation.

        Raises:
            IllegalAction: ``bad-notation`` for a number that is not a rank, a ``#``
                position, a mix of ranks and cards or unreadable cards; ``not-in-hand``
                when you hold none (or too few) of a rank typed; ``mixed-ranks`` for cards
                or ranks of different ranks in a play.
        """
        words = [w for w in re.split(r"[\s,]+", line.strip()) if w]
        ranks: list[Rank | None] = []
        for w in words:
            if w.lower() in RANK_NAMES:
                ranks.append(RANK_NAMES[w.lower()])
                continue
            try:
                ranks.append(Rank.parse(w))
            except NotationError:
                if w.startswith("#") or w.isdigit():
                    raise IllegalAction(
                        "bad-notation", f"{w!r} is not a rank or a card; cards are not "
                        "typed by their place in your hand. Type a rank (9, 10, K, 2) for "
                        "your cards of that rank, or the cards themselves (9S 9D)") from None
                ranks.append(None)
        if not words or all(r is None for r in ranks):
            return self.match.parse_action(" ".join(words))
        typed = [r for r in ranks if r is not None]
        if len(typed) != len(ranks):
            raise IllegalAction("bad-notation", "type ranks alone (9, or 9 9 for two) or the "
                                "cards themselves (9S 9D), not both in one entry")
        hand = obs.hand
        if obs.phase == "exchange":
            chosen: list[Card] = []
            for r in typed:
                free = [c for c in hand if c.rank == r and c not in chosen]
                if not free:
                    n_held = sum(c.rank == r for c in hand)
                    raise IllegalAction("not-in-hand", _short_of(
                        r, n_held, typed.count(r), f"you typed it {typed.count(r)} times"))
                chosen.append(free[0])
            return Give(chosen)
        rank = typed[0]
        if any(r != rank for r in typed):
            raise IllegalAction("mixed-ranks", f"{' '.join(words)} mixes ranks; a play is "
                                "cards of one rank")
        held = [c for c in hand if c.rank == rank]
        if len(words) > 1:
            count, why = len(words), f"you typed it {len(words)} times"
        elif obs.to_beat is not None:  # a pile to beat
            count = obs.to_beat.count
            why = f"the pile needs a {KIND_NAMES[count]}"
        else:
            count, why = len(held), ""
        if not held or len(held) < count:
            raise IllegalAction("not-in-hand", _short_of(rank, len(held), count, why))
        return Play.of(held[:count])
