"""The coaster tier list: a table of every coaster, then a chart of points against chance."""

from __future__ import annotations

from functools import partial

from pinastats.report import charts
from pinastats.report.coasters import TIERS
from pinastats.report.data import Report
from pinastats.report.pages.spec import PageSpec
from pinastats.report.text import percent
from pinastats.report.typeset import Box, Column, Page

SECTION = "Coaster tier list"

TIER_FILLS = {"S": "#bfe3cb", "A": "#dcefd0", "B": "#f6ebc2", "C": "#f8dcc4", "D": "#f2cdc8"}
"""Background of each tier's box."""
COLOUR_FILLS = {"green": "#d7eedf", "blue": "#d6e4f5", "red": "#f5d6d3"}
"""Background of each coaster colour's box."""

ROWS_PER_PAGE = 28

_TIER_COLUMNS = [
    Column("#", 0.3, "right"), Column("coaster", 1.4), Column("colour", 0.55),
    Column("chance in 1 roll", 0.7, "right"), Column("chance in 3 rolls", 0.7, "right"),
    Column("side A points", 0.6, "right"), Column("side B points", 0.65, "right"),
    Column("points per turn, side A", 0.75, "right"),
    Column("points per turn, side B", 0.75, "right"), Column("tier", 0.45, "center"),
]  # fmt: skip


def _in_play(report: Report) -> tuple[bool, bool]:
    return report.b_share < 1, report.b_share > 0


def tier_rows(report: Report) -> list[list[Box | str]]:
    """One row per coaster, best points per turn on the board's sides first."""
    play_a, play_b = _in_play(report)
    rows: list[list[Box | str]] = []
    ranked = sorted(report.coasters, key=lambda r: -r.ev_in_play)
    for i, r in enumerate(ranked, start=1):
        rows.append([
            str(i), Box(r.name, weight="bold"), Box(r.colour, fill=COLOUR_FILLS.get(r.colour)),
            percent(r.one_roll), percent(r.three_rolls), str(r.side_a),
            f"{r.side_b[0]} / {r.side_b[1]}",
            Box(f"{r.ev_a:.2f}", weight="bold" if play_a else None),
            Box(f"{r.ev_b:.2f}", weight="bold" if play_b else None),
            Box(r.tier, fill=TIER_FILLS.get(r.tier), weight="bold"),
        ])  # fmt: skip
    return rows


def tier_page(report: Report, rows: list[list[Box | str]], first: bool, page: Page) -> None:
    """The tier table's ``rows``; the ``first`` page explains the columns."""
    if first:
        play_a, play_b = _in_play(report)
        sides = "side A" if not play_b else "side B" if not play_a else "both sides"
        page.title("Coaster tier list: points against difficulty")
        page.paragraph(
            "Chance: of making the combination with the holds that maximise it, on one roll "
            "and in a full turn of three rolls. Points per turn: the chance in three rolls "
            "times the points of the space (side B: the first token's), for a coaster "
            "targeted alone; the neighbour bonus and the other coasters are left out. "
            f"With {report.players} players the board shows {report.sides_text}, so the "
            f"points per turn of {sides} (bold) decide the tier.",
            size=9,
        )
        thresholds = ", ".join(f"{t} ≥ {share:.0%}" for t, share in TIERS)
        page.paragraph(
            f"Tier: points per turn on the board's sides as a share of the best coaster's: "
            f"{thresholds}, D below. Best first.",
            size=9, after=0.12,
        )  # fmt: skip
    else:
        page.title("Coaster tier list (continued)")
    page.table(_TIER_COLUMNS, rows, size=9)


def scatter_page(report: Report, page: Page) -> None:
    """Points against the chance of scoring them, side A above side B."""
    play_a, play_b = _in_play(report)
    sides = [side for side, in_play in (("A", play_a), ("B", play_b)) if in_play]
    page.title("Points against the chance of scoring them")
    idle = {"A": "B", "B": "A"}[sides[0]] if len(sides) == 1 else ""
    page.paragraph(
        "Each dot is a coaster (coasters on the same spot share a label), coloured by its "
        "colour group. Dashed curves join the spots worth the same expected points per turn "
        "(chance × points): up and to the right pays more."
        + (f" With {report.players} players no coaster shows side {idle}: its points are in "
           "the table only." if idle else ""),
        size=9, after=0.1,
    )  # fmt: skip
    height = (page.room - 0.1) / len(sides) if len(sides) > 1 else min(page.room, 6.0)
    for side in sides:
        ax = page.axes(height, left=0.55, bottom=0.5, top=0.3, right=0.15)
        charts.coaster_scatter(ax, report.coasters, side, True)


def specs(report: Report) -> list[PageSpec]:
    """The tier table (:data:`ROWS_PER_PAGE` coasters a page), then the chart."""
    rows = tier_rows(report)
    pages = [
        PageSpec(
            SECTION, partial(tier_page, report, rows[start : start + ROWS_PER_PAGE], start == 0)
        )
        for start in range(0, len(rows), ROWS_PER_PAGE)
    ]
    return [*pages, PageSpec(SECTION, partial(scatter_page, report))]
