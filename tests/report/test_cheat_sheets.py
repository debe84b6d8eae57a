"""The printed cheat-sheets, applied exactly as written, play within the tolerance of optimal.

Every list is applied through :meth:`DecisionList.readings` (the objects the
printed words come from) to all 252 hands at both decision points; every keep
its words allow is scored with the solver's :meth:`TurnSolution.ranked_keeps`.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from pinastats.dice import Combination, dice_tables, solve_turn
from pinastats.game import load_catalogue
from pinastats.holds.decision_learn import MAX_RULES, TOLERANCE
from pinastats.holds.decision_list import (
    Action,
    Check,
    Condition,
    DecisionList,
    Keep,
    Rule,
)
from pinastats.holds.decision_sheet import CheatSheet, cheat_sheet
from pinastats.report.holds import is_per_value

SHEETS = [c.combination for c in load_catalogue() if not is_per_value(c.combination)]


@cache
def _sheet(comb: Combination) -> CheatSheet:
    return cheat_sheet(comb)


def _losses(rules: DecisionList) -> list[float]:
    """Per hand: best chance minus the chance of the worst keep the list's words allow."""
    solution = solve_turn(rules.target)
    out = []
    for h in range(252):
        hand = dice_tables().hand_of(h)
        options = {o.keep: o.value for o in solution.ranked_keeps(hand, rules.rolls_left)}
        best = max(options.values())
        out.append(best - min(options[k] for k in rules.readings(hand)))
    return out


def _first_roll() -> np.ndarray:
    t = dice_tables()
    return np.asarray(t.hand_weight, dtype=np.float64) / 6.0**5


def _after(rules: DecisionList, weight: np.ndarray) -> np.ndarray:
    """The hands after one more roll when hands of chance ``weight`` follow ``rules``."""
    t = dice_tables()
    out = np.zeros(252)
    for h in range(252):
        keep = rules.readings(t.hand_of(h))[0]
        k = t.keep_index(keep)
        lo, hi = t.keep_ptr[k], t.keep_ptr[k + 1]
        out[t.keep_hand[lo:hi]] += weight[h] * t.keep_weight[lo:hi] / 6.0 ** (5 - len(keep))
    return out


def test_every_coaster_that_is_not_of_one_value_has_a_sheet() -> None:
    assert len(SHEETS) == 13
    for comb in SHEETS:
        stages = _sheet(comb).stages
        assert [s.rolls_left for s in stages] == [2, 1]


@pytest.mark.parametrize("comb", SHEETS, ids=[c.name for c in SHEETS])
def test_each_printed_list_is_within_the_tolerance(comb: Combination) -> None:
    sheet = _sheet(comb)
    weight = _first_roll()
    for stage in sheet.stages:
        rules = stage.rules
        assert len(rules.rules) <= MAX_RULES
        assert rules.lines()[-1].startswith("Otherwise")  # the last rule always fits
        losses = _losses(rules)
        decided = [rules.rule_for(dice_tables().hand_of(h)) for h in range(252)]
        within = np.array([loss <= TOLERANCE + 1e-12 for loss in losses])
        if stage.exact:
            assert within.all(), [dice_tables().hand_of(int(h)) for h in np.flatnonzero(~within)]
        else:  # the sheet states how many hands its first rules cover
            assert all(within[h] for h in range(252) if decided[h] < stage.exact_rules)
            assert stage.coverage == pytest.approx(float(weight[within].sum()))
        assert stage.worst == pytest.approx(max(losses))
        assert stage.mean == pytest.approx(float(np.dot(weight, losses)))
        shares = [u.share for u in stage.uses]
        assert sum(shares) == pytest.approx(1.0)
        weight = _after(rules, weight)


@pytest.mark.parametrize("comb", SHEETS, ids=[c.name for c in SHEETS])
def test_following_the_sheet_costs_at_most_the_tolerance_per_decision(comb: Combination) -> None:
    sheet = _sheet(comb)
    assert sheet.optimal == pytest.approx(solve_turn(comb).value)
    assert sheet.played <= sheet.optimal + 1e-12  # nobody beats optimal play
    if all(s.exact for s in sheet.stages):  # loss of the turn <= sum of the mean losses
        assert sheet.optimal - sheet.played <= sum(s.mean for s in sheet.stages) + 1e-12
        assert sheet.optimal - sheet.played <= 2 * TOLERANCE


def test_the_overlaps_players_met_are_decided_once() -> None:
    # 3 3 3 3 3 for Sum 12-14: "keep every die <= 3" would keep all five and stop on 15
    for stage in _sheet(Combination.SUM_12_14).stages:
        assert all(len(k) == 4 for k in stage.rules.readings((3, 3, 3, 3, 3)))
    # 1 2 3 4 5 for Sum 12-14: a keep of four totalling 11 or less, never all five
    for stage in _sheet(Combination.SUM_12_14).stages:
        assert all(len(k) == 4 and sum(k) <= 11 for k in stage.rules.readings((1, 2, 3, 4, 5)))
    # 1 2 3 4 6 for Large Straight: one rule, four dice of a run kept
    for stage in _sheet(Combination.LARGE_STRAIGHT).stages:
        for keep in stage.rules.readings((1, 2, 3, 4, 6)):
            assert len(keep) == 4
            assert len(set(keep)) == 4


def test_conditions_and_keeps_say_what_they_do() -> None:
    some = Condition(Check.SOME_TOTAL, 4, lo=8, hi=11)
    assert some.text == "four of your dice total 8-11"  # the spans of the one vocabulary
    assert some.holds((1, 2, 3, 4, 5))
    assert not some.holds((6, 6, 6, 6, 6))
    low = Condition(Check.AT_LEAST, 2, (1, 2, 3))
    assert low.text == "you hold two dice ≤ 3 or more"
    assert low.holds((1, 3, 6, 6, 6))
    assert not low.holds((3, 4, 5, 6, 6))
    keep = Keep(Action.TOTAL, n=4, lo=8, hi=11)
    assert keep.readings((1, 2, 3, 4, 5)) == ((1, 2, 3, 4), (1, 2, 3, 5))
    assert Keep(Action.LARGEST).readings((2, 2, 5, 5, 6)) == ((2, 2), (5, 5))
    assert Keep(Action.FACES, (1, 3, 5)).readings((2, 4, 4, 6, 6)) == ((),)
    rules = DecisionList(Combination.ODDS, 1, (
        Rule((Condition(Check.MADE, target=Combination.ODDS),), Keep(Action.STOP)),
        Rule((), Keep(Action.FACES, (1, 3, 5))),
    ))  # fmt: skip
    assert rules.lines() == [
        "If you already have Odds: stop.",
        "Otherwise: keep every odd die, re-roll the others.",
    ]
    assert rules.readings((1, 1, 3, 5, 5)) == ((1, 1, 3, 5, 5),)
    assert rules.readings((1, 2, 3, 4, 5)) == ((1, 3, 5),)
