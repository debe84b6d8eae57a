"""Page layout on A4 with matplotlib: text that wraps, real tables, headers and footers.

A :class:`Page` is one A4 figure (at 72 dpi, so a pixel is a point) with a
cursor that moves down the page as paragraphs, tables and charts are added;
positions are in inches from the top-left corner. Text is measured with the
Agg renderer before it is placed, so paragraphs and table cells wrap to their
width instead of running over. :func:`layout_problems` finds text that
overlaps other text or leaves the page, for tests and for a look before
printing.

Fonts: DejaVu Sans (it has ñ, ≤, ≥, ≠ and →), embedded as TrueType
(``pdf.fonttype = 42``) so the PDF's text can be searched and copied.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from matplotlib import rc_context
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.patches import Rectangle
from matplotlib.text import Text
from matplotlib.transforms import Bbox

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


class LayoutError(RuntimeError):
    """Content that does not fit on its page (a bug in a page's design)."""


# ---------------------------------------------------------------- measuring text


@cache
def _renderer() -> RendererAgg:
    return RendererAgg(10, 10, DPI)  # type: ignore[no-untyped-call]


@cache
def _font(size: float, weight: str, italic: bool) -> FontProperties:
    return FontProperties(
        family=FONT, size=size, weight=weight, style="italic" if italic else "normal"
    )


@cache
def measure(text: str, size: float, weight: str = "normal", italic: bool = False) -> float:
    """Width of one line of text in inches."""
    width, _, _ = _renderer().get_text_width_height_descent(  # type: ignore[no-untyped-call]
        text, _font(size, weight, italic), ismath=False
    )
    return float(width) / DPI


def line_height(size: float, spacing: float = 1.3) -> float:
    """Baseline-to-baseline distance of lines of ``size`` points, in inches."""
    return size * spacing / 72


def words(text: str) -> list[str]:
    """The units a line may break between: words, with runs of dice kept together.

    >>> words("keep one each of 2 3 4 5 6")
    ['keep', 'one', 'each', 'of', '2 3 4 5 6']
    >>> words("1 1 2 3 6 → 2 3")
    ['1 1 2 3 6', '→', '2 3']
    """
    out: list[str] = []
    for word in text.split(" "):
        if out and _is_die(word) and _is_die(out[-1].rsplit(" ", 1)[-1]):
            out[-1] += f" {word}"
        else:
            out.append(word)
    return out


def _is_die(word: str) -> bool:
    return len(word) == 1 and word in "123456"


def wrap(
    text: str, width: float, size: float, weight: str = "normal", italic: bool = False,
    *, cut: bool = True,
) -> list[str]:  # fmt: skip
    """Split text into lines no wider than ``width`` inches (a newline forces a break).

    Lines break between :func:`words`. A word longer than the width is cut where
    it must be, or with ``cut=False`` raises :class:`LayoutError` (a table cell
    too narrow for "14.6–55.6%").
    """
    lines: list[str] = []
    for paragraph in text.split("\n"):
        current = ""
        for word in words(paragraph):
            trial = f"{current} {word}" if current else word
            if measure(trial, size, weight, italic) <= width:
                current = trial
                continue
            if current:
                lines.append(current)
            if not cut and measure(word, size, weight, italic) > width:
                raise LayoutError(f"{word!r} is wider than {width:.2f} in at {size} pt")
            while measure(word, size, weight, italic) > width and len(word) > 1:
                end = len(word) - 1
                while end > 1 and measure(word[:end], size, weight, italic) > width:
                    end -= 1
                lines.append(word[:end])
                word = word[end:]
            current = word
        lines.append(current)
    return lines


def natural_width(
    texts: Sequence[str], size: float, weight: str = "normal", pad: float = 0.05
) -> float:
    """The width (inches) a column needs to show each line of its texts unbroken."""
    lines = [line for t in texts for line in t.split("\n")]
    return max((measure(line, size, weight) for line in lines), default=0.0) + 2 * pad + 0.01


def fit_widths(natural: Sequence[float], total: float, flexible: Sequence[bool]) -> list[float]:
    """Column widths summing to ``total``, as close to ``natural`` as the room allows.

    Spare room goes to the flexible columns in proportion to their natural width;
    missing room is taken from them the same way (their text then wraps).

    >>> fit_widths([1.0, 2.0, 1.0], 5.0, [False, True, True])
    [1.0, 2.6666666666666665, 1.3333333333333333]
    """
    fixed = sum(w for w, f in zip(natural, flexible, strict=True) if not f)
    flex = sum(w for w, f in zip(natural, flexible, strict=True) if f)
    if flex <= 0:
        raise LayoutError("no flexible column to fit the table's width")
    scale = (total - fixed) / flex
    if scale <= 0:
        raise LayoutError(f"fixed columns of {fixed:.2f} in leave no room in {total:.2f} in")
    return [w * scale if f else w for w, f in zip(natural, flexible, strict=True)]


# ---------------------------------------------------------------- tables


@dataclass(frozen=True)
class Column:
    """A table column: its title, width in inches and alignment."""

    title: str
    width: float
    align: Align = "left"


@dataclass(frozen=True)
class Cell:
    """A table cell with its own look (a plain ``str`` is a cell with the defaults)."""

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
            raise LayoutError(
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
        rows: Sequence[Sequence[Cell | str]],
        *,
        size: float = 8.5,
        header_size: float | None = None,
        pad: float = 0.05,
        zebra: bool = True,
        x: float | None = None,
        after: float = 0.12,
    ) -> None:
        """A table with a shaded header, light banding and rules above and below.

        Cells wrap to their column's width; a row is as tall as its tallest cell.
        """
        x0 = self.left if x is None else x
        total = sum(c.width for c in columns)
        if x0 + total > self.left + self.width + 1e-6:
            raise LayoutError(f"a table of {total:.2f} in is wider than the page's text")
        hsize = size if header_size is None else header_size
        header = [Cell(c.title, fill=HEADER_FILL, weight="bold") for c in columns]
        grid = [header] + [[c if isinstance(c, Cell) else Cell(c) for c in r] for r in rows]
        sizes = [hsize] + [size] * len(rows)
        wrapped = [
            [
                wrap(cell.text, col.width - 2 * pad, sz, cell.weight or "normal", cut=False)
                for cell, col in zip(row, columns, strict=True)
            ]
            for row, sz in zip(grid, sizes, strict=True)
        ]
        heights = [
            max(len(c) for c in row) * line_height(sz) + 2 * pad - 0.02
            for row, sz in zip(wrapped, sizes, strict=True)
        ]
        self.need(sum(heights), "a table")
        y = self.y
        self.rule(y, x=x0, w=total, width=0.9)
        for r, (row, lines, h, sz) in enumerate(zip(grid, wrapped, heights, sizes, strict=True)):
            band = ZEBRA if zebra and r > 0 and r % 2 == 0 else None
            cx = x0
            for cell, cell_lines, col in zip(row, lines, columns, strict=True):
                fill = cell.fill or band
                if fill:
                    self.rect(cx, y, col.width, h, fill=fill)
                ty = y + (h - len(cell_lines) * line_height(sz)) / 2 + 0.01
                tx = {"left": cx + pad, "right": cx + col.width - pad,
                      "center": cx + col.width / 2}[col.align]  # fmt: skip
                for line in cell_lines:
                    self.text(tx, ty, line, size=sz, weight=cell.weight or "normal",
                              colour=cell.colour or INK, ha=col.align)  # fmt: skip
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


# ---------------------------------------------------------------- checking a page


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
        fig.canvas.draw()
    finally:
        Text.draw = original  # type: ignore[method-assign]
    return drawn


def layout_problems(fig: Figure, *, slack: float = 0.75) -> list[str]:
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
