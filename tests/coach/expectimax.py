"""A plain expectimax over keeps and ordered re-rolls, independent of the dice layer's tables.

``stop(h)`` is the value of stopping with hand ``h`` while rolls are left and
``final(h)`` the value of ``h`` after the last roll::

    V_0(h) = final(h);   K_r(k) = stop(k) if |k| = 5,
    else mean over the 6**(5-|k|) ordered re-rolls o of V_{r-1}(sorted(k + o));
    V_r(h) = max over the sub-multisets k of h of K_r(k).

Values are exact fractions. Re-rolls and sub-multisets come from
:mod:`tests.dice.oracle` (``itertools``).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from tests.dice.oracle import Dice, merge, rerolls, sub_keeps


class Expectimax:
    """Memoised ``V_r`` and ``K_r`` for the given stop and final values."""

    def __init__(self, stop: Callable[[Dice], Fraction], final: Callable[[Dice], Fraction]) -> None:
        self.stop = stop
        self.final = final
        self._hand: dict[tuple[Dice, int], Fraction] = {}
        self._keep: dict[tuple[Dice, int], Fraction] = {}

    def hand(self, hand: Dice, rolls_left: int) -> Fraction:
        """``V_r(h)``."""
        key = (hand, rolls_left)
        if key not in self._hand:
            if rolls_left == 0:
                self._hand[key] = self.final(hand)
            else:
                self._hand[key] = max(self.keep(k, rolls_left) for k in sub_keeps(hand))
        return self._hand[key]

    def keep(self, keep: Dice, rolls_left: int) -> Fraction:
        """``K_r(k)``; keeping all five dice stops."""
        if len(keep) == 5:
            return self.stop(keep)
        key = (keep, rolls_left)
        if key not in self._keep:
            n = 5 - len(keep)
            total = sum(
                (w * self.hand(merge(keep, o), rolls_left - 1) for o, w in rerolls(n)), Fraction(0)
            )
            self._keep[key] = Fraction(total, 6**n)
        return self._keep[key]
