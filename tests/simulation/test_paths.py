"""The readable Python path and the one-kernel-call path play the very same games."""

from __future__ import annotations

import numpy as np
import pytest

from pinastats.agents.builtin import AgentKind
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.game.rules import Rules
from pinastats.simulation.play import play_game

# every kind with a one-call turn; the rollout agent's turn is the readable one on both
# paths, and its game loop is checked against it in tests/simulation/test_python_agents.py
KINDS = [k.value for k in AgentKind if k is not AgentKind.ROLLOUT]


def play_both(players: int, happy_hour: bool, agents: list[str], seed: int) -> tuple[Game, Game]:
    config = GameConfig(players=players, rules=Rules(happy_hour=happy_hour))
    slow = play_game(Game.new(seed=seed, config=config), agents, seed=1000 + seed, fast=False)
    fast = play_game(Game.new(seed=seed, config=config), agents, seed=1000 + seed, fast=True)
    return slow, fast


def assert_same_game(slow: Game, fast: Game) -> None:
    assert slow.is_over
    assert fast.is_over
    for name, a, b in zip(
        ("cells", "sides", "tokens", "players", "status"), slow.state, fast.state, strict=True
    ):
        np.testing.assert_array_equal(a, b, err_msg=f"state array {name!r} differs")


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("happy_hour", [False, True], ids=["plain", "happy-hour"])
@pytest.mark.parametrize("kind", KINDS)
def test_same_agent_in_every_seat(kind: str, happy_hour: bool, players: int) -> None:
    for seed in range(3):
        assert_same_game(*play_both(players, happy_hour, [kind] * players, seed))


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("happy_hour", [False, True], ids=["plain", "happy-hour"])
def test_mixed_tables(happy_hour: bool, players: int) -> None:
    for seed in range(4):
        agents = [KINDS[(seed + s) % len(KINDS)] for s in range(players)]
        assert_same_game(*play_both(players, happy_hour, agents, seed))
