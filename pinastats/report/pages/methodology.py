"""The methodology pages: how the numbers are computed, the catalogue, the rules, the runs."""

from __future__ import annotations

from functools import partial

from pinastats.dice.hands import N_HANDS, N_KEEPS
from pinastats.holds.decision_learn import MAX_RULES, TOLERANCE
from pinastats.report.data import Report
from pinastats.report.pages.simulations import AGENT_TEXT
from pinastats.report.pages.spec import PageSpec
from pinastats.report.sims import AGENTS
from pinastats.report.text import count, join_words, percent, points
from pinastats.report.typeset import MUTED, Box, Column, Page
from pinastats.report.wording import RULES_PAGE, rules_text

SECTION = "Methodology and assumptions"


def method_page_1(report: Report, page: Page) -> None:
    """Exact numbers, the coaster catalogue, the rules as modelled."""
    page.title("Methodology and assumptions")
    page.heading("Exact numbers", size=12, gap=0.0)
    page.paragraph(
        f"The turn is solved exactly as a dynamic programme over the {N_HANDS} hands and "
        f"{N_KEEPS} keeps of five dice (pinastats.dice.solve_turn): for each combination, the "
        "holds that maximise the chance of ending the turn on it, with free holds (a kept die "
        "may be re-rolled later) and three rolls. Chances are exact fractions. The cheat-sheets "
        "are decision lists learned from these optimal keeps and checked against them on every "
        "hand (last page of this section); their 'how often' assumes the sheet is followed "
        "from the first roll.",
        size=9,
    )
    page.paragraph(
        "Points per turn of a coaster targeted alone = chance in three rolls × the points of "
        "its space (side B: the first token's). This ignores the neighbour bonus, the other "
        f"coasters on the board and the race to {report.rules.target_score} points or a line: "
        "the simulations include them.",
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
    page.heading(f"Rules as modelled (the project's {RULES_PAGE})", size=12)
    page.bullets(list(rules_text(report.rules, report.layout)), size=8.5, after=0.03)


def method_page_2(report: Report, page: Page, agents: bool = True) -> None:
    """The simulation runs, the agents (``agents=False``: a pointer to them), the software."""
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
    rows: list[list[Box | str]] = [
        [str(i), ", ".join(run.agents), count(run.games), str(run.seeds[0])]
        for i, run in enumerate(runs)
    ]
    for guest_runs in sims.guests:  # one row per guest: its run against each built-in agent
        first, last = guest_runs[0].seeds[0], guest_runs[-1].seeds[0]
        rows.append([
            f"{first - 16 * sims.seed}-{last - 16 * sims.seed}",
            f"{guest_runs[0].agents[0]}, then {', '.join(AGENTS)} in turn in the other seats",
            f"{count(sims.guest_games)} each", f"{first}-{last}",
        ])  # fmt: skip
    page.table(
        [Column("run", 0.5, "right"), Column("agents (seat order)", 3.6),
         Column("games", 1.0, "right"), Column("seed", 0.8, "right")],
        rows, size=8.5,
    )  # fmt: skip
    if report.designer is not None:
        d = report.designer
        page.paragraph(
            f"Designer's notes: {d.agent} self-play on the catalogue above, seeded apart from "
            f"these runs: the starting-score search with seed {d.seeds[0]} "
            f"({count(d.search_games)} games), the what-if rules with seed {d.seeds[1]} and the "
            f"next two ({count(d.games)} games a run, three runs a variant), the coaster points "
            f"with seed {d.seeds[2]} ({count(d.games)} games).",
            size=9,
        )
    if report.playing_to_win is not None:
        w = report.playing_to_win
        page.paragraph(
            f"Playing to win: {count(w.positions)} placement decisions of {w.policy} self-play, "
            f"each asked of the coach with {w.playouts} play-outs per outcome position "
            f"({w.policy} in every seat), seed {w.seed} (decision i: its child i); the worked "
            f"example with play-out seed {w.example.seed} ({w.example.playouts} play-outs).",
            size=9,
        )
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
        + (f" --designer-games {report.designer.games}" if report.designer else
           " --designer-games 0")
        + (f" --win-positions {report.playing_to_win.positions} --win-playouts "
           f"{report.playing_to_win.playouts}" if report.playing_to_win else
           " --win-positions 0")
        + " -o FILE (same inputs, same PDF byte for byte).",
        size=8.5, colour=MUTED,
    )  # fmt: skip
    page.heading("Agents", size=12)
    if agents:
        page.bullets([f"{a}: {AGENT_TEXT[a]}" for a in AGENTS], size=9, after=0.03)
    else:
        page.paragraph(f"{join_words(list(AGENTS))}: described in the Simulations section.",
                       size=9)  # fmt: skip
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


def method_page_sheets(report: Report, page: Page) -> None:
    """How the cheat-sheets are learned and how far from optimal play they are."""
    page.title("Methodology: the cheat-sheets")
    page.paragraph(
        "Each sheet is a decision list: rules in order, the first whose condition fits the "
        "dice decides. Conditions come from a small vocabulary a player checks with the dice "
        "in hand (how many dice show a value or a range of values, how many different values "
        "of a run, pairs and groups, whether some n dice total a range), keeps from another "
        "(every die of a set of values, one of each value of a run, n dice totalling a range, "
        'the largest group, every paired die). After "if you already have it, stop", rules '
        'are added greedily (pinastats.holds.decision_learn): the default ("otherwise ...") '
        "is the keep that suits the most likely hands, and rules before it cover the hands "
        "where it would lose more than the tolerance, the likeliest first, each rule losing at "
        f"most {points(TOLERANCE)} on every hand it decides, until nothing is left or the list "
        f"has {MAX_RULES} rules (then the sheet says how many hands it covers).",
        size=9,
    )
    page.paragraph(
        "The check (pinastats.holds.decision_sheet, and the test suite) applies each printed "
        "list, through the same objects its words are generated from, to all 252 hands after "
        "roll 1 and after roll 2, and compares every keep its words allow with the best keep: "
        "loss = best chance − the chance of the worst allowed keep, both with optimal play "
        "afterwards. Average: over the hands as often as they are held at that point of a turn "
        "played by the sheet. Following the sheet: the chance of the coaster for a player who "
        "follows it at both decisions and always takes the worst keep it allows.",
        size=9,
    )
    rows: list[list[Box | str]] = []
    for sheet in report.holds:
        stages = sheet.lists.stages
        rows.append([
            Box(sheet.name, weight="bold"), " / ".join(str(len(s.rules.rules)) for s in stages),
            " / ".join(percent(s.coverage, 2) for s in stages),
            f"{100 * max(s.worst for s in stages):.2f}",
            " / ".join(f"{100 * s.mean:.3f}" for s in stages),
            percent(sheet.lists.optimal, 2), percent(sheet.lists.played, 2),
        ])  # fmt: skip
    page.table(
        [Column("coaster", 1.4), Column("rules (roll 1 / 2)", 0.8, "right"),
         Column("hands within tolerance", 1.2, "right"),
         Column("worst loss (pp)", 0.7, "right"),
         Column("average loss (pp, roll 1 / 2)", 1.05, "right"),
         Column("optimal", 0.7, "right"), Column("following the sheet", 0.9, "right")],
        rows, size=8.5,
    )  # fmt: skip
    page.paragraph(
        "pp: percentage points. Roll 1 / 2: the list used after roll 1 (two rolls left) and "
        "after roll 2 (one roll left); the rules count \"if you already have it, stop\".",
        size=8, colour=MUTED,
    )  # fmt: skip


def specs(report: Report) -> list[PageSpec]:
    """The section's pages: numbers and rules, runs and software, the cheat-sheets."""
    pages = [
        PageSpec(SECTION, partial(method_page_1, report)),
        PageSpec(SECTION, partial(method_page_2, report),
                 (partial(method_page_2, report, agents=False),)),
    ]  # fmt: skip
    if report.holds:
        pages.append(PageSpec(SECTION, partial(method_page_sheets, report)))
    return pages
