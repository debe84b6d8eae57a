"""The hold cheat-sheets: one page per coaster that is not of one value, then the one-value page."""

from __future__ import annotations

from functools import partial

from pinastats.dice.combinations import Combination
from pinastats.holds.decision_learn import TOLERANCE
from pinastats.holds.decision_list import Action
from pinastats.report.data import Report
from pinastats.report.holds import HoldSection, HoldSheet
from pinastats.report.pages.spec import PageSpec
from pinastats.report.text import dice_text, join_words, percent, percent_range, points
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
_REROLL_ALL = "re-roll\u00a0all"  # a no-break space: the two words stay on one line


def definition(combination: Combination) -> str:
    """What a coaster's combination means on the five dice: the combination's own description."""
    return combination.description


_HOLD_SIZES = ((10.5, 2), (10.0, 1), (9.0, 1), (8.5, 1))
"""Font size and examples per rule of a cheat-sheet, tried in order until the page fits."""


def _example(hand: tuple[int, ...], keep: tuple[int, ...]) -> str:
    if keep == hand:
        return dice_text(hand)
    return f"{dice_text(hand)} → {dice_text(keep) if keep else _REROLL_ALL}"


def _section_table(
    sheet: HoldSheet, section: HoldSection, size: float, examples: int, page: Page
) -> None:
    stage = section.stage
    later = [s for s in sheet.lists.stages if s.rolls_left in section.rolls_left]
    rows: list[list[Box | str]] = []
    for i, (rule, line) in enumerate(zip(stage.rules.rules, stage.rules.lines(), strict=True)):
        stop = rule.keep.action is Action.STOP
        outside = i >= stage.exact_rules
        text = line + (" (not always within the tolerance: see below)" if outside else "")
        uses = [s.uses[i] for s in later]
        rows.append([
            f"{i + 1}.", Box(text, weight="bold", colour=ACCENT if stop else INK),
            " / ".join(percent(u.share) for u in uses),
            "\n".join(percent_range(u.low, u.high) for u in uses),
            "\n".join(_example(h, k) for h, k in stage.uses[i].examples[:examples]),
        ])  # fmt: skip
    both = " (roll 1 / roll 2)" if len(later) > 1 else ""
    titles = ["", "rule (use the first that fits)", f"how often{both}", "success", "for example"]
    aligns: list[Align] = ["right", "left", "right", "right", "left"]
    flexible = [False, True, False, False, False]
    natural = [
        max(
            natural_width([c.text if isinstance(c, Box) else c for c in column], size,
                          "bold" if flex else "normal", pad=0.06),
            natural_width([title], 8.5, "bold", pad=0.06) if not flex else 0.0,
        )
        for title, flex, column in zip(titles, flexible, zip(*rows, strict=True), strict=True)
    ]  # fmt: skip
    widths = fit_widths(natural, page.width, flexible)
    columns = [Column(t, w, a) for t, w, a in zip(titles, widths, aligns, strict=True)]
    page.table(columns, rows, size=size, header_size=8.5, pad=0.06)
    if not stage.exact:
        hand = stage.missed[0]
        page.paragraph(
            f"{stage.exact_rules} rules cover {percent(stage.coverage, 2)} of the hands held here "
            f"within {points(TOLERANCE)} of the best keep; otherwise rule "
            f"{stage.exact_rules + 1} may lose more, up to {points(stage.worst)} "
            f"(e.g. {dice_text(hand)}).",
            size=8.5, colour=MUTED, after=0.04,
        )  # fmt: skip


def _stage_heading(section: HoldSection) -> str:
    if len(section.after_rolls) == 2:
        return "After roll 1 and after roll 2 (the same list)"
    left = section.rolls_left[0]
    return f"After roll {section.after_rolls[0]} ({left} roll{'s' * (left > 1)} left)"


def hold_page(report: Report, sheet: HoldSheet, size: float, examples: int, page: Page) -> None:
    """A coaster's sheet: its chance and points, then its decision list(s).

    ``size`` is the font size of the tables, ``examples`` the example hands per rule.
    """
    row = next((r for r in report.coasters if r.id == sheet.id), None)
    page.title(sheet.name, size=24)
    page.paragraph(
        f"{percent(sheet.probability, 2)} in a turn with optimal holds (exactly "
        f"{sheet.fraction.numerator}/{sheet.fraction.denominator}), "
        f"{percent(sheet.lists.played, 2)} following this sheet.",
        size=10.5, weight="bold", after=0.0,
    )  # fmt: skip
    if row is not None:
        page.paragraph(
            f"Points: side A {row.side_a}, side B {row.side_b[0]} then {row.side_b[1]}. "
            f"Tier {row.tier} for {report.players} players.",
            size=10, after=0.0,
        )  # fmt: skip
    page.paragraph(definition(sheet.combination), size=9.5, colour=MUTED, italic=True, after=0.12)
    page.space(0.08)
    page.note("Read the rules in order and use the first one that fits your dice.", size=11)
    for section in sheet.sections:
        page.heading(_stage_heading(section), size=13, gap=0.08)
        _section_table(sheet, section, size, examples, page)
    page.paragraph(
        f"Each rule keeps dice whose chance of ending the turn on {sheet.name} is within "
        f"{points(TOLERANCE)} of the best keep's, for every hand it decides (checked on all "
        "252 hands). Where a rule allows several keeps (\"any four that do\", \"any one\"), "
        "every one of them is. how often: chance that the rule decides, at that point of a "
        "turn played by this sheet. success: chance of ending the turn on the coaster from a "
        "hand the rule decides (after roll 1 above, after roll 2 below, when one list serves "
        "both).",
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
