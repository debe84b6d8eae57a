"""The agent protocol: built-in agents meet it, make_agent passes agents of one's own through."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from pinastats.agents import Agent, AgentProtocol, PythonAgent, is_agent, make_agent
from pinastats.agents.builtin import AgentError, AgentKind
from pinastats.game.game import Game
from pinastats.game.rules import HappyHourEffect


class LastCell(PythonAgent):
    """Places on the last legal cell; every other decision from the base."""

    name = "last cell"

    def choose_placement(self, game: Game, dice: Sequence[int], rng: np.random.Generator) -> int:
        return game.legal_cells(dice)[-1]


@pytest.mark.parametrize("kind", list(AgentKind))
def test_built_in_agents_meet_the_protocol(kind: AgentKind) -> None:
    agent: AgentProtocol = Agent(kind)  # mypy checks the structure, isinstance the methods
    assert isinstance(agent, AgentProtocol)
    assert is_agent(agent)


def test_make_agent_returns_an_agent_of_ones_own_unchanged() -> None:
    mine = LastCell()
    assert make_agent(mine) is mine
    assert is_agent(mine)
    assert repr(mine) == "<agent last cell>"


def test_make_agent_refuses_what_is_no_agent() -> None:
    class Half:
        name = "half"

        def start_turn(self, game: Game) -> None: ...

    with pytest.raises(AgentError, match="choose_keep, choose_placement"):
        make_agent(Half())  # type: ignore[call-overload]
    with pytest.raises(AgentError, match="parameters"):
        make_agent(LastCell(), line=2.0)


def test_python_agent_defaults() -> None:
    game = Game.new(players=2, seed=2)
    rng = np.random.default_rng(0)
    agent = PythonAgent()
    assert agent.name == "PythonAgent"
    assert agent.choose_keep(game, (1, 2, 3, 4, 6), 2, rng) == (1, 2, 3, 4, 6)
    dice = next(
        d
        for d in ((a, a, a, b, b) for a in range(1, 7) for b in range(1, 7))
        if game.legal_cells(d)
    )
    assert agent.choose_placement(game, dice, rng) == game.legal_cells(dice)[0]
    assert LastCell().choose_placement(game, dice, rng) == game.legal_cells(dice)[-1]
    assert agent.choose_happy_hour(game, HappyHourEffect.FLIP_COASTER, [3, 5], rng) == 3
