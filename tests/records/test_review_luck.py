"""The review's luck and errors: re-derived by brute force, and the identities they obey."""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np
import pytest

from pinastats.coach.outcomes import outcome_positions
from pinastats.coach.solve import hand_values, solve_win_turn
from pinastats.dice.hands import dice_tables
from pinastats.game import Game
from pinastats.records import GameRecord, record_games
from pinastats.records.review import (
    FORCED,
    MARKS,
    GameReview,
    annotated_text,
    error_rate,
    mark_of,
    rating,
    review_game,
)
from pinastats.simulation.play import play_turn

ROLLS = 3


def _position(seed: int, turns: int, happy_hour: bool = False) -> Game:
    from pinastats.game import GameConfig
    from pinastats.game.rules import Rules

    rng = np.random.default_rng(seed)
    game = Game.new(config=GameConfig(players=2, rules=Rules(happy_hour=happy_hour)), seed=rng)
    for _ in range(turns):
        play_turn(game, "strategic", rng)
    return game


def _brute_force(game: Game, w: np.ndarray) -> tuple[dict[tuple[int, ...], float], ...]:
    """``(V_0, K_1, V_1, K_2)`` by enumerating every ordered roll, from the rules of a turn.

    ``V_0(h)``: the best ``W`` over the open cells the hand shows, else the Happy Hour
    lottery or the pass; stopping early with a hand: the best cell, else the pass.
    ``K_r(k)``: the mean over every ordered roll of the other dice of ``V_{r-1}``; keeping
    all five is stopping. ``V_r(h)``: the best ``K_r`` over the sub-multisets of ``h``.
    """
    o = outcome_positions(game)
    tables = dice_tables()
    hands = [tables.hand_of(i) for i in range(252)]

    def placed(hand: tuple[int, ...]) -> float | None:
        shown = o.shows[tables.hand_index(hand)]
        return float(w[: len(o.cells)][shown].max()) if shown.any() else None

    def final(hand: tuple[int, ...]) -> float:
        p = placed(hand)
        if p is not None:
            return p
        if o.happy_columns.size:
            return float(w[o.happy_columns].mean())
        return float(w[o.pass_column])

    def stop(hand: tuple[int, ...]) -> float:
        p = placed(hand)
        return p if p is not None else float(w[o.pass_column])

    v0 = {h: final(h) for h in hands}

    @cache
    def sub_keeps(hand: tuple[int, ...]) -> frozenset[tuple[int, ...]]:
        return frozenset(
            tuple(sorted(c)) for n in range(6) for c in itertools.combinations(hand, n)
        )

    def k_of(v: dict[tuple[int, ...], float], keep: tuple[int, ...]) -> float:
        if len(keep) == 5:
            return stop(keep)
        rolls = list(itertools.product(range(1, 7), repeat=5 - len(keep)))
        return sum(v[tuple(sorted(keep + r))] for r in rolls) / len(rolls)

    keeps = sorted({k for h in hands for k in sub_keeps(h)})
    k1 = {k: k_of(v0, k) for k in keeps}
    v1 = {h: max(k1[k] for k in sub_keeps(h)) for h in hands}
    k2 = {k: k_of(v1, k) for k in keeps}
    return v0, k1, v1, k2


@pytest.mark.parametrize(("seed", "turns", "happy_hour"), [(3, 4, False), (11, 9, True)])
def test_hand_and_keep_values_equal_the_brute_force(seed: int, turns: int,
                                                    happy_hour: bool) -> None:  # fmt: skip
    game = _position(seed, turns, happy_hour)
    o = outcome_positions(game)
    w = np.random.default_rng(seed).random(o.size)  # any W: the DP must be exact for it
    dp = solve_win_turn(w, o.shows, o.pass_column, o.happy_columns, ROLLS, ROLLS)
    v0, k1, v1, k2 = _brute_force(game, w)
    tables = dice_tables()
    for r, oracle in ((0, v0), (1, v1)):
        fast = hand_values(dp, w, r)
        for hand, value in oracle.items():
            assert fast[tables.hand_index(hand)] == pytest.approx(value, abs=1e-12)
    for r, oracle in ((1, k1), (2, k2)):
        for keep, value in oracle.items():
            assert dp.keep_value[r - 1, tables.keep_index(keep)] == pytest.approx(value, abs=1e-12)
    # the luck of a roll from a keep has mean 0 over the roll's outcomes
    for keep in [(), (6,), (2, 2), (1, 3, 5, 5)]:
        rolls = list(itertools.product(range(1, 7), repeat=5 - len(keep)))
        lucks = [v1[tuple(sorted(keep + r))] - k2[keep] for r in rolls]
        assert np.mean(lucks) == pytest.approx(0.0, abs=1e-12)


@pytest.fixture(scope="module")
def records() -> list[GameRecord]:
    return record_games(["strategic", "ev"], 4, seed=21)


@pytest.fixture(scope="module")
def reviews(records: list[GameRecord]) -> list[GameReview]:
    return [review_game(r, evaluator="network", seed=3, playouts=200) for r in records]


def test_a_turn_adds_up(reviews: list[GameReview]) -> None:
    """Start + luck - the evaluator's losses = the chance after the cell played, every turn."""
    for review in reviews:
        starts = {t: w for t, _, w in review.starts}
        for turn, start in starts.items():
            places = [d for d in review.decisions if d.turn == turn and d.decision == "place"]
            if not places:
                continue
            luck = sum(r.luck for r in review.rolls if r.turn == turn and r.roll)
            lost = sum(d.evaluator_loss for d in review.decisions if d.turn == turn)
            assert start + luck - lost == pytest.approx(places[0].played_win, abs=1e-9)


def test_the_figures_are_consistent(records: list[GameRecord], reviews: list[GameReview]) -> None:
    for record, review in zip(records, reviews, strict=True):
        assert len(review.starts) == len(record.turns)
        assert review.luck(0) == pytest.approx(-review.luck(1))  # two players: zero-sum
        expected = sum(min(len(t.rolls), ROLLS - 1) + (t.cell is not None) for t in record.turns)
        assert len(review.decisions) == expected
        for d in review.decisions:
            assert 0.0 <= d.low <= d.loss <= d.high + 1e-12
            assert d.played_win <= d.best_win + 1e-12
            assert d.options > 1 or d.forced
            if d.mark:
                assert d.clear
                assert d.checked > 0
                assert mark_of(d.low) == mark_of(d.high) == d.mark
            if d.checked:
                assert not d.forced
                assert d.evaluator_loss >= MARKS[-1][0]
        for s in review.seats:
            m = review.summary(s)
            assert m.decisions == sum(d.seat == s for d in review.decisions)
            assert m.unforced == sum(d.seat == s and not d.forced for d in review.decisions)
            assert m.luck_adjusted == pytest.approx(m.result - m.luck)
            assert m.doubtful + m.bad + m.very_bad == sum(
                bool(d.mark) for d in review.decisions if d.seat == s
            )
        text = annotated_text(review)
        assert text.count("\n") + 1 == 5 + len(review.seats) + len(review.rolls) + len(
            review.decisions
        ) + len(review.positions)
        assert len(review.positions) == len(review.starts)
        data = review.to_dict()
        assert {"summary", "decisions", "rolls", "starts", "positions"} <= set(data)


def test_the_same_seed_whatever_the_workers(records: list[GameRecord],
                                            reviews: list[GameReview]) -> None:  # fmt: skip
    again = review_game(records[0], evaluator="network", seed=3, playouts=200, workers=1)
    assert again == reviews[0]
    other = review_game(records[0], evaluator="network", seed=4, playouts=200)
    # the evaluator's figures do not depend on the seed; clear decisions keep their marks
    for a, b in zip(reviews[0].decisions, other.decisions, strict=True):
        assert a.evaluator_loss == b.evaluator_loss
        if a.clear and b.clear and a.checked and b.checked:
            assert a.mark == b.mark


def test_one_seat_is_the_same_as_in_the_whole_review(
    records: list[GameRecord], reviews: list[GameReview]
) -> None:
    one = review_game(records[1], evaluator="network", seed=3, playouts=200, seats=[1])
    assert one.decisions == tuple(d for d in reviews[1].decisions if d.seat == 1)
    assert one.rolls == reviews[1].rolls  # every seat's luck, whatever the seats reviewed


def test_forced_and_rates_and_ladder() -> None:
    assert MARKS[0][0] <= FORCED
    assert mark_of(0.0199) == ""
    assert mark_of(0.02) == "?!"
    assert mark_of(0.05) == "?"
    assert mark_of(0.3) == "??"
    rate, low, high = error_rate(np.array([0.0, 0.01, 0.02]))
    assert rate == pytest.approx(10.0)
    assert low < rate < high
    assert np.isnan(error_rate(np.array([]))[0])
    assert rating(1000.0).startswith("worse than random")
    assert rating(float("nan")) == "no unforced decision"
    words = [rating(x) for x in (100, 50, 20, 10, 5, 1)]
    assert all(w.startswith(("like", "between", "better", "worse")) for w in words)
