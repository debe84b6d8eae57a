"""The look of every page: A4 geometry, fonts and colours (matplotlib settings).

Positions are in inches from the top-left corner of the page; at :data:`DPI`
72 a pixel is a point. Fonts: DejaVu Sans (it has ñ, ≤, ≥, ≠ and →), embedded
as TrueType (``pdf.fonttype = 42``) so the PDF's text can be searched and copied.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Literal

from matplotlib import rc_context

A4 = (8.27, 11.69)
"""Page size in inches (portrait)."""
MARGIN = 0.7
"""Left and right margins (inches)."""
TOP = 0.95
"""Where the content starts, below the running header (inches from the top)."""
BOTTOM = 0.85
"""Height kept free at the bottom for the footer (inches)."""
DPI = 72
FONT = "DejaVu Sans"
ASCENT = 0.8
"""Height of a line's capitals and ascenders above its baseline, in ems (DejaVu Sans)."""

INK = "#1f2933"
MUTED = "#5b6775"
ACCENT = "#1d4e89"
RULE = "#9aa5b1"
HEADER_FILL = "#d9e2ec"
ZEBRA = "#f2f5f8"
NOTE_FILL = "#eaf1f8"

RC: dict[Any, Any] = {
    "pdf.fonttype": 42,
    "ps.fonttype": 42,
    "font.family": "sans-serif",
    "font.sans-serif": [FONT],
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.labelsize": 9,
    "axes.edgecolor": RULE,
    "axes.labelcolor": INK,
    "xtick.color": MUTED,
    "ytick.color": MUTED,
    "xtick.labelcolor": INK,
    "ytick.labelcolor": INK,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "legend.fontsize": 8,
    "legend.frameon": False,
    "text.color": INK,
    "axes.unicode_minus": True,
    "hatch.linewidth": 0.5,
}
"""matplotlib settings of every page (apply with :func:`style`)."""

Align = Literal["left", "right", "center"]


@contextmanager
def style() -> Iterator[None]:
    """Apply :data:`RC` while pages are drawn and saved."""
    with rc_context(RC):
        yield
