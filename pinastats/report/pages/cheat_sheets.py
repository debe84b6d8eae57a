"""The hold cheat-sheets: one page per coaster that is not of one value, then the one-value page."""

from __future__ import annotations

from functools import partial

from pinastats.report.data import Report
from pinastats.report.holds import HoldSection, HoldSheet
from pinastats.report.pages.spec import PageSpec
from pinastats.report.text import join_words, percent, percent_range
from pinastats.report.typeset import (
    ACCENT,
    INK,
    MUTED,
    Align,
    Box,
    Column,
    Page,
    fit_widths,
    natural_width,
)

SECTION = "Hold cheat-sheets"

DEFINITIONS = {
    "DOUBLE_PAIR": "Two pairs, which may be of the same value: four or five of a kind count.",
    "ODDS": "Every die shows 1, 3 or 5.",
    "EVENS": "Every die shows 2, 4 or 6.",
    "SUM_LE_9": "The five dice add up to 9 or less.",
    "SUM_12_14": "The five dice add up to 12, 13 or 14.",
    "SUM_21_23": "The five dice add up to 21, 22 or 23.",
    "SUM_GE_26": "The five dice add up to 26 or more.",
    "SMALL_STRAIGHT": "1-2-3-4, 2-3-4-5 or 3-4-5-6 among the dice (a large straight counts).",
    "LARGE_STRAIGHT": "1-2-3-4-5 or 2-3-4-5-6.",
    "FOUR_OF_A_KIND": "At least four dice of one value.",
    "FULL_HOUSE": "Three of one value and two of another; five of a kind counts, 4 + 1 does not.",
    "ALL_DIFFERENT": "Five different values (5≠); a large straight counts.",
    "FIVE_OF_A_KIND": "All five dice equal.",
}
"""The meaning of the hard combinations (the project's docs/rules.md), by combination key."""

_HOLD_SIZES = ((11.0, 2), (10.0, 2), (10.0, 1), (9.0, 1), (8.0, 1))
"""Font size and examples per rule of a cheat-sheet, tried in order until the page fits."""


def _section_table(
    sheet: HoldSheet, section: HoldSection, size: float, examples: int, page: Page
) -> None:
    rows: list[list[Box | str]] = []
    for line in section.lines:
        stop = line.keep.startswith("stop")
        keep = Box(line.keep, weight="bold", colour=ACCENT if stop else INK)
        boxes: list[Box | str] = [
            keep, percent_range(line.low, line.high), percent(line.share),
            "\n".join(line.examples[:examples]),
        ]  # fmt: skip
        if sheet.by_shape:
            boxes.insert(0, line.hand)
        rows.append(boxes)
    titles = ["what to keep", "success", "how often", "for example"]
    aligns: list[Align] = ["left", "right", "right", "left"]
    flexible = [True, False, False, False]  # examples stay on one line each
    if sheet.by_shape:
        titles, aligns, flexible = ["your hand", *titles], ["left", *aligns], [True, *flexible]
    natural = [
        max(
            natural_width([c.text if isinstance(c, Box) else c for c in column], size,
                          "bold" if title == "what to keep" else "normal", pad=0.06),
            natural_width([title], 8.5, "bold", pad=0.06) if not flex else 0.0,
        )
        for title, flex, column in zip(titles, flexible, zip(*rows, strict=True), strict=True)
    ]  # fmt: skip
    widths = fit_widths(natural, page.width, flexible)
    columns = [Column(t, w, a) for t, w, a in zip(titles, widths, aligns, strict=True)]
    page.table(columns, rows, size=size, header_size=8.5, pad=0.06)


def hold_page(report: Report, sheet: HoldSheet, size: float, examples: int, page: Page) -> None:
    """A coaster's sheet: its chance and points, then what to keep after rolls 1 and 2.

    ``size`` is the font size of the tables, ``examples`` the example hands per rule.
    """
    row = next((r for r in report.coasters if r.id == sheet.id), None)
    page.title(sheet.name, size=24)
    page.paragraph(
        f"{percent(sheet.probability)} in a turn with these holds (exactly "
        f"{sheet.fraction.numerator}/{sheet.fraction.denominator}).",
        size=10.5, weight="bold", after=0.0,
    )  # fmt: skip
    if row is not None:
        page.paragraph(
            f"Points: side A {row.side_a}, side B {row.side_b[0]} then {row.side_b[1]}. "
            f"Tier {row.tier} for {report.players} players.",
            size=10, after=0.0,
        )  # fmt: skip
    definition = DEFINITIONS.get(sheet.combination.name)
    if definition is not None:
        page.paragraph(definition, size=9.5, colour=MUTED, italic=True, after=0.12)
    page.space(0.08)
    page.note(sheet.summary, size=11.5)
    for section in sheet.sections:
        left = section.rolls_left
        page.heading(f"After roll {section.after_roll} ({left} roll{'s' * (left > 1)} left)",
                     size=13, gap=0.08)  # fmt: skip
        _section_table(sheet, section, size, examples, page)
    page.paragraph(
        f"success: chance of ending the turn on {sheet.name} from such a hand, following this "
        "sheet (a range when the hands of the group differ). how often: chance of holding "
        "such a hand at that point of a turn played by this sheet.",
        size=8, colour=MUTED,
    )  # fmt: skip


def value_page(report: Report, page: Page) -> None:
    """The one rule of the coasters of one value, and its chance by dice held."""
    page.title("Coasters of one value")
    page.paragraph(
        "For a Pair of 3s, Three 5s and the like there is one rule, and the chance depends "
        "only on how many dice of the value you hold, not on the value:",
        size=10,
    )
    page.note("Keep every die showing the value, re-roll the others; stop once you have enough.",
              size=11.5)  # fmt: skip
    for kind in report.value_kinds:
        names = join_words(list(kind.names)) if len(kind.names) <= 2 else (
            f"{kind.names[0]} to {kind.names[-1]}")  # fmt: skip
        page.heading(f"{kind.title} ({names}): {percent(kind.probability)} in a turn", size=12)
        rows: list[list[Box | str]] = []
        for held, (after1, after2) in enumerate(kind.success):
            if held == 0:
                what, keep = "none", "re-roll all five"
            else:
                what = f"{held}"
                keep = "keep it" if held == 1 else f"keep all {held}"
            rows.append([what, Box(keep, weight="bold"), percent(after1), percent(after2)])
        rows.append([f"{kind.needed} or more", Box("stop", weight="bold", colour=ACCENT),
                     "100%", "100%"])  # fmt: skip
        page.table(
            [Column("dice of the value you hold", 2.0), Column("what to keep", 1.7),
             Column("success after roll 1", 1.55, "right"),
             Column("success after roll 2", 1.55, "right")],
            rows, size=11, header_size=9,
        )  # fmt: skip


def specs(report: Report) -> list[PageSpec]:
    """A sheet per coaster (in more compact versions for long ones), then the one-value page."""
    pages = []
    for sheet in report.holds:
        versions = [partial(hold_page, report, sheet, size, n) for size, n in _HOLD_SIZES]
        pages.append(PageSpec(SECTION, versions[0], tuple(versions[1:])))
    if report.value_kinds:
        pages.append(PageSpec(SECTION, partial(value_page, report)))
    return pages
