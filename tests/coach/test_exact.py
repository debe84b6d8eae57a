"""Positions where every outcome is decided: win probabilities without play-outs, exactly."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pinastats.coach import win_advice
from pinastats.game.game import Game
from pinastats.game.rules import HappyHourEffect, Rules
from tests.coach.expectimax import Expectimax
from tests.dice.oracle import Dice, all_hands, holds
from tests.game.scenarios import cell, game

# seat 0 has 20 points and has triggered the end; seat 1 (17 points) plays the last
# turn of the final round, after which the scores decide (ties: latest placement)
SCORES = {0: 20, 1: 17}
LAST_PLACED = [5, 4]


def _last_turn(happy_hour: bool) -> Game:
    tokens = {cell(0, 0): [0], cell(1, 1): [1], cell(2, 2): [0], cell(3, 3): [1], cell(0, 3): [1]}
    return game(
        tokens=tokens, scores=[SCORES[0], SCORES[1]], to_move=1, first_player=0,
        end_trigger="score", last_placed=LAST_PLACED, rules=Rules(happy_hour=happy_hour),
    )  # fmt: skip


def _winner(scores: dict[int, int], placed: int | None) -> Fraction:
    """Seat 1's result by the rules: highest score; a tie goes to the latest placement."""
    if scores[1] != scores[0]:
        return Fraction(int(scores[1] > scores[0]))
    recency = dict(enumerate(LAST_PLACED)) | ({} if placed is None else {placed: 99})
    return Fraction(int(recency[1] > recency[0]))


def _oracle(g: Game) -> Expectimax:
    points = {c: p for c in range(16) for p in [_points(g, c)] if p is not None}

    def placements(hand: Dice) -> list[Fraction]:
        return [
            _winner({0: SCORES[0], 1: SCORES[1] + pts}, placed=1)
            for c, pts in points.items()
            if holds(g.coaster(c).combination, hand)
        ]

    def stop(hand: Dice) -> Fraction:
        return max(placements(hand), default=_winner(SCORES, None))

    def final(hand: Dice) -> Fraction:
        options = placements(hand)
        if options:
            return max(options)
        if not g.config.rules.happy_hour:
            return _winner(SCORES, None)
        after = {
            HappyHourEffect.LOSE_3: {0: SCORES[0], 1: SCORES[1] - 3},
            HappyHourEffect.OTHERS_GAIN_1: {0: SCORES[0] + 1, 1: SCORES[1]},
            HappyHourEffect.GAIN_4: {0: SCORES[0], 1: SCORES[1] + 4},
        }
        return sum((_winner(after.get(e, SCORES), None) for e in HappyHourEffect), Fraction(0)) / 6

    return Expectimax(stop, final)


def _points(g: Game, c: int) -> int | None:
    """Points of seat 1 placing on cell ``c``, None if it may not (from any matching dice)."""
    for dice in _dice_showing(g, c):
        for p in g.legal_placements(dice):
            if p.cell == c:
                return p.points
    return None


def _dice_showing(g: Game, c: int) -> list[Dice]:
    return [h for h in all_hands() if holds(g.coaster(c).combination, h)][:1]


@pytest.mark.parametrize("happy_hour", [False, True])
@pytest.mark.parametrize(
    ("dice", "rolls_left"),
    [((1, 2, 3, 4, 6), 2), ((3, 3, 5, 5, 6), 1), ((1, 1, 2, 5, 6), 1), ((3, 3, 1, 2, 4), 0)],
)
def test_last_turn_matches_the_enumeration(happy_hour: bool, dice: Dice, rolls_left: int) -> None:
    g = _last_turn(happy_hour)
    oracle = _oracle(g)
    advice = win_advice(g, dice, rolls_left, playouts=50, seed=1)
    assert advice.playouts == 0  # every outcome is decided: no play-out
    assert all(o.exact and o.win_probability_se == 0 for o in advice.outcomes)
    assert not advice.too_close_to_call
    hand = tuple(sorted(dice))
    assert advice.win_probability == pytest.approx(float(oracle.hand(hand, rolls_left)), abs=1e-12)
    for k in advice.keeps:
        assert k.win_probability == pytest.approx(float(oracle.keep(k.keep, rolls_left)), abs=1e-12)
        assert k.win_probability_se == 0
    for p in advice.placements:
        won = _winner({0: SCORES[0], 1: SCORES[1] + p.points}, placed=1)
        assert p.win_probability == float(won)
    if rolls_left:
        assert len(advice.keeps) > 1
        assert advice.keeps[0].best


def test_the_position_is_not_trivial() -> None:
    """Some final hands win and some lose: the enumeration tests something."""
    oracle = _oracle(_last_turn(True))
    values = {oracle.hand(h, 0) for h in [(3, 3, 1, 2, 4), (1, 1, 2, 5, 6), (6, 6, 6, 6, 6)]}
    assert len(values) > 1
    assert 0 < oracle.keep((), 3) < 1


def test_a_pina_coladice_wins_for_sure_and_ranks_first() -> None:
    # seat 0 holds three cells of the top row; the pair of 4s completes it
    g = game(tokens={cell(0, 0): [0], cell(0, 1): [0], cell(0, 2): [0], cell(2, 2): [1]})
    dice = (1, 2, 3, 4, 4)  # shows the pair of 4s and the small straight
    advice = win_advice(g, dice, 0, playouts=30, seed=2)
    assert len(advice.placements) >= 2
    first = advice.placements[0]
    assert first.cell == cell(0, 3)
    assert first.win_probability == 1.0
    assert first.win_probability_se == 0.0
    assert first.best
    assert advice.win_probability == 1.0
    assert advice.outcomes[[o.outcome.cell for o in advice.outcomes].index(first.cell)].exact
    with_rolls = win_advice(g, dice, 2, playouts=30, seed=2)
    stop = next(k for k in with_rolls.keeps if k.stop)
    assert stop.win_probability == 1.0
    assert stop.best
    assert with_rolls.keeps[0] == stop
