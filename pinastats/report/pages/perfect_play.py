"""Perfect play: the two-player findings on solved boards, and the agents graded by them.

Only in a report of the solved game (the shipped game, two players, no Happy
Hour): the shipped measurements of ``data/perfect-play.json``
(:mod:`pinastats.balance.perfect`). Every number is computed from that file when
the page is drawn (its sizes and seed too) and names what stands behind it:
the exact solution of each board, or the agent it grades.
"""

from __future__ import annotations

import math

from pinastats.balance.perfect import (
    PERFECT,
    RULEBOOK,
    PerfectPlay,
    coaster_worth,
    comparisons,
    starting_scores_table,
)
from pinastats.balance.strong import AGENTS, BASELINE, STRONG
from pinastats.report import perfect_figures
from pinastats.report.data import Report
from pinastats.report.pages.spec import PageSpec
from pinastats.report.perfect_text import (
    SOLVED,
    first_player_words,
    ranking,
    rulebook_text,
    rulebook_tokens,
    setting,
    tokens_text,
)
from pinastats.report.text import count, percent, percent_range
from pinastats.report.typeset import MUTED, Box, Column, Page

SECTION = "Perfect play"


def _pp(report: Report) -> PerfectPlay:
    assert report.perfect_play is not None
    return report.perfect_play


def _signed(p: float) -> str:
    """A change of chance in points: ``+14.5``, ``−12.2``, ``±0.0``."""
    value = round(100 * p, 1)
    sign = "+" if value > 0 else "−" if value < 0 else "±"
    return f"{sign}{abs(value):.1f}"


def _interval(low: float, high: float) -> str:
    return "—" if math.isnan(low) else percent_range(low, high)


def _verdict(text: str) -> Box:
    return Box(text, weight="bold" if text.startswith("changes") else "normal")


def first_page(report: Report, page: Page, chart: float = 2.6) -> None:
    """What is solved, the first player's exact chance, the starting scores, the verdicts."""
    pp = _pp(report)
    page.title("Perfect play (two players)")
    page.paragraph(
        "The two-player base game (no Happy Hour) is solved exactly, board by board "
        f"(pinastats solve, {SOLVED}): on a solved board the chance of every position when "
        "both players play perfectly is known, so the numbers of these pages rest on no "
        f"agent's play. Solved here: {setting(pp)}, never used to train or tune an agent; the "
        f"rulebook's starting scores {rulebook_text()} unless a row says otherwise. Over "
        "boards a mean carries a 95% normal interval (the boards are a random sample of deals; "
        "each board's value is exact).",
        size=9, after=0.04,
    )  # fmt: skip
    page.heading("The first player's chance", size=11, gap=0.04)
    page.paragraph(f"Perfect play: {first_player_words(pp)}.", size=9, after=0.0)
    ax = page.axes(chart, left=0.55, bottom=0.45, top=0.35, right=0.2)
    perfect_figures.first_player_chart(ax, pp)
    starts = starting_scores_table(pp)
    if not starts.empty:
        page.heading("Starting scores", size=11, gap=0.0)
        page.paragraph(
            "The first player's exact chance with other starting scores (first player, second "
            f"player), perfect play on the same {count(int(starts['boards'].max()))} boards; the "
            "change is against the rulebook's on each board. Bold: the vector nearest 50%.",
            size=8.5, after=0.04,
        )  # fmt: skip
        nearest = starts["distance"].idxmin()
        rows: list[list[Box | str]] = []
        for i, r in starts.iterrows():
            weight = "bold" if i == nearest else "normal"
            rulebook = tuple(int(x) for x in str(r["starting_scores"]).split(",")) == RULEBOOK
            rows.append([
                Box(f"({r['starting_scores']})" + (", the rulebook's" if rulebook else ""),
                    weight=weight),
                str(int(r["boards"])),
                Box(percent(float(r["first_chance"])), weight=weight),
                _interval(float(r["low"]), float(r["high"])),
                "—" if rulebook else f"{_signed(float(r['change']))} "
                f"[{_signed(float(r['change_low']))}, {_signed(float(r['change_high']))}]",
            ])  # fmt: skip
        page.table(
            [Column("starting scores", 1.7), Column("boards", 0.6, "right"),
             Column("first player, perfect play", 1.6, "right"),
             Column("95% interval", 1.2, "right"),
             Column("change (points), 95%", 1.7, "right")],
            rows, size=8.5, after=0.06,
        )  # fmt: skip
    page.heading("Do the two-player findings hold under perfect play?", size=11, gap=0.0)
    table = comparisons(pp, report.strong_play)
    rows = [
        [str(r["finding"]), str(r[BASELINE]), str(r[STRONG]), str(r[PERFECT]),
         _verdict(str(r[f"verdict_{BASELINE}"])), _verdict(str(r[f"verdict_{STRONG}"]))]
        for _, r in table.iterrows()
    ]  # fmt: skip
    page.table(
        [Column("finding", 1.55), Column(f"{BASELINE} self-play", 1.1),
         Column(f"{STRONG} self-play", 1.1), Column("perfect play (solved boards)", 1.32),
         Column(f"verdict, {BASELINE}", 0.9), Column(f"verdict, {STRONG}", 0.9)],
        rows, size=7.5, after=0.05,
    )  # fmt: skip
    games = ", ".join(f"{a} self-play" for a in AGENTS)
    mismatch = (
        f" The solved boards use {tokens_text(pp)}; the self-play runs play the rulebook's game."
        if not rulebook_tokens(pp)
        else ""
    )
    page.paragraph(
        f"{games}: the shipped measurements of the Strong play pages (data/strong-play.json). "
        "A verdict says whether the agent's conclusion holds under perfect play: the first "
        "player's edge when the agent's 95% interval and perfect play's lie on the same side "
        "of 50% (or both include it); the fairest starting scores when the agent's vector is "
        "the solved one nearest 50%; the coasters when the best is the same and the agent's "
        "six worst are among those perfect play cannot tell from its own sixth worst (in "
        "brackets: the Spearman correlation of the agent's ranking of worth with perfect "
        f"play's).{mismatch}",
        size=7.5, colour=MUTED, after=0.0,
    )  # fmt: skip


def second_page(report: Report, page: Page, row: float = 0.13) -> None:
    """An opening token's worth per coaster, the agents' losses, perfect against the agents."""
    pp = _pp(report)
    about = pp.about
    page.title("Perfect play: the coasters and the agents")
    page.heading("What an opening token is worth", size=11, gap=0.0)
    once = bool((coaster_worth(pp)["boards"] < 2).any())
    page.paragraph(
        "On each solved board, a coaster's worth is the first player's exact chance after her "
        "first token on it minus her chance at the start, under perfect play (what the dice "
        "must give her to place there is not counted: the start averages over it). Mean over "
        "the boards it was dealt on, with 95% intervals" + (
            "; a hollow dot: dealt on one board, no interval." if once else "."),
        size=8.5, after=0.0,
    )  # fmt: skip
    rows = len(pp.boards["coasters"].explode().unique())
    ax = page.axes(0.75 + row * rows, left=1.45, bottom=0.45, top=0.08, right=0.2)
    perfect_figures.coaster_chart(ax, pp, label_size=min(7.0, 54 * row))
    rank = ranking(pp)
    page.heading("The agents graded by perfect play", size=11, gap=0.0)
    page.paragraph(
        f"{count(int(about['games']))} self-play games of each agent on each of "
        f"{count(int(about['studied_boards']))} solved boards, every decision of both seats "
        "(keep, stop, placement) graded by the exact solution: the chance to win lost against "
        "the best move, per decision, in thousandths of a win (mean over games, 95% interval, "
        f"its low end not below 0). The {PERFECT} agent itself loses nothing, as it should.",
        size=8.5, after=0.0,
    )  # fmt: skip
    ax = page.axes(0.6 + 0.17 * len(rank), left=1.45, bottom=0.45, top=0.08, right=0.2)
    perfect_figures.loss_chart(ax, pp)
    h = pp.head_to_head
    if not h.empty:
        page.heading(f"The {PERFECT} agent against the others", size=11, gap=0.0)
        page.paragraph(
            f"{count(int(about['duels']))} games a board against each opponent on the studied "
            "boards, seats swapped every other game; a score counts a win 1 and a game without "
            f"a winner ½. The last column: {PERFECT}'s exact chance from the same seats had the "
            "opponent played perfectly.",
            size=8.5, after=0.04,
        )  # fmt: skip
        cells: list[list[Box | str]] = [
            [str(r["opponent"]), count(int(r["games"])), percent(float(r["score"])),
             percent_range(float(r["low"]), float(r["high"])),
             percent(float(r["perfect_vs_perfect"]))]
            for _, r in h.iterrows()
        ]  # fmt: skip
        page.table(
            [Column("opponent", 1.5), Column("games", 0.7, "right"),
             Column(f"{PERFECT}'s score", 1.2, "right"),
             Column("95% Wilson interval", 1.5, "right"),
             Column(f"{PERFECT} against {PERFECT} (exact)", 1.9, "right")],
            cells, size=8.5, after=0.04,
        )  # fmt: skip
    page.paragraph(
        "Shipped measurements (data/perfect-play.json, benchmarks/perfect_yardstick.py, seed "
        f"{about['seed']}), not played for this report.",
        size=7.5, colour=MUTED, after=0.0,
    )  # fmt: skip


def specs(report: Report) -> list[PageSpec]:
    """The perfect-play pages when the report plays the solved game, else nothing."""
    if report.perfect_play is None or report.strong_play is None:
        return []
    return [
        PageSpec(SECTION, lambda page: first_page(report, page),
                 compact=(lambda page: first_page(report, page, chart=2.0),)),
        PageSpec(SECTION, lambda page: second_page(report, page),
                 compact=(lambda page: second_page(report, page, row=0.115),)),
    ]  # fmt: skip
