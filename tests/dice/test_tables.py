"""Invariants of the exact hand / keep / transition tables."""

from __future__ import annotations

import itertools

import numpy as np

from pinastats.dice import N_HANDS, N_KEEPS, N_OUTCOMES, dice_tables
from pinastats.dice.hands import N_FOUR_DICE_KEEPS
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


def test_keep_levels_go_from_four_dice_to_none() -> None:
    t = dice_tables()
    sizes = t.keep_size[t.keep_levels].tolist()
    assert sizes == sorted(sizes, reverse=True)
    assert sorted(t.keep_levels.tolist()) == sorted(np.flatnonzero(t.keep_size < 5).tolist())
    assert sizes.count(4) == N_FOUR_DICE_KEEPS


def test_keep_plus_adds_one_die_of_each_face() -> None:
    t = dice_tables()
    for i, k in enumerate(t.keep_levels.tolist()):
        for f in range(6):
            grown = t.keep_counts[k] + np.eye(6, dtype=np.int64)[f]
            j = int(t.keep_plus[i, f])
            counts = t.hand_counts[j] if t.keep_size[k] == 4 else t.keep_counts[j]
            assert counts.tolist() == grown.tolist()


def test_keep_minus_drops_one_die_face_by_face_in_increasing_count() -> None:
    t = dice_tables()
    pairs = t.keep_minus.astype(np.int64)
    faces = []
    for k, smaller in pairs:
        diff = t.keep_counts[k] - t.keep_counts[smaller]
        assert sorted(diff.tolist()) == [0, 0, 0, 0, 0, 1]
        faces.append(int(np.argmax(diff)))
    assert faces == sorted(faces)
    assert len(pairs) == int((t.keep_counts > 0).sum())  # every keep, every face it shows
    for f in range(6):
        counts = [int(t.keep_counts[k, f]) for k, _ in pairs[np.array(faces) == f]]
        assert counts == sorted(counts)


def test_index_tables_are_unsigned() -> None:
    """The kernels index with these: unsigned, so no negative-index wraparound is compiled."""
    t = dice_tables()
    for name in ("keep_ptr", "keep_hand", "hand_keep_ptr", "hand_keep", "keep_levels",
                 "keep_plus", "keep_minus"):  # fmt: skip
        assert getattr(t, name).dtype == np.uint32, name
        assert not getattr(t, name).flags.writeable, name
