"""The cover: title, headline findings and contents."""

from __future__ import annotations

from functools import partial

from pinastats.report.data import Report
from pinastats.report.findings import headlines
from pinastats.report.pages.spec import PageSpec
from pinastats.report.text import count
from pinastats.report.typeset import ACCENT, MUTED, Column, Page

SECTIONS = {
    "Coaster tier list": "what each coaster is worth per turn, with a chart",
    "Hold cheat-sheets": "what to keep after roll 1 and roll 2, per coaster",
    "Probabilities": "the chance of each combination in 1, 2 and 3 rolls",
    "Simulations": "agents, first-player advantage, how games end, coasters in play",
    "Playing to win": "the chance to win against the points of this turn: where they differ",
    "Your agents": "your agents against the built-in ones: win rates and verdicts",
    "Designer's notes": "fair starting scores, what-if rules, suggested coaster points",
    "Strong play": "do the findings hold when both sides play well? The strength ladder",
    "Perfect play": "exact chances on solved boards, and the agents graded",
    "Methodology and assumptions": "catalogue, rules as modelled, runs, software",
}
"""What each section of the contents holds."""


def cover_page(
    report: Report, contents: list[tuple[str, int]], page: Page, size: float = 10
) -> None:
    """Title, headline findings and ``contents``: ``(section, first page)`` pairs.

    ``size``: the headlines' size in points; below 10 the page is set tighter (the
    compact forms of :func:`spec`), at 9 tightest.
    """
    sims = report.simulations
    runs = 1 + len(sims.matchups)
    tight = size <= 9
    page.y = 0.8 if tight else 1.0
    page.text(page.left, page.y, "Piña Coladice", size=30, weight="bold", colour=ACCENT)
    page.y += 0.6
    variant = ", Happy Hour variant" if report.happy_hour else ""
    page.text(page.left, page.y, f"Strategy report for {report.players} players{variant}",
              size=16, weight="bold")  # fmt: skip
    page.y += 0.4
    rows, cols = report.layout.shape
    page.paragraph(
        f"The {report.layout_name} {rows}×{cols} board with {report.sides_text}. Exact turn "
        f"probabilities for the {len(report.coasters)} coasters of the catalogue, and {runs} × "
        f"{count(sims.games)} simulated games (seed {sims.seed}).",
        colour=MUTED,
    )
    page.rule(page.y + 0.05, colour=ACCENT, width=1.2)
    page.y += 0.15
    page.heading("Headline findings", size=13)
    page.bullets(headlines(report), size=size, after=0.1 if size >= 10 else 0.04 if tight else 0.06)
    page.heading("Contents", size=13)
    page.table(
        [Column("section", 2.2), Column("what you find there", 4.0), Column("page", 0.6, "right")],
        [[name, SECTIONS.get(name, ""), str(number)] for name, number in contents],
        size=min(size, 9.5), pad=0.035 if tight else 0.05, zebra=False,
    )  # fmt: skip
    page.paragraph(
        "Exact numbers (chances, expected points, cheat-sheets) come from solving the turn; "
        "simulated ones (win rates, game ends and lengths) carry 95% confidence intervals. "
        "The last pages say how everything was computed and what was assumed.",
        size=8 if tight else 8.5, colour=MUTED,
    )  # fmt: skip


def spec(report: Report, contents: list[tuple[str, int]]) -> PageSpec:
    """The cover's page (no running header); smaller headlines when they do not fit."""
    return PageSpec(
        "",
        partial(cover_page, report, contents),
        compact=tuple(partial(cover_page, report, contents, size=s) for s in (9.5, 9)),
    )
