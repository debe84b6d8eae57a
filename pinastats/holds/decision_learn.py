"""Learn short hold decision lists from the exact optimal keeps, and measure what they lose.

For one decision point (``r`` rolls left) the solver gives every keep's chance
``K_r(k)`` and every hand's best ``V_r(h) = max_k K_r(k)``. A rule applied to
hand ``h`` *loses* ``V_r(h) - min K_r(k)`` over the keeps its wording allows.
Greedy rule induction builds the list: after "if made, stop", it adds the rule
(a condition of a small vocabulary a player can check, and a keep) that matches
the most likely hands not yet decided while losing at most ``tol`` on each of
them, until one keep with no condition is within ``tol`` on every hand left.
With a limit on the rules, the last rule ("otherwise ...") is the keep within
``tol`` on the most hands left; the list then states its *coverage*.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from pinastats._arrays import BoolArray, FloatArray
from pinastats.dice.combinations import Combination, parse_combination
from pinastats.dice.hands import N_DICE, dice_tables, hand_tuples, keep_index_by_dice
from pinastats.dice.solver import TurnSolution
from pinastats.holds.decision_list import (
    Action,
    Check,
    Condition,
    DecisionList,
    Keep,
    Rule,
    _condition_mask,
    _subsets,
)

TOLERANCE = 0.005
"""Largest loss of success chance a rule may have on a hand (0.5 percentage points)."""
MAX_RULES = 7
"""Most rules in a list before it falls back on stated coverage."""

_SETS: tuple[tuple[int, ...], ...] = (
    *((v,) for v in range(1, 7)),
    (3, 4),
    *(tuple(range(1, v + 1)) for v in range(2, 6)),
    *(tuple(range(v, 7)) for v in range(2, 6)),
    (1, 3, 5), (2, 4, 6),
)  # fmt: skip
_WINDOWS: tuple[tuple[int, ...], ...] = ((1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6),
                                         (1, 2, 3, 4, 5), (2, 3, 4, 5, 6))  # fmt: skip


@cache
def keeps_vocabulary() -> tuple[Keep, ...]:
    """Every keep the learner may use, simplest first."""
    out = [Keep(Action.STOP), Keep(Action.REROLL)]
    out += [Keep(Action.FACES, s) for s in _SETS if s != (3, 4)]
    out += [Keep(Action.REPEATED), Keep(Action.LARGEST), Keep(Action.DISTINCT)]
    out += [Keep(Action.ONE_EACH, w) for w in _WINDOWS]
    for n in range(1, N_DICE):
        for lo in range(n, 6 * n + 1):
            for hi in range(lo, min(lo + 4, 6 * n) + 1):
                out.append(Keep(Action.TOTAL, n=n, lo=lo, hi=hi))
    return tuple(out)


@cache
def conditions_vocabulary() -> tuple[Condition, ...]:
    """Every condition the learner may use besides "made" (and a total's own test)."""
    out: list[Condition] = []
    for s in _SETS:
        out += [Condition(Check.AT_LEAST, n, s) for n in range(1, N_DICE + 1)]
        out += [Condition(Check.AT_MOST, n, s) for n in range(N_DICE)]
    for w in _WINDOWS:
        out += [Condition(Check.VALUES, n, w) for n in range(2, len(w) + 1)]
    out += [Condition(Check.GROUP, n) for n in range(2, N_DICE)]
    out += [Condition(Check.NO_GROUP, n) for n in (2, 3)]
    out.append(Condition(Check.TWO_PAIRS))
    return tuple(out)


def _total_test(keep: Keep) -> Condition:
    return Condition(Check.SOME_TOTAL, keep.n, lo=keep.lo, hi=keep.hi)


@cache
def _condition_masks() -> BoolArray:
    """``(conditions, 252)``: condition ``c`` holds for hand ``h``."""
    return np.array([_condition_mask(c) for c in conditions_vocabulary()], dtype=np.bool_)


@cache
def _readings() -> tuple[tuple[tuple[tuple[int, ...], ...], ...], BoolArray]:
    """Per keep and hand, the keep indices of its readings; and where a keep applies."""
    hands, index = hand_tuples(), keep_index_by_dice()
    out = []
    applies = np.ones((len(keeps_vocabulary()), len(hands)), dtype=np.bool_)
    for j, keep in enumerate(keeps_vocabulary()):
        row: tuple[tuple[int, ...], ...]
        if keep.action is Action.TOTAL:  # the readings of the total's test; none where it fails
            lo, hi = keep.lo, keep.hi
            row = tuple(tuple(k for t, k in subs if lo <= t <= hi) for subs in _sub_keeps(keep.n))
            applies[j] = [bool(ks) for ks in row]
        else:
            row = tuple(tuple(map(index.__getitem__, keep._readings(hand))) for hand in hands)
        out.append(row)
    return tuple(out), applies


@cache
def _sub_keeps(n: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per hand, its distinct ``n``-dice keeps in reading order, as ``(total, keep index)``."""
    index = keep_index_by_dice()
    return tuple(tuple((t, index[s]) for s, t in _subsets(d, n)) for d in hand_tuples())


def stage_values(solution: TurnSolution, rolls_left: int) -> tuple[FloatArray, FloatArray]:
    """``K_r`` of the 462 keeps (keeping the hand = stopping: ``f(h)``) and ``V_r`` of the hands."""
    t = dice_tables()
    keep = solution.keep_value[rolls_left - 1]
    best = np.maximum.reduceat(keep[t.hand_keep], t.hand_keep_ptr[:-1].astype(np.intp))
    return np.asarray(keep, dtype=np.float64), best


def _losses(solution: TurnSolution, rolls_left: int) -> FloatArray:
    """``(keeps, 252)`` loss of each vocabulary keep on each hand (inf where it cannot apply)."""
    keep_value, best = stage_values(solution, rolls_left)
    flat, starts = _reading_rows()
    worst = np.minimum.reduceat(keep_value[flat], starts).reshape(-1, len(best))
    loss: FloatArray = best[None, :] - worst
    loss[~_readings()[1]] = np.inf
    return loss


@cache
def _reading_rows() -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """The keep indices of the readings of every (keep, hand), flat, and where each row starts.

    A hand no reading decides (a total whose test fails) gets keep 0; its loss is inf anyway.
    """
    readings, _ = _readings()
    flat = [ks or (0,) for rows in readings for ks in rows]
    starts = np.cumsum([0, *map(len, flat[:-1])], dtype=np.intp)
    return np.fromiter(itertools.chain.from_iterable(flat), dtype=np.intp), starts


@dataclass(frozen=True)
class LearnedList:
    """A learned list with how far it is from optimal play at its decision point.

    Attributes:
        rules: the decision list.
        exact_rules: rules (from the first) within the tolerance on every hand they decide.
        coverage: chance that the hand faced here gets a keep within the tolerance.
    """

    rules: DecisionList
    exact_rules: int
    coverage: float


def learn_list(
    target: Combination | str,
    solution: TurnSolution,
    rolls_left: int,
    weight: FloatArray,
    *,
    tol: float = TOLERANCE,
    max_rules: int = MAX_RULES,
) -> LearnedList:
    """Greedy decision list for one decision point (module docstring).

    ``weight`` is the chance of facing each of the 252 hands at this point. Each
    of the likeliest defaults ("otherwise ...") is tried; its exceptions (hands
    where it loses more than ``tol``) are covered greedily by rules placed
    before it; the shortest list wins, then the one losing least on average.
    """
    comb = parse_combination(target)
    loss = _losses(solution, rolls_left)
    keeps = keeps_vocabulary()
    conditions = conditions_vocabulary()
    rows = _rows()
    w = np.asarray(weight, dtype=np.float64)
    left = ~comb.mask()
    good = loss <= tol
    defaults = [j for j, k in enumerate(keeps) if k.action is not Action.TOTAL]
    defaults.sort(key=lambda j: (-float(w[left & good[j]].sum()), j))
    n_bad = _bad_counts(left, good, rows)
    bad = (_usable() & ~good).astype(np.float64)
    best: tuple[tuple[float, ...], list[tuple[int, int]], int, float] | None = None
    for d in defaults[:_DEFAULTS_TRIED]:
        chosen, missed = _exceptions(d, left, good, w, rows, max_rules - 2, n_bad, bad)
        lost = _mean_loss(chosen, d, left, loss, w, rows)
        covered = float(w.sum() - w[missed].sum())
        key = (float(missed.any()), -covered, float(len(chosen)), lost)
        if best is None or key < best[0]:
            best = (key, chosen, d, covered)
    assert best is not None
    _, chosen, d, covered = best
    rules = [Rule((Condition(Check.MADE, target=comb),), Keep(Action.STOP))]
    for c, j in chosen:
        conds: tuple[Condition, ...] = (conditions[c],) if c < len(conditions) else ()
        if keeps[j].action is Action.TOTAL:
            conds = (*conds, _total_test(keeps[j]))
        rules.append(Rule(conds, keeps[j]))
    exact = best[0][0] == 0.0
    rules.append(Rule((), keeps[_simplest(d, chosen, left, good, rows)]))
    dl = DecisionList(comb, rolls_left, tuple(rules))
    return LearnedList(dl, len(rules) - (not exact), 1.0 if exact else covered)


_DEFAULTS_TRIED = 8


def _simplest(
    default: int, chosen: list[tuple[int, int]], left: BoolArray, good: BoolArray, rows: FloatArray
) -> int:
    """The simplest keep as good as ``default`` on the hands the rules before it leave."""
    _, applies = _readings()
    left = left.copy()
    for c, j in chosen:
        left &= ~((rows[c] > 0) & applies[j])
    for j, keep in enumerate(keeps_vocabulary()[:default]):
        if keep.action is not Action.TOTAL and np.all(good[j, left] | ~good[default, left]):
            return j
    return default


@cache
def _rows() -> FloatArray:
    """The condition masks and a last all-true row (no condition), as 0/1 floats."""
    masks = _condition_masks()
    rows = np.vstack([masks, np.ones((1, masks.shape[1]), dtype=np.bool_)])
    return rows.astype(np.float64)


@cache
def _is_total() -> BoolArray:
    """Per vocabulary keep: it keeps a total (and carries its own test)."""
    return np.array([k.action is Action.TOTAL for k in keeps_vocabulary()])


@cache
def _usable() -> BoolArray:
    """``(keeps, 252)``: the keep can decide the hand (a total only where its test holds)."""
    _, applies = _readings()
    out: BoolArray = applies | ~_is_total()[:, None]
    return out


def _bad_counts(left: BoolArray, good: BoolArray, rows: FloatArray) -> FloatArray:
    """``(conditions + 1, keeps)``: hands left that each rule decides losing more than ``tol``."""
    out: FloatArray = rows @ (left & _usable() & ~good).astype(np.float64).T
    return out


def _exceptions(
    default: int, left: BoolArray, good: BoolArray, w: FloatArray, rows: FloatArray, most: int,
    n_bad: FloatArray | None = None, bad: FloatArray | None = None,
) -> tuple[list[tuple[int, int]], BoolArray]:  # fmt: skip
    """Rules ``(condition row, keep)`` covering the hands where ``default`` loses too much.

    Each rule loses at most the tolerance on every hand it decides and covers the
    likeliest exceptions left; at most ``most`` rules. Returns the rules and the
    exceptions they leave. ``n_bad`` is :func:`_bad_counts` of ``left`` and ``bad``
    the 0/1 ``(keeps, 252)`` usable-and-too-lossy table (both shared by the
    defaults tried); the counts are integers, kept exact by subtracting the
    hands each chosen rule decides, and the gains are summed over the exceptions only.
    """
    usable = _usable()
    is_total = _is_total()
    bad = (usable & ~good).astype(np.float64) if bad is None else bad
    n_bad = _bad_counts(left, good, rows) if n_bad is None else n_bad.copy()
    wt = w + 1e-9
    left = left.copy()
    missed = left & ~good[default]
    chosen: list[tuple[int, int]] = []
    while missed.any() and len(chosen) < most:
        cols = np.flatnonzero(missed)  # the exceptions are among the hands left
        gain = rows[:, cols] @ (usable[:, cols] * wt[cols]).T
        gain *= n_bad == 0  # the gains are finite and >= 0: a branch-free np.where(.., 0.0)
        gain[-1, ~is_total] = 0.0  # a keep with no condition is a default, not an exception
        if not (gain > 0).any():
            break
        ci, cj = np.divmod(np.flatnonzero(gain >= gain.max() * (1 - 1e-9)), gain.shape[1])
        lcols = np.flatnonzero(left)
        share = usable[cj][:, lcols] * wt[lcols]
        broad = (rows[ci][:, lcols] * share).sum(axis=1)
        order = sorted(
            range(len(ci)),
            key=lambda i: (int(ci[i]) != len(rows) - 1, -broad[i], int(cj[i]), int(ci[i])),
        )
        c, j = int(ci[order[0]]), int(cj[order[0]])
        chosen.append((c, j))
        match = (rows[c] > 0) & left & usable[j]
        left &= ~match
        missed &= ~match
        if missed.any() and len(chosen) < most:  # the counts serve the next rule only
            gone = np.flatnonzero(match)
            n_bad -= rows[:, gone] @ bad[:, gone].T
    return chosen, missed


def _mean_loss(
    chosen: list[tuple[int, int]], default: int, left: BoolArray, loss: FloatArray,
    w: FloatArray, rows: FloatArray,
) -> float:  # fmt: skip
    """Weighted mean loss of the list (made hands lose nothing)."""
    _, applies = _readings()
    left = left.copy()
    total = 0.0
    for c, j in chosen:
        match = (rows[c] > 0) & applies[j] & left
        total += float((w * np.where(match, loss[j], 0.0)).sum())
        left &= ~match
    total += float((w * np.where(left, np.minimum(loss[default], 1.0), 0.0)).sum())
    return total
