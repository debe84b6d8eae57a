"""Advice for the player to move, checked against brute force on the Game API."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import pytest

from pinastats.agents.advice import advise, placement_values
from pinastats.dice.hands import N_HANDS, dice_tables
from pinastats.dice.solver import solve_turn
from pinastats.game.game import Game
from pinastats.simulation.play import play_game
from tests.game.scenarios import (
    ROLL_EXAMPLE,
    cell,
    emptied,
    game,
    mid_game,
    rulebook_scoring_example,
)


def slow_placement_values(g: Game) -> list[int]:
    """f(h) from the Game API: the most points among the legal placements (0 if none)."""
    t = dice_tables()
    out = []
    for h in range(N_HANDS):
        dice = [int(d) for d in t.hand_dice[h]]
        out.append(max((p.points for p in g.legal_placements(dice)), default=0))
    return out


def slow_keep_value(f: Sequence[int], keep: Sequence[int]) -> Fraction:
    """K_1(keep): the mean of f over every ordered re-roll of the other dice."""
    t = dice_tables()
    n = 5 - len(keep)
    total = sum(
        f[t.hand_index([*keep, *roll])] for roll in itertools.product(range(1, 7), repeat=n)
    )
    return Fraction(total, 6**n)


POSITIONS = [(2, 1, 6), (2, 2, 11), (3, 3, 9), (4, 4, 14), (4, 5, 3), (2, 6, 0)]


@pytest.mark.parametrize(("players", "seed", "turns"), POSITIONS)
def test_placement_values_match_the_legal_placements(players: int, seed: int, turns: int) -> None:
    g = mid_game(players, seed, turns)
    assert not g.is_over
    before = [a.copy() for a in g.state]
    values = placement_values(g)
    assert values.shape == (N_HANDS,)
    assert values.dtype == np.int64
    assert values.tolist() == slow_placement_values(g)
    for a, b in zip(before, g.state, strict=True):  # the position is left as it was
        np.testing.assert_array_equal(a, b)


def test_placement_values_are_zero_with_an_empty_reserve() -> None:
    five = [cell(0, 0), cell(0, 1), cell(0, 2), cell(1, 0), cell(1, 1)]
    # seat 0 to move with no token: the end is triggered, the round goes on
    g = emptied(game(tokens={c: [0] for c in five}, first_player=1), 0)
    assert not g.is_over
    assert not placement_values(g).any()
    advice = advise(g, ROLL_EXAMPLE, 2)
    assert advice.placements == ()
    assert advice.expected_fraction == 0
    assert all(k.best for k in advice.keeps)  # nothing to gain: every keep ties


def test_rulebook_scoring_example_is_the_top_placement() -> None:
    advice = advise(rulebook_scoring_example(), ROLL_EXAMPLE, 0)
    top = advice.placements[0]
    assert (top.combination, top.cell, top.points) == ("Full House", cell(2, 2), 6)
    points = [p.points for p in advice.placements]
    assert points == sorted(points, reverse=True)
    assert advice.stop_points == 6
    assert advice.keeps == ()
    assert advice.expected_fraction == 6


@pytest.mark.parametrize("rolls_left", [1, 2])
@pytest.mark.parametrize("dice", [ROLL_EXAMPLE, (1, 2, 2, 4, 6), (1, 2, 4, 5, 6), (6, 6, 6, 6, 6)])
def test_keeps_rank_by_exact_expected_points(rolls_left: int, dice: tuple[int, ...]) -> None:
    g = rulebook_scoring_example()
    values = placement_values(g)
    solution = solve_turn(values)
    advice = advise(g, dice, rolls_left)

    fractions = [k.fraction for k in advice.keeps]
    assert fractions == sorted(fractions, reverse=True)
    assert [k.best for k in advice.keeps] == [f == fractions[0] for f in fractions]
    assert all(k.expected_points == float(k.fraction) for k in advice.keeps)
    keeps = [k.keep for k in advice.keeps]
    subs = {tuple(sorted(c)) for n in range(6) for c in itertools.combinations(dice, n)}
    assert sorted(keeps) == sorted(subs)  # every distinct keep, once

    assert advice.expected_points == pytest.approx(solution.hand_value(dice, rolls_left), 1e-12)
    assert advice.expected_fraction == fractions[0]
    best_placement = max((p.points for p in g.legal_placements(dice)), default=0)
    assert advice.stop_points == best_placement
    (stop,) = [k for k in advice.keeps if k.stop]
    assert stop.fraction == best_placement
    for k in advice.keeps:
        if not k.stop:
            assert k.fraction == solution.keep_fraction(k.keep, rolls_left)


def test_keep_values_with_one_roll_left_match_brute_force() -> None:
    g = mid_game(2, 2, 11)
    f = slow_placement_values(g)
    advice = advise(g, (1, 3, 3, 4, 6), 1)
    for k in advice.keeps:
        if not k.stop:
            assert k.fraction == slow_keep_value(f, k.keep), k.keep


def test_stopping_with_two_rolls_left_is_worth_the_placement_not_another_roll() -> None:
    # Keeping the whole hand ends the turn: it is worth f(h) = 0 here (no
    # placement), not V_1(h), the value of skipping a roll.
    g = rulebook_scoring_example()
    dice = (1, 2, 4, 5, 6)
    assert g.legal_placements(dice) == []
    solution = solve_turn(placement_values(g))
    assert solution.keep_fraction(dice, 2) == 0
    assert solution.hand_value(dice, 1) > 0
    (stop,) = [k for k in advise(g, dice, 2).keeps if k.stop]
    assert stop.fraction == 0
    assert not stop.best


def test_ties_prefer_more_dice_kept() -> None:
    # 6 6 6 6 6 on the scoring example: a placement is certain, nothing better exists
    advice = advise(rulebook_scoring_example(), (6, 6, 6, 6, 6), 1)
    best = advice.best_keeps
    assert advice.keeps[0].stop
    assert all(k.best for k in advice.keeps[: len(best)])
    sizes = [len(k.keep) for k in best]
    assert sizes == sorted(sizes, reverse=True)


@pytest.mark.parametrize("rolls_left", [3, -1, True, 1.0, "1"])
def test_rolls_left_must_be_0_1_or_2(rolls_left: object) -> None:
    with pytest.raises(ValueError, match="rolls left must be 0, 1 or 2"):
        advise(game(), ROLL_EXAMPLE, rolls_left)  # type: ignore[arg-type]


@pytest.mark.parametrize("dice", [(5, 5, 5, 3), (5, 5, 5, 3, 7), (0, 1, 2, 3, 4)])
def test_dice_must_be_five_values_from_1_to_6(dice: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match="dice must be"):
        advise(game(), dice, 0)


def test_a_finished_game_has_no_advice() -> None:
    g = play_game(Game.new(2, seed=3), ["ev", "ev"], seed=3)
    assert g.is_over
    with pytest.raises(ValueError, match="the game is over"):
        advise(g, ROLL_EXAMPLE, 1)
