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

When ``f`` is integer the DP also runs on integers scaled by ``6^{5r}``, so
values and ties are exact and :attr:`TurnSolution.fraction` reproduces
published figures to the last digit (e.g. five of a kind in three rolls:
347897/7558272).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pinastats.dice._kernels import _solve_free, _solve_sticky
from pinastats.dice.combinations import Combination, parse_combination
from pinastats.dice.hands import N_DICE, N_HANDS, N_KEEPS, check_dice, dice_tables

if TYPE_CHECKING:  # pandas is imported on use: a CLI start stays fast without it
    import pandas as pd

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
Target = Combination | str
Keep = tuple[int, ...]

_INT_LIMIT = 2**62
_TIE_RTOL = 1e-9


def target_values(target: Target) -> IntArray:
    """``f(h) = 1`` when hand ``h`` shows the target, else 0 (int64, 252 values)."""
    return parse_combination(target).mask().astype(np.int64)


def points_values(points: Mapping[Target, float]) -> FloatArray:
    """``f(h) = max`` points over the combinations that hand ``h`` shows (0 if none).

    >>> v = points_values({"full house": 3, "pair of 5s": 1})
    >>> float(v[dice_tables().hand_index([5, 5, 5, 3, 3])])
    3.0
    """
    out = np.zeros(N_HANDS)
    for target, p in points.items():
        mask = parse_combination(target).mask()
        out = np.where(mask, np.maximum(out, float(p)), out)
    return out


@cache
def _scales() -> tuple[FloatArray, IntArray]:
    size = dice_tables().keep_size
    return (6.0 ** -(N_DICE - size)).astype(np.float64), (6**size).astype(np.int64)


@cache
def _between() -> tuple[IntArray, IntArray]:
    """For each transition entry (keep k, hand h): the keeps k' with k ⊆ k' ⊆ h."""
    t = dice_tables()
    ptr = [0]
    out: list[int] = []
    for k in range(N_KEEPS):
        kc = t.keep_counts[k]
        for j in range(t.keep_ptr[k], t.keep_ptr[k + 1]):
            free = t.hand_counts[t.keep_hand[j]] - kc
            for extra in itertools.product(*(range(int(x) + 1) for x in free)):
                dice = [f + 1 for f in range(6) for _ in range(int(kc[f]) + extra[f])]
                out.append(t.keep_index(dice))
            ptr.append(len(out))
    return np.array(ptr, dtype=np.int64), np.array(out, dtype=np.int64)


def _run(values: npt.NDArray[np.float64] | IntArray, rolls: int, sticky: bool,
         exact: bool) -> npt.NDArray[Any]:  # fmt: skip
    t = dice_tables()
    scale = _scales()[1] if exact else _scales()[0]
    dtype = np.int64 if exact else np.float64
    keep_value = np.empty((rolls, N_KEEPS), dtype=dtype)
    if sticky:
        ptr, between = _between()
        states = np.empty((rolls, t.keep_hand.shape[0]), dtype=dtype)
        _solve_sticky(
            values, t.keep_ptr, t.keep_hand, t.keep_weight, scale, ptr, between, states, keep_value
        )
    else:
        hands = np.empty((rolls, N_HANDS), dtype=dtype)
        _solve_free(
            values, t.keep_ptr, t.keep_hand, t.keep_weight, scale, t.hand_keep_ptr, t.hand_keep,
            hands, keep_value,
        )  # fmt: skip
    return keep_value


@dataclass(frozen=True)
class KeepOption:
    """One distinct keep of a hand: the dice kept (all five = stop) and what it is worth."""

    keep: Keep
    value: float
    fraction: Fraction | None
    best: bool


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
        keep_numerator: ``(rolls, 462)`` int64 with ``K_r = keep_numerator[r-1] / 6**(5r)``
            when ``f`` is integer-valued and small enough for exact arithmetic, else None.
    """

    final_value: FloatArray
    rolls: int
    sticky: bool
    keep_value: FloatArray
    keep_numerator: IntArray | None

    @property
    def value(self) -> float:
        """Expected value of the whole turn (a probability for a 0/1 target)."""
        return float(self.keep_value[self.rolls - 1, 0])

    @property
    def fraction(self) -> Fraction | None:
        """Exact value of the whole turn, or None if ``f`` is not integer-valued."""
        return self.keep_fraction((), self.rolls)

    def keep_fraction(self, keep: Sequence[int], rolls_left: int) -> Fraction | None:
        """Exact ``K_r`` of one keep (None without exact arithmetic)."""
        if self.keep_numerator is None:
            return None
        k = dice_tables().keep_index(check_dice(keep, count=None, what="keep"))
        return Fraction(int(self.keep_numerator[rolls_left - 1, k]), 6 ** (N_DICE * rolls_left))

    def _check_rolls_left(self, rolls_left: int) -> None:
        if not 0 <= rolls_left < self.rolls:
            raise ValueError(
                f"rolls left must be from 0 to {self.rolls - 1} in a {self.rolls}-roll turn, "
                f"got {rolls_left}"
            )

    def _candidates(self, hand: Keep, locked: Sequence[int]) -> list[Keep]:
        lock = check_dice(locked, count=None, what="locked dice")
        if lock and not self.sticky:
            raise ValueError("locked dice only exist with sticky holds")
        rest = list(hand)
        for d in lock:
            if d not in rest:
                raise ValueError(f"locked dice {list(lock)} are not part of the hand {list(hand)}")
            rest.remove(d)
        subs = {tuple(sorted(lock + c)) for n in range(len(rest) + 1)
                for c in itertools.combinations(rest, n)}  # fmt: skip
        return sorted(subs, key=lambda k: (len(k), k))

    def ranked_keeps(self, dice: Sequence[int], rolls_left: int,
                     locked: Sequence[int] = ()) -> list[KeepOption]:  # fmt: skip
        """Every distinct keep of a hand, best first (value, then most dice kept).

        Needs no pandas (the CLI uses it for a fast start); :meth:`keep_options`
        is the same list as a DataFrame.
        """
        hand = check_dice(dice)
        self._check_rolls_left(rolls_left)
        if rolls_left == 0:
            raise ValueError("no keep to choose with 0 rolls left: the hand is final")
        t = dice_tables()
        keeps = self._candidates(hand, locked)
        values = [float(self.keep_value[rolls_left - 1, t.keep_index(k)]) for k in keeps]
        fractions = [self.keep_fraction(k, rolls_left) for k in keeps]
        if self.keep_numerator is not None:
            top_fraction = max(f for f in fractions if f is not None)
            best = [f == top_fraction for f in fractions]
        else:
            top = max(values)
            best = [v >= top - _TIE_RTOL * max(1.0, abs(top)) for v in values]
        options = [
            KeepOption(k, v, f, b)
            for k, v, f, b in zip(keeps, values, fractions, best, strict=True)
        ]
        return sorted(options, key=lambda o: (-o.value, -len(o.keep)))

    def keep_options(self, dice: Sequence[int], rolls_left: int,
                     locked: Sequence[int] = ()) -> pd.DataFrame:  # fmt: skip
        """Every distinct keep of a hand, best first.

        Columns: ``keep`` (tuple of dice; the whole hand means stop), ``kept``
        (number of dice), ``value`` (expected value), ``fraction`` (exact or None),
        ``best`` (tied for the maximum).
        """
        import pandas as pd

        rows = [
            {"keep": o.keep, "kept": len(o.keep), "value": o.value, "fraction": o.fraction,
             "best": o.best}
            for o in self.ranked_keeps(dice, rolls_left, locked)
        ]  # fmt: skip
        return pd.DataFrame(rows)

    def best_keeps(self, dice: Sequence[int], rolls_left: int,
                   locked: Sequence[int] = ()) -> list[Keep]:  # fmt: skip
        """Return the optimal keeps of a hand (all ties), most dice kept first."""
        df = self.keep_options(dice, rolls_left, locked)
        return list(df.loc[df["best"], "keep"])

    def hand_value(self, dice: Sequence[int], rolls_left: int,
                   locked: Sequence[int] = ()) -> float:  # fmt: skip
        """``V_r(h)``: expected value of holding this hand with ``r`` rolls left."""
        hand = check_dice(dice)
        self._check_rolls_left(rolls_left)
        if rolls_left == 0:
            return float(self.final_value[dice_tables().hand_index(hand)])
        return float(self.keep_options(hand, rolls_left, locked)["value"].iloc[0])

    def policy(self, rolls_left: int) -> pd.DataFrame:
        """Tabulate the optimal keeps of all 252 hands with ``rolls_left`` rolls left.

        Columns: ``hand`` (sorted dice), ``value`` (``V_r``), ``fraction``,
        ``best_keeps`` (list of tuples), ``keep`` (the first of them: most dice
        kept), ``probability`` of the hand on one roll of five dice.
        With sticky holds only ``rolls_left = rolls - 1`` (nothing locked yet) is a
        table over hands.
        """
        self._check_rolls_left(rolls_left)
        if rolls_left == 0:
            raise ValueError("no keep to choose with 0 rolls left: the hand is final")
        if self.sticky and rolls_left != self.rolls - 1:
            raise ValueError("with sticky holds the policy depends on the locked dice; "
                             f"only rolls_left={self.rolls - 1} is a table over hands")  # fmt: skip
        t = dice_tables()
        rows = []
        for h in range(N_HANDS):
            dice = tuple(int(d) for d in t.hand_dice[h])
            opts = self.keep_options(dice, rolls_left)
            best = list(opts.loc[opts["best"], "keep"])
            rows.append({
                "hand": dice, "value": float(opts["value"].iloc[0]),
                "fraction": opts["fraction"].iloc[0], "best_keeps": best, "keep": best[0],
                "probability": float(t.hand_weight[h]) / 6**N_DICE,
            })  # fmt: skip
        import pandas as pd

        return pd.DataFrame(rows)


def solve_turn(
    values: Target | npt.ArrayLike, *, rolls: int = 3, sticky: bool = False
) -> TurnSolution:
    """Solve the turn for a target name or a value per hand (252 numbers).

    >>> solve_turn("five of a kind").fraction
    Fraction(347897, 7558272)
    >>> solve_turn("yahtzee", sticky=True).fraction
    Fraction(690169, 15116544)
    """
    if isinstance(values, str):
        final = target_values(values).astype(np.float64)
    else:
        final = np.asarray(values, dtype=np.float64)
    if final.shape != (N_HANDS,):
        raise ValueError(f"values must be one number per hand, shape (252,), got {final.shape}")
    if not np.all(np.isfinite(final)):
        raise ValueError("values must be finite numbers")
    if isinstance(rolls, bool) or not isinstance(rolls, int | np.integer) or rolls < 1:
        raise ValueError(f"rolls must be a whole number >= 1, got {rolls!r}")
    rolls = int(rolls)
    final.setflags(write=False)
    keep_value = _run(final, rolls, sticky, exact=False)
    numerator = None
    is_int = bool(np.all(final == np.round(final)))
    if is_int and float(np.abs(final).max(initial=0.0)) * 6.0 ** (N_DICE * rolls) < _INT_LIMIT:
        numerator = _run(final.astype(np.int64), rolls, sticky, exact=True)
        numerator.setflags(write=False)
        keep_value = numerator / (6.0 ** (N_DICE * np.arange(1, rolls + 1)))[:, None]
    keep_value.setflags(write=False)
    return TurnSolution(final_value=final, rolls=rolls, sticky=bool(sticky),
                        keep_value=keep_value, keep_numerator=numerator)  # fmt: skip


def success_probability(target: Target, *, rolls: int = 3, sticky: bool = False) -> Fraction:
    """Exact probability of ending the turn on ``target`` with optimal holds.

    >>> success_probability("pair") == 1 - Fraction(5, 54) ** 3
    True
    """
    frac = solve_turn(target, rolls=rolls, sticky=sticky).fraction
    assert frac is not None
    return frac
