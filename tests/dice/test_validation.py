"""Every public entry point of ``pinastats.dice`` rejects bad dice, keeps, rolls and names.

Each bad input must raise a :class:`pinastats.errors.PinastatsError` subclass whose
message names the bad value (and, for names, suggests the closest).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from pinastats.dice import (
    Combination,
    DiceError,
    RollsError,
    TargetError,
    UnknownCombinationError,
    best_keep,
    check_dice,
    check_hand_index,
    check_keep,
    check_keep_index,
    check_rolls,
    dice_tables,
    parse_combination,
    points_values,
    solve_turn,
    success_probability,
    target_values,
)
from pinastats.dice.combinations import normalize_name
from pinastats.errors import PinastatsError
from pinastats.holds.guide import build_guide, hand_advice, is_face_symmetric
from pinastats.holds.words import shape_of, shape_rule, shape_text

BAD_HANDS: list[Any] = [
    [0, 1, 2, 3, 4],
    [1, 2, 3, 4, 7],
    [1, 2, 3, 4, -1],
    [1, 2, 3, 4],
    [1, 2, 3, 4, 5, 6],
    [True, 2, 3, 4, 5],
    [1.0, 2, 3, 4, 5],
    [1, 2, 3, 4, "5"],
    "12345",
    5,
    None,
]
BAD_KEEPS: list[Any] = [[0], [7], [1, 2, 3, 4, 5, 6], [False], [2.5], "11", 3]
BAD_ROLLS: list[Any] = [0, -1, 21, 80, 99999999, True, 1.5, "3", None]
BAD_INDICES: list[Any] = [-1, 252, 10**9, True, 1.0, "0", None]


def _check(error: type[PinastatsError], call: Callable[[], object], bad: object) -> None:
    with pytest.raises(error) as info:
        call()
    assert isinstance(info.value, PinastatsError)
    shown = str(bad) if isinstance(bad, str) else repr(bad)
    assert shown in str(info.value), (shown, str(info.value))


def _hand_bad_value(bad: Any) -> Any:
    """The part of a bad hand the message must name: the bad die, or the whole list."""
    if isinstance(bad, list):
        for d in bad:
            if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6:
                return d
    return bad


# ---------------------------------------------------------------- dice and hands


def _hand_calls() -> dict[str, Callable[[Any], object]]:
    t = dice_tables()
    solution = solve_turn("full house")
    return {
        "check_dice": check_dice,
        "hand_index": t.hand_index,
        "holds": Combination.FULL_HOUSE.holds,
        "ranked_keeps": lambda h: solution.ranked_keeps(h, 2),
        "keep_options": lambda h: solution.keep_options(h, 2),
        "best_keeps": lambda h: solution.best_keeps(h, 1),
        "hand_value": lambda h: solution.hand_value(h, 0),
        "check_keep hand": lambda h: check_keep([], h),
        "shape_of": shape_of,
        "shape_text": shape_text,
        "shape_rule": lambda h: shape_rule(h, ()),
    }


@pytest.mark.parametrize(
    ("name", "bad"),
    [
        (n, b)
        for n in _hand_calls()
        for b in BAD_HANDS
        if not (n == "check_keep hand" and b is None)
    ],
    ids=repr,
)
def test_bad_hands(name: str, bad: Any) -> None:
    """``check_keep(keep, None)`` is a keep without a hand, so None is no bad hand there."""
    call = _hand_calls()[name]
    _check(DiceError, lambda: call(bad), _hand_bad_value(bad))


def _keep_calls() -> dict[str, Callable[[Any], object]]:
    t = dice_tables()
    solution = solve_turn("full house")
    return {
        "check_keep": check_keep,
        "keep_index": t.keep_index,
        "keep_fraction": lambda k: solution.keep_fraction(k, 1),
        "shape_rule": lambda k: shape_rule((1, 1, 2, 3, 4), k),
    }


@pytest.mark.parametrize("name", list(_keep_calls()))
@pytest.mark.parametrize("bad", BAD_KEEPS, ids=repr)
def test_bad_keeps(name: str, bad: Any) -> None:
    call = _keep_calls()[name]
    _check(DiceError, lambda: call(bad), _hand_bad_value(bad))


@pytest.mark.parametrize(
    ("keep", "hand"),
    [([6], (1, 2, 3, 4, 5)), ([2, 2, 2], (2, 2, 5, 4, 1)), ([1, 1], (1, 2, 3, 4, 5))],
)
def test_keep_must_be_part_of_the_hand(keep: list[int], hand: tuple[int, ...]) -> None:
    _check(DiceError, lambda: check_keep(keep, hand), keep)
    _check(DiceError, lambda: shape_rule(hand, tuple(keep)), keep)


def test_locked_dice_are_checked() -> None:
    sticky = solve_turn("five of a kind", sticky=True)
    _check(DiceError, lambda: sticky.ranked_keeps([1, 2, 3, 4, 5], 1, locked=[6]), [6])
    _check(DiceError, lambda: sticky.ranked_keeps([1, 2, 3, 4, 5], 1, locked=[0]), 0)
    _check(DiceError, lambda: sticky.hand_value([1, 2, 3, 4, 5], 0, locked=[6, 6]), [6, 6])
    free = solve_turn("five of a kind")
    _check(DiceError, lambda: free.ranked_keeps([1, 1, 6, 6, 6], 1, locked=[1]), [1])


@pytest.mark.parametrize("bad", BAD_INDICES, ids=repr)
@pytest.mark.parametrize("kind", ["hand", "keep"])
def test_bad_indices(kind: str, bad: Any) -> None:
    t = dice_tables()
    check = check_hand_index if kind == "hand" else check_keep_index
    lookup = t.hand_of if kind == "hand" else t.keep_of
    if kind == "keep" and bad == 252:
        bad = 462
    _check(DiceError, lambda: check(bad), bad)
    _check(DiceError, lambda: lookup(bad), bad)
    if kind == "hand":
        row = solve_turn("pair").keep_value[0]
        _check(DiceError, lambda: best_keep(row, bad), bad)


def test_lookups_accept_good_input() -> None:
    t = dice_tables()
    assert t.hand_of(t.hand_index([6, 1, 6, 2, 3])) == (1, 2, 3, 6, 6)
    assert t.keep_of(t.keep_index([])) == ()
    assert t.keep_of(t.keep_index(np.array([4, 4]))) == (4, 4)  # type: ignore[arg-type]


# ---------------------------------------------------------------- rolls


def _rolls_calls() -> dict[str, Callable[[Any], object]]:
    return {
        "check_rolls": check_rolls,
        "solve_turn": lambda r: solve_turn("pair", rolls=r),
        "solve_turn values": lambda r: solve_turn(np.ones(252), rolls=r, sticky=True),
        "success_probability": lambda r: success_probability("full house", rolls=r),
    }


@pytest.mark.parametrize("name", list(_rolls_calls()))
@pytest.mark.parametrize("bad", BAD_ROLLS, ids=repr)
def test_bad_rolls(name: str, bad: Any) -> None:
    call = _rolls_calls()[name]
    _check(RollsError, lambda: call(bad), bad)


def _rolls_left_calls() -> dict[str, tuple[Callable[[Any], object], list[Any]]]:
    solution = solve_turn("full house")  # 3 rolls
    hand = [1, 1, 2, 3, 4]
    decisions = [0, 3, -1, True, 1.0, "1", None]
    return {
        "ranked_keeps": (lambda r: solution.ranked_keeps(hand, r), decisions),
        "keep_options": (lambda r: solution.keep_options(hand, r), decisions),
        "best_keeps": (lambda r: solution.best_keeps(hand, r), decisions),
        "policy": (solution.policy, decisions),
        "hand_advice": (lambda r: hand_advice(solution, r), decisions),
        "hand_value": (lambda r: solution.hand_value(hand, r), [3, -1, True, 0.0, None]),
        "keep_fraction": (lambda r: solution.keep_fraction((1, 1), r), [0, 4, False, 2.0]),
    }


@pytest.mark.parametrize(
    ("name", "bad"), [(n, b) for n, (_, bads) in _rolls_left_calls().items() for b in bads]
)
def test_bad_rolls_left(name: str, bad: Any) -> None:
    call = _rolls_left_calls()[name][0]
    _check(RollsError, lambda: call(bad), bad)


def test_one_roll_turns_have_no_keep_to_choose() -> None:
    solution = solve_turn("pair", rolls=1)
    for call in (lambda: solution.ranked_keeps([1, 2, 3, 4, 5], 1),
                 lambda: hand_advice(solution, 1), lambda: solution.policy(1)):  # fmt: skip
        with pytest.raises(RollsError, match="1-roll turn"):
            call()


def test_sticky_policy_names_the_rolls_left() -> None:
    _check(RollsError, lambda: solve_turn("pair", sticky=True).policy(1), 1)


# ---------------------------------------------------------------- targets


@pytest.mark.parametrize(
    ("bad", "suggestion"),
    [("ful hose", "Full House"), ("yahtze", "Five of a Kind"), ("pair of 7s", "Pair of")],
)
def test_unknown_names_suggest_the_closest(bad: str, suggestion: str) -> None:
    for call in (parse_combination, target_values, is_face_symmetric,
                 lambda n: solve_turn(n), lambda n: success_probability(n),
                 lambda n: points_values({n: 1}),
                 lambda n: build_guide(n, solve_turn("pair"))):  # fmt: skip
        with pytest.raises(UnknownCombinationError) as info:
            call(bad)
        assert isinstance(info.value, TargetError)
        assert repr(bad) in str(info.value)
        assert suggestion in str(info.value)


@pytest.mark.parametrize("bad", [3, None, True, 2.5, ["full house"]], ids=repr)
def test_names_must_be_strings(bad: Any) -> None:
    for call in (parse_combination, normalize_name, success_probability):
        _check(TargetError, lambda: call(bad), bad)  # noqa: B023


@pytest.mark.parametrize(
    ("values", "shown"),
    [
        (np.zeros(10), "(10,)"),
        (np.full(252, np.nan), "nan"),
        (np.full(252, np.inf), "inf"),
        (np.ones(252, dtype=bool), "bool"),
        (["x"] * 252, "<U1"),
        (np.ones((2, 252)), "(2, 252)"),
    ],
    ids=["short", "nan", "inf", "bools", "strings", "2d"],
)
def test_bad_value_vectors(values: Any, shown: str) -> None:
    _check(TargetError, lambda: solve_turn(values), shown)


@pytest.mark.parametrize("bad", [1, "yes", None, 0], ids=repr)
def test_sticky_must_be_a_bool(bad: Any) -> None:
    _check(TargetError, lambda: solve_turn("pair", sticky=bad), bad)


@pytest.mark.parametrize("bad", [True, float("nan"), "3", None], ids=repr)
def test_points_must_be_numbers(bad: Any) -> None:
    _check(TargetError, lambda: points_values({"full house": bad}), bad)
    _check(TargetError, lambda: points_values(["full house"]), ["full house"])  # type: ignore[arg-type]


def test_best_keep_needs_a_row_of_keep_values() -> None:
    _check(TargetError, lambda: best_keep(np.zeros(10), 0), "(10,)")
