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
