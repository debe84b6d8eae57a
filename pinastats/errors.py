"""The errors pinastats raises for bad input.

Every error caused by what a user gave (dice, hands, keeps, cells, seats,
rolls, names, files) is a :class:`PinastatsError`, itself a ``ValueError``, and
its message names the bad value and what is allowed. Anything else escaping the
API is a bug: the command line prints its traceback instead of one tidy line.
"""

from __future__ import annotations


class PinastatsError(ValueError):
    """Bad input to pinastats; the message names the bad value and what is allowed."""
