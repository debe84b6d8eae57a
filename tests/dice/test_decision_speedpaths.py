"""The decision lists' trusted fast paths agree with their validated public methods.

The learner and the sheet's measures apply a list to all 252 hands through
tables (condition masks, a list's first matching rule and readings per hand,
keep indices looked up without validation); the public ``holds``, ``readings``
and ``rule_for`` still check their dice. The tables must give what the public
methods give on every hand, and the measures what the plain hand-by-hand
versions below (the first versions of :mod:`pinastats.holds.decision_sheet`) give,
to the last bit.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from pinastats.dice import DiceError, check_dice, dice_tables, solve_turn
from pinastats.dice.combinations import Combination
from pinastats.dice.hands import N_DICE, hand_index_by_dice, keep_index_by_dice
from pinastats.holds import decision_learn as DL
from pinastats.holds import decision_list as L
from pinastats.holds import decision_sheet as DS
from pinastats.holds.decision_list import Action, Check, Condition, DecisionList, Keep, Rule

SHEETS = ["Full House", "Small Straight", "Sum 12-14", "Sum ≤ 9", "Double Pair", "All Different"]
HANDS = [dice_tables().hand_of(h) for h in range(252)]


def _lists() -> list[DecisionList]:
    return [s.rules for target in SHEETS for s in DS.cheat_sheet(target).stages]


def _odd_conditions() -> list[Condition]:
    """Conditions outside the vocabulary: made targets, every total test, odd faces and bounds."""
    out = [Condition(Check.MADE, target=c) for c in Combination]
    out += [DL._total_test(k) for k in DL.keeps_vocabulary() if k.action is Action.TOTAL]
    out += [Condition(Check.AT_LEAST, 2, (3, 3)), Condition(Check.AT_MOST, 1, (6, 7, 0))]
    out += [Condition(Check.VALUES, 2, (1, 1, 2)), Condition(Check.GROUP, 5)]
    bounds = ((-3, 2), (0, 0), (29, 40), (7, 6))
    out += [Condition(Check.SOME_TOTAL, n, lo=lo, hi=hi)
            for n in range(N_DICE + 1) for lo, hi in bounds]  # fmt: skip
    return out


def test_condition_masks_match_holds() -> None:
    for c in (*DL.conditions_vocabulary(), *_odd_conditions()):
        mask = L._condition_mask(c)
        assert not mask.flags.writeable
        assert mask.tolist() == [c.holds(h) for h in HANDS], c


@pytest.mark.parametrize("n", range(N_DICE + 1))
def test_totalling_matches_the_plain_search(n: int) -> None:
    for dice, (lo, hi) in itertools.product(HANDS, ((n, 6 * n), (8, 11), (3, 3), (12, 9))):
        plain = tuple(sorted({c for c in itertools.combinations(dice, n) if lo <= sum(c) <= hi}))
        assert L._totalling(dice, n, lo, hi) == plain


def test_vocabulary_readings_match_the_public_path() -> None:
    t = dice_tables()
    rows, applies = DL._readings()
    for j, keep in enumerate(DL.keeps_vocabulary()):
        for h, hand in enumerate(HANDS):
            if keep.action is Action.TOTAL and not DL._total_test(keep).holds(hand):
                assert not applies[j, h]
                assert rows[j][h] == ()
                with pytest.raises(DiceError):
                    keep.readings(hand)
                continue
            assert applies[j, h]
            assert rows[j][h] == tuple(t.keep_index(k) for k in keep.readings(hand))
    assert all(keep_index_by_dice()[t.keep_of(k)] == k for k in range(len(t.keep_size)))
    assert all(hand_index_by_dice()[t.hand_of(h)] == h for h in range(len(t.hand_dice)))


def test_list_tables_match_rule_for_and_readings() -> None:
    """The tables (one mask per condition) against a scan of the rules, hand by hand."""
    lists = _lists()
    assert len({dl.target for dl in lists}) == len(SHEETS)
    for dl in lists:
        scan = [next(i for i, r in enumerate(dl.rules) if r.matches(h)) for h in HANDS]
        assert dl._rule_index == tuple(scan)
        assert [dl.rule_for(h) for h in HANDS] == scan
        readings = [dl.rules[i].keep.readings(h) for i, h in zip(scan, HANDS, strict=True)]
        assert dl._hand_readings == tuple(readings)
        assert [dl.readings(h) for h in HANDS] == readings


def test_tables_leave_equality_hash_and_repr_alone() -> None:
    dl = _lists()[0]
    fresh = DecisionList(dl.target, dl.rolls_left, dl.rules)
    assert "_rule_index" not in vars(fresh)
    _ = dl._rule_index, dl._hand_readings
    assert dl == fresh
    assert hash(dl) == hash(fresh)
    assert repr(dl) == repr(fresh)


def _plain_losses(rules: DecisionList, solution: Any) -> tuple[np.ndarray, list[int]]:
    t = dice_tables()
    keep_value, best = DL.stage_values(solution, rules.rolls_left)
    loss = np.zeros(len(best))
    used = []
    for h in range(len(best)):
        hand = t.hand_of(h)
        used.append(rules.rule_for(hand))
        loss[h] = best[h] - min(keep_value[t.keep_index(k)] for k in rules.readings(hand))
    return loss, used


def _plain_next_weight(rules: DecisionList, weight: np.ndarray) -> np.ndarray:
    t = dice_tables()
    out = np.zeros_like(weight)
    for h in range(len(weight)):
        k = t.keep_index(rules.readings(t.hand_of(h))[0])
        lo, hi = t.keep_ptr[k], t.keep_ptr[k + 1]
        scale = weight[h] / 6.0 ** (N_DICE - int(t.keep_size[k]))
        np.add.at(out, t.keep_hand[lo:hi], t.keep_weight[lo:hi] * scale)
    return out


def _plain_played(lists: tuple[DecisionList, ...], solution: Any) -> float:
    t = dice_tables()
    final = np.asarray(solution.final_value, dtype=np.float64)
    value = final
    for rules in sorted(lists, key=lambda dl: dl.rolls_left):
        nxt = np.zeros_like(value)
        for h in range(len(value)):
            options = []
            for keep in rules.readings(t.hand_of(h)):
                k = t.keep_index(keep)
                if len(keep) == N_DICE:
                    options.append(float(final[h]))
                    continue
                lo, hi = t.keep_ptr[k], t.keep_ptr[k + 1]
                total = float((t.keep_weight[lo:hi] * value[t.keep_hand[lo:hi]]).sum())
                options.append(total / 6.0 ** (N_DICE - len(keep)))
            nxt[h] = min(options)
        value = nxt
    return float((t.hand_weight / 6.0**N_DICE * value).sum())


@pytest.mark.parametrize("target", SHEETS)
def test_measures_match_the_plain_hand_by_hand_versions(target: str) -> None:
    sheet = DS.cheat_sheet(target)
    solution = solve_turn(target)
    weight = np.asarray(dice_tables().hand_weight / 6.0**N_DICE, dtype=np.float64)
    for stage in sheet.stages:
        loss, used = DS.hand_losses(stage.rules, solution)
        plain_loss, plain_used = _plain_losses(stage.rules, solution)
        assert used == plain_used
        assert loss.tobytes() == plain_loss.tobytes()
        fast, plain = DS.next_weight(stage.rules, weight), _plain_next_weight(stage.rules, weight)
        assert fast.tobytes() == plain.tobytes()
        weight = fast
    lists = tuple(s.rules for s in sheet.stages)
    assert DS.played_chance(lists, solution) == _plain_played(lists, solution) == sheet.played


BAD_HANDS: list[Any] = [
    [0, 1, 2, 3, 4], [1, 2, 3, 4, 7], [1, 2, 3, 4], [1, 2, 3, 4, 5, 6], [1.5, 2, 3, 4, 5],
    [True, 2, 3, 4, 5], "12345", None, 12345,
]  # fmt: skip


def _message(bad: Any) -> str:
    with pytest.raises(DiceError) as error:
        check_dice(bad, what="a hand")
    return str(error.value)


@pytest.mark.parametrize("bad", BAD_HANDS, ids=repr)
def test_public_methods_still_reject_bad_dice(bad: Any) -> None:
    message = _message(bad)
    dl = _lists()[0]
    always = DecisionList(dl.target, 2, (Rule((), Keep(Action.REROLL)),))
    calls: list[Callable[[], object]] = [
        *(lambda c=c: c.holds(bad) for c in (*DL.conditions_vocabulary()[:3], *_odd_conditions())),
        *(lambda k=k: k.readings(bad) for k in DL.keeps_vocabulary()[:30]),
        lambda: dl.rules[0].matches(bad),
        lambda: dl.rule_for(bad),
        lambda: dl.readings(bad),
        lambda: always.rule_for(bad),
        lambda: always.readings(bad),
    ]
    for call in calls:
        with pytest.raises(DiceError) as error:
            call()
        assert str(error.value) == message
