"""Exact reviews: every luck and loss from the solved game, and the game's account adds up."""

from __future__ import annotations

import pytest

from pinastats._tables import ERROR_BOUND
from pinastats.game import GameConfig, Rules
from pinastats.records import record_games
from pinastats.records.replay import replay
from pinastats.records.review import ReviewError, annotated_text, default_evaluator, review_game
from pinastats.solve import solve

SMALL = GameConfig(rules=Rules(tokens=3))


def test_an_exact_review_accounts_for_the_whole_game() -> None:
    """Seat 0's result = its exact chance at the start + its luck - its errors + the
    opponent's errors (two players: a chance one seat loses the other wins).

    Within a turn the account is exact; between turns, the table's chance of the position
    and the turn DP's (on the table's chances of the next positions) each lie within the
    table's bound of the solve, so each turn may leave up to twice the bound."""
    records = record_games(["strategic", "ev"], 3, seed=5, config=SMALL)
    for record in records:
        review = review_game(record, evaluator="exact")
        assert review.evaluator == "exact"
        _, seat, chance = review.starts[0]
        start = chance if seat == 0 else 1.0 - chance
        errors = [sum(d.loss for d in review.decisions if d.seat == s) for s in (0, 1)]
        assert all(d.loss == d.evaluator_loss and d.low == d.high for d in review.decisions)
        account = start + review.luck(0) - errors[0] + errors[1]
        bound = 2 * len(record.turns) * ERROR_BOUND
        assert review.result(0) == pytest.approx(account, abs=bound)
        assert "exact (the solved game)" in annotated_text(review)


def test_the_default_is_exact_once_the_board_is_kept() -> None:
    (record,) = record_games(["ev", "ev"], 1, seed=6, config=SMALL)
    game = replay(record)
    solve(game)
    assert default_evaluator(game) == "exact"
    assert review_game(record).evaluator == "exact"


def test_the_exact_evaluator_refuses_three_players() -> None:
    (record,) = record_games(["ev", "ev", "ev"], 1, seed=7)
    with pytest.raises(ReviewError, match="two players"):
        review_game(record, evaluator="exact")
