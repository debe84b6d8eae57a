"""Invariants of the exact hand / keep / transition tables."""

from __future__ import annotations

import itertools

import numpy as np

from pinastats.dice import N_HANDS, N_KEEPS, N_OUTCOMES, dice_tables
from tests.dice import oracle


def test_sizes() -> None:
    t = dice_tables()
    assert (N_HANDS, N_KEEPS, N_OUTCOMES) == (252, 462, 7776)
    assert t.hand_counts.shape == (252, 6)
    assert t.keep_counts.shape == (462, 6)
    assert t.keep_hand.shape == t.keep_weight.shape == (4368,)
    assert t.keep_ptr.shape == (463,)
    assert t.hand_keep_ptr.shape == (253,)


def test_hands_and_keeps_in_lexicographic_order() -> None:
    t = dice_tables()
    assert [tuple(h) for h in t.hand_dice.tolist()] == oracle.all_hands()
    keeps = sorted(oracle.all_keeps())
    for i, keep in enumerate(keeps):
        assert t.keep_index(keep) == i
        assert t.keep_size[i] == len(keep)
    assert t.keep_index(()) == 0


def test_weights_sum_to_all_outcomes() -> None:
    t = dice_tables()
    assert int(t.hand_weight.sum()) == 7776
    for dice, weight in zip(t.hand_dice.tolist(), t.hand_weight.tolist(), strict=True):
        assert weight == len(set(itertools.permutations(dice)))


def test_transition_rows() -> None:
    """Row ``k`` sums to ``6**(5-|k|)`` and reaches exactly the hands containing ``k``."""
    t = dice_tables()
    assert np.count_nonzero(t.keep_weight) == 4368
    for k in range(N_KEEPS):
        lo, hi = t.keep_ptr[k], t.keep_ptr[k + 1]
        assert int(t.keep_weight[lo:hi].sum()) == 6 ** (5 - int(t.keep_size[k]))
        kept = t.keep_counts[k]
        reached = {int(h) for h in t.keep_hand[lo:hi]}
        expected = {h for h in range(N_HANDS) if np.all(t.hand_counts[h] >= kept)}
        assert reached == expected


def test_transition_weights_match_brute_force() -> None:
    t = dice_tables()
    for keep in [(), (5,), (2, 2), (1, 3, 6), (4, 4, 4, 4), (1, 2, 3, 4, 5)]:
        k = t.keep_index(keep)
        table = {
            tuple(t.hand_dice[h].tolist()): int(w)
            for h, w in zip(
                t.keep_hand[t.keep_ptr[k] : t.keep_ptr[k + 1]],
                t.keep_weight[t.keep_ptr[k] : t.keep_ptr[k + 1]],
                strict=True,
            )
        }
        brute = {oracle.merge(keep, o): w for o, w in oracle.rerolls(5 - len(keep))}
        assert table == brute


def test_keeps_of_each_hand() -> None:
    """Hand ``h`` lists its distinct sub-multisets, itself (stop) and the empty keep."""
    t = dice_tables()
    for h, dice in enumerate(oracle.all_hands()):
        listed = {
            tuple(np.repeat(np.arange(1, 7), t.keep_counts[k]).tolist())
            for k in t.hand_keep[t.hand_keep_ptr[h] : t.hand_keep_ptr[h + 1]]
        }
        assert listed == oracle.sub_keeps(dice)
        assert t.hand_as_keep[h] == t.keep_index(dice)


def test_tables_are_read_only() -> None:
    t = dice_tables()
    for name in ("hand_counts", "hand_weight", "keep_ptr", "keep_hand", "keep_weight"):
        assert not getattr(t, name).flags.writeable


def test_groups_partition_the_rows_by_length() -> None:
    """Each group of ``keep_order`` / ``hand_order`` holds rows of one length, in index order."""
    t = dice_tables()
    for order, groups, ptr, n in (
        (t.keep_order, t.keep_groups, t.keep_ptr, N_KEEPS),
        (t.hand_order, t.hand_groups, t.hand_keep_ptr, N_HANDS),
    ):
        assert sorted(order.tolist()) == list(range(n))
        lengths = np.diff(ptr.astype(np.int64))
        sizes = []
        for g in range(len(groups) - 1):
            rows = order[groups[g] : groups[g + 1]]
            assert rows.size
            assert len(set(lengths[rows].tolist())) == 1
            assert np.all(np.diff(rows.astype(np.int64)) > 0)
            sizes.append(int(lengths[rows[0]]))
        assert sizes == sorted(set(sizes), reverse=True)


def test_index_tables_are_unsigned() -> None:
    """The kernels index with these: unsigned, so no negative-index wraparound is compiled."""
    t = dice_tables()
    for name in ("keep_ptr", "keep_hand", "hand_keep_ptr", "hand_keep", "keep_order",
                 "keep_groups", "hand_order", "hand_groups", "hand_keep_by_rows"):  # fmt: skip
        assert getattr(t, name).dtype == np.uint32, name
        assert not getattr(t, name).flags.writeable, name


def test_each_hands_keeps_by_rows_are_its_keeps_longest_row_first() -> None:
    t = dice_tables()
    rows = np.diff(t.keep_ptr.astype(np.int64))
    for h in range(N_HANDS):
        lo, hi = int(t.hand_keep_ptr[h]), int(t.hand_keep_ptr[h + 1])
        by_rows = t.hand_keep_by_rows[lo:hi].tolist()
        assert sorted(by_rows) == sorted(t.hand_keep[lo:hi].tolist())
        assert [rows[k] for k in by_rows] == sorted((rows[k] for k in by_rows), reverse=True)
