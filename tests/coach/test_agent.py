"""The ``coach`` agent plays whole games through the readable turn of the simulation package."""

from __future__ import annotations

import numpy as np
import pytest

from pinastats.agents.builtin import make_agent
from pinastats.coach.agent import Coach
from pinastats.errors import PinastatsError
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.game.rules import Rules
from pinastats.simulation.play import TurnRecord, play_turn
from tests.game.scenarios import cell, game


def _play(seed: int, happy_hour: bool = False) -> tuple[Game, list[TurnRecord]]:
    config = GameConfig(players=2, rules=Rules(happy_hour=happy_hour))
    g = Game.new(seed=seed, config=config)
    seats = [Coach(playouts=6), make_agent("strategic")]
    rng = np.random.default_rng(seed)
    records = []
    while not g.is_over:
        records.append(play_turn(g, seats[g.to_move], rng))  # type: ignore[arg-type]
    return g, records


@pytest.mark.parametrize(("seed", "happy_hour"), [(1, False), (2, True)])
def test_coach_plays_whole_games(seed: int, happy_hour: bool) -> None:
    g, records = _play(seed, happy_hour)
    assert g.is_over
    coach_turns = [r for r in records if r.player == 0]
    assert coach_turns
    assert any(r.cell is not None for r in coach_turns)
    # a turn stops rolling when the coach keeps all five dice; never more rolls than allowed
    assert all(1 <= r.rolls_used <= g.config.rules.rolls for r in coach_turns)


def test_same_seed_same_game() -> None:
    a, ra = _play(3)
    b, rb = _play(3)
    assert ra == rb
    assert a.scores == b.scores


def test_coach_completes_a_pina_coladice() -> None:
    g = game(tokens={cell(0, 0): [0], cell(0, 1): [0], cell(0, 2): [0], cell(2, 2): [1]})
    coach = Coach(playouts=4)
    rng = np.random.default_rng(0)
    assert coach.choose_keep(g, (1, 2, 3, 4, 4), 2, rng) == (1, 2, 3, 4, 4)  # stop
    assert coach.choose_placement(g, (1, 2, 3, 4, 4), rng) == cell(0, 3)


def test_name_and_settings() -> None:
    assert Coach().name == "coach"
    assert Coach(playouts=8, policy="ev").name == "coach(playouts=8,policy=ev)"
    with pytest.raises(PinastatsError, match="did you mean 'greedy'"):
        Coach(policy="gredy")
    with pytest.raises(PinastatsError, match="play-outs must be"):
        Coach(playouts=0)
