"""Checking a drawn page: text that overlaps other text or leaves the page."""

from __future__ import annotations

from typing import Any

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
    shrunk = [
        (s, Bbox.from_extents(b.x0 + slack, b.y0 + slack, b.x1 - slack, b.y1 - slack))
        for s, b in texts
    ]
    for i, (a, box_a) in enumerate(shrunk):
        for b, box_b in shrunk[i + 1 :]:
            if box_a.overlaps(box_b):
                problems.append(f"overlap: {a!r} and {b!r}")
    return problems
