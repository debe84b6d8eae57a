"""What a ``Combination`` says about itself: label, description, kind, face, count."""

from __future__ import annotations

import re

import pytest

from pinastats.dice import Combination, CombinationKind, dice_tables
from pinastats.holds.guide import is_face_symmetric
from tests.dice import oracle

K = CombinationKind


@pytest.mark.parametrize(
    ("comb", "label", "kind", "face", "needed"),
    [
        (Combination.PAIR_6, "Pair of 6s", K.PAIR_OF_N, 6, 2),
        (Combination.THREE_2, "Three 2s", K.THREE_OF_N, 2, 3),
        (Combination.FOUR_5, "Four 5s", K.FOUR_OF_N, 5, 4),
        (Combination.FIVE_1, "Five 1s", K.FIVE_OF_N, 1, 5),
        (Combination.PAIR, "Pair", K.N_OF_A_KIND, None, 2),
        (Combination.FIVE_OF_A_KIND, "Five of a Kind", K.N_OF_A_KIND, None, 5),
        (Combination.FULL_HOUSE, "Full House", K.PATTERN, None, None),
        (Combination.SMALL_STRAIGHT, "Small Straight", K.STRAIGHT, None, None),
        (Combination.SUM_LE_9, "Sum ≤ 9", K.SUM, None, None),
        (Combination.EVENS, "Evens", K.PARITY, None, None),
    ],
)
def test_attributes(
    comb: Combination, label: str, kind: K, face: int | None, needed: int | None
) -> None:
    assert (comb.label, comb.kind, comb.face, comb.needed) == (label, kind, face, needed)


def test_every_combination_has_a_one_line_description() -> None:
    for comb in Combination:
        assert comb.description.endswith(".")
        assert "\n" not in comb.description
    assert len({c.description for c in Combination}) == len(Combination)


def test_per_face_attributes_match_the_oracle() -> None:
    """``face`` and ``needed``: the hands showing it are those with needed dice of face."""
    for comb in Combination:
        if comb.face is None:
            continue
        assert comb.needed is not None
        for hand in oracle.all_hands():
            assert oracle.holds(comb, hand) is (hand.count(comb.face) >= comb.needed)


def test_sum_descriptions_name_their_bounds() -> None:
    for comb in Combination:
        if comb.kind is not K.SUM:
            continue
        shown = {int(n) for n in re.findall(r"\d+", comb.description)}
        totals = {sum(h) for h in oracle.all_hands() if oracle.holds(comb, h)}
        assert min(totals) in shown or max(totals) in shown


def test_shape_grouping_follows_the_masks() -> None:
    """A kind the guide groups by shape depends only on the pattern of equal dice."""
    t = dice_tables()
    for comb in Combination:
        by_pattern: dict[tuple[int, ...], set[bool]] = {}
        for counts, hit in zip(t.hand_counts, comb.mask(), strict=True):
            shape = tuple(sorted((int(c) for c in counts if c), reverse=True))
            by_pattern.setdefault(shape, set()).add(bool(hit))
        symmetric = all(len(v) == 1 for v in by_pattern.values())
        assert is_face_symmetric(comb) is symmetric, comb
