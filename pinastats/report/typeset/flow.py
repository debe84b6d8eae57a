"""Text flow: measuring text, breaking it into lines and sharing a width among columns.

Text is measured with the Agg renderer (in inches at :data:`~.style.DPI`) before
it is placed, so paragraphs and table boxes wrap to their width instead of
running over.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.font_manager import FontProperties

from pinastats.report.typeset.style import DPI, FONT


class TypesetError(RuntimeError):
    """Content that does not fit on its page or in its box (a bug in a page's design)."""


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
    it must be, or with ``cut=False`` raises :class:`TypesetError` (a table box
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
                raise TypesetError(f"{word!r} is wider than {width:.2f} in at {size} pt")
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
        raise TypesetError("no flexible column to fit the table's width")
    scale = (total - fixed) / flex
    if scale <= 0:
        raise TypesetError(f"fixed columns of {fixed:.2f} in leave no room in {total:.2f} in")
    return [w * scale if f else w for w, f in zip(natural, flexible, strict=True)]
