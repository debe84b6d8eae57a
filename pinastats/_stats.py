"""The 95% intervals of the project, said once: of a rate (Wilson) and of a mean (normal).

Every table with an interval (simulations, reviews, the yardstick, the balance studies,
the coach's objectives, ratings) takes :data:`Z95` and these functions from here.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from pinastats.dice.errors import at_least, is_number
from pinastats.errors import PinastatsError

Z95 = 1.959963984540054
"""The standard normal's 97.5% quantile: a two-sided 95% interval is ``estimate ± Z95·se``."""


def half_width(values: npt.ArrayLike, z: float = Z95) -> float:
    """``z·sd/√n``: the half-width of the normal interval of the mean of ``values``.

    ``sd`` is the sample standard deviation (``n − 1`` in its denominator); NaN
    below two values (no spread is known).

    >>> round(half_width([1.0, 2.0, 3.0]), 4)
    1.1316
    """
    x = np.asarray(values, dtype=float).ravel()
    return z * float(x.std(ddof=1)) / math.sqrt(x.size) if x.size > 1 else math.nan


def mean_interval(values: npt.ArrayLike, z: float = Z95) -> tuple[float, float, float]:
    """The mean of ``values`` and its normal interval, ``mean ± z·sd/√n`` (:func:`half_width`).

    NaN ends below two values; all NaN with none.

    >>> [round(v, 4) for v in mean_interval([1.0, 2.0, 3.0])]
    [2.0, 0.8684, 3.1316]
    """
    x = np.asarray(values, dtype=float).ravel()
    mean = float(x.mean()) if x.size else math.nan
    half = half_width(x, z)
    return mean, mean - half, mean + half


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion (95% by default).

    >>> lo, hi = wilson_interval(50, 100)
    >>> round(lo, 4), round(hi, 4)
    (0.4038, 0.5962)

    ``trials`` is a whole number (0 trials give NaNs: no rate is known), ``successes``
    a number from 0 to ``trials`` (a weighted count may be fractional), ``z`` a
    finite number > 0.
    """
    trials = at_least(trials, "trials", 0)
    if not (is_number(z) and 0 < z < math.inf):
        raise PinastatsError(f"z must be a finite number > 0, got {z!r}")
    if not is_number(successes):
        raise PinastatsError(f"successes must be a number from 0 to trials, got {successes!r}")
    if not 0 <= successes <= trials:
        raise PinastatsError(f"successes must be from 0 to the {trials} trials, got {successes!r}")
    if trials == 0:
        return (math.nan, math.nan)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    # rounding must not put the rate itself outside its interval (e.g. 10 of 10)
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))
