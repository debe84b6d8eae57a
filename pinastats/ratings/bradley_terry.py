"""The Bradley–Terry model fitted by maximum likelihood, with Wald intervals.

Model: agent ``i`` has a strength ``θ_i`` (natural-log scale) and beats ``j``
with probability ``p_ij = 1 / (1 + exp(-(θ_i - θ_j)))``. A drawn game counts
half a win to each side. With ``w_ij`` the points of ``i`` against ``j`` and
``n_ij = w_ij + w_ji`` their games, the log-likelihood is

    ℓ(θ) = Σ_{i<j} [ w_ij (θ_i - θ_j) - n_ij log(1 + exp(θ_i - θ_j)) ]

Its gradient is ``g_i = Σ_j (w_ij - n_ij p_ij)`` and its Hessian ``-L``, where
``L`` is the Laplacian of the comparison graph weighted by ``n_ij p_ij (1 - p_ij)``
(the observed Fisher information; with the logistic link it equals the expected
one). ``ℓ`` only sees differences, so one strength is held at 0 while Newton
steps ``δ = L⁻¹ g`` (on the other coordinates, halved while ``ℓ`` falls) climb
the concave ``ℓ``; the covariance of the MLE is ``L⁻¹`` there (0 for the held
one), and re-anchoring is a linear map ``A`` (``θ - θ_anchor``, or ``θ - mean θ``)
taking the covariance to ``A C Aᵀ``. The 95% interval of a strength is
``θ ± 1.96 se`` (Wald), relative to the anchor: the anchor's own interval is
its single point when one agent is the anchor. Elo: ``400 · log10(e) · θ``.

The MLE is finite only when no group of agents never loses to the others (in
graph terms: "i scored against j" edges make the agents one strongly connected
component; Zermelo, Ford). Otherwise :func:`fit_bradley_terry` refuses and names
the group, unless ``prior > 0``: ``prior`` drawn games are then added to every pair
that played (half a point each way), which pulls the strengths of a pair toward each
other like a weak prior and makes the estimate (a posterior mode) always finite.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from pinastats._stats import Z95
from pinastats.errors import PinastatsError

ELO_PER_NAT = 400.0 / math.log(10.0)
"""Elo points per unit of natural-log strength (≈ 173.7): Elo = 400 · log10(odds)."""
MAX_ITERATIONS = 200


class RatingError(PinastatsError):
    """Results that cannot be rated (too few agents, a disconnected graph, an MLE at infinity)."""


@dataclass(frozen=True)
class BradleyTerryFit:
    """A fitted ladder: ``strength[i]`` of ``names[i]`` (log-odds scale) and its covariance.

    ``points[i, j]``: the points ``i`` scored against ``j`` (wins + half the draws),
    before any prior; ``anchor``: the agent held at 0, or None (the strengths sum to 0).
    """

    names: tuple[str, ...]
    strength: np.ndarray
    covariance: np.ndarray
    points: np.ndarray
    anchor: str | None
    prior: float
    iterations: int
    log_likelihood: float

    @property
    def se(self) -> np.ndarray:
        """Standard errors of the strengths (0 for the anchor)."""
        return np.sqrt(np.maximum(np.diag(self.covariance), 0.0))

    @property
    def elo(self) -> np.ndarray:
        """The strengths on the Elo scale (400 Elo = odds of 10 to 1)."""
        return self.strength * ELO_PER_NAT

    def index(self, name: str) -> int:
        """The position of agent ``name``."""
        try:
            return self.names.index(name)
        except ValueError:
            raise RatingError(
                f"no agent {name!r} in the ladder ({', '.join(self.names)})"
            ) from None

    def win_probability(self, a: str, b: str) -> float:
        """The fitted chance that ``a`` beats ``b`` (a draw counting half)."""
        d = self.strength[self.index(a)] - self.strength[self.index(b)]
        return float(1.0 / (1.0 + math.exp(-d)))

    def difference(self, a: str, b: str, z: float = Z95) -> tuple[float, float, float]:
        """Elo of ``a`` minus Elo of ``b`` and its Wald interval (low, estimate, high)."""
        i, j = self.index(a), self.index(b)
        c = self.covariance
        d = float(self.strength[i] - self.strength[j])
        se = math.sqrt(max(c[i, i] + c[j, j] - 2 * c[i, j], 0.0))
        return ((d - z * se) * ELO_PER_NAT, d * ELO_PER_NAT, (d + z * se) * ELO_PER_NAT)

    def goodness_of_fit(self) -> tuple[float, int, float]:
        """Deviance of the games from the model, its degrees of freedom and p-value.

        ``D = 2 Σ w_ij log(w_ij / (n_ij p_ij))`` over ordered pairs (``0 log 0 = 0``):
        twice the log-likelihood the model gives up against one free rate per pair,
        about χ² with (pairs played) − (agents − 1) degrees of freedom when the
        model holds. A small p-value says the pairs are not one-dimensional (e.g.
        an agent beating one stronger than its victim's victor).
        """
        from scipy.stats import chi2

        w = self.points
        games = w + w.T
        d = self.strength[:, None] - self.strength[None, :]
        expected = games / (1.0 + np.exp(-d))
        ratio = np.divide(w, expected, out=np.ones_like(w), where=w > 0)
        deviance = float(2.0 * (w * np.log(ratio)).sum())
        df = int(np.count_nonzero(np.triu(games, 1))) - (len(self.names) - 1)
        p = float(chi2.sf(deviance, df)) if df > 0 else math.nan
        return deviance, df, p

    def ratings(self, z: float = Z95) -> pd.DataFrame:
        """One row per agent, strongest first.

        Columns: ``agent``, ``elo`` with ``elo_low``/``elo_high`` (the 95% Wald
        interval), ``strength`` (log-odds) and ``se``, ``games``, ``wins``
        (points: draws count half), ``score`` (points / games).
        """
        se = self.se
        games = (self.points + self.points.T).sum(axis=1)
        wins = self.points.sum(axis=1)
        frame = pd.DataFrame(
            {
                "agent": list(self.names),
                "elo": self.elo,
                "elo_low": (self.strength - z * se) * ELO_PER_NAT,
                "elo_high": (self.strength + z * se) * ELO_PER_NAT,
                "strength": self.strength,
                "se": se,
                "games": games,
                "wins": wins,
                "score": np.divide(wins, games, out=np.full(len(games), np.nan), where=games > 0),
            }
        )
        return frame.sort_values("elo", ascending=False, kind="stable").reset_index(drop=True)


def log_likelihood(strength: np.ndarray, points: np.ndarray) -> float:
    """``ℓ(θ)`` of the module docstring for ``points[i, j]`` (i's points against j)."""
    d = strength[:, None] - strength[None, :]
    # points[i, j] * log p_ij summed over ordered pairs, p_ij = sigmoid(d_ij)
    return float(-(points * np.logaddexp(0.0, -d)).sum())


def fit_bradley_terry(
    names: Sequence[str],
    points: np.ndarray | Sequence[Sequence[float]],
    *,
    anchor: str | None = None,
    prior: float = 0.0,
    tolerance: float = 1e-10,
) -> BradleyTerryFit:
    """Fit the Bradley–Terry strengths of ``names`` to ``points`` (module docstring).

    ``points[i][j]``: the points agent ``i`` scored against agent ``j`` (a win 1,
    a draw 1/2 to each side), so ``points[i][j] + points[j][i]`` games were
    played between them. ``anchor``: the agent rated 0 (None: the strengths
    average 0). ``prior``: drawn games added to every pair that played (0: the
    plain MLE, refused when it is infinite).

    >>> fit = fit_bradley_terry(["a", "b"], [[0, 30], [10, 0]], anchor="b")
    >>> round(float(fit.strength[0]), 4), round(fit.win_probability("a", "b"), 2)
    (1.0986, 0.75)
    """
    labels = check_names(names)
    w = _check_points(points, len(labels))
    if anchor is not None and anchor not in labels:
        raise RatingError(f"anchor {anchor!r} is no agent of the ladder ({', '.join(labels)})")
    if isinstance(prior, bool) or not isinstance(prior, int | float) or not 0 <= prior < math.inf:
        raise RatingError(f"prior must be a number of drawn games >= 0, got {prior!r}")
    games = w + w.T
    check_connected(labels, games)
    fitted = w + (games > 0) * (prior / 2.0)
    if prior == 0:
        _check_finite(labels, w)
    theta, cov, iterations = _newton(fitted, tolerance)
    n = len(labels)
    a = np.eye(n) - (
        np.full((n, n), 1.0 / n)
        if anchor is None
        else np.outer(np.ones(n), np.eye(n)[labels.index(anchor)])
    )
    theta = a @ theta
    return BradleyTerryFit(
        names=labels,
        strength=theta,
        covariance=a @ cov @ a.T,
        points=w,
        anchor=anchor,
        prior=float(prior),
        iterations=iterations,
        log_likelihood=log_likelihood(theta, fitted),
    )


def _newton(w: np.ndarray, tolerance: float) -> tuple[np.ndarray, np.ndarray, int]:
    """The MLE with strength 0 held at 0, its covariance ``L⁻¹`` (0 row/column 0), iterations."""
    n = len(w)
    games = w + w.T
    theta = np.zeros(n)
    scale = max(1.0, float(games.sum()))
    current = log_likelihood(theta, w)
    iteration = 0
    while iteration < MAX_ITERATIONS:
        iteration += 1
        info = _information(theta, games)
        p = 1.0 / (1.0 + np.exp(-(theta[:, None] - theta[None, :])))
        grad = (w - games * p).sum(axis=1)
        step = np.zeros(n)
        step[1:] = np.linalg.solve(info[1:, 1:], grad[1:])
        t = 1.0
        while True:  # ℓ is concave: a short enough Newton step never lowers it
            trial = theta + t * step
            value = log_likelihood(trial, w)
            if value >= current - 1e-12 * scale or t < 1e-8:
                break
            t /= 2
        theta, current = trial, value
        if np.abs(grad[1:]).max() < tolerance * scale and np.abs(t * step).max() < 1e-9:
            break
    else:  # pragma: no cover - Newton on a strictly concave ℓ converges in tens of steps
        raise RatingError(f"the Bradley–Terry fit did not converge in {MAX_ITERATIONS} steps")
    cov = np.zeros((n, n))
    cov[1:, 1:] = np.linalg.inv(_information(theta, games)[1:, 1:])
    return theta, cov, iteration


def _information(theta: np.ndarray, games: np.ndarray) -> np.ndarray:
    """The Fisher information ``L``: the Laplacian weighted by ``n_ij p_ij (1 - p_ij)``."""
    p = 1.0 / (1.0 + np.exp(-(theta[:, None] - theta[None, :])))
    weight = games * p * (1.0 - p)
    np.fill_diagonal(weight, 0.0)
    info: np.ndarray = np.diag(weight.sum(axis=1)) - weight
    return info


# ---------------------------------------------------------------- checks


def check_names(names: Sequence[str]) -> tuple[str, ...]:
    """The agents' names as a tuple: at least 2, non-empty, each once (else a RatingError)."""
    if isinstance(names, str) or not all(isinstance(x, str) and x for x in names):
        raise RatingError(f"agent names must be a list of non-empty strings, got {names!r}")
    labels = tuple(names)
    if len(labels) < 2:
        raise RatingError(f"a ladder needs at least 2 agents, got {len(labels)}: {list(labels)}")
    twice = sorted({x for x in labels if labels.count(x) > 1})
    if twice:
        raise RatingError(f"each agent is named once in a ladder; named twice: {', '.join(twice)}")
    return labels


def _check_points(points: np.ndarray | Sequence[Sequence[float]], n: int) -> np.ndarray:
    try:
        w = np.array(points, dtype=float)
    except (TypeError, ValueError):
        raise RatingError(f"points must be an {n} x {n} table of numbers") from None
    if w.shape != (n, n):
        raise RatingError(
            f"points must be an {n} x {n} table (one row per agent), got shape {w.shape}"
        )
    if not np.isfinite(w).all() or (w < 0).any():
        raise RatingError("points must be finite numbers >= 0 (a win 1, a draw 1/2 to each side)")
    if np.diag(w).any():
        raise RatingError(
            "an agent plays no games against itself: the diagonal of points must be 0"
        )
    return w


def _components(n: int, edges: np.ndarray) -> list[list[int]]:
    """Strongly connected components of the graph ``i -> j`` when ``edges[i, j]`` (Kosaraju)."""
    order: list[int] = []
    seen = [False] * n

    def visit(start: int, adjacency: np.ndarray, out: list[int]) -> None:
        stack = [(start, 0)]
        seen[start] = True
        while stack:
            node, k = stack.pop()
            nexts = np.flatnonzero(adjacency[node])
            for m in nexts[k:]:
                k += 1
                if not seen[m]:
                    stack.append((node, k))
                    stack.append((int(m), 0))
                    seen[m] = True
                    break
            else:
                out.append(node)

    for i in range(n):
        if not seen[i]:
            visit(i, edges, order)
    seen = [False] * n
    groups: list[list[int]] = []
    for i in reversed(order):
        if not seen[i]:
            group: list[int] = []
            visit(i, edges.T, group)
            groups.append(sorted(group))
    return groups


def check_connected(labels: tuple[str, ...], games: np.ndarray) -> None:
    """Refuse games (``games[i, j]`` between i and j) that leave groups never playing each other."""
    groups = sorted(_components(len(labels), games > 0))
    if len(groups) > 1:
        shown = "; ".join("{" + ", ".join(labels[i] for i in g) + "}" for g in groups)
        raise RatingError(
            f"the agents fall into {len(groups)} groups that never played each other ({shown}): "
            "no common scale rates them; schedule games between the groups"
        )


def _check_finite(labels: tuple[str, ...], w: np.ndarray) -> None:
    """Refuse when the MLE is infinite: some group never loses (or never wins) to the rest."""
    games = w + w.T
    for i, name in enumerate(labels):
        played = round(float(games[i].sum()))
        if w[i].sum() == 0:
            raise RatingError(
                f"agent {name!r} never won (0 points in its {played} games): its maximum-"
                "likelihood strength is minus infinity; play more games or give a prior "
                "(e.g. prior=1: one drawn game added to each pair that played)"
            )
        if w[:, i].sum() == 0:
            raise RatingError(
                f"agent {name!r} never lost (all {played} of its games won): its maximum-"
                "likelihood strength is infinite; play more games or give a prior "
                "(e.g. prior=1: one drawn game added to each pair that played)"
            )
    groups = _components(len(labels), w > 0)
    if len(groups) > 1:
        # a group no outsider ever scored against never loses to the rest
        top = next(
            g
            for g in groups
            if not (w[np.ix_([i for i in range(len(labels)) if i not in g], g)] > 0).any()
        )
        raise RatingError(
            "the group {" + ", ".join(labels[i] for i in top) + "} never lost a game to the "
            "other agents: the maximum-likelihood gap to them is infinite; play more games or "
            "give a prior (e.g. prior=1: one drawn game added to each pair that played)"
        )


def place_against(
    ratings: dict[str, float], results: Sequence[tuple[str, float, int]], z: float = Z95
) -> tuple[float, float, float]:
    """A newcomer's Elo on a fitted ladder from its games against the ladder's agents.

    ``ratings``: each opponent's Elo, held fixed; ``results``: ``(opponent,
    points, games)`` of the newcomer (points: wins + half the draws). The
    maximum-likelihood strength ``θ`` of the module's model with the others
    fixed solves ``Σ (w_j − n_j p_j) = 0``; its Wald interval uses the Fisher
    information ``Σ n_j p_j (1 − p_j)`` (the opponents' own uncertainty is not in
    it). Returns ``(low, elo, high)``. Refuses a newcomer that won or lost every
    game (no finite estimate).
    """
    rows = []
    for name, points, games in results:
        if name not in ratings:
            raise RatingError(f"no agent {name!r} in the ladder ({', '.join(ratings)})")
        if games < 1 or not 0 <= points <= games:
            raise RatingError(f"against {name!r}: {points!r} points in {games!r} games")
        rows.append((ratings[name] / ELO_PER_NAT, float(points), float(games)))
    won, played = sum(r[1] for r in rows), sum(r[2] for r in rows)
    if not rows or won in (0.0, played):
        raise RatingError("a newcomer that won or lost every game has no finite rating")
    theta = float(np.mean([r[0] for r in rows]))
    for _ in range(MAX_ITERATIONS):
        p = [1.0 / (1.0 + math.exp(-(theta - t))) for t, _, _ in rows]
        grad = sum(w - n * q for (_, w, n), q in zip(rows, p, strict=True))
        info = sum(n * q * (1 - q) for (_, _, n), q in zip(rows, p, strict=True))
        step = grad / info
        theta += step
        if abs(step) < 1e-12:
            break
    p = [1.0 / (1.0 + math.exp(-(theta - t))) for t, _, _ in rows]
    se = 1.0 / math.sqrt(sum(n * q * (1 - q) for (_, _, n), q in zip(rows, p, strict=True)))
    return ((theta - z * se) * ELO_PER_NAT, theta * ELO_PER_NAT, (theta + z * se) * ELO_PER_NAT)
