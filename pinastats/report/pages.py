"""The pages of the report, in order: each a function drawing one :class:`Page`.

:func:`plan` lists the pages of a report (how many depends on the catalogue:
one hold cheat-sheet per coaster that is not of one value); :func:`render`
draws them all, numbered "page i of n".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from matplotlib.figure import Figure

from pinastats.report import charts
from pinastats.report.coasters import TIERS
from pinastats.report.data import Report
from pinastats.report.findings import END_NAMES, headlines, verdict, with_ci
from pinastats.report.holds import HoldSection, HoldSheet
from pinastats.report.layout import (
    ACCENT,
    INK,
    MUTED,
    Align,
    Cell,
    Column,
    LayoutError,
    Page,
    fit_widths,
    natural_width,
    style,
)
from pinastats.report.sims import AGENTS, SELF_PLAY_AGENT, Rate, RunStats
from pinastats.report.text import (
    count,
    join_words,
    ordinal,
    percent,
    percent_range,
    signed_points,
)

TIER_FILLS = {"S": "#bfe3cb", "A": "#dcefd0", "B": "#f6ebc2", "C": "#f8dcc4", "D": "#f2cdc8"}
COLOUR_FILLS = {"green": "#d7eedf", "blue": "#d6e4f5", "red": "#f5d6d3"}

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
"""The meaning of the hard combinations (RULES.md), by combination key."""

RULES_TEXT = (
    "Coasters: 16 of the catalogue's coasters dealt at random into the 4×4 grid; 2 players "
    "play every coaster on side A (1 space), 3 players the corners and the centre 2×2 on "
    "side B (2 spaces) and the rest on side A, 4 players every coaster on side B. On side "
    "B the first token takes the first (higher or equal) value.",
    "A turn: up to three rolls of five dice; before each re-roll any dice may be kept, and "
    "dice kept earlier may be taken back (free holds). Stopping early is allowed.",
    "Placing: if the final dice match a coaster with a free space that holds none of your "
    "tokens, you must place a token on one of them; it scores the space's points plus 1 per "
    "own token on the 8 neighbouring cells.",
    "Combinations: a double pair may be two pairs of one value (four and five of a kind "
    "count); a full house includes five of a kind but not 4 + 1; a large straight counts as "
    "a small straight and as all different.",
    "End: four own tokens in a row, column or diagonal (10 lines) win at once (PIÑA "
    "COLADICE). 20 points or a player's last token (6 to place) trigger the end; the round "
    "is completed and the best score wins. Tied leaders: the one who placed most recently "
    "wins; if none of them ever placed, a draw.",
    "Setup: the first player is drawn at random; starting scores are 1, 2, 3, 4 in turn "
    "order. Scores are not capped.",
    "Happy Hour (variant, off unless stated): a turn without a placement rolls one die: lose "
    "3 points (not below 0), take back an own token, others gain 1, move another player's "
    "token, flip a coaster, or gain 4.",
)
"""The rule interpretations of the project's RULES.md that the numbers depend on."""

_SECTIONS = {
    "Coaster tier list": "what each coaster is worth per turn, with a chart",
    "Hold cheat-sheets": "what to keep after roll 1 and roll 2, per coaster",
    "Probabilities": "the chance of each combination in 1, 2 and 3 rolls",
    "Simulations": "agents, first-player advantage, how games end, coasters in play",
    "Methodology and assumptions": "catalogue, rules as modelled, runs, software",
}


@dataclass(frozen=True)
class PageSpec:
    """One page of the plan: its section (running header) and how to draw it.

    ``compact`` are more compact versions, tried in order when the content does
    not fit.
    """

    section: str
    draw: Callable[[Page], None]
    compact: tuple[Callable[[Page], None], ...] = ()


def footer_text(report: Report) -> str:
    """The left part of every footer."""
    variant = " · Happy Hour variant" if report.happy_hour else ""
    return f"Piña Coladice strategy report · {report.players} players{variant}"


# ---------------------------------------------------------------- cover


def _cover(report: Report, contents: list[tuple[str, int]], page: Page) -> None:
    sims = report.simulations
    runs = 1 + len(sims.matchups)
    page.y = 1.0
    page.text(page.left, page.y, "Piña Coladice", size=30, weight="bold", colour=ACCENT)
    page.y += 0.6
    variant = ", Happy Hour variant" if report.happy_hour else ""
    page.text(page.left, page.y, f"Strategy report for {report.players} players{variant}",
              size=16, weight="bold")  # fmt: skip
    page.y += 0.4
    page.paragraph(
        f"The {report.layout_name} 4×4 board with {report.sides_text}. Exact turn probabilities "
        f"for the {len(report.coasters)} coasters of the catalogue, and {runs} × "
        f"{count(sims.games)} simulated games (seed {sims.seed}).",
        colour=MUTED,
    )
    page.rule(page.y + 0.05, colour=ACCENT, width=1.2)
    page.y += 0.15
    page.heading("Headline findings", size=13)
    page.bullets(headlines(report), size=10, after=0.1)
    page.heading("Contents", size=13)
    page.table(
        [Column("section", 2.2), Column("what you find there", 4.0), Column("page", 0.6, "right")],
        [[name, _SECTIONS.get(name, ""), str(number)] for name, number in contents],
        size=9.5, zebra=False,
    )  # fmt: skip
    page.paragraph(
        "Exact numbers (chances, expected points, cheat-sheets) come from solving the turn; "
        "simulated ones (win rates, game ends and lengths) carry 95% confidence intervals. "
        "The last pages say how everything was computed and what was assumed.",
        size=8.5, colour=MUTED,
    )  # fmt: skip


# ---------------------------------------------------------------- coasters


def _in_play(report: Report) -> tuple[bool, bool]:
    return report.b_share < 1, report.b_share > 0


def _tier_rows(report: Report) -> list[list[Cell | str]]:
    play_a, play_b = _in_play(report)
    rows: list[list[Cell | str]] = []
    ranked = sorted(report.coasters, key=lambda r: -r.ev_in_play)
    for i, r in enumerate(ranked, start=1):
        rows.append([
            str(i), Cell(r.name, weight="bold"), Cell(r.colour, fill=COLOUR_FILLS.get(r.colour)),
            percent(r.one_roll), percent(r.three_rolls), str(r.side_a),
            f"{r.side_b[0]} / {r.side_b[1]}",
            Cell(f"{r.ev_a:.2f}", weight="bold" if play_a else None),
            Cell(f"{r.ev_b:.2f}", weight="bold" if play_b else None),
            Cell(r.tier, fill=TIER_FILLS.get(r.tier), weight="bold"),
        ])  # fmt: skip
    return rows


_TIER_COLUMNS = [
    Column("#", 0.3, "right"), Column("coaster", 1.4), Column("colour", 0.55),
    Column("chance in 1 roll", 0.7, "right"), Column("chance in 3 rolls", 0.7, "right"),
    Column("side A points", 0.6, "right"), Column("side B points", 0.65, "right"),
    Column("points per turn, side A", 0.75, "right"),
    Column("points per turn, side B", 0.75, "right"), Column("tier", 0.45, "center"),
]  # fmt: skip


def _tier_table(report: Report, rows: list[list[Cell | str]], first: bool, page: Page) -> None:
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


def _scatter_page(report: Report, page: Page) -> None:
    play_a, play_b = _in_play(report)
    page.title("Points against the chance of scoring them")
    page.paragraph(
        "Each dot is a coaster (coasters on the same spot share a label), coloured by its "
        "colour group. Dashed curves join the spots worth the same expected points per turn "
        "(chance × points): up and to the right pays more.",
        size=9, after=0.1,
    )  # fmt: skip
    height = (page.room - 0.1) / 2
    for side, in_play in (("A", play_a), ("B", play_b)):
        ax = page.axes(height, left=0.55, bottom=0.5, top=0.3, right=0.15)
        charts.coaster_scatter(ax, report.coasters, side, in_play)


# ---------------------------------------------------------------- hold cheat-sheets


_HOLD_SIZES = ((11.0, 2), (10.0, 2), (10.0, 1), (9.0, 1), (8.0, 1))
"""Font size and examples per rule of a cheat-sheet, tried in order until the page fits."""


def _section_table(
    sheet: HoldSheet, section: HoldSection, size: float, examples: int, page: Page
) -> None:
    rows: list[list[Cell | str]] = []
    for line in section.lines:
        stop = line.keep.startswith("stop")
        keep = Cell(line.keep, weight="bold", colour=ACCENT if stop else INK)
        cells: list[Cell | str] = [
            keep, percent_range(line.low, line.high), percent(line.share),
            "\n".join(line.examples[:examples]),
        ]  # fmt: skip
        if sheet.by_shape:
            cells.insert(0, line.hand)
        rows.append(cells)
    titles = ["what to keep", "success", "how often", "for example"]
    aligns: list[Align] = ["left", "right", "right", "left"]
    flexible = [True, False, False, False]  # examples stay on one line each
    if sheet.by_shape:
        titles, aligns, flexible = ["your hand", *titles], ["left", *aligns], [True, *flexible]
    natural = [
        max(
            natural_width([c.text if isinstance(c, Cell) else c for c in column], size,
                          "bold" if title == "what to keep" else "normal", pad=0.06),
            natural_width([title], 8.5, "bold", pad=0.06) if not flex else 0.0,
        )
        for title, flex, column in zip(titles, flexible, zip(*rows, strict=True), strict=True)
    ]  # fmt: skip
    widths = fit_widths(natural, page.width, flexible)
    columns = [Column(t, w, a) for t, w, a in zip(titles, widths, aligns, strict=True)]
    page.table(columns, rows, size=size, header_size=8.5, pad=0.06)


def _hold_page(report: Report, sheet: HoldSheet, size: float, examples: int, page: Page) -> None:
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


def _value_page(report: Report, page: Page) -> None:
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
        rows: list[list[Cell | str]] = []
        for held, (after1, after2) in enumerate(kind.success):
            if held == 0:
                what, keep = "none", "re-roll all five"
            else:
                what = f"{held}"
                keep = "keep it" if held == 1 else f"keep all {held}"
            rows.append([what, Cell(keep, weight="bold"), percent(after1), percent(after2)])
        rows.append([f"{kind.needed} or more", Cell("stop", weight="bold", colour=ACCENT),
                     "100%", "100%"])  # fmt: skip
        page.table(
            [Column("dice of the value you hold", 2.0), Column("what to keep", 1.7),
             Column("success after roll 1", 1.55, "right"),
             Column("success after roll 2", 1.55, "right")],
            rows, size=11, header_size=9,
        )  # fmt: skip


# ---------------------------------------------------------------- probabilities


def _probability_page(report: Report, page: Page) -> None:
    page.title("Chance of each combination in 1, 2 and 3 rolls")
    page.paragraph(
        "With the holds that maximise the chance of that one combination (the cheat-sheets' "
        "holds). The number is the chance in a full turn of three rolls. Exact values: "
        "pinastats targets --coasters.",
        size=9, after=0.05,
    )  # fmt: skip
    ax = page.axes(page.room, left=1.35, bottom=0.5, top=0.4, right=0.2)
    charts.probability_bars(ax, report.coasters)


# ---------------------------------------------------------------- simulations


def _rate_cell(rate: Rate | None) -> str:
    if rate is None:
        return "—"
    return f"{percent(rate.value)}\n{percent_range(rate.low, rate.high)}"


def _agents_page(report: Report, with_chart: bool, page: Page) -> None:
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
    rows: list[list[Cell | str]] = [
        [str(i), Cell(agent, weight="bold"), str(tables[agent]), count(rate.trials),
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
        [run.label, *(_rate_cell(run.win_rate(a)) for a in present), _rate_cell(run.no_winner)]
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


def _forest_page(report: Report, page: Page) -> None:
    page.title("Match-ups at a glance")
    page.paragraph(
        "Each agent's win rate at each table (dots) with its 95% interval (bars); the dashed "
        f"line is the fair share of {percent(1 / report.players)}. Tables are separated by "
        "thin lines.",
        size=9,
    )
    _forest(report, page)


def _position_page(report: Report, page: Page) -> None:
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
    rows: list[list[Cell | str]] = []
    for p in range(report.players):
        cells: list[Cell | str] = [f"{ordinal(p + 1)} to play"]
        for run in runs:
            rate = run.positions[p]
            cells += [count(rate.count), percent(rate.value), percent_range(rate.low, rate.high)]
        rows.append(cells)
    last: list[Cell | str] = ["no winner"]
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


_SHORT = ("self-play", "match-ups")
"""Column titles of the self-play run and the pooled match-ups."""


def _rounds_row(run: RunStats) -> list[Cell | str]:
    return [
        run.label, f"{run.mean_rounds:.2f}", str(run.rounds_quantile(0.5)),
        str(run.rounds_quantile(0.1)), str(run.rounds_quantile(0.9)), str(run.rounds[0][0]),
        str(run.rounds[-1][0]),
    ]  # fmt: skip


def _ending_page(report: Report, page: Page) -> None:
    sims = report.simulations
    runs = [sims.self_play, sims.mixed]
    page.title("How games end and how long they last")
    rows: list[list[Cell | str]] = []
    for name in END_NAMES:
        rates = [run.end_share(name) for run in runs]
        if not any(r.count for r in rates):
            continue
        cells: list[Cell | str] = [END_NAMES[name]]
        for r in rates:
            cells += [percent(r.value), percent_range(r.low, r.high)]
        rows.append(cells)
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


def _coasters_play_page(report: Report, page: Page) -> None:
    sims = report.simulations
    tiers = {r.id: r.tier for r in report.coasters}
    page.title(f"Coasters in {SELF_PLAY_AGENT} self-play")
    page.paragraph(
        f"In the {count(sims.self_play.games)} self-play games: how often each coaster was "
        "dealt onto the board, how often someone placed a token on it when it was, and how "
        "often the winner held it. Most taken first.",
        size=9,
    )
    played = sorted(sims.coasters, key=lambda c: -(c.taken / c.dealt if c.dealt else 0))
    rows: list[list[Cell | str]] = []
    for c in played:
        tier = tiers.get(c.id, "")
        taken = Rate(c.taken, c.dealt)
        held = Rate(c.held_by_winner, c.dealt)
        rows.append([
            Cell(c.name, weight="bold"), Cell(tier, fill=TIER_FILLS.get(tier), weight="bold"),
            count(c.dealt), percent(taken.value) if c.dealt else "—",
            percent_range(taken.low, taken.high) if c.dealt else "—",
            percent(held.value) if c.dealt else "—",
        ])  # fmt: skip
    page.table(
        [Column("coaster", 1.7), Column("tier", 0.5, "center"), Column("dealt", 0.9, "right"),
         Column("taken when dealt", 1.1, "right"), Column("95% CI", 1.2, "right"),
         Column("held by the winner", 1.3, "right")],
        rows, size=8.5,
    )  # fmt: skip


# ---------------------------------------------------------------- methodology


def _method_page_1(report: Report, page: Page) -> None:
    page.title("Methodology and assumptions")
    page.heading("Exact numbers", size=12, gap=0.0)
    page.paragraph(
        "The turn is solved exactly as a dynamic programme over the 252 hands and 462 keeps "
        "of five dice (pinastats.dice.solve_turn): for each combination, the holds that "
        "maximise the chance of ending the turn on it, with free holds (a kept die may be "
        "re-rolled later) and three rolls. Chances are exact fractions; the cheat-sheets "
        "group the hands that share an optimal keep (pinastats.dice.guide), and their "
        "'how often' assumes the sheet is followed from the first roll.",
        size=9,
    )
    page.paragraph(
        "Points per turn of a coaster targeted alone = chance in three rolls × the points of "
        "its space (side B: the first token's). This ignores the neighbour bonus, the other "
        "coasters on the board and the race to 20 points or a line: the simulations include "
        "them.",
        size=9,
    )
    page.heading("Coaster catalogue", size=12)
    page.paragraph(
        f"Catalogue: {report.catalogue_name}, {len(report.coasters)} coasters (SHA-256 of "
        f"the table {report.catalogue_digest}). Its provenance, as written in the file:",
        size=9, after=0.04,
    )  # fmt: skip
    page.paragraph(report.catalogue_provenance or "(the file gives none)", size=8.5,
                   colour=MUTED, italic=True, x=page.left + 0.2)  # fmt: skip
    page.heading("Rules as modelled (the project's RULES.md)", size=12)
    page.bullets(list(RULES_TEXT), size=8.5, after=0.03)


def _method_page_2(report: Report, page: Page) -> None:
    sims = report.simulations
    page.title("Methodology and assumptions (continued)")
    page.heading("Simulations", size=12, gap=0.0)
    variant = "with the Happy Hour variant" if report.happy_hour else "without Happy Hour"
    page.paragraph(
        f"{1 + len(sims.matchups)} runs of {count(sims.games)} games each, {variant}, on the "
        f"{report.layout_name} layout; the first player is drawn at random in every game. "
        f"Games are played in chunks of {sims.chunk_size}, each seeded from the run's seed, so "
        "a run gives the same games on any number of workers. Run i uses seed "
        f"16 × {sims.seed} + i. Every rate comes with a 95% Wilson interval.",
        size=9,
    )
    runs = [sims.self_play, *sims.matchups]
    page.table(
        [Column("run", 0.5, "right"), Column("agents (seat order)", 3.6),
         Column("games", 1.0, "right"), Column("seed", 0.8, "right")],
        [[str(i), ", ".join(run.agents), count(run.games), str(run.seeds[0])]
         for i, run in enumerate(runs)],
        size=8.5,
    )  # fmt: skip
    diagram = "   ".join(report.layout_diagram)
    page.paragraph(
        f"Sides at setup for {report.players} players, row by row: {diagram} "
        f"(A: one space, B: two).",
        size=9,
    )
    page.paragraph(
        f"Replay a run: pinastats simulate --agents {','.join(sims.self_play.agents)} "
        f"--games {sims.games} --seed {sims.self_play.seeds[0]} --chunk-size {sims.chunk_size}"
        + (" --happy-hour" if report.happy_hour else ""),
        size=8.5, colour=MUTED,
    )  # fmt: skip
    page.paragraph(
        f"This report: pinastats report --players {report.players} --games {sims.games} "
        f"--seed {sims.seed}" + (" --happy-hour" if report.happy_hour else "")
        + " -o FILE (same inputs, same PDF byte for byte).",
        size=8.5, colour=MUTED,
    )  # fmt: skip
    page.heading("Agents", size=12)
    page.bullets([f"{a}: {AGENT_TEXT[a]}" for a in AGENTS], size=9, after=0.03)
    page.paragraph(
        "The rollout agent (Monte Carlo look-ahead on each placement) is left out: it is "
        "about 150 times slower than strategic.",
        size=9,
    )
    page.heading("Software", size=12)
    page.table(
        [Column("package", 1.6), Column("version", 1.4)],
        [[name, v] for name, v in report.versions], size=9,
    )  # fmt: skip


# ---------------------------------------------------------------- the plan


def plan(report: Report) -> list[PageSpec]:
    """Every page of the report, in order."""
    body: list[PageSpec] = []
    tier_rows = _tier_rows(report)
    per_page = 28
    for start in range(0, len(tier_rows), per_page):
        chunk = tier_rows[start : start + per_page]
        body.append(PageSpec("Coaster tier list", partial(_tier_table, report, chunk, start == 0)))
    body.append(PageSpec("Coaster tier list", partial(_scatter_page, report)))
    for sheet in report.holds:
        versions = [partial(_hold_page, report, sheet, size, n) for size, n in _HOLD_SIZES]
        body.append(PageSpec("Hold cheat-sheets", versions[0], tuple(versions[1:])))
    if report.value_kinds:
        body.append(PageSpec("Hold cheat-sheets", partial(_value_page, report)))
    body.append(PageSpec("Probabilities", partial(_probability_page, report)))
    single = len(report.simulations.matchups) == 1  # 4 players: the chart fits on the page
    body.append(PageSpec("Simulations", partial(_agents_page, report, single)))
    if not single:
        body.append(PageSpec("Simulations", partial(_forest_page, report)))
    for draw in (_position_page, _ending_page, _coasters_play_page):
        body.append(PageSpec("Simulations", partial(draw, report)))
    body.append(PageSpec("Methodology and assumptions", partial(_method_page_1, report)))
    body.append(PageSpec("Methodology and assumptions", partial(_method_page_2, report)))
    contents: list[tuple[str, int]] = []
    for number, spec in enumerate(body, start=2):
        if not contents or contents[-1][0] != spec.section:
            contents.append((spec.section, number))
    return [PageSpec("", partial(_cover, report, contents)), *body]


def render(report: Report) -> list[Figure]:
    """Draw every page (under the report's matplotlib style), numbered in the footer."""
    specs = plan(report)
    figures = []
    with style():
        for number, spec in enumerate(specs, start=1):
            for attempt, draw in enumerate((spec.draw, *spec.compact)):
                page = Page(spec.section)
                try:
                    draw(page)
                    break
                except LayoutError:
                    if attempt == len(spec.compact):
                        raise
            page.footer(footer_text(report), number, len(specs))
            figures.append(page.fig)
    return figures


def page_titles(report: Report) -> list[str]:
    """The running header of each page (the cover's is empty)."""
    return [spec.section for spec in plan(report)]
