"""Action indices and the observation tensor of :mod:`president.env` (numpy).

Actions (``Discrete(66)``, the same space at every table and in every phase):

======== ======================================================================
index    meaning
======== ======================================================================
0..51    play: ``index = rank * 4 + (count - 1)``, ``count`` (1–4) cards of ``rank``
         (0 = three … 12 = two). The suits are the ``count`` lowest suits of that
         rank in the hand, in the order clubs, diamonds, hearts, spades.
52       pass (:data:`PASS_ACTION`).
53..65   give one card in an exchange: ``index = 53 + rank``; the card is the
         lowest suit of that rank still in the hand and not yet chosen for this
         give. A give of two cards takes two steps of the same seat.
======== ======================================================================

Suits never decide anything in play or in the exchange (docs/rules.md, "Deck"), so fixing
them loses no choice that matters. The observation is a flat ``float32`` vector of
:data:`OBS_SIZE` numbers; :data:`PIECES` names its parts in order (the table in
docs/env.md). Seats in it are *relative*: row 0 is the observing seat, row 1 the seat on
its left (next clockwise), and so on; rows past the table size are zero. Every piece is
built from what docs/rules.md "Information" lets that seat know, and nothing else:
:func:`encode_observation` builds it from a :class:`~president.observation.Observation`
alone, and the environments' faster path is tested to give the same numbers.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Sequence, cast

import numpy as np

from ..actions import PASS, Action, Give, Pass, Play, plays_table

if TYPE_CHECKING:
    from ..observation import Observation

__all__ = ["SCORE_SCALE", "scale_score", "scale_scores", "NUM_ACTIONS", "PASS_ACTION",
            "GIVE_BASE", "MAX_SEATS", "OBS_SIZE", "PIECES",
           "piece_slices", "play_action", "give_action", "play_for", "give_card_for",
           "encode_observation", "describe_action", "PHASES"]

#: Number of actions: 52 plays, the pass, 13 single-card gives.
NUM_ACTIONS = 66
#: Index of the pass.
PASS_ACTION = 52
#: Index of "give one three"; ``GIVE_BASE + rank`` gives one card of ``rank``.
GIVE_BASE = 53
#: Rows of every per-seat piece (the largest table).
MAX_SEATS = 7
#: The scale of ``hand_counts``: above the largest hand (18 at 3 players, 19 while a
#: President holds a received card before giving one back).
MAX_HAND = 20
#: The ``scores`` piece shows ``points / (points + SCORE_SCALE)``: 0 for none, 0.5 at this
#: many points, below 1 for any number of points.
SCORE_SCALE = 10
#: The phases, in the order of the ``phase`` piece.
PHASES = ("exchange", "play", "between-deals", "match-over")

#: ``(name, shape, meaning)`` of each piece of the observation, in order. Card pieces are
#: indexed by card ``rank * 4 + suit`` (suits C D H S).
PIECES: tuple[tuple[str, tuple[int, ...], str], ...] = (
    ("hand", (52,), "1 for each card in the observing seat's hand (cards chosen for a give "
                    "in progress are left out)"),
    ("pile", (52,), "1 for each card on the current pile"),
    ("cleared", (52,), "1 for each card cleared from earlier piles this deal"),
    ("played", (MAX_SEATS, 52), "cards each relative seat has played this deal (face up)"),
    ("given", (52,), "cards this seat gave in this deal's exchange, and cards chosen so far "
                     "for a give in progress"),
    ("received", (52,), "cards this seat received in this deal's exchange"),
    ("to_beat_rank", (13,), "one-hot rank of the latest play on the pile (zero on a lead)"),
    ("to_beat_count", (4,), "one-hot card count of the latest play (zero on a lead)"),
    ("hand_counts", (MAX_SEATS,), "cards held per relative seat, divided by 20"),
    ("passed", (MAX_SEATS,), "1 for each relative seat that has passed (as the passing "
                             "rule counts passes on this pile)"),
    ("finished", (MAX_SEATS,), "finishing place this deal divided by the table size; 0 while "
                               "still holding cards"),
    ("to_act", (MAX_SEATS,), "one-hot relative seat whose turn it is (zero when nobody's)"),
    ("latest", (MAX_SEATS,), "one-hot relative seat that made the latest play on the pile"),
    ("seated", (MAX_SEATS,), "1 for each relative seat at the table (the table size)"),
    ("scores", (MAX_SEATS,), "match points per relative seat, scaled into [0, 1) as "
                             "points / (points + 10)"),
    ("phase", (4,), "one-hot phase: exchange, play, between-deals, match-over"),
    ("give_count", (1,), "cards this seat still has to give in the exchange step now, / 2"),
    ("give_to", (MAX_SEATS,), "one-hot relative seat this seat is giving to now"),
)


def scale_score(points: int) -> float:
    """A seat's match points as the ``scores`` piece shows them: ``points / (points + 10)``
    (0 for 0 points, 0.5 for 10, 2/3 for 20; always in ``[0, 1)`` as points are never
    negative)."""
    return points / (points + SCORE_SCALE)


def scale_scores(obs: np.ndarray) -> np.ndarray:
    """Scale the ``scores`` piece of observations holding raw points, in place, as
    :func:`scale_score` does; ``obs`` is float32 ``(..., OBS_SIZE)``. Returns ``obs``.
    (The compiled core writes raw points; the environments pass its output through this.)"""
    where = SLICES["scores"]
    s = obs[..., where]
    if s.any():     # in float64, then rounded once, as the Python encoders do
        points = s.astype(np.float64)
        obs[..., where] = points / (points + SCORE_SCALE)
    return obs


def piece_slices() -> dict[str, slice]:
    """Where each piece of :data:`PIECES` sits in the flat vector: ``{name: slice}``."""
    out = {}
    at = 0
    for name, shape, _ in PIECES:
        size = int(np.prod(shape))
        out[name] = slice(at, at + size)
        at += size
    return out


SLICES = piece_slices()
#: Length of the flat observation vector.
OBS_SIZE = SLICES["give_to"].stop
_CARD_LANES = 12  # hand, pile, cleared, played x7, given, received: the first 624 numbers
_LANE_END = SLICES["received"].stop
_S = {name: s.start for name, s in SLICES.items()}
_PLAYS = plays_table()
# Play -> action index, for the mask from the engine's legal list.
PLAY_INDEX: dict[Play, int] = {p: p.rank * 4 + p.count - 1
                               for row in _PLAYS for p in row if p is not None}
_INDEX_BY_MASK: dict[int, int] = {p.mask: i for p, i in PLAY_INDEX.items()}
# (rank, count, nibble of held suits) -> the play of the `count` lowest suits held.
_LOW_SUITS: list[list[int]] = [[0] * 5 for _ in range(16)]
for _nib in range(16):
    for _count in range(1, 5):
        _suits, _taken = 0, 0
        for _s in range(4):
            if _nib >> _s & 1 and _taken < _count:
                _suits |= 1 << _s
                _taken += 1
        _LOW_SUITS[_nib][_count] = _suits if _taken == _count else 0


def play_action(play: Play | Pass) -> int:
    """The action index of a play (``rank * 4 + count - 1``) or of :data:`~president.PASS`."""
    if isinstance(play, Pass):
        return PASS_ACTION
    return PLAY_INDEX[play]


def give_action(rank: int) -> int:
    """The action index that gives one card of ``rank`` (0 = three … 12 = two)."""
    return GIVE_BASE + int(rank)


def play_for(action: int, hand: int) -> Play | Pass | None:
    """The engine action that play index ``action`` (0..52) stands for with ``hand`` (a card
    mask): the pass, or the play of ``count`` cards of ``rank`` in the lowest suits held.
    ``None`` when the hand lacks that many cards of the rank."""
    if action == PASS_ACTION:
        return PASS
    rank, count = divmod(action, 4)
    suits = _LOW_SUITS[(hand >> (rank * 4)) & 15][count + 1]
    return _PLAYS[rank][suits] if suits else None


def give_card_for(action: int, hand: int) -> int:
    """The card mask (one bit) that give index ``action`` (53..65) picks from ``hand`` (the
    cards not yet chosen): the lowest suit held of that rank, or 0 if none is held."""
    rank = action - GIVE_BASE
    nib = (hand >> (rank * 4)) & 15
    if not nib:
        return 0
    return (nib & -nib) << (rank * 4)


def describe_action(action: int) -> str:
    """An action index in words: ``"pair of nines"``, ``"pass"``, ``"give a king"``.

    Raises:
        ValueError: if ``action`` is not 0..65.
    """
    if not isinstance(action, (int, np.integer)) or not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {action!r} is not an action index; indices are 0 to "
                         f"{NUM_ACTIONS - 1}")
    from ..cards import RANK_WORDS
    if action == PASS_ACTION:
        return "pass"
    if action >= GIVE_BASE:
        word = RANK_WORDS[action - GIVE_BASE]
        return f"give {'an' if word[0] in 'aeiou' else 'a'} {word}"     # "give an ace"
    rank, count = divmod(int(action), 4)
    play = _PLAYS[rank][(1 << (count + 1)) - 1]
    assert play is not None
    return play.describe()


def card_bits(masks: list[int]) -> np.ndarray:
    """``len(masks) × 52`` float32 array: bit ``i`` of each card mask as column ``i``."""
    lanes = np.array(masks, dtype=np.uint64)
    bits = np.unpackbits(lanes.view(np.uint8), bitorder="little").reshape(len(masks), 64)
    return bits[:, :52].astype(np.float32)


def fill_observation(out: np.ndarray, *, n: int, seat: int, hand: int, pile: int, cleared: int,
                     played: list[int], given: int, received: int,
                     to_beat: Play | None, counts: list[int] | tuple[int, ...], passed: int,
                     finish_order: list[int] | tuple[int, ...], to_act: int | None,
                     latest: int | None, scores: list[int] | tuple[int, ...], phase: str,
                     give_count: int, give_to: int | None) -> np.ndarray:
    """Write one seat's observation into ``out`` (a zeroed float32 vector of
    :data:`OBS_SIZE`). Seats in the arguments are absolute (0..n-1) and are made relative
    to ``seat`` here; ``played`` and ``counts`` and ``scores`` are per absolute seat."""
    lanes = [hand, pile, cleared]
    lanes.extend(played[(seat + k) % n] for k in range(n))
    lanes.extend([0] * (MAX_SEATS - n))
    lanes.append(given)
    lanes.append(received)
    arr = np.array(lanes, dtype=np.uint64)
    out[:_LANE_END] = np.unpackbits(arr.view(np.uint8), bitorder="little").reshape(
        _CARD_LANES, 64)[:, :52].ravel()
    if to_beat is not None:
        out[_S["to_beat_rank"] + to_beat.rank] = 1.0
        out[_S["to_beat_count"] + to_beat.count - 1] = 1.0
    hc, ps, fi, sc = _S["hand_counts"], _S["passed"], _S["finished"], _S["scores"]
    for k in range(n):
        s = (seat + k) % n
        out[hc + k] = counts[s] / MAX_HAND
        if passed >> s & 1:
            out[ps + k] = 1.0
        out[sc + k] = scale_score(scores[s])
    out[_S["seated"]:_S["seated"] + n] = 1.0
    for place, s in enumerate(finish_order):
        out[fi + (s - seat) % n] = (place + 1) / n
    if to_act is not None:
        out[_S["to_act"] + (to_act - seat) % n] = 1.0
    if latest is not None:
        out[_S["latest"] + (latest - seat) % n] = 1.0
    out[_S["phase"] + PHASES.index(phase)] = 1.0
    if give_count:
        assert give_to is not None
        out[_S["give_count"]] = give_count / 2
        out[_S["give_to"] + (give_to - seat) % n] = 1.0
    return out


# ----- the fast path: one observation as bytes, from plain ints and look-up tables -------

#: Offsets of the pieces after the card lanes, relative to the end of ``received``.
_T = {name: SLICES[name].start - _LANE_END for name in SLICES if SLICES[name].start >= _LANE_END}
# 13 card bits -> their 13 float32 numbers as bytes: a card lane of 52 bits is 4 look-ups.
_BITS13: list[bytes] = [row.tobytes() for row in np.unpackbits(
    np.arange(1 << 13, dtype="<u2").view(np.uint8).reshape(-1, 2), axis=1,
    bitorder="little")[:, :13].astype("<f4")]
_PACK7 = struct.Struct("<7f").pack
_ZERO7 = bytes(4 * MAX_SEATS)
# a one-hot over the 7 relative seats: index k + 1 for seat k, index 0 for none
_ONE7 = [_ZERO7] + [_PACK7(*[1.0 if i == k else 0.0 for i in range(MAX_SEATS)])
                    for k in range(MAX_SEATS)]
# 7 bits (relative seats) -> 7 floats 0/1
_BITS7 = [_PACK7(*[float(v >> i & 1) for i in range(MAX_SEATS)]) for v in range(1 << MAX_SEATS)]
# to_beat_rank and to_beat_count: (rank, count) -> 17 floats; -1 for a lead
_TO_BEAT = {(r, c): struct.pack("<17f", *[1.0 if i == r or i == 13 + c - 1 else 0.0
                                          for i in range(17)])
            for r in range(13) for c in range(1, 5)}
_TO_BEAT[(-1, 0)] = bytes(4 * 17)
# phase, give_count and give_to: (phase index, cards to give, relative receiver + 1) -> 12 floats
_PHASE_GIVE = {(ph, g, k): struct.pack("<12f", *[1.0 if i == ph else 0.0 for i in range(4)],
                                      g / 2, *[1.0 if i + 1 == k else 0.0 for i in range(7)])
               for ph in range(4) for g in range(3) for k in range(MAX_SEATS + 1)}
_SEATED = {n: _PACK7(*[1.0 if i < n else 0.0 for i in range(MAX_SEATS)])
           for n in range(3, MAX_SEATS + 1)}
_PAD = {n: [0] * (MAX_SEATS - n) for n in range(3, MAX_SEATS + 1)}


def _lane_bytes(m: int) -> bytes:
    b = _BITS13
    data = b[m & 8191] + b[(m >> 13) & 8191] + b[(m >> 26) & 8191] + b[m >> 39]
    if len(_LANES) >= 1 << 16:  # bounded: start afresh rather than grow without end
        _LANES.clear()
    _LANES[m] = data
    return data


# card mask -> its 52 float32 numbers as bytes, for the masks met lately
_LANES: dict[int, bytes] = {}


def observation_bytes(n: int, seat: int, hand: int, pile: int, cleared: int,
                      played: list[int], given: int, received: int, top_rank: int,
                      top_count: int, counts: list[int], passed: int,
                      finish_order: list[int], to_act: int, latest: int, scores: list[int],
                      phase: int, give_count: int, give_to: int) -> bytes:
    """One observation, the numbers of :func:`fill_observation`, as ``OBS_SIZE * 4``
    little-endian ``float32`` bytes (the environments' fast path; tests check it equals
    :func:`encode_observation`). Positional arguments, seats absolute (0..n-1): as
    :func:`fill_observation`, except ``top_rank``/``top_count`` for the latest play (-1 and 0
    on a lead), ``to_act``/``latest``/``give_to`` -1 for none, ``phase`` the index in
    :data:`PHASES`, and ``counts``/``played``/``scores`` lists by seat."""
    get = _LANES.get
    rel_played = played[seat:] + played[:seat] + _PAD[n]
    out = [get(m) or _lane_bytes(m) for m in (hand, pile, cleared, *rel_played, given, received)]
    out.append(_TO_BEAT[(top_rank, top_count)])
    out.append(_PACK7(*[c / MAX_HAND for c in counts[seat:] + counts[:seat]], *_PAD[n]))
    out.append(_BITS7[((passed >> seat) | (passed << (n - seat))) & ((1 << n) - 1)])
    if finish_order:
        places = [0.0] * MAX_SEATS
        for place, s in enumerate(finish_order):
            places[(s - seat) % n] = (place + 1) / n
        out.append(_PACK7(*places))
    else:
        out.append(_ZERO7)
    out.append(_ONE7[(to_act - seat) % n + 1 if to_act >= 0 else 0])
    out.append(_ONE7[(latest - seat) % n + 1 if latest >= 0 else 0])
    out.append(_SEATED[n])
    out.append(_PACK7(*map(scale_score, scores[seat:] + scores[:seat]), *_PAD[n])
               if any(scores) else _ZERO7)
    out.append(_PHASE_GIVE[(phase, give_count, (give_to - seat) % n + 1 if give_count else 0)])
    return b"".join(out)


_REL = {n: [[(seat + k) % n for k in range(n)] for seat in range(n)] for n in range(3, MAX_SEATS + 1)}


# ----- the batched path: many tables' observations with a few numpy operations ----------

#: ``(name, what)`` of the numbers :func:`encode_batch` takes per table in ``ints``.
RAW_INTS = ("seat", "to_beat_rank", "to_beat_count", "passed", "to_act", "latest", "phase",
            "give_count", "give_to")
_REL_NP = {n: np.array(rows, dtype=np.intp) for n, rows in _REL.items()}


def encode_batch(n: int, lanes: list[int], ints: list[int], per_seat: list[int]) -> np.ndarray:
    """The observations of many tables of ``n`` players at once, the same numbers as
    :func:`fill_observation` (tests check it against the AEC environment). Each argument is
    a flat list, one table's numbers after another's (flat lists convert to arrays about
    three times faster than nested ones).

    Args:
        n: players per table (3..7).
        lanes: per table, ``5 + n`` card masks with absolute seats: hand, pile, cleared,
            given, received, then the cards played by seat ``0..n-1``.
        ints: per table, the numbers of :data:`RAW_INTS`: the observing seat; the latest
            play's rank and count (-1 and 0 on a lead); the passed seats as a bit mask; the
            seat to act and the seat of the latest play (-1 for none); the index of the phase
            in :data:`PHASES`; the cards still to give now and the seat they go to (0 and -1
            outside this seat's give).
        per_seat: per table, ``3 n`` numbers by absolute seat: cards held, finishing place
            this deal (0 while holding cards), match points.

    Returns:
        ``float32`` array of shape ``(tables, OBS_SIZE)``.

    Raises:
        ValueError: lists whose lengths do not fit the same number of tables.
    """
    count = len(ints) // len(RAW_INTS)
    if (len(ints) != count * len(RAW_INTS) or len(lanes) != count * (5 + n)
            or len(per_seat) != count * 3 * n):
        raise ValueError(f"lists of {len(lanes)} lanes, {len(ints)} ints and {len(per_seat)} "
                         f"per-seat numbers do not fit one number of tables of {n} (each "
                         f"{5 + n}, {len(RAW_INTS)} and {3 * n})")
    out = np.zeros((count, OBS_SIZE), dtype=np.float32)
    if not count:
        return out
    raw = np.array(lanes, dtype="<u8").reshape(count, 5 + n)
    iv = np.array(ints, dtype=np.int64).reshape(count, len(RAW_INTS))
    per = np.array(per_seat, dtype=np.int64).reshape(count, 3 * n)
    seat = iv[:, 0]
    rot = _REL_NP[n][seat]                       # (count, n): absolute seat of relative row k
    rows = np.arange(count)
    col = rows[:, None]
    card = np.zeros((count, _CARD_LANES), dtype="<u8")
    card[:, :3] = raw[:, :3]
    card[:, 3:3 + n] = raw[:, 5:][col, rot]
    card[:, _CARD_LANES - 2:] = raw[:, 3:5]
    bits = np.unpackbits(card.view(np.uint8).reshape(count, _CARD_LANES, 8), axis=2,
                         bitorder="little")[:, :, :52]
    out[:, :_LANE_END] = bits.reshape(count, _LANE_END)
    top = iv[:, 1] >= 0
    out[rows[top], _S["to_beat_rank"] + iv[top, 1]] = 1.0
    out[rows[top], _S["to_beat_count"] + iv[top, 2] - 1] = 1.0
    hc, ps, fi, sc = _S["hand_counts"], _S["passed"], _S["finished"], _S["scores"]
    out[:, hc:hc + n] = per[:, :n][col, rot] / MAX_HAND
    out[:, ps:ps + n] = (iv[:, 3:4] >> rot) & 1
    out[:, fi:fi + n] = per[:, n:2 * n][col, rot] / n
    points = per[:, 2 * n:][col, rot]
    out[:, sc:sc + n] = points / (points + SCORE_SCALE)
    for name, k in (("to_act", 4), ("latest", 5)):
        some = iv[:, k] >= 0
        out[rows[some], _S[name] + (iv[some, k] - seat[some]) % n] = 1.0
    out[:, _S["seated"]:_S["seated"] + n] = 1.0
    out[rows, _S["phase"] + iv[:, 6]] = 1.0
    giving = iv[:, 7] > 0
    out[rows[giving], _S["give_count"]] = iv[giving, 7] / 2
    out[rows[giving], _S["give_to"] + (iv[giving, 8] - seat[giving]) % n] = 1.0
    return out


def encode_observation(obs: "Observation", *, chosen: int = 0) -> np.ndarray:
    """The observation vector of :data:`PIECES` built from an engine
    :class:`~president.observation.Observation` alone: what that seat may know and nothing
    more. ``chosen`` is the card mask already picked for a give in progress (one card of a
    two-card give; 0 otherwise).

    Returns:
        ``float32`` array of shape ``(OBS_SIZE,)``.
    """
    n = obs.players
    seat = obs.seat
    hand = sum(c.bit for c in obs.hand) & ~chosen
    pile = 0
    for _, p in obs.pile:
        pile |= p.mask
    cleared = sum(c.bit for c in obs.cleared)
    played = [0] * n
    for s, a in obs.history:
        if isinstance(a, Play):
            played[s] |= a.mask
    given = chosen
    received = 0
    for giver, receiver, cards in obs.exchanges:
        m = sum(c.bit for c in cards)
        if giver == seat:
            given |= m
        if receiver == seat:
            received |= m
    passed = sum(1 << s for s in obs.passed)
    pending = obs.pending_exchange
    give_count, give_to = 0, None
    if pending is not None and pending.giver == seat:
        give_count = pending.count - chosen.bit_count()
        give_to = pending.receiver
    return fill_observation(
        np.zeros(OBS_SIZE, dtype=np.float32), n=n, seat=seat, hand=hand, pile=pile,
        cleared=cleared, played=played, given=given, received=received, to_beat=obs.to_beat,
        counts=obs.hand_counts, passed=passed, finish_order=obs.finish_order,
        to_act=obs.to_act, latest=obs.pile[-1][0] if obs.pile else None, scores=obs.scores,
        phase=obs.phase, give_count=give_count, give_to=give_to)


def mask_from_legal(legal: Sequence[Action], hand: int, chosen: int = 0) -> np.ndarray:
    """The ``int8`` action mask of :data:`NUM_ACTIONS` from the engine's legal actions.

    In play, ``legal`` is :meth:`Match.legal_actions` (plays and pass): index
    ``rank * 4 + count - 1`` is 1 when some play of that rank and count is legal (the
    lowest suits then are too, as every set of suits held is listed). In the exchange,
    ``legal`` lists the legal :class:`~president.Give` objects and ``chosen`` the cards
    already picked for this give: give index ``53 + rank`` is 1 when adding the lowest
    unchosen card of that rank leaves some legal give that contains every chosen card.

    Returns:
        a new writable ``int8`` array of shape ``(NUM_ACTIONS,)``.
    """
    return np.frombuffer(mask_bytes(legal, hand, chosen), dtype=np.int8)


def mask_bytes(legal: Sequence[Action], hand: int, chosen: int = 0) -> bytearray:
    """The mask of :func:`mask_from_legal` as a ``bytearray`` of :data:`NUM_ACTIONS` bytes."""
    mask = bytearray(NUM_ACTIONS)
    if not legal:
        return mask
    if type(legal[0]) is Give:
        gives = cast("Sequence[Give]", legal)  # the engine lists gives only, or no give
        free = hand & ~chosen
        for rank in range(13):
            card = give_card_for(GIVE_BASE + rank, free)
            if not card:
                continue
            want = chosen | card
            for g in gives:
                if g.mask & want == want:
                    mask[GIVE_BASE + rank] = 1
                    break
        return mask
    index = _INDEX_BY_MASK  # keyed by the card mask: an int's hash, not Play.__hash__
    for a in legal:
        mask[index[a.mask] if type(a) is Play else PASS_ACTION] = 1
    return mask
