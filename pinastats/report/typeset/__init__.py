"""Typesetting the report's pages on A4 with matplotlib: text flow, tables, charts.

- :mod:`~.style`: page geometry (A4, margins), fonts, colours and the matplotlib
  settings of every page;
- :mod:`~.flow`: measuring text and breaking it into lines, column widths;
- :mod:`~.page`: :class:`Page`, an A4 figure with a cursor moving down as
  titles, paragraphs, notes, tables (:class:`Column`, :class:`Box`) and chart
  axes are added;
- :mod:`~.check`: :func:`page_problems` finds text that overlaps other text or
  leaves the page, for tests and for a look before printing.

Content that does not fit raises :class:`TypesetError`.
"""

from pinastats.report.typeset.check import drawn_texts, page_problems
from pinastats.report.typeset.flow import (
    TypesetError,
    fit_widths,
    line_height,
    measure,
    natural_width,
    words,
    wrap,
)
from pinastats.report.typeset.page import Box, Column, Page
from pinastats.report.typeset.style import (
    A4,
    ACCENT,
    DPI,
    HEADER_FILL,
    INK,
    MUTED,
    NOTE_FILL,
    RC,
    RULE,
    ZEBRA,
    Align,
    style,
)

__all__ = [
    "A4",
    "ACCENT",
    "DPI",
    "HEADER_FILL",
    "INK",
    "MUTED",
    "NOTE_FILL",
    "RC",
    "RULE",
    "ZEBRA",
    "Align",
    "Box",
    "Column",
    "Page",
    "TypesetError",
    "drawn_texts",
    "fit_widths",
    "line_height",
    "measure",
    "natural_width",
    "page_problems",
    "style",
    "words",
    "wrap",
]
