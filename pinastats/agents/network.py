"""The learned evaluator's weights: the file shipped with pinastats, checked and loaded.

``data/value-net.npz`` (installed as ``pinastats.data``) holds one network per
player count, made by ``pinastats train`` (:mod:`pinastats.value.train`):

* ``p{n}_w{k}``, ``p{n}_b{k}``: layer ``k``'s weights ``(out, in)`` and biases;
* ``p{n}_mean``, ``p{n}_scale``: the standardisation of the features;
* ``version``: :data:`NETWORK_VERSION`, the layout of the features and of the
  file (a file of another version is refused, never misread);
* ``provenance``: JSON: the command, seed, data digest, rules and metrics of
  each network.

The kernels evaluate a network as an :class:`~pinastats._engine.Net` (weights
plus per-thread scratch); :func:`network_for` makes one for a game's config.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import numpy as np

from pinastats import _engine as E
from pinastats._arrays import FloatArray
from pinastats._engine import Net, StateBatch, empty_net, feature_count
from pinastats.dice.combinations import Combination
from pinastats.dice.hands import dice_tables
from pinastats.dice.solver import solve_turn
from pinastats.errors import PinastatsError
from pinastats.game.catalogue import load_catalogue
from pinastats.game.config import GameConfig
from pinastats.game.rules import PLAYER_COUNTS

NETWORK_VERSION = 1
"""Version of the features and of the weights file; bumped whenever either changes."""

NETWORK_FILE = "value-net.npz"
"""The shipped weights, in the package data."""

TRAINED_RULES = {"layout": "standard", "rolls": 3, "target_score": 20, "tokens": 6}
"""The rules the shipped networks were trained on (Happy Hour on and off)."""


class NetworkError(PinastatsError):
    """A weights file that cannot be used (missing, another version, wrong shapes)."""


@dataclass(frozen=True)
class PlayerNetwork:
    """One network: its layers and the standardisation of its inputs.

    Attributes:
        players: the player count it serves.
        layers: ``(W, b)`` per layer, ``W`` of shape ``(out, in)``.
        mean, scale: the features' standardisation ``z = (x - mean) / scale``.
    """

    players: int
    layers: tuple[tuple[FloatArray, FloatArray], ...]
    mean: FloatArray
    scale: FloatArray

    @property
    def sizes(self) -> tuple[int, ...]:
        """Widths: the input, each hidden layer, the output (``players + 1``)."""
        return (self.layers[0][0].shape[1], *(w.shape[0] for w, _ in self.layers))


@dataclass(frozen=True)
class ValueNetworks:
    """The networks of a weights file, by player count, with the file's provenance."""

    networks: dict[int, PlayerNetwork]
    provenance: dict[str, Any]
    path: str

    def for_players(self, players: int) -> PlayerNetwork:
        """The network for ``players`` players; raises if the file has none."""
        if players not in self.networks:
            have = ", ".join(map(str, sorted(self.networks))) or "none"
            raise NetworkError(
                f"the value network file {self.path} has no network for {players} players "
                f"(player counts: {have})"
            )
        return self.networks[players]


NETWORK_ENV = "PINASTATS_NETWORK"
"""The environment variable naming a weights file to play with instead of the shipped one."""


def network_path() -> Path:
    """Where the shipped weights are."""
    return Path(str(files("pinastats.data") / NETWORK_FILE))


def weights_path() -> Path:
    """The weights every tool plays with: ``$PINASTATS_NETWORK`` where set, else the shipped file.

    The variable names a file made by ``pinastats train`` (checked like the
    shipped one when first used); it is read once per process, so set it
    before the first game (worker processes inherit it).
    """
    named = os.environ.get(NETWORK_ENV, "").strip()
    return Path(named) if named else network_path()


def save_networks(
    path: str | Path, networks: dict[int, PlayerNetwork], provenance: dict[str, Any]
) -> None:
    """Write ``networks`` and their ``provenance`` as a weights file (whole, or not at all)."""
    from pinastats._files import written_whole

    arrays: dict[str, Any] = {
        "version": np.array(NETWORK_VERSION),
        "provenance": np.array(json.dumps(provenance, sort_keys=True)),
    }
    for n, net in networks.items():
        for k, (w, b) in enumerate(net.layers):
            arrays[f"p{n}_w{k}"] = np.asarray(w, dtype=np.float64)
            arrays[f"p{n}_b{k}"] = np.asarray(b, dtype=np.float64)
        arrays[f"p{n}_mean"] = np.asarray(net.mean, dtype=np.float64)
        arrays[f"p{n}_scale"] = np.asarray(net.scale, dtype=np.float64)
    with written_whole(Path(path)) as handle:
        np.savez_compressed(handle, **arrays)


def load_networks(path: str | Path | None = None) -> ValueNetworks:
    """The networks of a weights file (default: :func:`weights_path`), checked.

    Raises :class:`NetworkError` naming the file when it is missing, of another
    :data:`NETWORK_VERSION`, or its shapes do not fit the features.
    """
    if path is None:
        return _shipped()
    return _load(str(Path(path)))


@cache
def _shipped() -> ValueNetworks:
    return _load(str(weights_path()))


def _load(where: str) -> ValueNetworks:
    if not Path(where).is_file():
        raise NetworkError(f"no value network file at {where} (make one with `pinastats train`)")
    try:
        with open(where, "rb") as handle:  # closed here whatever np.load makes of it
            data = np.load(handle, allow_pickle=False)
            if not hasattr(data, "files"):
                raise ValueError("a single array, not a weights file (.npz)")
            with data:
                arrays = {k: data[k] for k in data.files}
    except Exception as exc:  # a damaged file: zip, zlib, npy header or EOF errors alike
        raise NetworkError(f"the value network file {where} cannot be read: {exc}") from None
    stamp = arrays.get("version", np.array(""))
    version = int(stamp) if stamp.dtype.kind in "iu" and stamp.size == 1 else -1
    if version != NETWORK_VERSION:
        raise NetworkError(
            f"the value network file {where} is of version {version}; this pinastats reads "
            f"version {NETWORK_VERSION} (retrain with `pinastats train`)"
        )
    try:
        provenance = json.loads(str(arrays["provenance"]))
    except (KeyError, ValueError) as exc:
        raise NetworkError(
            f"the value network file {where} has no readable provenance: {exc}"
        ) from None
    if not isinstance(provenance, dict):
        raise NetworkError(f"the value network file {where}: its provenance is not a JSON object")
    networks: dict[int, PlayerNetwork] = {}
    for n in PLAYER_COUNTS:
        if f"p{n}_w0" not in arrays:
            continue
        layers = []
        k = 0
        try:
            while f"p{n}_w{k}" in arrays:
                layers.append(
                    (_weights(arrays, f"p{n}_w{k}", where), _weights(arrays, f"p{n}_b{k}", where))
                )
                k += 1
            mean, scale = (
                _weights(arrays, f"p{n}_mean", where),
                _weights(arrays, f"p{n}_scale", where),
            )
        except KeyError as exc:
            raise NetworkError(f"the value network file {where} lacks the array {exc}") from None
        net = PlayerNetwork(n, tuple(layers), mean, scale)
        _check_shapes(net, where)
        networks[n] = net
    if not networks:
        raise NetworkError(f"the value network file {where} holds no network")
    return ValueNetworks(networks, provenance, where)


def _weights(arrays: dict[str, Any], key: str, where: str) -> FloatArray:
    """``arrays[key]`` as finite float64 numbers, or :class:`NetworkError` naming the array."""
    a = arrays[key]
    if a.dtype.kind not in "fiu":
        raise NetworkError(
            f"the value network file {where}: {key} holds {a.dtype} values, not numbers"
        )
    out = np.asarray(a, dtype=np.float64)
    if not np.all(np.isfinite(out)):
        raise NetworkError(f"the value network file {where}: {key} holds NaN or infinite weights")
    return out


def _check_shapes(net: PlayerNetwork, where: str) -> None:
    """Raise unless the layers chain and fit the features of 16 cells and the output."""
    n = net.players
    want_in = feature_count(16, n)
    if any(w.ndim != 2 or b.ndim != 1 for w, b in net.layers):
        raise NetworkError(
            f"the value network file {where}: the {n}-player layers are not matrices"
        )
    sizes = net.sizes
    ok = (
        sizes[0] == want_in
        and sizes[-1] == n + 1
        and net.mean.shape == net.scale.shape == (want_in,)
    )
    for (w, b), (v, _) in zip(net.layers, net.layers[1:], strict=False):
        ok = ok and w.shape[0] == v.shape[1] and b.shape == (w.shape[0],)
    if not ok or not np.all(net.scale > 0):
        raise NetworkError(
            f"the value network file {where}: the {n}-player network's shapes {sizes} do not "
            f"fit {want_in} features and {n + 1} outputs"
        )


@cache
def make_chances(rolls: int) -> FloatArray:
    """The chance to make each combination in one turn of ``rolls`` rolls, from no dice kept."""
    empty = int(np.flatnonzero(dice_tables().keep_size == 0)[0])
    return np.array(
        [solve_turn(c.value, rolls=rolls).keep_value[rolls - 1, empty] for c in Combination]
    )


def kernel_net(net: PlayerNetwork, rolls: int) -> Net:
    """The :class:`~pinastats._engine.Net` of ``net`` with fresh scratch memory."""
    sizes = np.array(net.sizes, dtype=np.int64)
    width = int(sizes.max())
    layers = len(net.layers)
    weights = np.zeros((layers, width, width))
    biases = np.zeros((layers, width))
    for k, (w, b) in enumerate(net.layers):
        weights[k, : w.shape[0], : w.shape[1]] = w
        biases[k, : b.shape[0]] = b
    return Net(
        weights,
        biases,
        sizes,
        np.ascontiguousarray(net.mean, dtype=np.float64),
        np.ascontiguousarray(net.scale, dtype=np.float64),
        make_chances(rolls),
        np.zeros(sizes[0]),
        np.zeros(width),
        np.zeros(width),
        np.zeros(net.players + 1),
    )


def networks_of(networks: ValueNetworks | str | Path | None) -> ValueNetworks:
    """Loaded networks from what a caller passed (None: :func:`default_networks`)."""
    if networks is None:
        return _shipped()
    if isinstance(networks, ValueNetworks):
        return networks
    return load_networks(networks)


def default_networks() -> ValueNetworks:
    """The networks every tool plays with unless given others (:func:`weights_path`)."""
    return _shipped()


def fits(config: GameConfig, networks: ValueNetworks | str | Path | None = None) -> str | None:
    """None when the networks (default: :func:`default_networks`) can play ``config``; else why."""
    if config.layout.n_cells != 16 or any(len(line) != 4 for line in config.layout.lines):
        return (
            f"the value network plays games on 16 cells with lines of 4 (the standard grid); "
            f"layout {config.layout.name!r} has {config.layout.n_cells} cells"
        )
    try:
        networks_of(networks).for_players(config.players)
    except NetworkError as exc:
        return str(exc)
    return None


def network_for(config: GameConfig, networks: ValueNetworks | str | Path | None = None) -> Net:
    """The kernels' network for games of ``config``, or an empty one when none fits."""
    if fits(config, networks) is not None:
        return empty_net(config.players, len(Combination))
    return kernel_net(networks_of(networks).for_players(config.players), config.rules.rolls)


def outside_training(config: GameConfig) -> list[str]:
    """What of ``config`` differs from the games the networks were trained on (rules, coasters)."""
    rules = config.rules
    seen = {
        "layout": config.layout.name,
        "rolls": rules.rolls,
        "target_score": rules.target_score,
        "tokens": rules.tokens,
    }
    differ = [
        f"{k}={v!r} (trained: {TRAINED_RULES[k]!r})"
        for k, v in seen.items()
        if TRAINED_RULES[k] != v
    ]
    if config.catalogue.coasters != load_catalogue(None).coasters:
        differ.append("another catalogue of coasters (trained: the shipped one)")
    return differ


def evaluate_states(
    config: GameConfig,
    states: StateBatch,
    networks: ValueNetworks | str | Path | None = None,
) -> FloatArray:
    """``(N, players + 1)``: the network's chance that each relative seat wins, then no winner.

    Relative seat ``r`` of state ``i`` is ``r`` seats after the one to move
    there. ``networks``: loaded networks or a weights file (default:
    :func:`default_networks`), which must fit ``config`` (:func:`fits`).
    """
    why = fits(config, networks)
    if why is not None:
        raise NetworkError(why)
    net = network_for(config, networks)
    out = np.zeros((len(states), config.players + 1))
    E.evaluate(config.board, states, net, out)
    return out
