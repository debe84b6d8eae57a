"""The guests page: one's own agents (or the coach) against each built-in agent.

Only in a report built with ``guests``: the guest sits in seat 0, the built-in
agent in every other seat, the first player drawn at random in each game.
"""

from __future__ import annotations

from pinastats.report import charts
from pinastats.report.data import Report
from pinastats.report.pages.spec import PageSpec
from pinastats.report.sims import AGENTS, Rate, RunStats
from pinastats.report.text import count, percent, percent_range
from pinastats.report.typeset import MUTED, Box, Column, Page

SECTION = "Your agents"


def _row(guest: str, opponent: str, run: RunStats, fair: float) -> list[Box | str]:
    rate = run.win_rate(guest)
    assert rate is not None
    return [
        Box(guest, weight="bold"), opponent, count(run.games), count(rate.count),
        percent(rate.value), percent_range(rate.low, rate.high),
        f"{100 * (rate.value - fair):+.1f} pp".replace("-", "\u2212"), _verdict(rate, fair),
    ]  # fmt: skip


def _verdict(rate: Rate, fair: float) -> str:
    if rate.low > fair:
        return "advantage"
    if rate.high < fair:
        return "disadvantage"
    return "no clear difference"


def guests_page(report: Report, page: Page) -> None:
    """Each guest's win rate against each built-in agent, table and chart."""
    sims = report.simulations
    players = report.players
    fair = 1 / players
    others = "the other seat" if players == 2 else f"the other {players - 1} seats"
    names = [runs[0].agents[0] for runs in sims.guests]
    page.title("Your agents against the built-in ones")
    page.paragraph(
        f"Each guest agent ({', '.join(names)}) played {count(sims.guest_games)} games against "
        f"each built-in agent, the guest in one seat and the built-in agent in {others}, the "
        f"first player drawn at random. A fair share is {percent(fair)}: above it, the guest "
        "beats that table.",
        size=9, after=0.04,
    )  # fmt: skip
    rows = [
        _row(name, opponent, run, fair)
        for name, runs in zip(names, sims.guests, strict=True)
        for opponent, run in zip(AGENTS, runs, strict=True)
    ]
    page.table(
        [Column("guest", 0.9), Column("against", 0.8), Column("games", 0.6, "right"),
         Column("wins", 0.55, "right"), Column("win rate", 0.7, "right"),
         Column("95% CI", 1.0, "right"), Column("vs fair share", 0.95, "right"),
         Column("verdict", 1.25)],
        rows, size=9,
    )  # fmt: skip
    page.paragraph(
        "pp: percentage points. Verdict: an advantage when the whole 95% interval is above "
        "the fair share, a disadvantage when it is below, otherwise no clear difference. One's "
        "own agents play on the readable (Python) turn path; the same seed gives the same "
        "games.",
        size=8, colour=MUTED,
    )  # fmt: skip
    runs = [run for guest_runs in sims.guests for run in guest_runs]
    rows_drawn = sum(len(set(run.agents)) for run in runs) + len(runs)
    ax = page.axes(min(page.room, 1.3 + 0.3 * rows_drawn), left=0.9, bottom=0.55, top=0.1,
                   right=0.3)  # fmt: skip
    charts.matchup_forest(ax, runs, players)


def specs(report: Report) -> list[PageSpec]:
    """The guests page when the report has guests, else nothing."""
    if not report.simulations.guests:
        return []
    return [PageSpec(SECTION, lambda page: guests_page(report, page))]
