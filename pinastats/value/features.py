"""The learned evaluator's inputs and outputs on positions, from Python.

:func:`features` gives the feature rows the network reads
(:mod:`pinastats._engine.net` lists them) and :func:`win_chances` each seat's
chance to win by the shipped network
(:func:`pinastats.agents.network.evaluate_states` evaluates a batch).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from pinastats import _engine as E
from pinastats._arrays import FloatArray
from pinastats._engine import StateBatch, stack_states
from pinastats.agents.network import evaluate_states, make_chances
from pinastats.dice.combinations import Combination
from pinastats.errors import PinastatsError
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.value.data import Positions


def _net_for_features(config: GameConfig) -> E.Net:
    net = E.empty_net(config.players, len(Combination))
    return net._replace(make=make_chances(config.rules.rolls))


def features(positions: Positions) -> FloatArray:
    """``(N, n_features)``: the features of each position, seen from its seat to move."""
    config = positions.config
    n = E.feature_count(config.layout.n_cells, config.players)
    out = np.zeros((len(positions), n))
    E.features_of(config.board, positions.states, _net_for_features(config), out)
    return out


def state_features(config: GameConfig, states: StateBatch) -> FloatArray:
    """The features of a batch of states of ``config``."""
    n = E.feature_count(config.layout.n_cells, config.players)
    out = np.zeros((len(states), n))
    E.features_of(config.board, states, _net_for_features(config), out)
    return out


def win_chances(game: Game) -> pd.DataFrame:
    """Each seat's chance to win ``game`` by the network (a running game), and of no winner.

    One row per seat (``seat``, ``win``), then a row for no winner (``seat`` -1).
    """
    if game.is_over:
        raise PinastatsError(f"the game is over ({game.end_reason.name}): nothing to estimate")
    p = evaluate_states(game.config, stack_states([game.state]))[0]
    n = game.config.players
    mover = game.to_move
    win = [float(p[(s - mover) % n]) for s in range(n)]
    return pd.DataFrame({"seat": [*range(n), -1], "win": [*win, float(p[n])]})
