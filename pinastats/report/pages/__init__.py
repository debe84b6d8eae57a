"""The pages of the report, in order, one module per section.

Each section module (:mod:`~.tier_list`, :mod:`~.cheat_sheets`,
:mod:`~.probabilities`, :mod:`~.simulations`, :mod:`~.playing_to_win` (only with win
positions), :mod:`~.guests` (only with guest agents), :mod:`~.designer` (only with
designer games), :mod:`~.strong_play` (only for the shipped game),
:mod:`~.perfect_play` (only for the solved game: the shipped one, two players, no
Happy Hour), :mod:`~.methodology`) gives its pages as :class:`PageSpec` s;
:mod:`~.cover` comes first and lists them.
:func:`plan` lists the pages of a report (how many depends on the catalogue:
one hold cheat-sheet per coaster that is not of one value); :func:`render`
draws them all, numbered "page i of n".
"""

from __future__ import annotations

from collections.abc import Collection

from matplotlib.figure import Figure

from pinastats.report.data import Report
from pinastats.report.pages import (
    cheat_sheets,
    cover,
    designer,
    guests,
    methodology,
    perfect_play,
    playing_to_win,
    probabilities,
    simulations,
    strong_play,
    tier_list,
)
from pinastats.report.pages.spec import PageSpec
from pinastats.report.typeset import Page, TypesetError, style

__all__ = ["PageSpec", "draw_pages", "footer_text", "page_titles", "plan", "render"]

SECTION_MODULES = (
    tier_list, cheat_sheets, probabilities, simulations, playing_to_win, guests, designer,
    strong_play, perfect_play, methodology,
)  # fmt: skip
"""The section modules after the cover, in page order."""


def footer_text(report: Report) -> str:
    """The left part of every footer."""
    variant = " · Happy Hour variant" if report.happy_hour else ""
    return f"Piña Coladice strategy report · {report.players} players{variant}"


def plan(report: Report) -> list[PageSpec]:
    """Every page of the report, in order."""
    body = [spec for section in SECTION_MODULES for spec in section.specs(report)]
    contents: list[tuple[str, int]] = []
    for number, spec in enumerate(body, start=2):
        if not contents or contents[-1][0] != spec.section:
            contents.append((spec.section, number))
    return [cover.spec(report, contents), *body]


def draw_pages(report: Report, sections: Collection[str] | None = None) -> dict[int, Figure]:
    """Draw the pages of ``sections`` (default: all) and the cover, by page index.

    Each page is drawn with its spec's ``draw``, or with its compact forms in turn
    when the text does not fit; numbered "page i of n" in the footer.
    """
    specs = plan(report)
    figures = {}
    with style():
        for i, spec in enumerate(specs):
            if i and sections is not None and spec.section not in sections:
                continue
            for attempt, draw in enumerate((spec.draw, *spec.compact)):
                page = Page(spec.section)
                try:
                    draw(page)
                    break
                except TypesetError:
                    if attempt == len(spec.compact):
                        raise
            page.footer(footer_text(report), i + 1, len(specs))
            figures[i] = page.fig
    return figures


def render(report: Report) -> list[Figure]:
    """Draw every page (under the report's matplotlib style), numbered in the footer."""
    return list(draw_pages(report).values())


def page_titles(report: Report) -> list[str]:
    """The running header of each page (the cover's is empty)."""
    return [spec.section for spec in plan(report)]
