"""The outcome space of five six-sided dice, as exact integer tables.

A *hand* is the multiset of the five dice, stored as a face-count vector
``c = (c1, ..., c6)`` with ``sum(c) = 5``: there are C(10, 5) = 252 of them.
The 6**5 = 7,776 ordered outcomes fall on hand ``c`` with multiplicity

    w(c) = 5! / (c1! c2! ... c6!)          (sum over hands = 7,776).

A *keep* is a sub-multiset of a hand (0 to 5 dice): C(11, 5) = 462 face-count
vectors with ``sum(c) <= 5``. Re-rolling the other ``n = 5 - |k|`` dice of keep
``k`` lands on hand ``h = k + r`` with probability ``w_n(r) / 6**n`` where ``r``
runs over the multisets of ``n`` dice: the keep -> hand transition is a sparse
matrix with 4,368 non-zeros whose rows sum to ``6**n``.

Hands and keeps are ordered lexicographically by their sorted dice, so the
hand ``(1, 1, 1, 1, 1)`` is index 0 and ``(6, 6, 6, 6, 6)`` is index 251; the
empty keep is keep 0. Every table here is built once, read-only.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from pinastats._arrays import IndexArray, IntArray
from pinastats.dice.errors import DiceError, is_whole, whole_number

N_DICE = 5
N_FACES = 6
N_HANDS = 252
N_KEEPS = 462
N_FOUR_DICE_KEEPS = 126
"""Keeps of four dice: C(9, 4); one more die makes each of them a hand."""
N_OUTCOMES = N_FACES**N_DICE

TIE_TOL = 1e-12
"""Two float keep values within ``TIE_TOL`` of each other tie (integer values tie when equal).

The keep rule's tolerance (:mod:`pinastats.dice.solver`), read by the numba kernels and by
:mod:`pinastats.dice.ranking` alike."""

"""Indices and row pointers of the transition tables: unsigned, so that a kernel indexing
with them skips numba's negative-index wraparound (a compare and a select per load)."""


def _key(counts: Sequence[int] | npt.NDArray[np.integer]) -> int:
    """Base-6 key of a face-count vector (each count is 0..5)."""
    key = 0
    for c in counts:
        key = key * N_FACES + int(c)
    return key


def multinomial(counts: Iterable[int]) -> int:
    """Count the orderings of a multiset: ``(sum c)! / prod(c!)``."""
    counts = list(counts)
    result = math.factorial(sum(counts))
    for c in counts:
        result //= math.factorial(c)
    return result


@dataclass(frozen=True)
class DiceTables:
    """Exact integer tables of the dice engine (all arrays read-only).

    Attributes:
        hand_counts: ``(252, 6)`` face counts of each hand.
        hand_dice: ``(252, 5)`` the sorted dice of each hand.
        hand_weight: ``(252,)`` ordered outcomes per hand (sums to 7,776).
        keep_counts: ``(462, 6)`` face counts of each keep.
        keep_size: ``(462,)`` number of dice kept.
        keep_ptr: ``(463,)`` CSR row pointers of the keep -> hand transition.
        keep_hand: ``(4368,)`` hand reached by each transition entry.
        keep_weight: ``(4368,)`` outcomes of the re-roll giving that hand; a row
            sums to ``6 ** (5 - keep_size)``.
        hand_keep_ptr: ``(253,)`` CSR row pointers of hand -> its keeps.
        hand_keep: the keeps (sub-multisets) of each hand, including the hand
            itself (= stop) and the empty keep (= re-roll everything).
        hand_as_keep: ``(252,)`` the keep index of a whole hand.
        keep_levels: ``(210,)`` the keeps of fewer than five dice: four dice first,
            then three, two, one, none (index order within a size).
        keep_plus: ``(210, 6)`` row ``i``: keep ``keep_levels[i]`` with one more
            die of face ``f + 1``, as a hand index for the keeps of four dice (the
            first :data:`N_FOUR_DICE_KEEPS` rows), else as a keep index.
        keep_minus: ``(1260, 2)`` pairs ``(k, k minus one die of face f)`` for every
            keep ``k`` and face ``f`` it shows: the pairs of face 1 first, in
            increasing count of that face, then those of face 2, and so on.

    The row pointers, ``keep_hand``, ``hand_keep``, ``keep_levels``, ``keep_plus`` and
    ``keep_minus`` are ``uint32`` (:data:`IndexArray`); every other array is ``int64``.
    """

    hand_counts: IntArray
    hand_dice: IntArray
    hand_weight: IntArray
    keep_counts: IntArray
    keep_size: IntArray
    keep_ptr: IndexArray
    keep_hand: IndexArray
    keep_weight: IntArray
    hand_keep_ptr: IndexArray
    hand_keep: IndexArray
    hand_as_keep: IntArray
    keep_levels: IndexArray
    keep_plus: IndexArray
    keep_minus: IndexArray

    def hand_index(self, dice: Sequence[int]) -> int:
        """Index of the hand made of five dice 1-6 (any order)."""
        return _hand_lookup()[_key(_counts_of(check_dice(dice, what="a hand")))]

    def keep_index(self, dice: Sequence[int]) -> int:
        """Index of the keep made of zero to five dice 1-6 (any order)."""
        return _keep_lookup()[_key(_counts_of(check_dice(dice, count=None, what="a keep")))]

    def hand_of(self, index: int) -> tuple[int, ...]:
        """The sorted dice of hand ``index`` (0 to 251)."""
        return tuple(int(d) for d in self.hand_dice[check_hand_index(index)])

    def keep_of(self, index: int) -> tuple[int, ...]:
        """The sorted dice of keep ``index`` (0 to 461; keep 0 is the empty keep)."""
        k = check_keep_index(index)
        return tuple(int(f) + 1 for f in range(N_FACES) for _ in range(int(self.keep_counts[k, f])))


def _counts_of(dice: Sequence[int]) -> list[int]:
    counts = [0] * N_FACES
    for d in dice:
        counts[int(d) - 1] += 1
    return counts


def _multisets(size: int) -> list[tuple[int, ...]]:
    """Sorted dice tuples of every multiset of ``size`` dice, lexicographic."""
    return list(itertools.combinations_with_replacement(range(1, N_FACES + 1), size))


def _frozen(a: npt.ArrayLike) -> IntArray:
    arr = np.ascontiguousarray(a, dtype=np.int64)
    arr.setflags(write=False)
    return arr


def _frozen_index(a: npt.ArrayLike) -> IndexArray:
    arr = np.ascontiguousarray(a, dtype=np.uint32)
    arr.setflags(write=False)
    return arr


@cache
def _hand_lookup() -> dict[int, int]:
    return {_key(_counts_of(d)): i for i, d in enumerate(_multisets(N_DICE))}


@cache
def _keep_lookup() -> dict[int, int]:
    keeps = sorted(itertools.chain.from_iterable(_multisets(n) for n in range(N_DICE + 1)))
    return {_key(_counts_of(k)): i for i, k in enumerate(keeps)}


@cache
def hand_tuples() -> tuple[tuple[int, ...], ...]:
    """The sorted dice of every hand, by hand index."""
    return tuple(tuple(int(d) for d in row) for row in dice_tables().hand_dice)


@cache
def hand_index_by_dice() -> dict[tuple[int, ...], int]:
    """The hand index of each hand's sorted dice (a lookup that checks nothing)."""
    return {h: i for i, h in enumerate(hand_tuples())}


@cache
def hand_index_by_roll() -> dict[tuple[int, ...], int]:
    """The hand index of each of the ``6**5`` ordered rolls of five dice (plain ints)."""
    by_dice = hand_index_by_dice()
    return {r: by_dice[tuple(sorted(r))] for r in itertools.product(range(1, 7), repeat=N_DICE)}


@cache
def key_to_hand() -> npt.NDArray[np.int64]:
    """``(6**6,)`` hand index of each base-6 face-count key ``sum_f counts[f] 6**(5-f)``.

    -1 where the key is no hand of five dice. The engine's roll kernel builds the key.
    """
    t = dice_tables()
    table = np.full(6**6, -1, dtype=np.int64)
    table[t.hand_counts @ (6 ** np.arange(5, -1, -1))] = np.arange(len(t.hand_counts))
    table.setflags(write=False)
    return table


@cache
def keep_index_by_dice() -> dict[tuple[int, ...], int]:
    """The keep index of each keep's sorted dice (a lookup that checks nothing)."""
    t = dice_tables()
    return {t.keep_of(k): k for k in range(len(t.keep_counts))}


@cache
def dice_tables() -> DiceTables:
    """Build (once) the exact tables of hands, keeps and transitions."""
    hands = _multisets(N_DICE)
    keeps = sorted(itertools.chain.from_iterable(_multisets(n) for n in range(N_DICE + 1)))
    hand_of = _hand_lookup()
    keep_of = _keep_lookup()
    hand_counts = np.array([_counts_of(h) for h in hands])
    keep_counts = np.array([_counts_of(k) for k in keeps])

    keep_ptr = [0]
    keep_hand: list[int] = []
    keep_weight: list[int] = []
    for k in keep_counts:
        n = N_DICE - int(k.sum())
        row = []
        for r in _multisets(n):
            rc = _counts_of(r)
            row.append((hand_of[_key(k + np.array(rc))], multinomial(rc)))
        row.sort()
        keep_hand.extend(h for h, _ in row)
        keep_weight.extend(w for _, w in row)
        keep_ptr.append(len(keep_hand))

    hand_keep_ptr = [0]
    hand_keep: list[int] = []
    for c in hand_counts:
        subs = sorted(
            keep_of[_key(sub)] for sub in itertools.product(*(range(int(x) + 1) for x in c))
        )
        hand_keep.extend(subs)
        hand_keep_ptr.append(len(hand_keep))

    levels = [k for n in range(N_DICE - 1, -1, -1) for k, d in enumerate(keeps) if len(d) == n]
    plus = [
        [(hand_of if len(keeps[k]) == N_DICE - 1 else keep_of)[_key(_counts_of((*keeps[k], f)))]
         for f in range(1, N_FACES + 1)]
        for k in levels
    ]  # fmt: skip
    minus = [
        (k, keep_of[_key(keep_counts[k] - np.eye(N_FACES, dtype=np.int64)[f])])
        for f in range(N_FACES)
        for k in sorted(range(len(keeps)), key=lambda k: keep_counts[k, f])
        if keep_counts[k, f] > 0
    ]
    return DiceTables(
        hand_counts=_frozen(hand_counts),
        hand_dice=_frozen(np.array(hands)),
        hand_weight=_frozen([multinomial(c) for c in hand_counts]),
        keep_counts=_frozen(keep_counts),
        keep_size=_frozen(keep_counts.sum(axis=1)),
        keep_ptr=_frozen_index(keep_ptr),
        keep_hand=_frozen_index(keep_hand),
        keep_weight=_frozen(keep_weight),
        hand_keep_ptr=_frozen_index(hand_keep_ptr),
        hand_keep=_frozen_index(hand_keep),
        hand_as_keep=_frozen([keep_of[_key(c)] for c in hand_counts]),
        keep_levels=_frozen_index(levels),
        keep_plus=_frozen_index(plus),
        keep_minus=_frozen_index(minus),
    )


def check_dice(
    dice: Sequence[int], *, count: int | None = N_DICE, what: str = "dice"
) -> tuple[int, ...]:
    """Validate dice values (whole numbers 1 to 6) and their number; return them sorted.

    ``count=None`` accepts 0 to 5 dice (a keep). Bools are not dice.

    >>> check_dice([2, 2, 5, 4, 1])
    (1, 2, 2, 4, 5)
    >>> try:
    ...     check_dice([2, 7, 5, 4, 1])
    ... except DiceError as error:
    ...     print(error)
    dice must be values from 1 to 6 (whole numbers), got 7 in [2, 7, 5, 4, 1]
    """
    if isinstance(dice, str | bytes) or not isinstance(dice, Iterable):
        raise DiceError(f"{what} must be a sequence of whole numbers from 1 to 6, got {dice!r}")
    values = list(dice)
    for d in values:
        if not is_whole(d) or not 1 <= d <= N_FACES:
            raise DiceError(
                f"{what} must be values from 1 to 6 (whole numbers), got {d!r} in {values}"
            )
    if count is not None and len(values) != count:
        raise DiceError(f"{what} must be exactly {count} values, got {len(values)}: {values}")
    if count is None and len(values) > N_DICE:
        raise DiceError(f"{what} can hold at most {N_DICE} dice, got {len(values)}: {values}")
    return tuple(sorted(int(d) for d in values))


def check_keep(
    keep: Sequence[int], hand: Sequence[int] | None = None, *, what: str = "keep"
) -> tuple[int, ...]:
    """Validate a keep (0 to 5 dice 1-6), part of ``hand`` when given; return it sorted.

    >>> check_keep([2, 2], [2, 2, 5, 4, 1])
    (2, 2)
    >>> try:
    ...     check_keep([2, 2, 2], [2, 2, 5, 4, 1])
    ... except DiceError as error:
    ...     print(error)
    keep [2, 2, 2] is not part of the hand [1, 2, 2, 4, 5] (a keep is 0 to 5 of its dice)
    """
    kept = check_dice(keep, count=None, what=what)
    if hand is not None:
        rest = list(check_dice(hand, what="hand"))
        for d in kept:
            if d not in rest:
                raise DiceError(
                    f"{what} {list(keep)} is not part of the hand {sorted(hand)} "
                    "(a keep is 0 to 5 of its dice)"
                )
            rest.remove(d)
    return kept


def check_hand_index(index: int) -> int:
    """Validate a hand index: a whole number from 0 to 251."""
    return whole_number(index, "a hand index", 0, N_HANDS - 1, DiceError)


def check_keep_index(index: int) -> int:
    """Validate a keep index: a whole number from 0 to 461."""
    return whole_number(index, "a keep index", 0, N_KEEPS - 1, DiceError)
