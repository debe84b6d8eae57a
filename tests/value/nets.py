"""Weights files for the tests: the shipped networks with the two-player one tilted."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from pinastats.agents.network import load_networks, save_networks


def tilted_weights(path: Path, push: float, *, others: bool = True) -> Path:
    """Write ``path``: the shipped networks, the 2-player one's mover pushed up by ``push`` logits.

    ``others``: keep the 3- and 4-player networks in the file (else 2 players only).
    """
    nets = load_networks()
    two = nets.for_players(2)
    w, b = two.layers[-1]
    tilted = type(two)(2, (*two.layers[:-1], (w, b + np.array([push, -push, 0.0]))), two.mean,
                       two.scale)  # fmt: skip
    save_networks(path, {**(nets.networks if others else {}), 2: tilted}, {"command": "test"})
    return path


def tiny_weights(path: Path, hidden: int = 4, seed: int = 0) -> Path:
    """Write ``path``: a 2-player network of one ``hidden``-wide layer (the shipped scaling)."""
    two = load_networks().for_players(2)
    rng = np.random.default_rng(seed)
    inputs = two.layers[0][0].shape[1]
    layers = ((rng.normal(0, 0.1, (hidden, inputs)), np.zeros(hidden)),
              (rng.normal(0, 0.1, (3, hidden)), np.zeros(3)))  # fmt: skip
    save_networks(path, {2: type(two)(2, layers, two.mean, two.scale)}, {"command": "test"})
    return path
