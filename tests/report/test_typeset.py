"""The typesetting: what does not fit raises TypesetError, and the page check finds bad text."""

from __future__ import annotations

import re

import pytest

from pinastats.report.typeset import (
    A4,
    Column,
    Page,
    TypesetError,
    fit_widths,
    measure,
    page_problems,
    style,
    wrap,
)


def test_page_check_finds_overlaps_and_text_off_the_page() -> None:
    with style():
        page = Page("a test")
        page.text(page.left, 3.0, "first line of text")
        page.text(page.left + 0.3, 3.02, "second line, on top")
        page.text(A4[0] - 0.3, 5.0, "runs off the right edge")
        problems = page_problems(page.fig)
    assert "overlap: 'first line of text' and 'second line, on top'" in problems
    assert "off the page: 'runs off the right edge'" in problems
    assert len(problems) == 2


def test_overlaps_are_those_of_comparing_every_pair_of_boxes() -> None:
    """The array comparison finds exactly the pairs ``Bbox.overlaps`` finds (touching edges too)."""
    from matplotlib.transforms import Bbox

    from pinastats.report.typeset.check import drawn_texts

    with style():
        page = Page("a test")
        for i in range(12):  # a staircase of lines, some on top of others, some apart
            page.text(page.left + 0.4 * (i % 4), 2.0 + 0.09 * i, f"line {i} of a staircase")
        page.text(page.left, 8.0, "x")  # narrower than twice the slack: its box turns inside out
        page.text(page.left + 0.02, 8.0, "y")
        problems = [p for p in page_problems(page.fig, slack=0.75) if p.startswith("overlap")]
        texts = drawn_texts(page.fig)
    shrunk = [(s, Bbox.from_extents(b.x0 + 0.75, b.y0 + 0.75, b.x1 - 0.75, b.y1 - 0.75))
              for s, b in texts]  # fmt: skip
    expected = [
        f"overlap: {a!r} and {b!r}"
        for i, (a, box_a) in enumerate(shrunk)
        for b, box_b in shrunk[i + 1 :]
        if box_a.overlaps(box_b)
    ]
    assert len(expected) > 3
    assert problems == expected


def test_a_clean_page_has_no_problems() -> None:
    with style():
        page = Page("a test")
        page.title("A title")
        page.paragraph("A paragraph long enough to wrap onto a second line. " * 4)
        page.table([Column("a", 1.0), Column("b", 1.0, "right")], [["x", "1"], ["y", "2"]])
        assert page_problems(page.fig) == []


def test_what_does_not_fit_raises() -> None:
    with style():
        page = Page("a test")
        page.y = page.bottom - 0.1
        with pytest.raises(TypesetError, match=r"a paragraph needs 0\.\d+ in but only 0\.10 in"):
            page.paragraph("no room left")
        page = Page("a test")
        with pytest.raises(TypesetError, match="wider than the page's text"):
            page.table([Column("wide", page.width + 0.5)], [["x"]])
    with pytest.raises(TypesetError, match=re.escape("'14.6–55.6%' is wider than 0.30 in")):
        wrap("14.6–55.6%", 0.3, 9, cut=False)
    with pytest.raises(TypesetError, match="no flexible column"):
        fit_widths([1.0, 1.0], 3.0, [False, False])
    word = "abcdefghij" * 3
    lines = wrap(word, 0.5, 9)  # cut where it must be
    assert len(lines) > 1
    assert "".join(lines) == word
    assert all(measure(line, 9) <= 0.5 for line in lines)
