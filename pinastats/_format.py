"""Number formats shared by the command line and the reports (no heavy imports)."""

from __future__ import annotations


def percent(p: float, digits: int = 2) -> str:
    """A probability as a percentage, small ones with enough digits to tell apart.

    >>> percent(0.366144), percent(0.0092), percent(0.00013), percent(0.0), percent(1e-9)
    ('36.61%', '0.92%', '0.013%', '0%', '<0.001%')
    >>> percent(1.0), percent(0.99999), percent(0.36614, 1), percent(0.9999, 1)
    ('100%', '>99.99%', '36.6%', '>99.9%')
    """
    if p >= 1.0 - 5e-12:
        return "100%"
    if p <= 5e-12:
        return "0%"
    if p < 1e-5:
        return "<0.001%"
    if p < 0.001:
        return f"{100 * p:.3f}%"
    if p < 0.01:
        return f"{100 * p:.{max(digits, 2)}f}%"
    text = f"{100 * p:.{digits}f}%"
    return f">{100 - 10**-digits:.{digits}f}%" if float(text[:-1]) >= 100 else text


def percent_range(low: float, high: float, digits: int = 2) -> str:
    """One percentage, or ``low–high%`` when they differ at this precision.

    >>> percent_range(0.5112, 0.5247, 1), percent_range(0.25, 0.25), percent_range(0.1, 0.2)
    ('51.1–52.5%', '25.00%', '10.00–20.00%')
    """
    a, b = percent(low, digits), percent(high, digits)
    return a if a == b else f"{a.rstrip('%')}–{b}"
