"""The public position API: Turn, distinct keeps, exact re-roll outcomes, legal cells, views."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from pinastats._engine import rules as K
from pinastats._engine import turn_tables
from pinastats.dice.errors import DiceError
from pinastats.dice.hands import dice_tables
from pinastats.errors import PinastatsError
from pinastats.game.config import GameConfig
from pinastats.game.game import Game, IllegalMoveError
from pinastats.game.rules import EndReason, Rules
from pinastats.game.turn import Turn, distinct_keeps, keep_outcomes, roll_dice
from pinastats.game.view import GameResult, Outcome


def _play_ones(game: Game) -> None:
    """End the mover's turn with five 1s: on the first legal cell, else a pass."""
    ones = [1, 1, 1, 1, 1]
    cells = game.legal_cells(ones)
    if cells:
        game.place(cells[0], ones)
    else:
        game.end_turn_without_placement(ones)


def test_turn_draws_what_the_engine_kernel_draws() -> None:
    game = Game.new(players=2, seed=3)
    mine, theirs = np.random.default_rng(9), np.random.default_rng(9)
    tables = turn_tables()
    turn = Turn.start(game, mine)
    hand = K._roll(theirs, tables.keep_counts, tables.key_to_hand, 0)
    assert turn.dice == dice_tables().hand_of(int(hand))
    keep = turn.dice[:2]
    turn.keep(keep, mine)
    hand = K._roll(theirs, tables.keep_counts, tables.key_to_hand, dice_tables().keep_index(keep))
    assert turn.dice == dice_tables().hand_of(int(hand))
    assert (turn.rolls_used, turn.rolls_left, turn.keeps) == (2, 1, [keep])


def test_keeping_all_five_stops_without_drawing() -> None:
    game = Game.new(players=2, seed=3)
    rng = np.random.default_rng(1)
    turn = Turn.start(game, rng)
    before = rng.bit_generator.state
    assert turn.keep(turn.dice, rng) == turn.dice
    assert rng.bit_generator.state == before
    assert turn.is_done
    assert turn.rolls_left == 0
    assert turn.distinct_keeps() == ()
    with pytest.raises(IllegalMoveError, match="no re-roll left"):
        turn.keep((), rng)


def test_a_turn_ends_after_its_rolls_and_checks_keeps() -> None:
    game = Game.new(players=2, seed=3)
    turn = Turn.from_dice(game, [6, 1, 2, 2, 5])
    assert turn.dice == (1, 2, 2, 5, 6)
    with pytest.raises(DiceError, match="not part of the hand"):
        turn.keep_to([3], [3, 3, 3, 3, 3])
    with pytest.raises(DiceError, match="not part of the hand"):
        turn.keep_to([2, 2], [1, 1, 1, 1, 2])  # the new dice must contain the keep
    turn.keep_to([2, 2], [2, 2, 4, 4, 4])
    turn.keep_to([4, 4, 4], [4, 4, 4, 6, 6])
    assert turn.is_done
    assert turn.rolls == [(1, 2, 2, 5, 6), (2, 2, 4, 4, 4), (4, 4, 4, 6, 6)]


def test_distinct_keeps_are_the_sub_multisets() -> None:
    for dice in [(1, 2, 3, 4, 5), (2, 2, 5, 5, 5), (6, 6, 6, 6, 6), (1, 1, 3, 3, 4)]:
        subs = {tuple(sorted(c)) for r in range(6) for c in itertools.combinations(dice, r)}
        keeps = distinct_keeps(dice)
        assert set(keeps) == subs
        assert len(keeps) == len(subs)
        counts = Counter(dice).values()
        assert len(keeps) == np.prod([c + 1 for c in counts])


@pytest.mark.parametrize("keep", [(), (3,), (1, 1, 6), (2, 3, 4, 5), (1, 2, 3, 4, 5)])
def test_keep_outcomes_are_exact(keep: tuple[int, ...]) -> None:
    n = 5 - len(keep)
    brute = Counter(tuple(sorted(keep + r)) for r in itertools.product(range(1, 7), repeat=n))
    expected = {hand: Fraction(w, 6**n) for hand, w in brute.items()}
    assert dict(keep_outcomes(keep)) == expected


def test_roll_dice_is_sorted_and_keeps_the_keep() -> None:
    rng = np.random.default_rng(0)
    for _ in range(200):
        dice = roll_dice(rng, (4, 4))
        assert list(dice) == sorted(dice)
        assert Counter(dice)[4] >= 2


def test_legal_cells_agree_with_legal_placements() -> None:
    rng = np.random.default_rng(4)
    game = Game.new(players=3, seed=4)
    for _ in range(300):
        if game.is_over:
            game = Game.new(players=3, seed=rng)
        dice = roll_dice(rng)
        cells = game.legal_cells(dice)
        assert cells == tuple(p.cell for p in game.legal_placements(dice))
        assert cells == game.legal_cells(list(reversed(dice)))
        if cells:
            cell = cells[int(rng.integers(len(cells)))]
            twin = game.copy()
            expect = next(p.points for p in game.legal_placements(dice) if p.cell == cell)
            assert game.place(cell, dice) == expect
            # the illegal placement keeps its clear error
            with pytest.raises(IllegalMoveError, match="illegal placement"):
                twin.place(next(c for c in range(16) if c not in cells), dice)
        else:
            game.end_turn_without_placement(dice)
    with pytest.raises(DiceError):
        game.legal_cells([1, 2, 3, 4, 7])


def test_cells_view_reads_the_board() -> None:
    game = Game.new(players=2, seed=5)
    dice = next(d for d in itertools.product(range(1, 7), repeat=5) if game.legal_cells(d))
    cell = game.legal_cells(dice)[0]
    game.place(cell, dice)
    views = game.cells
    assert len(views) == game.config.layout.n_cells
    for v in views:
        assert (v.row, v.col) == game.config.layout.cells[v.cell]
        assert v.coaster == game.coaster(v.cell).id
        assert v.side == game.side(v.cell)
        assert v.spaces == game.spaces(v.cell)
        assert v.tokens == game.tokens(v.cell)
    assert views[cell].tokens == (game.first_player,)
    with pytest.raises(AttributeError):
        views[0].side = "B"  # type: ignore[misc]


def test_result_tells_the_turn_limit_from_a_win() -> None:
    config = GameConfig(players=2, rules=Rules(max_turns=2))
    game = Game.new(config=config, seed=1)
    assert game.result == GameResult(Outcome.ONGOING, None, EndReason.ONGOING)
    while not game.is_over:
        _play_ones(game)
    assert game.result.outcome is Outcome.TURN_LIMIT
    assert game.winner is None


@pytest.mark.parametrize(
    ("reason", "winner", "outcome"),
    [
        (EndReason.DRAW, None, Outcome.DRAW),
        (EndReason.TURN_LIMIT, None, Outcome.TURN_LIMIT),
        (EndReason.SCORE, 1, Outcome.WON),
        (EndReason.TIE_BREAK, 0, Outcome.WON),
    ],
)
def test_result_kinds(reason: EndReason, winner: int | None, outcome: Outcome) -> None:
    assert GameResult.of(reason, winner) == GameResult(outcome, winner, reason)


def test_a_turn_needs_a_running_game_and_its_seat() -> None:
    game = Game.new(players=2, seed=1)
    turn = Turn.from_dice(game, [1, 2, 3, 4, 5])
    _play_ones(game)
    with pytest.raises(PinastatsError, match="is to move"):
        turn.check(game)
