"""Number and word formats shared by the report's pages.

Kept apart from :mod:`pinastats.cli._common` so the library does not depend on
the command line; the formats agree with it.
"""

from __future__ import annotations

from collections.abc import Sequence

from pinastats import _format


def percent(p: float, digits: int = 1) -> str:
    """A percentage, one decimal by default (see :func:`pinastats._format.percent`).

    >>> percent(0.36614), percent(0.0092), percent(0.9999), percent(0.36614, 2)
    ('36.6%', '0.92%', '>99.9%', '36.61%')
    """
    return _format.percent(p, digits)


def percent_range(low: float, high: float, digits: int = 1) -> str:
    """One percentage, or ``low–high%`` when they differ (one decimal by default).

    >>> percent_range(0.5112, 0.5247), percent_range(0.25, 0.25)
    ('51.1–52.5%', '25.0%')
    """
    return _format.percent_range(low, high, digits)


def signed_points(p: float, digits: int = 1) -> str:
    """A difference of two rates in percentage points, with its sign.

    >>> signed_points(0.0178), signed_points(-0.0153), signed_points(0.0)
    ('+1.8 percentage points', '−1.5 percentage points', '±0.0 percentage points')
    """
    value = round(100 * p, digits)
    sign = "+" if value > 0 else "−" if value < 0 else "±"
    return f"{sign}{abs(value):.{digits}f} percentage points"


def points(p: float, digits: int = 1) -> str:
    """A size of a difference of chances, in percentage points.

    >>> points(0.005), points(0.0123, 2)
    ('0.5 percentage points', '1.23 percentage points')
    """
    return f"{100 * p:.{digits}f} percentage points"


def count(n: int) -> str:
    """A count with thousands separators: ``20,000``."""
    return f"{n:,}"


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``."""
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def dice_text(dice: Sequence[int]) -> str:
    """``(2, 2, 5)`` -> ``'2 2 5'``."""
    return " ".join(str(d) for d in dice)


def join_words(items: Sequence[str], last: str = "and") -> str:
    """``a, b and c``.

    >>> join_words(["a"]), join_words(["a", "b"]), join_words(["a", "b", "c"])
    ('a', 'a and b', 'a, b and c')
    """
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} {items[-1]}"


def group_label(names: Sequence[str]) -> str:
    """One short label for several coasters that sit on the same spot of a chart.

    Names sharing all but their last word are merged:

    >>> group_label(["Pair of 1s", "Pair of 2s", "Pair of 3s"])
    'Pair of 1s–3s'
    >>> group_label(["Three 1s", "Three 2s", "Three 6s"])
    'Three 1s / 2s / 6s'
    >>> group_label(["Sum 12-14", "Sum 21-23"])
    'Sum 12-14 / 21-23'
    >>> group_label(["Odds", "Evens"])
    'Odds / Evens'
    """
    if len(names) == 1:
        return names[0]
    heads = {n.rsplit(" ", 1)[0] for n in names}
    if len(heads) == 1 and all(" " in n for n in names):
        head = heads.pop()
        tails = [n.rsplit(" ", 1)[1] for n in names]
        values = [int(t[0]) if len(t) == 2 and t[0].isdigit() else -1 for t in tails]
        if len(tails) > 2 and values == list(range(values[0], values[0] + len(values))):
            return f"{head} {tails[0]}–{tails[-1]}"
        return f"{head} {' / '.join(tails)}"
    return " / ".join(names)
