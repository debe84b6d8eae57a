"""The decision-list learner's exception search against its first, plain version.

:func:`_exceptions` keeps its bad-hand counts by subtraction and sums the gains
over the exceptions only; the oracle below recomputes every product over all
252 hands at each step, as the learner first did. The learned lists must be
the same, for every coaster of the catalogue at both decision points.
"""

from __future__ import annotations

import numpy as np
import pytest

from pinastats._arrays import BoolArray, FloatArray
from pinastats.dice import dice_tables, solve_turn
from pinastats.dice.hands import N_DICE
from pinastats.game import load_catalogue
from pinastats.holds import decision_learn as DL
from pinastats.holds.decision_learn import learn_list
from pinastats.holds.decision_list import Action


def oracle_exceptions(
    default: int, left: BoolArray, good: BoolArray, w: FloatArray, rows: FloatArray, most: int,
    *_shared: object,
) -> tuple[list[tuple[int, int]], BoolArray]:  # fmt: skip
    """Greedy exception rules, every count and gain a full ``(rows) @ (keeps, 252).T`` product."""
    _, applies = DL._readings()
    is_total = np.array([k.action is Action.TOTAL for k in DL.keeps_vocabulary()])
    left = left.copy()
    missed = left & ~good[default]
    chosen: list[tuple[int, int]] = []
    while missed.any() and len(chosen) < most:
        here = left & (applies | ~is_total[:, None])
        n_bad = rows @ (here & ~good).astype(np.float64).T
        gain = rows @ ((here & missed) * (w + 1e-9)).T
        gain = np.where(n_bad == 0, gain, 0.0)
        gain[-1, ~is_total] = 0.0
        if not (gain > 0).any():
            break
        cands = np.argwhere(gain >= gain.max() * (1 - 1e-9))
        broad = (rows @ (here * (w + 1e-9)).T)[cands[:, 0], cands[:, 1]]
        order = sorted(
            range(len(cands)),
            key=lambda i: (
                int(cands[i, 0]) != len(rows) - 1, -broad[i], int(cands[i, 1]), int(cands[i, 0])
            ),
        )  # fmt: skip
        c, j = (int(x) for x in cands[order[0]])
        chosen.append((c, j))
        match = (rows[c] > 0) & here[j]
        left &= ~match
        missed &= ~match
    return chosen, missed


COMBINATIONS = sorted({str(c.combination) for c in load_catalogue()})


@pytest.mark.parametrize("target", COMBINATIONS)
def test_the_learned_lists_match_the_plain_search(
    target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    solution = solve_turn(target)
    weight = np.asarray(dice_tables().hand_weight / 6.0**N_DICE, dtype=np.float64)
    for rolls_left in range(solution.rolls - 1, 0, -1):
        fast = learn_list(target, solution, rolls_left, weight)
        with monkeypatch.context() as m:
            m.setattr(DL, "_exceptions", oracle_exceptions)
            plain = learn_list(target, solution, rolls_left, weight)
        assert fast == plain, (target, rolls_left)
    assert len(fast.rules.rules) >= 2  # "if made, stop" and a default at least
