"""Combination definitions and the names users may type."""

from __future__ import annotations

import pytest

from pinastats.dice import (
    COASTER_COMBINATIONS,
    Combination,
    UnknownCombinationError,
    dice_tables,
    parse_combination,
)
from tests.dice import oracle


def test_masks_match_the_oracle_predicates() -> None:
    hands = oracle.all_hands()
    for comb in Combination:
        expected = [oracle.holds(comb, hand) for hand in hands]
        assert comb.mask().tolist() == expected, comb
        assert [comb.holds(hand) for hand in hands] == expected, comb


def test_coasters_are_the_first_25() -> None:
    assert len(COASTER_COMBINATIONS) == 25
    assert tuple(list(Combination)[:25]) == COASTER_COMBINATIONS
    assert all(c.is_coaster for c in COASTER_COMBINATIONS)
    assert not Combination.PAIR.is_coaster
    assert not Combination.STRICT_FULL_HOUSE.is_coaster


@pytest.mark.parametrize(
    ("dice", "comb", "expected"),
    [
        ((5, 5, 5, 3, 3), Combination.FULL_HOUSE, True),
        ((5, 5, 5, 5, 5), Combination.FULL_HOUSE, True),  # 3 + 2 of the same value
        ((5, 5, 5, 5, 3), Combination.FULL_HOUSE, False),
        ((5, 5, 5, 5, 5), Combination.STRICT_FULL_HOUSE, False),
        ((4, 4, 4, 4, 1), Combination.DOUBLE_PAIR, True),  # pairs may share a value
        ((4, 4, 4, 4, 1), Combination.TWO_DISTINCT_PAIRS, False),
        ((1, 2, 3, 4, 5), Combination.SMALL_STRAIGHT, True),
        ((1, 2, 3, 4, 5), Combination.ALL_DIFFERENT, True),
        ((1, 2, 3, 5, 6), Combination.ALL_DIFFERENT, True),
        ((1, 2, 3, 5, 6), Combination.SMALL_STRAIGHT, False),
        ((2, 2, 2, 2, 1), Combination.SUM_LE_9, True),
        ((2, 2, 2, 2, 2), Combination.SUM_LE_9, False),
        ((6, 6, 6, 4, 4), Combination.SUM_GE_26, True),
        ((6, 6, 6, 4, 3), Combination.SUM_GE_26, False),
    ],
)
def test_rule_edge_cases(dice: tuple[int, ...], comb: Combination, expected: bool) -> None:
    assert comb.holds(dice) is expected
    assert bool(comb.mask()[dice_tables().hand_index(dice)]) is expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("full house", Combination.FULL_HOUSE),
        ("Full House", Combination.FULL_HOUSE),
        ("  FULL   house ", Combination.FULL_HOUSE),
        ("fh", Combination.FULL_HOUSE),
        ("5≠", Combination.ALL_DIFFERENT),
        ("5!=", Combination.ALL_DIFFERENT),
        ("all different", Combination.ALL_DIFFERENT),
        ("pair of 6s", Combination.PAIR_6),
        ("Pair of 6's", Combination.PAIR_6),
        ("pair of sixes", Combination.PAIR_6),
        ("three 3s", Combination.THREE_3),
        ("Three threes", Combination.THREE_3),
        ("three of a kind", Combination.THREE_OF_A_KIND),
        ("four 2s", Combination.FOUR_2),
        ("sum <= 9", Combination.SUM_LE_9),
        ("Sum ≤ 9", Combination.SUM_LE_9),
        ("sum<=9", Combination.SUM_LE_9),
        ("sum 12-14", Combination.SUM_12_14),
        ("sum 12, 13 or 14", Combination.SUM_12_14),
        ("sum 21-23", Combination.SUM_21_23),
        ("sum >= 26", Combination.SUM_GE_26),
        ("Sum ≥ 26", Combination.SUM_GE_26),
        ("double pair", Combination.DOUBLE_PAIR),
        ("two pairs", Combination.TWO_DISTINCT_PAIRS),
        ("yahtzee", Combination.FIVE_OF_A_KIND),
        ("five of a kind", Combination.FIVE_OF_A_KIND),
        ("large straight", Combination.LARGE_STRAIGHT),
        ("small straight", Combination.SMALL_STRAIGHT),
        ("odds", Combination.ODDS),
        ("Evens", Combination.EVENS),
        (Combination.PAIR, Combination.PAIR),
    ],
)
def test_aliases(name: str, expected: Combination) -> None:
    assert parse_combination(name) is expected


def test_every_display_name_parses_to_itself() -> None:
    for comb in Combination:
        assert parse_combination(comb.value) is comb
        assert parse_combination(comb.value.upper()) is comb


def test_unknown_name_suggests_the_closest() -> None:
    with pytest.raises(UnknownCombinationError) as info:
        parse_combination("ful hose")
    assert "Full House" in info.value.suggestions
    assert "did you mean" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_unknown_name_without_anything_close() -> None:
    with pytest.raises(UnknownCombinationError) as info:
        parse_combination("zzzzzzzzzzzz")
    assert info.value.suggestions == []
