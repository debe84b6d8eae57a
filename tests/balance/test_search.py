"""The starting-score search: candidates, intervals, elimination, reproducibility."""

from __future__ import annotations

import io
import itertools
import math
from typing import Any

import numpy as np
import pytest

from pinastats.balance import search
from pinastats.balance.search import planted_play, search_starting_scores
from pinastats.balance.seats import SeatCounts, SelfPlay, candidate_vectors, joint_z
from pinastats.errors import PinastatsError


@pytest.mark.parametrize(("players", "spread"), [(2, 4), (3, 4), (4, 3)])
def test_candidates_are_the_non_decreasing_vectors(players: int, spread: int) -> None:
    vectors = candidate_vectors(players, first=1, spread=spread)
    assert len(vectors) == math.comb(spread + players - 1, players - 1)
    assert len(set(vectors)) == len(vectors)
    for v in vectors:
        assert v[0] == 1
        assert all(1 <= a <= b <= 1 + spread for a, b in itertools.pairwise(v))
        assert max(v) <= 1 + spread


def test_deviation_interval_brackets_the_estimate() -> None:
    counts = SeatCounts((1, 2, 3), 0, (0, 0, 0)).add(3000, np.array([1100, 1000, 880]))
    lo, hi = counts.deviation_interval()
    assert counts.deviation == pytest.approx(abs(880 / 3000 - 1 / 3))
    assert lo <= counts.deviation <= hi
    assert joint_z(3) > 1.96  # joint intervals are wider than one seat's


@pytest.mark.parametrize("planted", [(1, 3), (1, 1, 3), (1, 2, 2, 4)])
def test_the_search_finds_a_planted_fair_vector(planted: tuple[int, ...]) -> None:
    n = len(planted)
    result = search_starting_scores(
        n, play=planted_play(planted), budget=40_000 * n, first_round=500, seed=11
    )
    assert result.fairest.starting_scores == planted
    assert result.within_precision
    assert result.fairest.dropped_after is None
    assert result.games <= 40_000 * n


def test_the_true_best_is_never_dropped_among_close_rivals() -> None:
    # slope 0.05: the nearest rivals are 3.3 pp worse, most of them kept for a few rounds
    planted = (1, 2, 3)
    for seed in range(8):
        result = search_starting_scores(
            3,
            play=planted_play(planted, slope=0.05),
            budget=150_000,
            first_round=300,
            seed=seed,
            spread=3,
        )
        best = next(c for c in result.candidates if c.starting_scores == planted)
        assert best.dropped_after is None, seed
        assert any(c.dropped_after is not None for c in result.candidates)


def test_same_seed_same_answer_and_another_seed_other_games() -> None:
    play = planted_play((1, 2, 2, 4))
    a = search_starting_scores(4, play=play, budget=50_000, first_round=400, seed=5)
    b = search_starting_scores(4, play=play, budget=50_000, first_round=400, seed=5)
    c = search_starting_scores(4, play=play, budget=50_000, first_round=400, seed=6)
    assert a.to_dict() == b.to_dict()
    assert a.to_dict()["fairest"]["seat_wins"] != c.to_dict()["fairest"]["seat_wins"]


def test_the_rulebook_plays_every_round() -> None:
    result = search_starting_scores(
        3, play=planted_play((1, 1, 4)), budget=30_000, first_round=300, seed=1
    )
    most = max(c.counts.games for c in result.candidates)
    assert result.rulebook.starting_scores == (1, 2, 3)
    assert result.rulebook.counts.games == most


def test_self_play_search_is_reproducible_whatever_the_workers() -> None:
    def run(workers: int) -> dict[str, object]:
        return search_starting_scores(
            2, agent="greedy", budget=1_200, first_round=200, seed=3, spread=2, workers=workers
        ).to_dict()

    one, two = run(1), run(2)
    assert one == two
    frame = search_starting_scores(
        2, agent="greedy", budget=1_200, first_round=200, seed=3, spread=2, workers=1
    ).frame()
    assert list(frame["role"][:2]) == ["rulebook", "fairest"]
    assert (frame["seat_1_ci_low"] <= frame["seat_1_win_rate"]).all()


def test_self_play_counts_the_wins_of_each_seat() -> None:
    wins = SelfPlay(3, "greedy", workers=1)((1, 2, 3), 300, 0)
    assert wins.shape == (3,)
    assert 0 < wins.sum() <= 300


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 5}, "players must be 2, 3 or 4, got 5"),
        ({"players": 2, "budget": 0}, "budget must be a whole number >= 1, got 0"),
        ({"players": 2, "candidates": [(1, 2, 3)]}, "a candidate must be 2 whole numbers"),
        ({"players": 2, "agent": "evv"}, "did you mean 'ev'"),
        (
            {"players": 2, "spread": 1_000_000},
            "spread=1,000,000 makes 1,000,001 starting-score vectors for 2 players, more than a "
            "search tries (at most 5,000): give a spread of at most 4,999",
        ),
        (
            {"players": 4, "spread": 1000, "budget": 10**12},
            "167,668,501 starting-score vectors for 4 players, more than a search tries (at "
            "most 5,000): give a spread of at most 29",
        ),
        (
            {"players": 2, "spread": 20, "budget": 10, "first_round": 1},
            "(one game each at least, from a budget of 10 games): give a spread of at most 9",
        ),
        (
            {"players": 2, "candidates": [(1, k) for k in range(5_001)]},
            "5,001 candidates given, more than a search tries (at most 5,000)",
        ),
        ({"players": 2, "budget": 10**16}, "may play 5,000,000,000,001,000 games in one run"),
    ],
)
def test_bad_input_is_named(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(PinastatsError, match=message.replace("(", r"\(").replace(")", r"\)")):
        search_starting_scores(**kwargs)  # type: ignore[arg-type]


def test_a_rigged_seat_is_detected_in_real_games() -> None:
    """Real strategic self-play: seat 2 starting 8 points ahead wins far more than 1/2.

    The search must name that seat (its interval above 1/2), drop the vector
    after the first round, and keep a fair-ish vector in contention instead.
    """
    rigged = (1, 9)
    result = search_starting_scores(
        2, candidates=[(1, 1), rigged], first_round=300, budget=2_400, seed=3, workers=1
    )
    row = next(c for c in result.candidates if c.starting_scores == rigged)
    (_, seat_1_high), (seat_2_low, _) = row.counts.intervals()
    assert seat_2_low > 0.5 > seat_1_high, (row.counts.rates, row.counts.intervals())
    assert row.dropped_after == 0
    assert row.counts.deviation_interval()[0] > 0.05
    assert result.fairest.starting_scores != rigged
    assert result.candidates[-1].starting_scores == rigged


@pytest.mark.parametrize(("budget", "first_round"), [(1_000, 1), (5_000, 10), (123_457, 1_000)])
@pytest.mark.parametrize("planted", [(1, 3), (1, 1), (1, 2, 2, 4)])
def test_no_run_of_a_search_is_larger_than_its_memory_check_assumes(
    budget: int, first_round: int, planted: tuple[int, ...]
) -> None:
    """The memory check takes ``(budget + first_round) // 2`` games as the largest run."""
    play = planted_play(planted, slope=0.2)
    runs: list[int] = []

    def counted(scores: tuple[int, ...], games: int, seed: int) -> Any:
        runs.append(games)
        return play(scores, games, seed)

    search_starting_scores(len(planted), play=counted, budget=budget, first_round=first_round,
                           spread=3)  # fmt: skip
    assert max(runs) <= (budget + first_round) // 2


def test_a_long_round_says_how_far_it_got(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "PROGRESS_EVERY", 0.0)
    said = io.StringIO()
    search_starting_scores(2, play=planted_play((1, 3)), budget=100, first_round=10, spread=3,
                           progress=said)  # fmt: skip
    lines = said.getvalue().splitlines()
    assert lines[:3] == [
        "pinastats: 2 players, round 0: 1 of 4 vectors x 10 games played",
        "pinastats: 2 players, round 0: 2 of 4 vectors x 10 games played",
        "pinastats: 2 players, round 0: 3 of 4 vectors x 10 games played",
    ]
    assert lines[3].startswith("pinastats: 2 players, round 0: 4 vectors x 10 games")
