"""Strong play: whether the report's findings hold when both sides play well.

Only in a report of the shipped game (the shipped catalogue on the 4×4 grid): the
shipped measurements of ``data/strong-play.json`` (:mod:`pinastats.balance.strong`),
``strategic`` self-play beside ``value`` self-play, finding by finding, with the
verdict and every number's agent named.
"""

from __future__ import annotations

import pandas as pd

from pinastats.balance.strong import BASELINE, STRONG, StrongPlay, comparisons
from pinastats.report import strong_figures
from pinastats.report.data import Report
from pinastats.report.pages.spec import PageSpec
from pinastats.report.text import count
from pinastats.report.typeset import MUTED, Box, Column, Page

SECTION = "Strong play"


def _strong(report: Report) -> StrongPlay:
    assert report.strong_play is not None
    return report.strong_play


def _rows(frame: pd.DataFrame) -> list[list[Box | str]]:
    return [
        [str(r.finding), str(r.strategic), str(r.strong_play),
         Box(str(r.verdict), weight="bold" if str(r.verdict).startswith("changes") else "normal")]
        for r in frame.itertuples()
    ]  # fmt: skip


_COLUMNS = [
    Column("finding", 2.3), Column(f"{BASELINE} self-play", 1.45),
    Column(f"{STRONG} self-play (strong)", 1.45), Column("verdict", 1.0),
]  # fmt: skip


def _games(sp: StrongPlay, players: int) -> int:
    s = sp.seats
    return int(s[(s["players"] == players) & (s["agent"] == STRONG)]["games"].iloc[0])


def seats_page(report: Report, page: Page) -> None:
    """Turn order and starting scores on strong play, for the report's player count."""
    sp = _strong(report)
    n = report.players
    table = comparisons(sp)
    mine = table[
        table["finding"].str.startswith(f"{n} players")
        & table["topic"].isin(["turn order", "turn order, Happy Hour", "starting scores"])
    ]
    page.title("Do the findings hold on strong play?")
    page.paragraph(
        f"Every other page rests on {BASELINE} self-play, and the learned {STRONG} agent beats "
        f"{BASELINE} about three games in five. These rows measure the same questions with "
        f"{STRONG} in every seat, beside the same runs of {BASELINE} ({count(_games(sp, n))} "
        "games a row, the rulebook's starting scores unless a row says otherwise; 95% Wilson "
        "intervals). The fairest starting scores come from a sequential search of 100,000 "
        "games, then 40,000 games at the vector found.",
        size=9, after=0.04,
    )  # fmt: skip
    page.table(_COLUMNS, _rows(mine), size=8.5)
    page.paragraph(
        "Verdict: a win rate's conclusion holds when its 95% interval lies on the same side "
        "of the fair share 1/n under both agents (or holds it under both); a starting-score "
        "row holds when both agents' fairest vectors are the same. Shipped measurements "
        "(data/strong-play.json, benchmarks/strong_play.py), not played for this report.",
        size=8, colour=MUTED,
    )  # fmt: skip
    ax = page.axes(min(page.room, 2.9), left=0.7, bottom=0.5, top=0.4, right=0.2)
    strong_figures.seat_chart(ax, sp)


def designer_page(report: Report, page: Page) -> None:
    """Coaster worth and the what-if rules' skill measure on strong play (two players)."""
    sp = _strong(report)
    table = comparisons(sp)
    mine = table[table["topic"].isin(["coasters", "what-if skill"])]
    page.title("Coasters and rule variants on strong play")
    page.paragraph(
        f"Two players, {BASELINE} beside {STRONG}. A coaster's worth: the win rate of the "
        "seats that took it minus that of the seats that took another coaster in the same "
        f"round. The skill measure of a variant: under {BASELINE}, {BASELINE}'s heads-up win "
        f"rate against ev; on strong play, {STRONG}'s against {BASELINE} (40,000 games each). "
        f"The {STRONG} agent plays the 4×4 grid only: the other layouts are not measured on "
        "strong play.",
        size=9, after=0.04,
    )  # fmt: skip
    page.table(_COLUMNS, _rows(mine), size=8)
    ax = page.axes(min(page.room, 3.1), left=1.1, bottom=0.5, top=0.4, right=0.2)
    strong_figures.what_if_chart(ax, sp)


def ladder_page(report: Report, page: Page) -> None:
    """Every agent on one Elo scale, with the strong-play agent among them."""
    ladder = report.ladder
    assert ladder is not None
    page.title("The strength ladder")
    page.paragraph(
        f"Every built-in agent, the coach, the learned {STRONG} agent and OpenSpiel's MCTS "
        f"(100 and 1,000 simulations a decision) in a round-robin of {ladder.players}-player "
        f"games ({count(ladder.games)} games, seed {ladder.seed}, seats alternated), rated on "
        "one Bradley–Terry scale in Elo points with 95% intervals, "
        f"{ladder.anchor} at 0. The slow agents played few games: their intervals are wide. "
        f"A difference of 100 Elo means the stronger side wins about 64% of its games.",
        size=9, after=0.04,
    )  # fmt: skip
    rows: list[list[Box | str]] = [
        [Box(r.agent, weight="bold" if r.agent in (STRONG, BASELINE) else "normal"),
         f"{r.elo:.0f}", f"{r.low:.0f} to {r.high:.0f}", count(r.games)]
        for r in ladder.rows
    ]  # fmt: skip
    page.table(
        [Column("agent", 1.2), Column("Elo", 0.6, "right"), Column("95% interval", 1.2, "right"),
         Column("games", 0.8, "right")],
        rows, size=9,
    )  # fmt: skip
    page.paragraph(
        f"Shipped measurement (data/strength-ladder.json, docs/strength-ladder.md), measured "
        f"on {ladder.players}-player games whatever this report's player count; not played "
        "for this report.",
        size=8, colour=MUTED,
    )  # fmt: skip
    ax = page.axes(min(page.room, 3.0), left=1.0, bottom=0.5, top=0.1, right=0.3)
    strong_figures.ladder_chart(ax, ladder.rows)


def specs(report: Report) -> list[PageSpec]:
    """The strong-play pages when the report plays the shipped game, else nothing."""
    if report.strong_play is None:
        return []
    pages = [PageSpec(SECTION, lambda page: seats_page(report, page))]
    if report.players == 2:
        pages.append(PageSpec(SECTION, lambda page: designer_page(report, page)))
    if report.ladder is not None:
        pages.append(PageSpec(SECTION, lambda page: ladder_page(report, page)))
    return pages
