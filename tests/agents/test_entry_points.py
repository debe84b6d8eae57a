"""The agents' Python entry points check what they are given and answer for any copy."""

from __future__ import annotations

import numpy as np
import pytest

from pinastats.agents import make_agent
from pinastats.dice import dice_tables
from pinastats.errors import PinastatsError
from pinastats.game import Game, IllegalMoveError
from pinastats.simulation import play_game
from tests.game.scenarios import mid_game

RNG = np.random.default_rng(0)


@pytest.mark.parametrize("name", ["ev", "strategic", "greedy"])
def test_a_copy_is_advised_like_the_original(name: str) -> None:
    """No start_turn on the copy: the agent prepares itself for the position asked about."""
    game = mid_game(2, 1, 6, agent="greedy")
    agent = make_agent(name)
    fresh = make_agent(name)
    agent.start_turn(game)
    copy = game.copy()
    hands = dice_tables().hand_dice
    for h in range(0, 252, 3):
        dice = tuple(int(d) for d in hands[h])
        for rolls_left in (1, 2):
            a = agent.choose_keep(game, dice, rolls_left, RNG)
            b = fresh.choose_keep(copy, dice, rolls_left, RNG)
            assert a == b, (dice, rolls_left)


def test_a_prepared_turn_is_not_reused_for_another_position() -> None:
    game, other = mid_game(2, 2, 6, agent="greedy"), mid_game(2, 3, 6, agent="greedy")
    agent = make_agent("ev")
    agent.start_turn(game)
    fresh = make_agent("ev")
    hands = dice_tables().hand_dice
    answers = [
        (agent.choose_keep(other, tuple(int(d) for d in hands[h]), 2, RNG),
         fresh.choose_keep(other, tuple(int(d) for d in hands[h]), 2, RNG))
        for h in range(0, 252, 5)
    ]  # fmt: skip
    assert all(a == b for a, b in answers)


@pytest.mark.parametrize(
    ("dice", "rolls_left", "match"),
    [
        ((0, 1, 2, 3, 4), 1, "0"),
        ((1, 2, 3, 4), 1, "exactly 5"),
        ((1, 2, 3, 4, 7), 1, "7"),
        ((1, 2, 3, 4, 5), 0, "rolls left"),
        ((1, 2, 3, 4, 5), 3, "rolls left"),
        ((1, 2, 3, 4, 5), True, "rolls left"),
    ],
)
def test_choose_keep_checks_dice_and_rolls_left(
    dice: tuple[int, ...], rolls_left: int, match: str
) -> None:
    with pytest.raises(PinastatsError, match=match):
        make_agent("ev").choose_keep(mid_game(2, 4, 6, agent="greedy"), dice, rolls_left, RNG)


def test_choose_placement_needs_a_legal_placement() -> None:
    game = mid_game(2, 5, 6, agent="greedy")
    hands = dice_tables().hand_dice
    for h in range(252):
        dice = tuple(int(d) for d in hands[h])
        if not game.legal_placements(dice):
            with pytest.raises(IllegalMoveError, match="no placement"):
                make_agent("ev").choose_placement(game, dice, RNG)
            return
    pytest.fail("every hand can place")


def test_no_decision_in_a_finished_game() -> None:
    game = play_game(Game.new(2, seed=6), ["ev", "ev"], seed=6)
    with pytest.raises(IllegalMoveError, match="over"):
        make_agent("ev").choose_keep(game, (1, 2, 3, 4, 5), 1, RNG)


def test_unknown_agent_suggests_the_closest_name() -> None:
    with pytest.raises(PinastatsError, match="did you mean 'strategic'"):
        make_agent("strategc")
