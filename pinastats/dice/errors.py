"""The errors of the dice engine, and the checks of a whole number (a range, a least value).

Every class is a :class:`pinastats.errors.PinastatsError` (so a ``ValueError``)
whose message names the bad value and what is allowed.
"""

from __future__ import annotations

import math
import numbers
from typing import cast

from pinastats.errors import PinastatsError


class DiceError(PinastatsError):
    """Bad dice: a hand, a keep, locked dice, or a hand / keep index."""


class RollsError(PinastatsError):
    """A bad number of rolls in a turn, or of rolls left in it."""


class TargetError(PinastatsError):
    """A bad target: not a combination name, or a bad value per hand."""


class UnknownCombinationError(TargetError):
    """A name that matches no combination; ``suggestions`` lists the closest."""

    def __init__(self, name: str, suggestions: list[str]) -> None:
        self.name = name
        self.suggestions = suggestions
        hint = f"; did you mean {', '.join(repr(s) for s in suggestions)}?" if suggestions else ""
        super().__init__(
            f"unknown combination {name!r}{hint} (`pinastats targets` lists all of them)"
        )


def is_whole(value: object) -> bool:
    """Whether ``value`` is an integer (Python or NumPy), bools excluded."""
    kind = type(value)
    if kind is int:  # the common case, without the slower ABC check
        return True
    return kind is not bool and isinstance(value, numbers.Integral)


def is_number(value: object) -> bool:
    """Whether ``value`` is a real number (Python or NumPy, ``Fraction`` too), bools excluded."""
    return not isinstance(value, bool) and isinstance(value, numbers.Real)


def is_finite_number(value: object) -> bool:
    """Whether ``value`` is a real number that is neither NaN nor infinite (:func:`is_number`).

    >>> is_finite_number(2.5), is_finite_number(float("nan")), is_finite_number(10**400)
    (True, False, True)
    """
    if not is_number(value):
        return False
    return isinstance(value, numbers.Rational) or math.isfinite(cast("float", value))


def whole_number(value: object, what: str, low: int, high: int, error: type[PinastatsError]) -> int:
    """Return ``value`` as an ``int`` if it is a whole number from ``low`` to ``high``.

    >>> whole_number(3, "rolls", 1, 20, RollsError)
    3
    >>> whole_number(True, "rolls", 1, 20, RollsError)
    Traceback (most recent call last):
    ...
    pinastats.dice.errors.RollsError: rolls must be a whole number from 1 to 20, got True
    """
    if not is_whole(value):
        raise error(f"{what} must be a whole number from {low} to {high}, got {value!r}")
    number = int(cast("numbers.Integral", value))
    if not low <= number <= high:
        raise error(f"{what} must be a whole number from {low} to {high}, got {value!r}")
    return number


def at_least(
    value: object, what: str, least: int, error: type[PinastatsError] = PinastatsError
) -> int:
    """Return ``value`` as an ``int`` if it is a whole number ``>= least`` (a count, a seed).

    >>> at_least(3, "games", 1)
    3
    >>> at_least(0, "games", 1)
    Traceback (most recent call last):
    ...
    pinastats.errors.PinastatsError: games must be a whole number >= 1, got 0
    """
    if not is_whole(value) or cast("numbers.Integral", value) < least:
        raise error(f"{what} must be a whole number >= {least}, got {value!r}")
    return int(cast("numbers.Integral", value))


def at_least_or_none(
    value: object, what: str, least: int, error: type[PinastatsError] = PinastatsError
) -> int | None:
    """:func:`at_least`, or ``None`` for ``None`` (a setting left to its default).

    >>> at_least_or_none(None, "workers", 1) is None
    True
    >>> at_least_or_none(0, "workers", 1)
    Traceback (most recent call last):
    ...
    pinastats.errors.PinastatsError: workers must be a whole number >= 1 or None, got 0
    """
    if value is None:
        return None
    if not is_whole(value) or cast("numbers.Integral", value) < least:
        raise error(f"{what} must be a whole number >= {least} or None, got {value!r}")
    return int(cast("numbers.Integral", value))
