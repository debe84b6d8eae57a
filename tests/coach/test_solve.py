"""The turn DP on a fixed ``W`` vector against a brute-force expectimax over keeps."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from pinastats.coach.outcomes import outcome_positions
from pinastats.coach.solve import solve_win_turn
from pinastats.dice.hands import dice_tables
from pinastats.game.game import Game
from pinastats.game.rules import Rules
from tests.coach.expectimax import Expectimax
from tests.dice.oracle import Dice, holds
from tests.game.scenarios import cell, game

HANDS: list[Dice] = [(1, 2, 3, 4, 6), (2, 2, 5, 5, 6), (1, 1, 1, 3, 6), (3, 4, 4, 6, 6)]


def _position(happy_hour: bool) -> Game:
    tokens = {cell(0, 0): [0], cell(1, 1): [1], cell(2, 2): [0], cell(0, 3): [1]}
    return game(tokens=tokens, scores=[9, 8], rules=Rules(happy_hour=happy_hour))


@pytest.mark.parametrize("happy_hour", [False, True])
def test_keep_values_match_the_expectimax(happy_hour: bool) -> None:
    g = _position(happy_hour)
    outcomes = outcome_positions(g)
    w = np.random.default_rng(11).random(outcomes.size)
    seat = g.to_move
    columns = {o.cell: j for j, o in enumerate(outcomes.outcomes) if o.kind == "place"}
    combos = {c: g.coaster(c).combination for c in columns}
    happy = [j for j, o in enumerate(outcomes.outcomes) if o.kind == "happy_hour"]
    assert len(happy) == (6 if happy_hour else 0)
    assert g.reserves[seat] > 0

    def best_cell(hand: Dice) -> Fraction | None:
        shown = [Fraction(w[j]) for c, j in columns.items() if holds(combos[c], hand)]
        return max(shown) if shown else None

    def stop(hand: Dice) -> Fraction:
        best = best_cell(hand)
        return Fraction(w[outcomes.pass_column]) if best is None else best

    def final(hand: Dice) -> Fraction:
        best = best_cell(hand)
        if best is not None:
            return best
        if happy:
            return sum((Fraction(w[j]) for j in happy), Fraction(0)) / 6
        return Fraction(w[outcomes.pass_column])

    oracle = Expectimax(stop, final)
    t = dice_tables()
    turn = solve_win_turn(w, outcomes.shows, outcomes.pass_column, outcomes.happy_columns, 2)
    for rolls_left in (1, 2):
        for hand in HANDS:
            h = t.hand_index(hand)
            for k in t.hand_keep[t.hand_keep_ptr[h] : t.hand_keep_ptr[h + 1]]:
                expected = float(oracle.keep(t.keep_of(int(k)), rolls_left))
                assert turn.keep_value[rolls_left - 1, k] == pytest.approx(expected, abs=1e-12)
                q = turn.keep_weights[rolls_left - 1, k]
                # the outcome weights are a probability distribution that reproduces the value
                assert q.min() >= 0
                assert q.sum() == pytest.approx(1.0)
                assert q @ w == pytest.approx(expected, abs=1e-12)


def test_a_hand_with_no_open_coaster_passes_early_and_plays_happy_hour_last() -> None:
    g = _position(True)
    outcomes = outcome_positions(g)
    w = np.linspace(0.1, 0.9, outcomes.size)
    turn = solve_win_turn(w, outcomes.shows, outcomes.pass_column, outcomes.happy_columns, 1)
    t = dice_tables()
    nothing = [h for h in range(252) if not outcomes.shows[h].any()]
    assert nothing, "the position should have hands that place nothing"
    for h in nothing:
        assert turn.stop_weights[h, outcomes.pass_column] == 1.0
        assert np.allclose(turn.final_weights[h, outcomes.happy_columns], 1 / 6)
        # keeping the whole hand stops early: a pass
        assert turn.keep_value[0, t.hand_as_keep[h]] == pytest.approx(w[outcomes.pass_column])
