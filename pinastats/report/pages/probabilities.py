"""The probabilities page: the chance of each combination in 1, 2 and 3 rolls."""

from __future__ import annotations

from functools import partial

from pinastats.report import charts
from pinastats.report.data import Report
from pinastats.report.pages.spec import PageSpec
from pinastats.report.typeset import Page

SECTION = "Probabilities"


def probability_page(report: Report, page: Page) -> None:
    """A bar chart of every coaster's chance in 1, 2 and 3 rolls."""
    page.title("Chance of each combination in 1, 2 and 3 rolls")
    page.paragraph(
        "With the holds that maximise the chance of that one combination (the cheat-sheets' "
        "holds). The number is the chance in a full turn of three rolls. Exact values: "
        "pinastats targets --coasters.",
        size=9, after=0.05,
    )  # fmt: skip
    ax = page.axes(page.room, left=1.35, bottom=0.5, top=0.4, right=0.2)
    charts.probability_bars(ax, report.coasters)


def specs(report: Report) -> list[PageSpec]:
    """The one page of the section."""
    return [PageSpec(SECTION, partial(probability_page, report))]
