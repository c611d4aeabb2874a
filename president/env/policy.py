"""A policy as a computer player, and a small network saved in a plain file.

A *policy* here is anything that picks an action index from one seat's observation vector
and its legal-action mask: a function ``(observation, mask) -> int`` where ``observation``
is the ``float32`` vector of :data:`~president.env.encoding.OBS_SIZE` numbers of
:func:`~president.env.encoding.encode_observation` and ``mask`` the ``int8`` vector of
:data:`~president.env.encoding.NUM_ACTIONS` (1 = legal). :class:`PolicyPlayer` turns such a
policy into a player (``act(observation) -> action``) for :func:`president.simulate.simulate`,
:func:`president.tournament.run_tournament`, ``president play``, ``president serve --level``
and the environments' opponents; it builds the vector from the seat's own
:class:`~president.observation.Observation` only, so the policy knows what that seat may
know and nothing more.

:class:`MLP` is a multi-layer perceptron evaluated with numpy alone. :meth:`MLP.save` writes
it as an ``.npz`` file: the arrays ``w0, b0, w1, b1, ...`` (``float32``, or ``float16`` to
halve the file; ``w{k}`` of shape ``(inputs, outputs)``) and ``meta``, one JSON text::

    {"format": 1, "observation": "president-env-0", "layers": [702, 256, 128, 66],
     "activation": "relu", "output": "q", "exchange": "simple", "trained": {...}}

``observation`` names the observation encoding (the environments' version); ``layers`` the
sizes from input to output; ``activation`` the hidden layers' function (``relu`` or
``tanh``); ``output`` what the 66 outputs mean (``q``: the expected reward of each action,
``logits``: a softmax policy's scores; either way the player takes the legal action with the
largest output); ``exchange`` how the player chooses cards to give in an exchange
(``policy``: through the network's give actions, ``simple``: as the ``simple`` level, for a
network trained on single deals, which have no exchange); ``trained`` is free-form.

:func:`president.players.register_policy` makes a policy or a saved file a computer level by name, and
``president play --levels FILE.npz`` / ``president serve --level FILE.npz`` /
``president simulate`` / ``president tournament`` accept a saved file's path where they accept
an import path (``make_player(path, imports=True)``).

>>> import numpy as np
>>> from president import Match, Rules
>>> lowest = lambda obs, mask: int(np.flatnonzero(mask)[0])
>>> bot = PolicyPlayer(lowest)
>>> m = Match(Rules.preset("house"), seed=3)
>>> bot.act(m.observation(m.to_act)) in m.legal_actions()
True
"""

from __future__ import annotations

import json
import os
import zipfile
from typing import TYPE_CHECKING, Any, Callable, Sequence, Union

import numpy as np

from ..actions import Action, Give
from .encoding import (NUM_ACTIONS, OBS_SIZE, encode_observation, give_card_for,
                       mask_from_legal, play_for)

if TYPE_CHECKING:
    from ..observation import Observation

__all__ = ["MLP", "PolicyPlayer", "PolicyFn", "load_policy",
           "OBSERVATION_ENCODING", "FORMAT", "ACTIVATIONS", "lowest_policy", "highest_policy",
           "LowestPlayer", "HighestPlayer"]

#: Version of the saved file's layout (``meta["format"]``).
FORMAT = 1
#: The observation encoding this package builds (``meta["observation"]``); the number is the
#: environments' version (``president.env.VERSION``, docs/env.md "Version history").
OBSERVATION_ENCODING = "president-env-0"
#: Hidden-layer functions a saved network may name.
ACTIVATIONS = ("relu", "tanh")
_OUTPUTS = ("q", "logits")
_EXCHANGES = ("policy", "simple")

#: A policy: ``(observation float32 (702,), mask int8 (66,)) -> action index``.
PolicyFn = Callable[[np.ndarray, np.ndarray], int]


class MLP:
    """A multi-layer perceptron ``obs -> 66 numbers``, numpy only.

    Hidden layers apply ``activation``; the last layer is linear. Called on a batch
    ``(rows, 702)`` it returns ``(rows, 66)`` (``float32``); :meth:`act` picks the legal action
    with the largest output for each row.

    Args:
        weights: ``[(w0, b0), (w1, b1), ...]``, ``w{k}`` of shape ``(inputs, outputs)``, each
            layer's inputs the previous one's outputs; the first takes :data:`OBS_SIZE` numbers
            and the last gives :data:`NUM_ACTIONS`.
        activation: ``"relu"`` or ``"tanh"``.
        output: ``"q"`` or ``"logits"`` (what the outputs mean; see the module docstring).
        exchange: ``"policy"`` or ``"simple"`` (how a player of this network gives cards).
        trained: free-form facts about the training, kept in the saved file.

    Raises:
        ValueError: weights whose shapes do not chain from 702 inputs to 66 outputs, or an
            unknown ``activation``, ``output`` or ``exchange``.
    """

    def __init__(self, weights: Sequence[tuple[np.ndarray, np.ndarray]], *,
                 activation: str = "relu", output: str = "q", exchange: str = "policy",
                 trained: dict[str, Any] | None = None) -> None:
        for name, value, allowed in (("activation", activation, ACTIVATIONS),
                                     ("output", output, _OUTPUTS),
                                     ("exchange", exchange, _EXCHANGES)):
            if value not in allowed:
                raise ValueError(f"{name} = {value!r} is not allowed; choose one of: "
                                 f"{', '.join(allowed)}")
        layers = [(np.ascontiguousarray(w, dtype=np.float32),
                   np.ascontiguousarray(b, dtype=np.float32)) for w, b in weights]
        if not layers:
            raise ValueError("an MLP needs at least one layer (w0, b0)")
        width = OBS_SIZE
        for k, (w, b) in enumerate(layers):
            if w.ndim != 2 or w.shape[0] != width or b.shape != (w.shape[1],):
                raise ValueError(f"layer {k}: w{k} {w.shape} and b{k} {b.shape} do not take "
                                 f"{width} inputs; w{k} must be ({width}, outputs) and b{k} "
                                 "(outputs,)")
            width = w.shape[1]
        if width != NUM_ACTIONS:
            raise ValueError(f"the last layer gives {width} outputs; it must give "
                             f"{NUM_ACTIONS} (one per action index)")
        self.layers = layers
        self.activation = activation
        self.output = output
        self.exchange = exchange
        self.trained = dict(trained or {})

    @classmethod
    def random(cls, hidden: Sequence[int] = (256, 128), *, seed: int = 0,
               activation: str = "relu", output: str = "q", exchange: str = "policy") -> "MLP":
        """A network with He-initialised weights (zero biases) and the given hidden sizes.

        Raises:
            ValueError: a hidden size below 1, or as the constructor.
        """
        if any(not isinstance(h, int) or h < 1 for h in hidden):
            raise ValueError(f"hidden sizes {list(hidden)} must be whole numbers of at least 1")
        rng = np.random.default_rng(seed)
        sizes = [OBS_SIZE, *hidden, NUM_ACTIONS]
        weights = [(rng.normal(0.0, np.sqrt(2.0 / a), (a, b)).astype(np.float32),
                    np.zeros(b, dtype=np.float32)) for a, b in zip(sizes, sizes[1:])]
        last_w, last_b = weights[-1]
        weights[-1] = (last_w * 0.1, last_b)     # small outputs at the start
        return cls(weights, activation=activation, output=output, exchange=exchange)

    @property
    def sizes(self) -> list[int]:
        """Layer sizes from input to output, e.g. ``[702, 256, 128, 66]``."""
        return [OBS_SIZE] + [w.shape[1] for w, _ in self.layers]

    def __call__(self, obs: np.ndarray) -> np.ndarray:
        """The outputs for ``obs`` of shape ``(rows, 702)`` (or ``(702,)``, giving ``(66,)``)."""
        x = np.asarray(obs, dtype=np.float32)
        last = len(self.layers) - 1
        for k, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if k < last:
                x = np.maximum(x, 0.0) if self.activation == "relu" else np.tanh(x)
        return x

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The legal action with the largest output per row: ``obs`` ``(rows, 702)``, ``mask``
        ``(rows, 66)`` (each row with some legal action) -> ``int64`` ``(rows,)``."""
        out = self(obs)
        return np.asarray(np.where(np.asarray(mask) > 0, out, -np.inf).argmax(axis=-1),
                          dtype=np.int64)

    def policy(self) -> PolicyFn:
        """This network as a one-observation policy ``(obs, mask) -> int``."""
        def choose(obs: np.ndarray, mask: np.ndarray) -> int:
            return int(self.act(obs[None, :], mask[None, :])[0])
        return choose

    def meta(self) -> dict[str, Any]:
        """The saved file's ``meta`` entry (see the module docstring)."""
        return {"format": FORMAT, "observation": OBSERVATION_ENCODING, "layers": self.sizes,
                "activation": self.activation, "output": self.output,
                "exchange": self.exchange, "trained": self.trained}

    def save(self, path: str | os.PathLike[str], *, half: bool = False) -> None:
        """Write the network to ``path`` (``.npz``; see the module docstring). ``half``
        stores the arrays as ``float16`` (half the file; :meth:`load` reads them back as
        ``float32``, so the network then computes with the rounded weights)."""
        arrays: dict[str, Any] = {"meta": np.array(json.dumps(self.meta()))}
        for k, (w, b) in enumerate(self.layers):
            arrays[f"w{k}"] = w.astype(np.float16) if half else w
            arrays[f"b{k}"] = b.astype(np.float16) if half else b
        with open(path, "wb") as f:
            np.savez(f, **arrays)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> "MLP":
        """The network saved at ``path`` by :meth:`save`.

        Raises:
            ValueError: the file is missing or not an ``.npz`` archive, has no ``meta`` or it
                is not the JSON described in the module docstring, was saved for another
                observation encoding or file format, or its arrays do not match ``layers``.
        """
        where = os.fspath(path)
        try:
            with np.load(where, allow_pickle=False) as f:
                arrays = {name: f[name] for name in f.files}
        except FileNotFoundError:
            raise ValueError(f"no policy file {where!r}; give the path of an .npz saved by "
                             "MLP.save") from None
        except IsADirectoryError:
            raise ValueError(f"{where!r} is a folder; give the path of an .npz saved by "
                             "MLP.save") from None
        except (OSError, ValueError, EOFError, zipfile.BadZipFile):
            # numpy's own words suggest loading with pickles: never (an .npz is plain arrays)
            raise ValueError(f"{where!r} is not an .npz archive of arrays, so not a saved "
                             "policy; give the path of an .npz saved by MLP.save") from None
        if "meta" not in arrays:
            raise ValueError(f"{where!r} has no 'meta' entry; a saved policy holds meta (JSON) "
                             "and the arrays w0, b0, w1, b1, ...")
        try:
            meta = json.loads(str(arrays["meta"]))
        except json.JSONDecodeError as e:
            raise ValueError(f"{where!r}: 'meta' is not JSON ({e})") from None
        if not isinstance(meta, dict):
            raise ValueError(f"{where!r}: 'meta' must be a JSON object, got {type(meta).__name__}")
        if meta.get("format") != FORMAT:
            raise ValueError(f"{where!r} is saved in format {meta.get('format')!r}; this version "
                             f"reads format {FORMAT}")
        if meta.get("observation") != OBSERVATION_ENCODING:
            raise ValueError(f"{where!r} was trained on observation encoding "
                             f"{meta.get('observation')!r}; this version builds "
                             f"{OBSERVATION_ENCODING!r}, so retrain it")
        sizes = meta.get("layers")
        if not isinstance(sizes, list) or len(sizes) < 2:
            raise ValueError(f"{where!r}: meta 'layers' must list the layer sizes, e.g. "
                             "[702, 256, 128, 66]")
        weights = []
        for k in range(len(sizes) - 1):
            if f"w{k}" not in arrays or f"b{k}" not in arrays:
                raise ValueError(f"{where!r} lacks w{k} or b{k} for the {len(sizes) - 1} layers "
                                 "meta 'layers' names")
            w, b = arrays[f"w{k}"], arrays[f"b{k}"]
            if w.shape != (sizes[k], sizes[k + 1]):
                raise ValueError(f"{where!r}: w{k} has shape {w.shape}, but meta 'layers' "
                                 f"says ({sizes[k]}, {sizes[k + 1]})")
            weights.append((w, b))
        try:
            return cls(weights, activation=meta.get("activation", "relu"),
                       output=meta.get("output", "q"), exchange=meta.get("exchange", "policy"),
                       trained=meta.get("trained") or {})
        except ValueError as e:
            raise ValueError(f"{where!r}: {e}") from None


#: What :class:`PolicyPlayer` and :func:`president.players.register_policy` accept as a policy.
PolicySource = Union[PolicyFn, MLP, str, "os.PathLike[str]"]


def load_policy(source: PolicySource) -> tuple[PolicyFn, str]:
    """``(policy function, exchange)`` for a function, an :class:`MLP` or a saved file's path
    (loaded by :meth:`MLP.load`). A plain function chooses its gives itself (``"policy"``).

    Raises:
        ValueError: a file that does not load (see :meth:`MLP.load`), or something that is
            none of the three.
    """
    if isinstance(source, (str, os.PathLike)):
        source = MLP.load(source)
    if isinstance(source, MLP):
        return source.policy(), source.exchange
    if callable(source):
        return source, "policy"
    raise ValueError(f"{source!r} is not a policy: give a function (observation, mask) -> "
                     "action index, an MLP, or the path of an .npz it saved")


class PolicyPlayer:
    """A policy as a computer player: ``act(observation)`` returns one of
    ``observation.legal_actions``.

    In play it encodes the seat's observation and legal actions
    (:func:`~president.env.encoding.encode_observation`,
    :func:`~president.env.encoding.mask_from_legal`), asks the policy for an index and turns
    it into the play of the lowest suits of that rank and count
    (:func:`~president.env.encoding.play_for`; suits never decide anything). In an exchange it
    gives one card per step as the environments do (index ``53 + rank``, the mask allowing only
    cards that leave a legal give), or, for a network saved with ``exchange: simple``, gives as
    the ``simple`` level does.

    Args:
        policy: a function ``(observation float32 (702,), mask int8 (66,)) -> int``, an
            :class:`MLP`, or the path of an ``.npz`` saved by :meth:`MLP.save`.
        seed: accepted for the player interface; a policy's choice depends only on its input.
        level: the name the player reports (``player.level``).

    Raises:
        ValueError: a file that does not load (see :meth:`MLP.load`), a policy of another
            kind, or (from :meth:`act`) a policy that returns an index the mask does not allow.
    """

    def __init__(self, policy: PolicySource, *, seed: int | None = None,
                 level: str = "policy") -> None:
        self.policy, self.exchange = load_policy(policy)
        self.seed = seed
        self.level = level

    def _choose(self, obs: np.ndarray, mask: np.ndarray) -> int:
        action = self.policy(obs, mask)
        if not isinstance(action, (int, np.integer)) or not 0 <= action < NUM_ACTIONS \
                or not mask[action]:
            legal = [int(i) for i in np.flatnonzero(mask)]
            raise ValueError(f"the policy of {self.level!r} chose {action!r}, which is not a "
                             f"legal action index here; legal: {legal}")
        return int(action)

    def act(self, observation: Observation) -> Action:
        """The policy's choice for ``observation`` (the seat to act's own view)."""
        hand = 0
        for c in observation.hand:
            hand |= c.bit
        legal = list(observation.legal_actions)
        if observation.phase == "exchange":
            if self.exchange == "simple":
                from ..players.simple import simple_give
                return simple_give(legal)
            assert observation.pending_exchange is not None  # the exchange step to act in
            chosen = 0
            for _ in range(observation.pending_exchange.count):
                a = self._choose(encode_observation(observation, chosen=chosen),
                                 mask_from_legal(legal, hand, chosen))
                chosen |= give_card_for(a, hand & ~chosen)
            return Give(chosen)
        a = self._choose(encode_observation(observation), mask_from_legal(legal, hand))
        play = play_for(a, hand)
        assert play is not None     # a legal index, so one the hand can make
        return play


def lowest_policy(obs: np.ndarray, mask: np.ndarray) -> int:
    """"Play your lowest": the legal action of the smallest index, that is the lowest rank
    and the fewest cards; it passes only when no play is legal, and gives its lowest cards."""
    return int(np.flatnonzero(mask)[0])


def highest_policy(obs: np.ndarray, mask: np.ndarray) -> int:
    """"Play your highest": the legal play of the highest rank and the most cards; it passes
    only when no play is legal, and gives its highest cards."""
    legal = np.flatnonzero(mask)
    plays = legal[legal < 52]
    return int(plays[-1] if len(plays) else legal[-1])


class LowestPlayer(PolicyPlayer):
    """"Play your lowest" (:func:`lowest_policy`) as a player, for measuring a level against
    it: ``president simulate --seats learned,president.env.policy:LowestPlayer,...``."""

    def __init__(self, *, seed: int | None = None) -> None:
        super().__init__(lowest_policy, seed=seed, level="lowest")


class HighestPlayer(PolicyPlayer):
    """"Play your highest" (:func:`highest_policy`) as a player
    (``president.env.policy:HighestPlayer``)."""

    def __init__(self, *, seed: int | None = None) -> None:
        super().__init__(highest_policy, seed=seed, level="highest")
