"""Confidence intervals for simulated frequencies."""

from __future__ import annotations

import math

from pinastats.dice.errors import at_least, is_number
from pinastats.errors import PinastatsError

Z95 = 1.959963984540054


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
