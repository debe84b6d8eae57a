"""An A4 page with a cursor: titles, paragraphs, notes, tables and chart axes.

A :class:`Page` is one A4 figure (at 72 dpi, so a pixel is a point) with a
cursor that moves down the page as content is added; positions are in inches
from the top-left corner. A table is :class:`Column` titles over rows of
:class:`Box` es (or plain strings); every block checks that it fits above the
footer and raises :class:`~.flow.TypesetError` otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.text import Text

from pinastats.report.typeset.flow import TypesetError, line_height, wrap
from pinastats.report.typeset.style import (
    A4,
    ACCENT,
    ASCENT,
    BOTTOM,
    DPI,
    HEADER_FILL,
    INK,
    MARGIN,
    MUTED,
    NOTE_FILL,
    RULE,
    TOP,
    ZEBRA,
    Align,
)

# ---------------------------------------------------------------- tables


@dataclass(frozen=True)
class Column:
    """A table column: its title, width in inches and alignment."""

    title: str
    width: float
    align: Align = "left"


@dataclass(frozen=True)
class Box:
    """One box of a table: its text and its own look (a plain ``str`` is a box with the defaults).

    ``fill`` is its background colour, ``weight`` and ``colour`` those of its text.
    """

    text: str
    fill: str | None = None
    weight: str | None = None
    colour: str | None = None


# ---------------------------------------------------------------- the page


class Page:
    """One A4 page being laid out; ``y`` is the cursor in inches from the top."""

    def __init__(self, section: str) -> None:
        self.section = section
        self.fig = Figure(figsize=A4, dpi=DPI)
        FigureCanvasAgg(self.fig)
        self.y = TOP
        self.left = MARGIN
        self.width = A4[0] - 2 * MARGIN
        if section:
            self.text(self.left, 0.45, section.upper(), size=7.5, colour=MUTED, weight="bold")
            self.rule(0.6, colour=RULE, width=0.6)

    # -------------------------------------------------- primitives

    @property
    def bottom(self) -> float:
        """The lowest position content may reach (inches from the top)."""
        return A4[1] - BOTTOM

    @property
    def room(self) -> float:
        """Height left between the cursor and the footer (inches)."""
        return self.bottom - self.y

    def need(self, height: float, what: str) -> None:
        """Fail if ``height`` inches do not fit below the cursor."""
        if height > self.room + 1e-9:
            raise TypesetError(
                f"{what} needs {height:.2f} in but only {self.room:.2f} in are left "
                f"on the page '{self.section}'"
            )

    def _fx(self, x: float) -> float:
        return x / A4[0]

    def _fy(self, y: float) -> float:
        return 1 - y / A4[1]

    def text(
        self,
        x: float,
        y: float,
        s: str,
        *,
        size: float = 9.5,
        weight: str = "normal",
        colour: str = INK,
        ha: Align = "left",
        va: str = "top",
        italic: bool = False,
    ) -> Text:
        """Place one line of text, ``y`` inches from the top of the page.

        With ``va="top"`` (the default), ``y`` is the top of the line: the text sits
        on a baseline :data:`ASCENT` of its size lower, so lines line up whatever
        their letters (matplotlib's own "top" moves a line down under an Ñ).
        """
        if va == "top":
            va, y = "baseline", y + ASCENT * size / 72
        return self.fig.text(
            self._fx(x), self._fy(y), s, fontsize=size, fontweight=weight, color=colour,
            ha=ha, va=va, style="italic" if italic else "normal", parse_math=False,
        )  # fmt: skip

    def rect(
        self, x: float, y: float, w: float, h: float, *, fill: str, edge: str | None = None
    ) -> None:
        """A filled rectangle, top-left corner at ``(x, y)``."""
        self.fig.patches.append(
            Rectangle(
                (self._fx(x), self._fy(y + h)), w / A4[0], h / A4[1],
                transform=self.fig.transFigure, facecolor=fill,
                edgecolor=edge or "none", linewidth=0.6 if edge else 0, zorder=0,
            )
        )  # fmt: skip

    def rule(
        self, y: float, *, x: float | None = None, w: float | None = None,
        colour: str = INK, width: float = 0.8,
    ) -> None:  # fmt: skip
        """A horizontal line at ``y`` (default: across the text width)."""
        x0 = self.left if x is None else x
        x1 = x0 + (self.width if w is None else w)
        self.fig.add_artist(_line(self._fx(x0), self._fx(x1), self._fy(y), colour, width, self.fig))

    def space(self, h: float) -> None:
        """Move the cursor down ``h`` inches."""
        self.y += h

    # -------------------------------------------------- text blocks

    def title(self, s: str, *, size: float = 18, colour: str = ACCENT) -> None:
        """A page title."""
        self.need(line_height(size), "a title")
        for line in wrap(s, self.width, size, "bold"):
            self.text(self.left, self.y, line, size=size, weight="bold", colour=colour)
            self.y += line_height(size, 1.25)
        self.y += 0.08

    def heading(self, s: str, *, size: float = 12, gap: float = 0.12) -> None:
        """A section heading, with ``gap`` inches above it."""
        self.y += gap
        self.need(line_height(size) + 0.3, f"the heading {s!r}")
        self.text(self.left, self.y, s, size=size, weight="bold", colour=ACCENT)
        self.y += line_height(size, 1.45)

    def paragraph(
        self, s: str, *, size: float = 9.5, x: float | None = None, width: float | None = None,
        colour: str = INK, weight: str = "normal", italic: bool = False, after: float = 0.08,
    ) -> None:  # fmt: skip
        """Wrapped text from the cursor down."""
        x = self.left if x is None else x
        width = self.left + self.width - x if width is None else width
        lines = wrap(s, width, size, weight, italic)
        self.need(len(lines) * line_height(size), "a paragraph")
        for line in lines:
            self.text(x, self.y, line, size=size, colour=colour, weight=weight, italic=italic)
            self.y += line_height(size)
        self.y += after

    def bullets(self, items: Sequence[str], *, size: float = 9.5, after: float = 0.06) -> None:
        """A bulleted list; each item wraps under its own first word."""
        indent = 0.2
        for item in items:
            self.text(self.left + 0.04, self.y, "•", size=size, colour=ACCENT)
            self.paragraph(item, size=size, x=self.left + indent, after=after)

    def note(self, s: str, *, size: float = 10, fill: str = NOTE_FILL, bold: bool = True) -> None:
        """Text in a tinted box across the text width."""
        pad = 0.1
        lines = wrap(s, self.width - 2 * pad, size, "bold" if bold else "normal")
        h = len(lines) * line_height(size) + 2 * pad - 0.03
        self.need(h, "a note")
        self.rect(self.left, self.y, self.width, h, fill=fill)
        y = self.y + pad
        for line in lines:
            self.text(self.left + pad, y, line, size=size, weight="bold" if bold else "normal",
                      colour=ACCENT)  # fmt: skip
            y += line_height(size)
        self.y += h + 0.12

    # -------------------------------------------------- tables

    def table(
        self,
        columns: Sequence[Column],
        rows: Sequence[Sequence[Box | str]],
        *,
        size: float = 8.5,
        header_size: float | None = None,
        pad: float = 0.05,
        zebra: bool = True,
        x: float | None = None,
        after: float = 0.12,
    ) -> None:
        """A table with a shaded header, light banding and rules above and below.

        Boxes wrap to their column's width; a row is as tall as its tallest box.
        """
        x0 = self.left if x is None else x
        total = sum(c.width for c in columns)
        if x0 + total > self.left + self.width + 1e-6:
            raise TypesetError(f"a table of {total:.2f} in is wider than the page's text")
        hsize = size if header_size is None else header_size
        header = [Box(c.title, fill=HEADER_FILL, weight="bold") for c in columns]
        grid = [header] + [[c if isinstance(c, Box) else Box(c) for c in r] for r in rows]
        sizes = [hsize] + [size] * len(rows)
        wrapped = [
            [
                wrap(box.text, col.width - 2 * pad, sz, box.weight or "normal", cut=False)
                for box, col in zip(row, columns, strict=True)
            ]
            for row, sz in zip(grid, sizes, strict=True)
        ]
        heights = [
            max(len(b) for b in row) * line_height(sz) + 2 * pad - 0.02
            for row, sz in zip(wrapped, sizes, strict=True)
        ]
        self.need(sum(heights), "a table")
        y = self.y
        self.rule(y, x=x0, w=total, width=0.9)
        for r, (row, lines, h, sz) in enumerate(zip(grid, wrapped, heights, sizes, strict=True)):
            band = ZEBRA if zebra and r > 0 and r % 2 == 0 else None
            cx = x0
            for box, box_lines, col in zip(row, lines, columns, strict=True):
                fill = box.fill or band
                if fill:
                    self.rect(cx, y, col.width, h, fill=fill)
                ty = y + (h - len(box_lines) * line_height(sz)) / 2 + 0.01
                tx = {"left": cx + pad, "right": cx + col.width - pad,
                      "center": cx + col.width / 2}[col.align]  # fmt: skip
                for line in box_lines:
                    self.text(tx, ty, line, size=sz, weight=box.weight or "normal",
                              colour=box.colour or INK, ha=col.align)  # fmt: skip
                    ty += line_height(sz)
                cx += col.width
            y += h
            if r == 0:
                self.rule(y, x=x0, w=total, width=0.6)
        self.rule(y, x=x0, w=total, width=0.9)
        self.y = y + after

    # -------------------------------------------------- charts

    def axes(
        self, height: float, *, x: float | None = None, width: float | None = None,
        left: float = 0.5, bottom: float = 0.45, top: float = 0.25, right: float = 0.1,
    ) -> Axes:  # fmt: skip
        """Axes in a box of ``height`` inches below the cursor.

        ``left``, ``bottom``, ``top`` and ``right`` are the room kept inside the box
        for tick labels, axis labels and the title.
        """
        x = self.left if x is None else x
        width = self.left + self.width - x if width is None else width
        self.need(height, "a chart")
        box = (
            self._fx(x + left),
            self._fy(self.y + height - bottom),
            (width - left - right) / A4[0],
            (height - bottom - top) / A4[1],
        )
        ax = self.fig.add_axes(box)
        ax.spines[["top", "right"]].set_visible(False)
        self.y += height
        return ax

    # -------------------------------------------------- footer

    def footer(self, left: str, number: int, total: int) -> None:
        """The footer: a rule, ``left`` text and "page i of n"."""
        y = A4[1] - 0.55
        self.rule(y, colour=RULE, width=0.6)
        self.text(self.left, y + 0.08, left, size=7.5, colour=MUTED)
        self.text(self.left + self.width, y + 0.08, f"page {number} of {total}", size=7.5,
                  colour=MUTED, ha="right")  # fmt: skip


def _line(x0: float, x1: float, y: float, colour: str, width: float, fig: Figure) -> Any:
    from matplotlib.lines import Line2D

    return Line2D([x0, x1], [y, y], transform=fig.transFigure, color=colour, linewidth=width)
