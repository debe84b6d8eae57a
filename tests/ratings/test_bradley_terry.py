"""The Bradley–Terry fit against slow oracles, on synthetic results."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy.optimize import minimize

from pinastats.ratings import ELO_PER_NAT, RatingError, fit_bradley_terry
from pinastats.ratings.bradley_terry import log_likelihood, place_against


def _nll_reduced(x: np.ndarray, w: np.ndarray) -> float:
    """The negative log-likelihood with agent 0 at 0, written out pair by pair."""
    theta = np.concatenate([[0.0], x])
    total = 0.0
    for i, j in itertools.permutations(range(len(w)), 2):
        total -= w[i, j] * math.log(1.0 / (1.0 + math.exp(-(theta[i] - theta[j]))))
    return total


def _nll_gradient(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Its gradient, pair by pair."""
    theta = np.concatenate([[0.0], x])
    grad = np.zeros(len(w))
    for i, j in itertools.permutations(range(len(w)), 2):
        p = 1.0 / (1.0 + math.exp(-(theta[i] - theta[j])))
        grad[i] -= w[i, j] * (1 - p)
        grad[j] += w[i, j] * (1 - p)
    return grad[1:]


def _oracle(w: np.ndarray) -> np.ndarray:
    """The MLE by a general-purpose optimiser (agent 0 at 0)."""
    done = minimize(_nll_reduced, np.zeros(len(w) - 1), args=(w,), jac=_nll_gradient,
                    method="BFGS", options={"gtol": 1e-9})  # fmt: skip
    assert np.abs(_nll_gradient(done.x, w)).max() < 1e-6, done.message
    return np.concatenate([[0.0], done.x])


def _numeric_hessian(x: np.ndarray, w: np.ndarray, h: float = 1e-4) -> np.ndarray:
    """The NLL's Hessian by central differences (the oracle of the covariance)."""
    n = len(x)
    hess = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            e_i, e_j = np.eye(n)[i] * h, np.eye(n)[j] * h
            hess[i, j] = (
                _nll_reduced(x + e_i + e_j, w) - _nll_reduced(x + e_i - e_j, w)
                - _nll_reduced(x - e_i + e_j, w) + _nll_reduced(x - e_i - e_j, w)
            ) / (4 * h * h)  # fmt: skip
    return hess


def _random_points(rng: np.random.Generator, n: int) -> np.ndarray:
    """Win counts of a full round-robin with 5 to 40 games a pair, every agent winning some."""
    theta = rng.normal(0, 1, n)
    w = np.zeros((n, n))
    for i, j in itertools.combinations(range(n), 2):
        games = int(rng.integers(5, 41))
        wins = rng.binomial(games, 1 / (1 + math.exp(-(theta[i] - theta[j]))))
        wins = min(max(wins, 1), games - 1)  # both sides score: the MLE is finite
        w[i, j], w[j, i] = wins, games - wins
    return w


@pytest.mark.parametrize("seed", range(5))
def test_fit_matches_a_general_optimiser_and_a_numeric_hessian(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 6))
    w = _random_points(rng, n)
    if rng.random() < 0.5:  # some draws: half a point each way
        w += np.where(np.eye(n) == 1, 0.0, 0.5)
    names = [f"agent{i}" for i in range(n)]
    fit = fit_bradley_terry(names, w, anchor="agent0")
    oracle = _oracle(w)
    np.testing.assert_allclose(fit.strength, oracle, atol=1e-5)
    cov = np.linalg.inv(_numeric_hessian(oracle[1:], w))
    np.testing.assert_allclose(fit.covariance[1:, 1:], cov, rtol=1e-3, atol=1e-6)
    assert fit.covariance[0].tolist() == [0.0] * n  # the anchor is exact
    assert fit.log_likelihood == pytest.approx(-_nll_reduced(oracle[1:], w), abs=1e-6)


def test_grid_search_oracle_for_three_agents() -> None:
    """An exhaustive grid around the optimum finds no better point than the fit."""
    w = np.array([[0, 12, 3], [8, 0, 7], [2, 9, 0]], dtype=float)
    fit = fit_bradley_terry(["a", "b", "c"], w, anchor="a")
    grid = np.linspace(-3, 3, 241)
    best = max((log_likelihood(np.array([0.0, x, y]), w), x, y) for x in grid for y in grid)
    assert fit.log_likelihood >= best[0] - 1e-12
    assert abs(fit.strength[1] - best[1]) <= 0.025
    assert abs(fit.strength[2] - best[2]) <= 0.025


def test_two_agents_closed_form() -> None:
    """With two agents the MLE is the log-odds and its variance 1/(n p (1-p))."""
    fit = fit_bradley_terry(["a", "b"], [[0, 30], [10, 0]])
    assert fit.anchor is None
    gap = fit.strength[0] - fit.strength[1]
    assert gap == pytest.approx(math.log(3))
    var_gap = fit.covariance[0, 0] + fit.covariance[1, 1] - 2 * fit.covariance[0, 1]
    assert var_gap == pytest.approx(1 / (40 * 0.75 * 0.25))
    assert fit.strength.sum() == pytest.approx(0)  # mean anchoring
    low, mid, high = fit.difference("a", "b")
    assert mid == pytest.approx(math.log(3) * ELO_PER_NAT)
    assert high - mid == pytest.approx(mid - low)
    assert (high - mid) / ELO_PER_NAT == pytest.approx(1.959964 * math.sqrt(var_gap), rel=1e-6)


def test_anchors_shift_but_keep_the_differences() -> None:
    w = _random_points(np.random.default_rng(7), 4)
    names = ["w", "x", "y", "z"]
    by_mean = fit_bradley_terry(names, w)
    by_y = fit_bradley_terry(names, w, anchor="y")
    assert by_y.strength[2] == 0
    assert by_y.se[2] == 0
    np.testing.assert_allclose(by_mean.strength - by_mean.strength[2], by_y.strength, atol=1e-9)
    assert by_mean.difference("w", "z") == pytest.approx(by_y.difference("w", "z"))
    table = by_y.ratings()
    assert list(table["elo"]) == sorted(table["elo"], reverse=True)
    assert set(table.columns) >= {"agent", "elo", "elo_low", "elo_high", "games", "wins", "score"}


def test_recovers_known_strengths_with_honest_intervals() -> None:
    """Simulated Bernoulli games: the estimates near the truth, the 95% intervals cover it
    about 95% of the time (loosely: 88% to 99.5% of 300 intervals)."""
    rng = np.random.default_rng(2024)
    truth = np.array([0.0, 0.4, 1.0, 1.3, 2.5])
    names = list("abcde")
    covered = total = 0
    errors = []
    for _ in range(60):
        w = np.zeros((5, 5))
        for i, j in itertools.combinations(range(5), 2):
            wins = rng.binomial(200, 1 / (1 + math.exp(-(truth[i] - truth[j]))))
            w[i, j], w[j, i] = wins, 200 - wins
        fit = fit_bradley_terry(names, w, anchor="a")
        ratings = fit.ratings().set_index("agent")
        for k, name in enumerate(names[1:], start=1):
            low, high = ratings.loc[name, "elo_low"], ratings.loc[name, "elo_high"]
            covered += low <= truth[k] * ELO_PER_NAT <= high
            total += 1
        errors.append(fit.strength - truth)
    assert 0.88 <= covered / total <= 0.995
    assert np.abs(np.mean(errors, axis=0)).max() < 0.05  # no visible bias at 200 games a pair


def test_prior_makes_a_perfect_record_finite_and_shrinks() -> None:
    w = np.array([[0, 10, 8], [0, 0, 6], [0, 4, 0]], dtype=float)
    names = ["top", "mid", "low"]
    with pytest.raises(RatingError, match="'top' never lost"):
        fit_bradley_terry(names, w)
    weak = fit_bradley_terry(names, w, prior=1)
    strong = fit_bradley_terry(names, w, prior=10)
    assert np.isfinite(weak.strength).all()
    assert weak.prior == 1
    assert np.ptp(strong.strength) < np.ptp(weak.strength)
    # the prior is the MLE of the counts plus the drawn games
    plus = w + 0.5 * (np.ones((3, 3)) - np.eye(3))
    np.testing.assert_allclose(weak.strength, fit_bradley_terry(names, plus).strength, atol=1e-9)
    # the table still reports the games actually played
    assert weak.ratings().set_index("agent").loc["top", "wins"] == 18


@pytest.mark.parametrize(
    ("names", "points", "message"),
    [
        (["a"], [[0]], "at least 2 agents"),
        (["a", "a"], [[0, 1], [1, 0]], "named twice: a"),
        (["a", ""], [[0, 1], [1, 0]], "non-empty strings"),
        (["a", "b"], [[0, 1, 0], [1, 0, 0]], "2 x 2 table"),
        (["a", "b"], [[0, -1], [1, 0]], ">= 0"),
        (["a", "b"], [[0, math.nan], [1, 0]], "finite"),
        (["a", "b"], [[1, 1], [1, 0]], "against itself"),
        (["a", "b"], [[0, 0], [0, 0]], "2 groups that never played each other"),
        (
            ["a", "b", "c", "d"],
            [[0, 3, 0, 0], [2, 0, 0, 0], [0, 0, 0, 1], [0, 0, 4, 0]],
            r"\{a, b\}; \{c, d\}",
        ),
        (["a", "b", "c"], [[0, 0, 1], [5, 0, 5], [1, 0, 0]], "'b' never lost"),
        (["a", "b", "c"], [[0, 2, 0], [3, 0, 0], [4, 4, 0]], "'c' never lost"),
        (["a", "b", "c"], [[0, 2, 3], [3, 0, 1], [0, 0, 0]], "'c' never won"),
        (
            ["a", "b", "c", "d"],
            [[0, 2, 1, 1], [3, 0, 1, 1], [0, 0, 0, 2], [0, 0, 2, 0]],
            r"group \{a, b\} never lost",
        ),
    ],
)
def test_refusals(names: list[str], points: list[list[float]], message: str) -> None:
    with pytest.raises(RatingError, match=message):
        fit_bradley_terry(names, points)


def test_bad_anchor_and_prior() -> None:
    with pytest.raises(RatingError, match="anchor 'x' is no agent"):
        fit_bradley_terry(["a", "b"], [[0, 1], [1, 0]], anchor="x")
    for prior in (-1, math.inf, True, "1"):
        with pytest.raises(RatingError, match="prior must be"):
            fit_bradley_terry(["a", "b"], [[0, 1], [1, 0]], prior=prior)  # type: ignore[arg-type]
    # disconnected is refused even with a prior: no drawn games join groups that never met
    with pytest.raises(RatingError, match="never played each other"):
        fit_bradley_terry(["a", "b"], [[0, 0], [0, 0]], prior=1)


def test_goodness_of_fit_is_the_likelihood_ratio_to_one_rate_per_pair() -> None:
    w = np.array([[0, 12, 3], [8, 0, 7], [2, 9, 0]], dtype=float)
    fit = fit_bradley_terry(["a", "b", "c"], w)
    deviance, df, p = fit.goodness_of_fit()
    saturated = sum(
        w[i, j] * math.log(w[i, j] / (w[i, j] + w[j, i]))
        for i, j in itertools.permutations(range(3), 2)
        if w[i, j] > 0
    )
    assert deviance == pytest.approx(2 * (saturated - fit.log_likelihood))
    assert df == 1
    assert 0 < p < 1
    # a cycle (a beats b beats c beats a) fits badly; a transitive table fits well
    cycle = fit_bradley_terry(["a", "b", "c"], [[0, 90, 10], [10, 0, 90], [90, 10, 0]])
    assert cycle.goodness_of_fit()[2] < 1e-6
    two = fit_bradley_terry(["a", "b"], [[0, 3], [1, 0]])
    assert two.goodness_of_fit()[1] == 0
    assert math.isnan(two.goodness_of_fit()[2])


def test_a_newcomer_placed_on_fixed_ratings_gets_the_elo_its_scores_imply() -> None:
    low, elo, high = place_against({"a": 100.0}, [("a", 76, 100)])
    assert elo == pytest.approx(100.0 + 400 * math.log10(76 / 24))
    assert low < elo < high
    # scores that are exactly what a rating of 300 predicts give back 300
    ratings = {"a": 0.0, "b": 250.0, "c": 500.0}
    results = [(k, 1000 / (1 + 10 ** ((v - 300) / 400)), 1000) for k, v in ratings.items()]
    narrow = place_against(ratings, results)
    assert narrow[1] == pytest.approx(300.0)
    wider = place_against(ratings, [(k, p / 10, 100) for k, p, _ in results])
    assert wider[1] == pytest.approx(300.0)
    assert wider[2] - wider[0] > narrow[2] - narrow[0]  # fewer games, a wider interval
    with pytest.raises(RatingError, match="won or lost every game"):
        place_against({"a": 0.0}, [("a", 10, 10)])
    with pytest.raises(RatingError, match="no agent 'z'"):
        place_against({"a": 0.0}, [("z", 1, 2)])
