"""The kernel agents' kinds: one list in the engine, and a kind it does not handle fails loudly.

A kind the kernels have no branch for used to fall through to ``ev``'s choices
(a new agent played as ``ev`` without a word); now each decision names the
kinds it handles and refuses any other.
"""

from __future__ import annotations

import numpy as np
import pytest

from pinastats import _engine as E
from pinastats.agents.builtin import Agent, AgentKind, make_agent
from pinastats.agents.tables import workspace
from pinastats.game import Game, GameConfig

UNKNOWN = 99
CONFIG = GameConfig(players=2)


def test_the_engine_lists_every_kernel_agent_once() -> None:
    assert sorted(E.KINDS) == sorted(k.value for k in AgentKind)
    assert len(set(E.KINDS.values())) == len(E.KINDS)
    for kind in AgentKind:
        assert Agent(kind).code == E.KINDS[kind.value]


def _position() -> tuple[Game, E.Workspace, int]:
    game = Game.new(seed=5, config=CONFIG)
    hand = 17
    return game, workspace(CONFIG), hand


def test_a_kind_the_engine_does_not_handle_refuses_to_keep() -> None:
    game, work, hand = _position()
    params = make_agent("strategic").param_vector()
    args = (CONFIG.board, game.state, E.turn_tables(), work, game.to_move, hand, 2)
    E.prepare_turn(E.K_EV, params, CONFIG.board, game.state, E.turn_tables(), work, game.to_move)
    E.choose_keep(E.K_EV, params, *args)  # a known kind keeps
    with pytest.raises(ValueError, match="agent kind"):
        E.choose_keep(UNKNOWN, params, *args)


def test_a_kind_the_engine_does_not_handle_refuses_to_place() -> None:
    game, work, _ = _position()
    params = make_agent("strategic").param_vector()
    legal = np.zeros(CONFIG.layout.n_cells, dtype=np.bool_)
    legal[[2, 5]] = True
    rng = np.random.default_rng(0)
    assert E.pick_cell(E.K_EV, params, CONFIG.board, game.state, game.to_move, legal, rng,
                       work.cell_value, False) in (2, 5)  # fmt: skip
    with pytest.raises(ValueError, match="agent kind"):
        E.pick_cell(UNKNOWN, params, CONFIG.board, game.state, game.to_move, legal, rng,
                    work.cell_value, False)  # fmt: skip


def test_a_turn_solved_for_a_kind_the_engine_does_not_value_is_refused() -> None:
    """A kind let into the turn DP without its values fails there, not as ``ev``'s values."""
    from pinastats._engine.decide import _solve_turn

    game, work, _ = _position()
    params = make_agent("strategic").param_vector()
    with pytest.raises(ValueError, match="agent kind"):
        _solve_turn(UNKNOWN, params, CONFIG.board, game.state, E.turn_tables(), work, 0)
