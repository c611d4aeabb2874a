"""The table both environments drive: a :class:`~president.match.Match`, the action
indices of :mod:`president.env.encoding`, one-card exchange steps, rewards and the end of an
episode. Every action goes through the engine's checked :meth:`Match.act`; this module
states no rule of the game itself.
"""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np

from ..actions import Action, Give
from ..errors import IllegalAction, RulesError
from ..events import Exchanged, Played
from ..match import Match
from ..rules import PRESETS, MatchEnd, Rules
from .encoding import (GIVE_BASE, NUM_ACTIONS, describe_action, give_card_for,
                       observation_bytes, play_for)
from .encoding import PHASES
from .encoding import mask_bytes as legal_mask_bytes

_PHASE_INDEX = {phase: i for i, phase in enumerate(PHASES)}

__all__ = ["Table", "make_rules", "EPISODES", "REWARDS"]

#: ``episode`` option values: one deal, or a whole match (with exchanges).
EPISODES = ("deal", "match")
#: ``reward`` option values.
REWARDS = ("place", "points")


def make_rules(*, rules: Rules | str | None = None, preset: str | None = None,
               twists: tuple[str, ...] | list[str] | str = (), players: int | None = None) -> Rules:
    """The :class:`~president.rules.Rules` of an environment: ``rules`` as given (a
    :class:`Rules` or a ``"PRESET+TWIST"`` string), else ``preset`` (default ``"house"``)
    with ``twists`` (a list or a ``"+"``-separated string) and ``players``.

    Raises:
        ValueError: (:class:`~president.errors.RulesError`) for an unknown preset, twist or
            table size, saying what is allowed; for ``rules`` given together with
            ``preset`` or ``twists`` (one of them would be ignored).
    """
    if rules is not None:
        extra = [name for name, value in (("preset", preset), ("twists", twists))
                 if value is not None and value != () and value != [] and value != ""]
        if extra:
            raise RulesError(extra[0], f"give rules = {rules!r} or {' and '.join(extra)}, not "
                             "both (the second would be ignored); put twists in the rules "
                             "name, e.g. rules='first-night+swap'")
    if isinstance(rules, Rules):
        if players is not None and players != rules.players:
            raise RulesError("players", f"players = {players} disagrees with the rules given "
                             f"({rules.players} players); give one or the other")
        return rules
    if rules is not None:
        if not isinstance(rules, str):
            raise RulesError("rules", f"rules = {rules!r} is neither a Rules nor a name such as "
                             "'house+sit-out'")
        return Rules.parse(rules, players=players)
    if preset is None:
        preset = "house"
    if not isinstance(preset, str) or preset not in PRESETS:
        raise RulesError("preset", f"no preset named {preset!r}; presets are: {', '.join(PRESETS)}")
    if isinstance(twists, str):
        twists = [t for t in twists.split("+") if t]
    return Rules.preset(preset, players=players, twists=list(twists))


class Table:
    """One episode's state for the environments. Players are match player indices
    ``0..n-1`` (an agent keeps its index when ``by-finish`` seating moves it).

    Args:
        rules: the table's rules.
        episode: ``"deal"`` (one deal; the first deal of a match has no exchange) or
            ``"match"`` (deals until the match ends, with exchanges between them).
        reward: ``"place"`` (per deal, ``1 - 2 (place - 1) / (n - 1)``: +1 for first,
            -1 for last) or ``"points"`` (the deal's points under ``rules.scoring``).
        max_deals: in ``"match"`` episodes, deals after which the episode is truncated if
            the match has not ended (it must, under ``match_end = never``).

    Raises:
        ValueError: for an unknown ``episode`` or ``reward``, ``"points"`` without scoring,
            or ``max_deals`` below 1.
    """

    def __init__(self, rules: Rules, *, episode: str = "deal", reward: str = "place",
                 max_deals: int = 20) -> None:
        if episode not in EPISODES:
            raise ValueError(f"episode = {episode!r} is not allowed; choose one of: "
                             f"{', '.join(EPISODES)}")
        if reward not in REWARDS:
            raise ValueError(f"reward = {reward!r} is not allowed; choose one of: "
                             f"{', '.join(REWARDS)}")
        if reward == "points" and not rules.scoring:
            raise ValueError(f"reward = 'points' needs rules that score points; {rules.name} "
                             "scores none (roles only), so use reward = 'place'")
        if isinstance(max_deals, bool) or not isinstance(max_deals, int) or max_deals < 1:
            raise ValueError(f"max_deals = {max_deals!r} must be a whole number of at least 1")
        if episode == "deal" and rules.match_end != "single-deal":
            rules = replace(rules, match_end=MatchEnd("single-deal"))
        self.rules = rules
        self.n = rules.players
        self.episode = episode
        self.reward = reward
        self.max_deals = max_deals if episode == "match" else 1
        self.match: Match | None = None
        self._legal: list[Action] | None = None
        self._mask: bytearray | None = None
        self._scores: list[int] | None = None    # match points by seat, worked out when first asked
        self.terminated = True
        self.truncated = False

    def reset(self, rng: random.Random) -> None:
        """Start a new episode: the match seed and the first dealer (uniform over the
        seats) are drawn from ``rng``."""
        n = self.n
        dealer = rng.randrange(n)
        self.match = Match(self.rules, seed=rng.getrandbits(63), first_dealer=dealer,
                           record_events=False)
        self.terminated = False
        self.truncated = False
        self.deals = 0
        self._new_deal()

    def load(self, match: Match) -> None:
        """Start an episode from a given match at the start of a deal, nothing played in it
        yet (built with this table's rules, e.g. from chosen hands for a teaching position
        or a test) instead of a shuffle.

        Raises:
            ValueError: if the match's rules are not this table's.
        """
        if match.rules != self.rules:
            raise ValueError(f"the match is played under {match.rules.name} with "
                             f"{match.rules.players} players; this table plays {self.rules.name} "
                             f"with {self.n} (a deal episode plays match_end = single-deal)")
        self.match = match
        self.terminated = False
        self.truncated = False
        self.deals = len(match.results)
        self._new_deal()

    def _new_deal(self) -> None:
        m = self.match
        assert m is not None
        self.seat_of = [0] * self.n
        for s, p in enumerate(m.seating):
            self.seat_of[p] = s
        self.played = [0] * self.n
        self.given = [0] * self.n      # by seat, this deal's exchange
        self.received = [0] * self.n
        self.chosen = 0                # cards picked for the give in progress
        self._legal = self._mask = None
        self._scores = None

    # ----- queries ------------------------------------------------------------------

    def acting(self) -> int | None:
        """The player (match index) to act, or ``None`` when the episode is over."""
        m = self.match
        if m is None or m.to_act is None or self.terminated or self.truncated:
            return None
        return m.seating[m.to_act]

    def legal(self) -> list[Action]:
        if self._legal is None:
            assert self.match is not None
            self._legal = self.match.legal_actions()
        return self._legal

    def mask(self, player: int) -> np.ndarray:
        """``int8`` mask of the legal action indices of ``player`` (zero when it is not
        that player's turn), shape ``(NUM_ACTIONS,)``, a new array."""
        if self.acting() != player:
            return np.zeros(NUM_ACTIONS, dtype=np.int8)
        return np.frombuffer(bytearray(self.mask_bytes()), dtype=np.int8)

    def mask_bytes(self) -> bytearray:
        """The acting player's mask as :data:`NUM_ACTIONS` bytes (0 or 1), kept until the
        next action (do not change it)."""
        if self._mask is None:
            m = self.match
            assert m is not None and m.to_act is not None
            self._mask = legal_mask_bytes(self.legal(), m.deal.hands[m.to_act], self.chosen)
        return self._mask

    def _parts(self, seat: int) -> tuple[int, int, int, int, int, int, int]:
        """What both observation builders need beyond the deal itself, for ``seat``: the card
        mask it has chosen to give so far, how many more it gives and to whom (-1: no give
        pending), the pile's card mask, the rank and count of the play to beat (-1, 0 on an
        empty pile) and the seat that made it (-1). Also works out the scores by seat once
        per deal."""
        m = self.match
        assert m is not None
        deal = m.deal
        chosen = give_count = 0
        give_to = -1
        if m.phase == "exchange":
            pending = m.pending_transfer
            assert pending is not None
            if pending.giver == seat:
                chosen = self.chosen
                give_count = pending.count - chosen.bit_count()
                give_to = pending.receiver
        pile = 0
        rank, count, latest = -1, 0, -1
        if deal.pile:
            for _, p in deal.pile:
                pile |= p.mask
            latest, top = deal.pile[-1]
            rank, count = top.rank, top.count
        if self._scores is None:
            scores = m.scores
            self._scores = [scores[p] for p in m.seating]
        return chosen, give_count, give_to, pile, rank, count, latest

    def observe(self, player: int) -> np.ndarray:
        """The ``float32`` observation of ``player`` (see :data:`~president.env.encoding.PIECES`),
        shape ``(OBS_SIZE,)``, a new array."""
        m = self.match
        assert m is not None
        deal = m.deal
        seat = self.seat_of[player]
        phase = m.phase
        chosen, give_count, give_to, pile, rank, count, latest = self._parts(seat)
        scores = self._scores
        assert scores is not None
        to_act = m.to_act
        return np.frombuffer(bytearray(observation_bytes(
            self.n, seat, deal.hands[seat] & ~chosen, pile, deal.cleared, self.played,
            self.given[seat] | chosen, self.received[seat], rank, count, deal.counts,
            deal.passed, deal.finish_order, -1 if to_act is None else to_act, latest,
            scores, _PHASE_INDEX[phase], give_count, give_to)), dtype="<f4")

    def observe_raw(self, player: int, lanes: list[int], ints: list[int],
                    per_seat: list[int]) -> None:
        """Extend the flat lists ``lanes``, ``ints`` and ``per_seat`` with ``player``'s
        observation, as :func:`~president.env.encoding.encode_batch` takes it."""
        m = self.match
        assert m is not None
        deal = m.deal
        n = self.n
        seat = self.seat_of[player]
        phase = m.phase
        chosen, give_count, give_to, pile, rank, count, latest = self._parts(seat)
        scores = self._scores
        assert scores is not None
        places = [0] * n
        for place, s in enumerate(deal.finish_order):
            places[s] = place + 1
        lanes += (deal.hands[seat] & ~chosen, pile, deal.cleared, self.given[seat] | chosen,
                  self.received[seat])
        lanes += self.played
        to_act = m.to_act
        ints += (seat, rank, count, deal.passed, -1 if to_act is None else to_act, latest,
                 _PHASE_INDEX[phase], give_count, give_to)
        per_seat += deal.counts
        per_seat += places
        per_seat += scores

    # ----- transitions --------------------------------------------------------------

    def refusal(self, action: object) -> str | None:
        """Why the acting player may not take action index ``action``, or ``None``."""
        if type(action) is not int:
            if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
                return (f"action {action!r} is not an action index; indices are 0 to "
                        f"{NUM_ACTIONS - 1} (see docs/env.md)")
            action = int(action)
        if not 0 <= action < NUM_ACTIONS:
            return (f"action {action!r} is not an action index; indices are 0 to "
                    f"{NUM_ACTIONS - 1} (see docs/env.md)")
        player = self.acting()
        if player is None:
            return "the episode is over; call reset()"
        if self.mask_bytes()[action]:
            return None
        what = describe_action(action)
        assert self.match is not None
        if self.match.phase == "exchange":
            return (f"{what} is not legal now: this step of the exchange needs a give "
                    f"(indices {GIVE_BASE} to {NUM_ACTIONS - 1}) the rules allow")
        return f"{what} is not legal now (see the action mask)"

    def step(self, action: int) -> list[float] | None:
        """Take action index ``action`` for the acting player through :meth:`Match.act`.

        Returns:
            The reward per player if a deal ended on this step, else ``None``.

        Raises:
            IllegalAction: reason ``illegal-index`` (the message says why) for an action
                the mask does not allow; nothing changes.
        """
        why = self.refusal(action)
        if why is not None:
            raise IllegalAction("illegal-index", why)
        return self.step_checked(int(action))

    def step_checked(self, action: int) -> list[float] | None:
        """:meth:`step` for an action :meth:`refusal` has just accepted (the engine's
        :meth:`Match.act` still checks the play or give itself)."""
        m = self.match
        assert m is not None
        seat = m.to_act
        assert seat is not None
        if action >= GIVE_BASE:
            step = m.pending_transfer
            assert step is not None
            self.chosen |= give_card_for(action, m.deal.hands[seat] & ~self.chosen)
            if self.chosen.bit_count() < step.count:
                self._legal = self._mask = None
                return None
            give = Give(self.chosen)
            self.chosen = 0
            return self.act_engine(seat, give)
        play = play_for(action, m.deal.hands[seat])
        assert play is not None, "step_checked takes an action index refusal() accepted"
        return self.act_engine(seat, play)

    def act_engine(self, seat: int, action: Action) -> list[float] | None:
        """Take an engine action (a :class:`Play`, ``PASS`` or :class:`Give`, e.g. a computer
        player's) for ``seat`` with the checked :meth:`Match.act`, keep the face-up record,
        and move on to the next deal when one ends. Returns the rewards as :meth:`step`."""
        m = self.match
        assert m is not None
        events = m.act(seat, action)
        self._legal = self._mask = None
        for e in events:
            if type(e) is Played:
                self.played[e.seat] |= e.play.mask
            elif type(e) is Exchanged:
                assert e.cards is not None    # the engine's own events show every card
                mask = sum(c.bit for c in e.cards)
                self.given[e.giver] |= mask
                self.received[e.receiver] |= mask
        if m.phase == "play" or m.phase == "exchange":
            return None
        self._scores = None
        return self._deal_over()

    def _deal_over(self) -> list[float]:
        m = self.match
        assert m is not None
        n = self.n
        result = m.results[-1]
        self.deals += 1
        if self.reward == "points":
            rewards = [float(x) for x in result.points]
        else:
            rewards = [0.0] * n
            for place, p in enumerate(result.finish_order):
                rewards[p] = 1.0 - 2.0 * place / (n - 1)
        if m.phase == "match-over" or self.episode == "deal":
            self.terminated = True
        elif self.deals >= self.max_deals:
            self.truncated = True
        else:
            m.start_next_deal()
            self._new_deal()
        return rewards

    def render_text(self) -> str:
        """The public state in one short paragraph (no hidden card)."""
        m = self.match
        if m is None:
            return "no episode yet; call reset()"
        deal = m.deal
        top = deal.pile[-1][1] if deal.pile else None
        counts = ", ".join(f"player {p}: {deal.counts[s]}" for s, p in enumerate(m.seating))
        act = self.acting()
        return (f"deal {m.deal_number}, {m.phase}; pile: {top or 'empty'}; cards held: "
                f"{counts}; to act: {'nobody' if act is None else f'player {act}'}; "
                f"scores: {list(m.scores)}")

