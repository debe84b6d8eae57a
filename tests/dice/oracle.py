"""A slow, obviously correct model of the turn, independent of the engine.

Nothing here reads the engine's tables or predicates: a combination is tested
with its own predicate written from ``RULES.md`` (brute force over orderings
where that is the plainest reading), a re-roll of ``n`` dice is every one of the
``6**n`` ordered outcomes (``itertools.product``), and values are exact
``Fraction``s memoised by the sorted dice. Only the ``Combination`` names are
shared with the engine.

Free holds::

    V_0(h) = f(h);  K_r(k) = mean over ordered re-rolls o of V_{r-1}(sorted(k + o));
    V_r(h) = max over sub-multisets k of h of K_r(k).

Sticky holds (kept dice stay kept): the state is (locked, hand) and the keeps
allowed are those between the locked dice and the hand.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from functools import cache

from pinastats.dice import Combination

Dice = tuple[int, ...]
FACES = (1, 2, 3, 4, 5, 6)


# ------------------------------------------------------------------ predicates


def _two_pairs(dice: Sequence[int], *, distinct: bool) -> bool:
    return any(
        a == b and c == d and (a != c or not distinct)
        for a, b, c, d in itertools.permutations(dice, 4)
    )


def _full_house(dice: Sequence[int], *, strict: bool) -> bool:
    return any(
        a == b == c and d == e and (a != d or not strict)
        for a, b, c, d, e in itertools.permutations(dice)
    )


def _at_least(face: int, n: int) -> Callable[[Sequence[int]], bool]:
    return lambda dice: list(dice).count(face) >= n


def _straight(length: int) -> Callable[[Sequence[int]], bool]:
    return lambda dice: any(
        set(range(start, start + length)) <= set(dice) for start in range(1, 8 - length)
    )


def _predicates() -> dict[Combination, Callable[[Sequence[int]], bool]]:
    by_name: dict[str, Callable[[Sequence[int]], bool]] = {
        "DOUBLE_PAIR": lambda d: _two_pairs(d, distinct=False),
        "TWO_DISTINCT_PAIRS": lambda d: _two_pairs(d, distinct=True),
        "FULL_HOUSE": lambda d: _full_house(d, strict=False),
        "STRICT_FULL_HOUSE": lambda d: _full_house(d, strict=True),
        "ODDS": lambda d: all(x % 2 == 1 for x in d),
        "EVENS": lambda d: all(x % 2 == 0 for x in d),
        "SUM_LE_9": lambda d: sum(d) <= 9,
        "SUM_12_14": lambda d: sum(d) in (12, 13, 14),
        "SUM_21_23": lambda d: sum(d) in (21, 22, 23),
        "SUM_GE_26": lambda d: sum(d) >= 26,
        "SMALL_STRAIGHT": _straight(4),
        "LARGE_STRAIGHT": _straight(5),
        "ALL_DIFFERENT": lambda d: len(set(d)) == 5,
        "PAIR": lambda d: len(set(d)) < len(d),
        "THREE_OF_A_KIND": lambda d: any(list(d).count(v) >= 3 for v in FACES),
        "FOUR_OF_A_KIND": lambda d: any(list(d).count(v) >= 4 for v in FACES),
        "FIVE_OF_A_KIND": lambda d: len(set(d)) == 1,
    }
    for v in FACES:
        for word, n in (("PAIR", 2), ("THREE", 3), ("FOUR", 4), ("FIVE", 5)):
            by_name[f"{word}_{v}"] = _at_least(v, n)
    return {comb: by_name[comb.name] for comb in Combination}


PREDICATES = _predicates()


@cache
def holds(comb: Combination, dice: Dice) -> bool:
    """Whether the (sorted) dice show ``comb``, by the oracle's own predicate."""
    return PREDICATES[comb](dice)


# ------------------------------------------------------------------ dice


@cache
def rerolls(n: int) -> tuple[tuple[Dice, int], ...]:
    """Every ordered outcome of ``n`` dice, grouped by its sorted dice (with counts)."""
    counts = Counter(tuple(sorted(o)) for o in itertools.product(FACES, repeat=n))
    return tuple(counts.items())


def all_hands() -> list[Dice]:
    """The 252 sorted hands of five dice."""
    return sorted({tuple(sorted(o)) for o in itertools.product(FACES, repeat=5)})


def all_keeps() -> list[Dice]:
    """The 462 sorted keeps of zero to five dice."""
    return [k for n in range(6) for k in itertools.combinations_with_replacement(FACES, n)]


def sub_keeps(hand: Iterable[int]) -> set[Dice]:
    """Every distinct sub-multiset of the dice (sorted tuples)."""
    dice = tuple(sorted(hand))
    return {c for n in range(len(dice) + 1) for c in itertools.combinations(dice, n)}


def merge(a: Iterable[int], b: Iterable[int]) -> Dice:
    """The sorted union of two groups of dice."""
    return tuple(sorted((*a, *b)))


def minus(hand: Iterable[int], kept: Iterable[int]) -> Dice:
    """The dice of ``hand`` left after taking out ``kept`` (a sub-multiset)."""
    rest = list(hand)
    for d in kept:
        rest.remove(d)
    return tuple(rest)


# ------------------------------------------------------------------ turns


class FreeTurn:
    """Optimal play with free holds for a final value ``f`` (memoised, exact)."""

    def __init__(self, final: Callable[[Dice], Fraction | int]) -> None:
        self.final = final
        self._hand: dict[tuple[Dice, int], Fraction] = {}
        self._keep: dict[tuple[Dice, int], Fraction] = {}

    def hand(self, hand: Dice, rolls_left: int) -> Fraction:
        """``V_r``: value of holding the sorted hand with ``rolls_left`` rolls left."""
        key = (hand, rolls_left)
        if key not in self._hand:
            if rolls_left == 0:
                self._hand[key] = Fraction(self.final(hand))
            else:
                self._hand[key] = max(self.keep(k, rolls_left) for k in sub_keeps(hand))
        return self._hand[key]

    def keep(self, keep: Dice, rolls_left: int) -> Fraction:
        """``K_r``: value of keeping the sorted dice and re-rolling the others.

        Keeping all five dice is stopping: the turn ends on that hand.
        """
        key = (keep, rolls_left)
        if len(keep) == 5:
            return Fraction(self.final(keep))
        if key not in self._keep:
            n = 5 - len(keep)
            total = sum(w * self.hand(merge(keep, o), rolls_left - 1) for o, w in rerolls(n))
            self._keep[key] = Fraction(total, 6**n)
        return self._keep[key]

    def turn(self, rolls: int) -> Fraction:
        """Value of a whole turn of ``rolls`` rolls (the first roll re-rolls all)."""
        return self.keep((), rolls)


class StickyTurn:
    """Optimal play when kept dice cannot be taken back (memoised, exact)."""

    def __init__(self, final: Callable[[Dice], Fraction | int]) -> None:
        self.final = final
        self._state: dict[tuple[Dice, Dice, int], Fraction] = {}
        self._keep: dict[tuple[Dice, int], Fraction] = {}

    def state(self, locked: Dice, hand: Dice, rolls_left: int) -> Fraction:
        """Value of a hand whose ``locked`` dice are kept for good."""
        key = (locked, hand, rolls_left)
        if key not in self._state:
            if rolls_left == 0:
                self._state[key] = Fraction(self.final(hand))
            else:
                choices = {merge(locked, extra) for extra in sub_keeps(minus(hand, locked))}
                self._state[key] = max(self.keep(k, rolls_left) for k in choices)
        return self._state[key]

    def keep(self, keep: Dice, rolls_left: int) -> Fraction:
        """Value of locking ``keep`` and re-rolling the others."""
        key = (keep, rolls_left)
        if key not in self._keep:
            n = 5 - len(keep)
            total = sum(w * self.state(keep, merge(keep, o), rolls_left - 1) for o, w in rerolls(n))
            self._keep[key] = Fraction(total, 6**n)
        return self._keep[key]

    def turn(self, rolls: int) -> Fraction:
        """Value of a whole turn of ``rolls`` rolls."""
        return self.keep((), rolls)


@cache
def free_turn(comb: Combination) -> FreeTurn:
    """The (shared, memoised) free-holds oracle of a 0/1 target."""
    return FreeTurn(lambda hand: int(holds(comb, hand)))


@cache
def sticky_turn(comb: Combination) -> StickyTurn:
    """The (shared, memoised) sticky-holds oracle of a 0/1 target."""
    return StickyTurn(lambda hand: int(holds(comb, hand)))


def one_roll(comb: Combination) -> Fraction:
    """Chance that one roll of five dice shows ``comb``, counting all 7,776 outcomes."""
    hits = sum(holds(comb, tuple(sorted(o))) for o in itertools.product(FACES, repeat=5))
    return Fraction(hits, 6**5)
