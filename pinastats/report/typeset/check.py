"""Checking a drawn page: text that overlaps other text or leaves the page."""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.figure import Figure
from matplotlib.text import Text
from matplotlib.transforms import Bbox

from pinastats.report.typeset.style import DPI


def drawn_texts(fig: Figure) -> list[tuple[str, Bbox]]:
    """Every piece of text that drawing ``fig`` puts on the page, with its box in points."""
    drawn: list[tuple[str, Bbox]] = []
    original = Text.draw

    def recording(self: Text, renderer: Any) -> None:
        original(self, renderer)
        if self.get_visible() and self.get_text().strip():
            drawn.append((self.get_text(), self.get_window_extent(renderer)))

    Text.draw = recording  # type: ignore[method-assign, assignment]
    try:
        fig.draw_without_rendering()  # lays every artist out, rasterises nothing
    finally:
        Text.draw = original  # type: ignore[method-assign]
    return drawn


def page_problems(fig: Figure, *, slack: float = 0.75) -> list[str]:
    """Text that leaves the page or overlaps other text (boxes shrunk by ``slack`` points).

    An empty list means every piece of text is on the page and readable.
    """
    texts = drawn_texts(fig)
    width, height = fig.get_size_inches() * DPI
    problems = []
    for s, box in texts:
        if box.x0 < 0.2 * DPI or box.x1 > width - 0.2 * DPI or box.y0 < 0.2 * DPI \
                or box.y1 > height - 0.2 * DPI:  # fmt: skip
            problems.append(f"off the page: {s!r}")
    # every pair of boxes, shrunk by ``slack``, that overlaps (as Bbox.overlaps: edges
    # that touch overlap), as one array comparison instead of a call per pair
    ext = np.array([b.extents for _, b in texts], dtype=np.float64).reshape(-1, 4)
    ext += np.array([slack, slack, -slack, -slack])
    lo = np.minimum(ext[:, :2], ext[:, 2:])
    hi = np.maximum(ext[:, :2], ext[:, 2:])
    overlap = ((lo[None, :, :] <= hi[:, None, :]) & (hi[None, :, :] >= lo[:, None, :])).all(axis=2)
    for i, j in zip(*np.nonzero(np.triu(overlap, k=1)), strict=True):
        problems.append(f"overlap: {texts[i][0]!r} and {texts[j][0]!r}")
    return problems
