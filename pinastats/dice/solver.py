r"""The three-roll turn as a finite-horizon dynamic programme.

Let ``f(h)`` be the value of ending the turn with hand ``h`` (1 or 0 for one
target, the points of the best coaster for several). With ``r`` rolls left
after seeing hand ``h`` (``r = 0`` after the last roll):

.. math::

    V_0(h) = f(h), \qquad
    K_r(k) = \sum_{h' \supseteq k} \frac{w(k, h')}{6^{5-|k|}}\, V_{r-1}(h'), \qquad
    V_r(h) = \max_{k \subseteq h} K_r(k),

where ``w(k, h')`` counts the re-roll outcomes turning keep ``k`` into ``h'``
(:mod:`pinastats.dice.hands`). Keeping the whole hand re-rolls nothing and
ends the turn: ``K_r(h) = f(h)``, so more rolls never hurt. (Scoring it
``V_{r-1}(h)``, "skip a roll", would give the same ``V_r``, since a
re-roll later is worth no more than the same re-roll now, but then "stop"
would tie with the real best keep.) A turn of ``R`` rolls is worth
``K_R(\varnothing)``: the first roll re-rolls everything.

*Sticky* holds (dice once kept cannot be taken back) make the state the pair
(locked keep ``L``, hand ``h``): ``S_r(L, h) = max over L ⊆ k ⊆ h of K_r(k)``.

When ``f`` is integer the DP runs on integers scaled by ``6^{5r}``, so values
and ties are exact and :attr:`TurnSolution.fraction` reproduces published
figures to the last digit (e.g. five of a kind in three rolls: 347897/7558272).

**Limits.** A turn has 1 to :data:`MAX_ROLLS` (20) rolls. Integer values run
the numba int64 DP while ``max|f| 6^{5r} <= 2^63 - 1`` (every value and
partial sum stays below that bound): for a 0/1 target that is up to
:data:`EXACT_INT64_ROLLS` = 4 rolls (``6^20 ≈ 2^51.7``, ``6^25 ≈ 2^64.6``).
Beyond it, integer values run the same recurrence on Python integers (still
exact, slower); other values run the float64 DP.

**The keep rule** (one rule for the solver, the guide, the command line and
the agents):

* two keep values *tie* when they are equal (integer values: the exact DP) or,
  for float values, within :data:`~pinastats.dice.hands.TIE_TOL` ``= 1e-12`` of each other;
* the keeps of a hand rank by value, best first; tied keeps share a rank
  (competition ranks: 1, 2=, 2=, 4), a keep joining the group of the first,
  best, value of the group (:func:`pinastats.dice.ranking.tie_ranks`);
* the keep *played* is the best keep with the most dice, the earliest in
  keep-index order among those. The numba kernel
  :func:`pinastats.dice._kernels._best_keep` plays it by one scan of the hand's
  keeps in keep-index order: a keep replaces the best so far when it is worth
  more than ``best + TIE_TOL``, or more than ``best - TIE_TOL`` with more dice
  (integer values: more, or equal with more dice). The two agree whenever the
  keeps within ``2 TIE_TOL`` of the best are within ``TIE_TOL`` of each other:
  always in practice, where float ties are rounding noise (~1e-16).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pinastats._arrays import FloatArray, IntArray
from pinastats.dice._dp import fits_int64, run_kernel, run_python_ints
from pinastats.dice.combinations import Combination, parse_combination
from pinastats.dice.errors import DiceError, RollsError, TargetError, whole_number
from pinastats.dice.hands import N_DICE, N_HANDS, check_dice, check_keep, dice_tables
from pinastats.dice.ranking import keep_order

if TYPE_CHECKING:  # pandas is imported on use: a CLI start stays fast without it
    import pandas as pd

Target = Combination | str
Keep = tuple[int, ...]

MAX_ROLLS = 20
"""The most rolls a turn may have (the game has 3)."""
EXACT_INT64_ROLLS = max(r for r in range(1, MAX_ROLLS + 1) if fits_int64(1, r))
"""The most rolls for which a 0/1 target runs the exact int64 DP (4)."""


def check_rolls(rolls: int) -> int:
    """Validate the rolls of a turn: a whole number from 1 to :data:`MAX_ROLLS`."""
    return whole_number(rolls, "rolls", 1, MAX_ROLLS, RollsError)


def target_values(target: Target) -> IntArray:
    """``f(h) = 1`` when hand ``h`` shows the target, else 0 (int64, 252 values)."""
    return parse_combination(target).mask().astype(np.int64)


def points_values(points: Mapping[Target, float]) -> FloatArray:
    """``f(h) = max`` points over the combinations that hand ``h`` shows (0 if none).

    >>> v = points_values({"full house": 3, "pair of 5s": 1})
    >>> float(v[dice_tables().hand_index([5, 5, 5, 3, 3])])
    3.0
    """
    if not isinstance(points, Mapping):
        raise TargetError(f"points must map combinations to numbers, got {points!r}")
    out = np.zeros(N_HANDS)
    for target, p in points.items():
        mask = parse_combination(target).mask()
        if isinstance(p, bool) or not isinstance(p, int | float | np.number) or not np.isfinite(p):
            raise TargetError(f"points of {target!s} must be a finite number, got {p!r}")
        out = np.where(mask, np.maximum(out, float(p)), out)
    return out


@dataclass(frozen=True)
class KeepOption:
    """One distinct keep of a hand: the dice kept (all five = stop) and what it is worth.

    ``rank`` is its competition rank among the hand's keeps (tied keeps share
    it), ``best`` whether it ties for the best value (rank 1).
    """

    keep: Keep
    value: float
    fraction: Fraction | None
    best: bool
    rank: int


@dataclass(frozen=True)
class TurnSolution:
    """The solved turn for one value function.

    Attributes:
        final_value: ``(252,)`` value ``f(h)`` of ending with each hand.
        rolls: rolls in the turn (3 in the game).
        sticky: whether kept dice were locked.
        keep_value: ``(rolls, 462)``; ``keep_value[r-1, k] = K_r(k)``, the expected
            value of keeping ``k`` and re-rolling the rest when ``r`` rolls are left
            (row ``rolls-1``, keep 0 = the whole turn).
        keep_numerator: ``(rolls, 462)`` with ``K_r = keep_numerator[r-1] / 6**(5r)``
            when ``f`` is integer-valued, else None: int64 when it fits (see
            :data:`EXACT_INT64_ROLLS`), else Python integers (object array).
    """

    final_value: FloatArray
    rolls: int
    sticky: bool
    keep_value: FloatArray
    keep_numerator: npt.NDArray[Any] | None

    @property
    def value(self) -> float:
        """Expected value of the whole turn (a probability for a 0/1 target)."""
        return float(self.keep_value[self.rolls - 1, 0])

    @property
    def fraction(self) -> Fraction | None:
        """Exact value of the whole turn, or None if ``f`` is not integer-valued."""
        return self.keep_fraction((), self.rolls)

    def _rolls_left(self, rolls_left: int, low: int, high: int) -> int:
        if high < low:
            raise RollsError(
                f"no keep to choose in a {self.rolls}-roll turn (rolls left {rolls_left!r}): "
                "the first roll is final"
            )
        checked = whole_number(rolls_left, "rolls left", low, high, RollsError)
        return checked

    def keep_fraction(self, keep: Sequence[int], rolls_left: int) -> Fraction | None:
        """Exact ``K_r`` of one keep, ``r`` from 1 to ``rolls`` (None without exact values)."""
        kept = check_keep(keep)
        r = self._rolls_left(rolls_left, 1, self.rolls)
        if self.keep_numerator is None:
            return None
        k = dice_tables().keep_index(kept)
        return Fraction(int(self.keep_numerator[r - 1, k]), 6 ** (N_DICE * r))

    def _candidates(self, hand: Keep, locked: Sequence[int]) -> list[Keep]:
        lock = check_keep(locked, hand, what="locked dice")
        if lock and not self.sticky:
            raise DiceError(f"locked dice {list(locked)} only exist with sticky holds")
        rest = list(hand)
        for d in lock:
            rest.remove(d)
        subs = {tuple(sorted(lock + c)) for n in range(len(rest) + 1)
                for c in itertools.combinations(rest, n)}  # fmt: skip
        return sorted(subs)

    def ranked_keeps(self, dice: Sequence[int], rolls_left: int,
                     locked: Sequence[int] = ()) -> list[KeepOption]:  # fmt: skip
        """Every distinct keep of a hand, best first, by the keep rule (module docstring).

        ``rolls_left`` is 1 to ``rolls - 1``; with sticky holds ``locked`` dice (part of
        the hand) stay kept. Needs no pandas; :meth:`keep_options` is the same list
        as a DataFrame. The first option is the keep the rule plays.
        """
        hand = check_dice(dice)
        r = self._rolls_left(rolls_left, 1, self.rolls - 1)
        t = dice_tables()
        keeps = self._candidates(hand, locked)
        ids = [t.keep_index(k) for k in keeps]
        values = [float(self.keep_value[r - 1, k]) for k in ids]
        if self.keep_numerator is None:
            fractions: list[Fraction | None] = [None] * len(keeps)
            order, ranks = keep_order(values, [len(k) for k in keeps], ids)
        else:
            numerators = [int(self.keep_numerator[r - 1, k]) for k in ids]
            fractions = [Fraction(n, 6 ** (N_DICE * r)) for n in numerators]
            order, ranks = keep_order(numerators, [len(k) for k in keeps], ids)
        return [
            KeepOption(keeps[i], values[i], fractions[i], ranks[i] == 1, ranks[i]) for i in order
        ]

    def keep_options(self, dice: Sequence[int], rolls_left: int,
                     locked: Sequence[int] = ()) -> pd.DataFrame:  # fmt: skip
        """Every distinct keep of a hand, best first (:meth:`ranked_keeps`).

        Columns: ``keep`` (tuple of dice; the whole hand means stop), ``kept``
        (number of dice), ``value`` (expected value), ``fraction`` (exact or None),
        ``best`` (tied for the maximum), ``rank``.
        """
        import pandas as pd

        rows = [
            {"keep": o.keep, "kept": len(o.keep), "value": o.value, "fraction": o.fraction,
             "best": o.best, "rank": o.rank}
            for o in self.ranked_keeps(dice, rolls_left, locked)
        ]  # fmt: skip
        return pd.DataFrame(rows)

    def best_keeps(self, dice: Sequence[int], rolls_left: int,
                   locked: Sequence[int] = ()) -> list[Keep]:  # fmt: skip
        """Return the optimal keeps of a hand (all ties), the one played first."""
        return [o.keep for o in self.ranked_keeps(dice, rolls_left, locked) if o.best]

    def hand_value(self, dice: Sequence[int], rolls_left: int,
                   locked: Sequence[int] = ()) -> float:  # fmt: skip
        """``V_r(h)``: expected value of holding this hand with ``r`` rolls left (0 to rolls-1)."""
        hand = check_dice(dice)
        r = self._rolls_left(rolls_left, 0, self.rolls - 1)
        if r == 0:
            check_keep(locked, hand, what="locked dice")
            return float(self.final_value[dice_tables().hand_index(hand)])
        return max(o.value for o in self.ranked_keeps(hand, r, locked))

    def policy(self, rolls_left: int) -> pd.DataFrame:
        """Tabulate the optimal keeps of all 252 hands with ``rolls_left`` rolls left.

        Columns: ``hand`` (sorted dice), ``value`` (``V_r``), ``fraction``,
        ``best_keeps`` (list of tuples), ``keep`` (the first of them: the keep the
        rule plays), ``probability`` of the hand on one roll of five dice.
        With sticky holds only ``rolls_left = rolls - 1`` (nothing locked yet) is a
        table over hands.
        """
        r = self._rolls_left(rolls_left, 1, self.rolls - 1)
        if self.sticky and r != self.rolls - 1:
            raise RollsError(
                "with sticky holds the policy depends on the locked dice; only "
                f"rolls_left={self.rolls - 1} is a table over hands, got {r}"
            )
        t = dice_tables()
        rows = []
        for h in range(N_HANDS):
            dice = t.hand_of(h)
            opts = self.ranked_keeps(dice, r)
            best = [o.keep for o in opts if o.best]
            rows.append({
                "hand": dice, "value": max(o.value for o in opts),
                "fraction": opts[0].fraction, "best_keeps": best, "keep": best[0],
                "probability": float(t.hand_weight[h]) / 6**N_DICE,
            })  # fmt: skip
        import pandas as pd

        return pd.DataFrame(rows)


def _final_values(values: Target | npt.ArrayLike) -> FloatArray:
    if isinstance(values, str):
        return target_values(values).astype(np.float64)
    array = np.asarray(values)
    if array.dtype == np.bool_ or array.dtype.kind not in "iuf":
        raise TargetError(
            "values must be a combination name or 252 numbers (one per hand; "
            f"bools are not numbers), got {array.dtype} values: {values!r:.80}"
        )
    final = array.astype(np.float64)
    if final.shape != (N_HANDS,):
        raise TargetError(
            f"values must be one number per hand, shape (252,), got shape {final.shape}"
        )
    if not np.all(np.isfinite(final)):
        bad = final[~np.isfinite(final)][0]
        raise TargetError(f"values must be finite numbers, got {bad}")
    return final


def solve_turn(
    values: Target | npt.ArrayLike, *, rolls: int = 3, sticky: bool = False
) -> TurnSolution:
    """Solve the turn for a target name or a value per hand (252 numbers).

    ``rolls`` is 1 to :data:`MAX_ROLLS`; ``sticky`` a bool.

    >>> solve_turn("five of a kind").fraction
    Fraction(347897, 7558272)
    >>> solve_turn("yahtzee", sticky=True).fraction
    Fraction(690169, 15116544)
    """
    rolls = check_rolls(rolls)
    if not isinstance(sticky, bool | np.bool_):
        raise TargetError(f"sticky must be True or False, got {sticky!r}")
    final = _final_values(values)
    final.setflags(write=False)
    numerator: npt.NDArray[Any] | None = None
    if np.all(final == np.round(final)):
        ints = [int(v) for v in final]
        denominator = 6.0 ** (N_DICE * np.arange(1, rolls + 1))[:, None]
        if fits_int64(max(abs(v) for v in ints), rolls):
            numerator = run_kernel(np.array(ints, dtype=np.int64), rolls, bool(sticky))
            keep_value = numerator / denominator
        else:
            numerator = run_python_ints(ints, rolls, bool(sticky))
            scale = [6 ** (N_DICE * r) for r in range(1, rolls + 1)]
            keep_value = np.array(
                [[n / s for n in row] for row, s in zip(numerator, scale, strict=True)]
            )
        numerator.setflags(write=False)
    else:
        keep_value = run_kernel(final, rolls, bool(sticky))
    keep_value.setflags(write=False)
    return TurnSolution(final_value=final, rolls=rolls, sticky=bool(sticky),
                        keep_value=keep_value, keep_numerator=numerator)  # fmt: skip


def success_probability(target: Target, *, rolls: int = 3, sticky: bool = False) -> Fraction:
    """Exact probability of ending the turn on ``target`` with optimal holds (1-20 rolls).

    >>> success_probability("pair") == 1 - Fraction(5, 54) ** 3
    True
    """
    comb = parse_combination(target)
    frac = solve_turn(comb, rolls=rolls, sticky=sticky).fraction
    assert frac is not None  # a 0/1 target is always exact
    return frac
