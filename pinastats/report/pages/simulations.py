"""The simulation pages: agents, first-player advantage, how games end, coasters in play."""

from __future__ import annotations

from functools import partial

from pinastats.report import charts
from pinastats.report.data import Report
from pinastats.report.findings import verdict, with_ci
from pinastats.report.pages.spec import PageSpec
from pinastats.report.pages.tier_list import TIER_FILLS
from pinastats.report.sims import AGENTS, SELF_PLAY_AGENT, Rate, RunStats
from pinastats.report.text import count, join_words, ordinal, percent, percent_range, signed_points
from pinastats.report.typeset import MUTED, Box, Column, Page
from pinastats.report.wording import end_words

SECTION = "Simulations"

AGENT_TEXT = {
    "random": "rolls once and places on a random coaster it may take.",
    "greedy": "keeps dice towards the open coaster it is most likely to make and places "
    "where it scores most.",
    "ev": "holds to maximise this turn's expected points with the exact turn solution "
    "(space points and neighbour bonus of the best legal placement).",
    "strategic": "ev plus position: progress on its own lines, blocking the opponents' "
    "lines, points near the end, and a PIÑA COLADICE valued as a win.",
}
"""One line per agent of the simulations."""

_SHORT = ("self-play", "match-ups")
"""Column titles of the self-play run and the pooled match-ups."""


def _rate_box(rate: Rate | None) -> str:
    if rate is None:
        return "—"
    return f"{percent(rate.value)}\n{percent_range(rate.low, rate.high)}"


def agents_page(report: Report, with_chart: bool, page: Page) -> None:
    """The agents, their ladder over every table, each table (``with_chart``: and the chart)."""
    sims = report.simulations
    fair = 1 / report.players
    page.title("Agents at the table: who wins")
    page.paragraph(
        f"Every table of {report.players} different agents among {join_words(list(AGENTS))} "
        f"played {count(sims.games)} games, the first player drawn at random in each game. "
        "The agents:",
        size=9, after=0.04,
    )  # fmt: skip
    page.bullets([f"{a}: {AGENT_TEXT[a]}" for a in AGENTS], size=9, after=0.02)
    page.heading("Ladder: every table pooled", size=12)
    ranked = sorted(sims.mixed.wins, key=lambda item: -item[1].value)
    tables = {a: sum(a in run.agents for run in sims.matchups) for a in AGENTS}
    rows: list[list[Box | str]] = [
        [str(i), Box(agent, weight="bold"), str(tables[agent]), count(rate.trials),
         count(rate.count), percent(rate.value), percent_range(rate.low, rate.high),
         signed_points(rate.value - fair)]
        for i, (agent, rate) in enumerate(ranked, start=1)
    ]  # fmt: skip
    page.table(
        [Column("rank", 0.45, "right"), Column("agent", 1.0), Column("tables", 0.6, "right"),
         Column("games played", 0.9, "right"), Column("wins", 0.8, "right"),
         Column("win rate", 0.8, "right"), Column("95% CI", 1.0, "right"),
         Column("against a fair share", 1.3, "right")],
        rows, size=9,
    )  # fmt: skip
    page.heading("Each table", size=12)
    present = [a for a in AGENTS if any(a in run.agents for run in sims.matchups)]
    width = (page.width - 1.9 - 0.9) / len(present)
    columns = [Column("agents at the table", 1.9)]
    columns += [Column(a, width, "right") for a in present]
    columns += [Column("no winner", 0.9, "right")]
    rows = [
        [run.label, *(_rate_box(run.win_rate(a)) for a in present), _rate_box(run.no_winner)]
        for run in sims.matchups
    ]
    page.table(columns, rows, size=8.5)
    page.paragraph(
        f"Win rate over the games each agent played, with its 95% interval below it. A fair "
        f"share is {percent(fair)}; seat order does not matter (the first player is random).",
        size=8, colour=MUTED,
    )  # fmt: skip
    if with_chart:
        page.space(0.1)
        _forest(report, page)


def _forest(report: Report, page: Page) -> None:
    sims = report.simulations
    rows = sum(len(run.agents) for run in sims.matchups) + len(sims.matchups)
    height = min(page.room, 1.3 + 0.32 * rows)
    ax = page.axes(height, left=0.9, bottom=0.55, top=0.1, right=0.3)
    charts.matchup_forest(ax, sims.matchups, report.players)


def forest_page(report: Report, page: Page) -> None:
    """The match-up chart on its own page."""
    page.title("Match-ups at a glance")
    page.paragraph(
        "Each agent's win rate at each table (dots) with its 95% interval (bars); the dashed "
        f"line is the fair share of {percent(1 / report.players)}. Tables are separated by "
        "thin lines.",
        size=9,
    )
    _forest(report, page)


def position_page(report: Report, page: Page) -> None:
    """Win rate by position in turn order, self-play and match-ups."""
    sims = report.simulations
    runs = [sims.self_play, sims.mixed]
    fair = 1 / report.players
    first = sims.self_play.positions[0]
    page.title("First-player advantage")
    page.paragraph(
        f"Win rate by position in turn order. Starting scores are 1 to {report.players} in "
        f"turn order, which the rules give to make up for playing later. In "
        f"{SELF_PLAY_AGENT} self-play the first player wins {with_ci(first)}, "
        f"{signed_points(first.value - fair)} against a fair share of {percent(fair)}: "
        f"{verdict(first, fair)}.",
        size=9.5,
    )
    rows: list[list[Box | str]] = []
    for p in range(report.players):
        boxes: list[Box | str] = [f"{ordinal(p + 1)} to play"]
        for run in runs:
            rate = run.positions[p]
            boxes += [count(rate.count), percent(rate.value), percent_range(rate.low, rate.high)]
        rows.append(boxes)
    last: list[Box | str] = ["no winner"]
    for run in runs:
        rate = run.no_winner
        last += [count(rate.count), percent(rate.value), percent_range(rate.low, rate.high)]
    rows.append(last)
    cols = [Column("position", 1.1)]
    for name in _SHORT:
        cols += [Column(f"{name}: wins", 1.05, "right"),
                 Column("win rate", 0.75, "right"), Column("95% CI", 1.0, "right")]  # fmt: skip
    page.table(cols, rows, size=9)
    tables = (
        "the table of four agents" if len(sims.matchups) == 1
        else f"the {len(sims.matchups)} tables of different agents, pooled"
    )  # fmt: skip
    page.paragraph(
        f"self-play: {count(sims.self_play.games)} games of {sims.self_play.label}; match-ups: "
        f"{tables} ({count(sims.mixed.games)} games), where the stronger agents' seats also "
        "win more.",
        size=8, colour=MUTED,
    )  # fmt: skip
    ax = page.axes(min(4.2, page.room), left=0.6, bottom=0.45, top=0.2, right=0.1)
    charts.position_bars(ax, runs, report.players)


def _rounds_row(run: RunStats) -> list[Box | str]:
    return [
        run.label, f"{run.mean_rounds:.2f}", str(run.rounds_quantile(0.5)),
        str(run.rounds_quantile(0.1)), str(run.rounds_quantile(0.9)), str(run.rounds[0][0]),
        str(run.rounds[-1][0]),
    ]  # fmt: skip


def ending_page(report: Report, page: Page) -> None:
    """How games end (one row per way that occurred) and how many rounds they last."""
    sims = report.simulations
    runs = [sims.self_play, sims.mixed]
    page.title("How games end and how long they last")
    rows: list[list[Box | str]] = []
    for reason, words in end_words(report.rules).items():
        rates = [run.end_share(reason) for run in runs]
        if not any(r.count for r in rates):
            continue
        boxes: list[Box | str] = [words.entry]
        for r in rates:
            boxes += [percent(r.value), percent_range(r.low, r.high)]
        rows.append(boxes)
    cols = [Column("the game ended with", 2.4)]
    for name in _SHORT:
        cols += [Column(name, 1.2, "right"), Column("95% CI", 0.95, "right")]
    page.table(cols, rows, size=9)
    page.heading("Game length in rounds", size=12)
    page.table(
        [Column("run", 2.4), Column("mean", 0.6, "right"), Column("median", 0.65, "right"),
         Column("10%", 0.55, "right"), Column("90%", 0.55, "right"),
         Column("shortest", 0.8, "right"), Column("longest", 0.8, "right")],
        [_rounds_row(run) for run in runs], size=9,
    )  # fmt: skip
    page.paragraph(
        "A round: every player plays once (the game ending mid-round counts the round). "
        "10% and 90%: a tenth of the games are no longer, and no shorter, than these.",
        size=8, colour=MUTED,
    )  # fmt: skip
    ax = page.axes(min(4.0, page.room), left=0.6, bottom=0.5, top=0.2, right=0.1)
    charts.rounds_histogram(ax, runs)


def coasters_play_page(report: Report, page: Page) -> None:
    """How often each coaster was dealt, taken and held by the winner in self-play."""
    sims = report.simulations
    tiers = {r.id: r.tier for r in report.coasters}
    page.title(f"Coasters in {SELF_PLAY_AGENT} self-play")
    page.paragraph(
        f"In the {count(sims.self_play.games)} self-play games: how often each coaster was "
        "dealt onto the board, how often someone placed a token on it when it was, and how "
        "often the winner held it (a share of the games it was dealt), each with its 95% "
        "Wilson interval. Most taken first.",
        size=9,
    )
    played = sorted(sims.coasters, key=lambda c: -(c.taken / c.dealt if c.dealt else 0))
    rows: list[list[Box | str]] = []
    for c in played:
        tier = tiers.get(c.id, "")
        taken = Rate(c.taken, c.dealt)
        held = Rate(c.held_by_winner, c.dealt)
        rows.append([
            Box(c.name, weight="bold"), Box(tier, fill=TIER_FILLS.get(tier), weight="bold"),
            count(c.dealt), percent(taken.value) if c.dealt else "—",
            percent_range(taken.low, taken.high) if c.dealt else "—",
            percent(held.value) if c.dealt else "—",
            percent_range(held.low, held.high) if c.dealt else "—",
        ])  # fmt: skip
    page.table(
        [Column("coaster", 1.55), Column("tier", 0.4, "center"), Column("dealt", 0.65, "right"),
         Column("taken when dealt", 1.0, "right"), Column("95% CI", 1.05, "right"),
         Column("held by the winner", 1.0, "right"), Column("95% CI", 1.05, "right")],
        rows, size=8.5,
    )  # fmt: skip


def specs(report: Report) -> list[PageSpec]:
    """The agents page (with the match-up chart when there is one table), then the others."""
    single = len(report.simulations.matchups) == 1  # 4 players: the chart fits on the page
    pages = [PageSpec(SECTION, partial(agents_page, report, single))]
    if not single:
        pages.append(PageSpec(SECTION, partial(forest_page, report)))
    for draw in (position_page, ending_page, coasters_play_page):
        pages.append(PageSpec(SECTION, partial(draw, report)))
    return pages
