"""The designer's notes: fair starting scores, what-if rules and a suggested points table.

Only in a report built with ``designer_games > 0``. Every number comes with its
95% interval and the agent that played the games it rests on.
"""

from __future__ import annotations

from functools import partial

from pinastats.report.data import Report
from pinastats.report.designer_data import Designer, Estimate, SeatVector
from pinastats.report.pages.spec import PageSpec
from pinastats.report.text import count, join_words, ordinal, percent, percent_range
from pinastats.report.typeset import MUTED, Box, Column, Page

SECTION = "Designer's notes"


def _pp(value: float) -> str:
    """A signed difference of rates in percentage points: ``+1.2``, ``−0.4``."""
    return f"{100 * value:+.1f}".replace("-", "\u2212")


def _pp_box(e: Estimate) -> str:
    return f"{_pp(e.value)}\n{_pp(e.low)} to {_pp(e.high)}"


def _rate_box(e: Estimate) -> str:
    return f"{percent(e.value)}\n{percent_range(e.low, e.high)}"


def _scores(scores: tuple[int, ...]) -> str:
    return ", ".join(str(s) for s in scores)


def _rules(report: Report) -> str:
    """The rules the self-play runs were played with, as a clause."""
    return ", with the Happy Hour variant" if report.happy_hour else ""


def _designer(report: Report) -> Designer:
    assert report.designer is not None
    return report.designer


def _vector_row(role: str, v: SeatVector) -> list[Box | str]:
    return [
        Box(role, weight="bold"), _scores(v.scores), count(v.games),
        *(_rate_box(s) for s in v.seats),
        f"{100 * v.deviation.value:.1f}\n{100 * v.deviation.low:.1f} to "
        f"{100 * v.deviation.high:.1f}",
    ]  # fmt: skip


def scores_page(report: Report, page: Page) -> None:
    """The rulebook's starting scores against the fairest found, seat by seat."""
    d = _designer(report)
    n = report.players
    fair = 1 / n
    page.title("Designer's notes: fair starting scores")
    page.paragraph(
        f"Which starting scores give every seat of {n} players its fair share of "
        f"{percent(fair)}? The search (pinastats.balance.search_starting_scores) played "
        f"{d.agent} self-play in every seat under each vector that starts the first player on 1 "
        f"and later seats no lower, at most 4 above; round k gave every vector still in "
        f"contention twice the games of the round before, and a vector left when the low end of "
        f"its interval for D (the largest deviation of a seat's win rate from {percent(fair)}) "
        f"was above the best vector's high end. It played {count(d.search_games)} games in "
        f"{d.search_rounds} round{'s' if d.search_rounds != 1 else ''} (budget "
        f"{count(d.search_budget)}){_rules(report)}.",
        size=9,
    )
    width = min(1.2, (page.width - 0.75 - 0.8 - 0.65 - 1.05) / n)
    columns = [Column("vector", 0.75), Column("starting scores", 0.8),
               Column("games", 0.65, "right")]  # fmt: skip
    columns += [Column(f"{ordinal(k)} to play", width, "right") for k in range(1, n + 1)]
    columns.append(Column("largest deviation (pp)", 1.05, "right"))
    rows = [_vector_row("rulebook", d.rulebook), _vector_row("fairest", d.fairest)]
    page.table(columns, rows, size=8.5)
    page.paragraph(
        f"Each seat's win rate in turn order, its 95% Wilson interval below it; the largest "
        f"deviation from {percent(fair)} in percentage points (pp) with its interval (the "
        f"seats' intervals at a jointly 95% level). Agent: {d.agent} in every seat.",
        size=8, colour=MUTED,
    )  # fmt: skip
    same = d.fairest.scores == d.rulebook.scores
    half = max(max(s.high - s.value, s.value - s.low) for s in d.fairest.seats)
    verdict = (
        "every seat's interval holds the fair share"
        if d.within_precision else "some seat's interval misses the fair share"
    )  # fmt: skip
    page.paragraph(
        (f"The rulebook's {_scores(d.rulebook.scores)} is the fairest vector found"
         if same else
         f"The fairest vector found is {_scores(d.fairest.scores)} (the rulebook's: "
         f"{_scores(d.rulebook.scores)})")
        + f"; under it {verdict}. With {count(d.fairest.games)} games a seat's interval "
        f"reaches up to {100 * half:.1f} percentage points either side of its rate: vectors "
        "that differ by less cannot be told apart.",
        size=9,
    )  # fmt: skip


def whatif_page(report: Report, page: Page) -> None:
    """One rule changed at a time: length, first-player edge, skill."""
    d = _designer(report)
    n = report.players
    pairs = [f"{s} against {w}" for s, w in d.skill_pairs]
    page.title("Designer's notes: what if the rules changed?")
    page.paragraph(
        f"Each row changes one rule of the rulebook (without Happy Hour, starting scores 1 to "
        f"{n}) and plays {count(d.games)} games of {d.agent} self-play at {n} seats, the first "
        f"player drawn at random, for the mean length and the first player's edge over "
        f"{percent(1 / n)}; and {count(d.games)} heads-up games (2 players, random first "
        f"seat) of each skill pair, {join_words(pairs)}, for the stronger agent's win rate: "
        "nearer 50% means more luck, higher means more skill. Every variant plays with the "
        f"same seeds ({d.seeds[1]} and the next).",
        size=9,
    )
    skill_cols = [Column(f"skill: {s} vs {w} (win rate)", 1.35, "right")
                  for s, w in d.skill_pairs]  # fmt: skip
    columns = [Column("variant", 1.2), Column("mean rounds", 1.0, "right"),
               Column(f"first-player edge (pp, {d.agent})", 1.3, "right"), *skill_cols]  # fmt: skip
    rows: list[list[Box | str]] = [
        [
            Box(v.name, weight="bold" if v.name == "rulebook" else None),
            f"{v.mean_rounds.value:.2f}\n{v.mean_rounds.low:.2f}–{v.mean_rounds.high:.2f}",
            _pp_box(v.first_player_edge),
            *(_rate_box(e) for _, _, e in v.skill),
        ]
        for v in d.variants
    ]
    page.table(columns, rows, size=8.5)
    page.paragraph(
        f"Mean rounds of {d.agent} self-play (a normal 95% interval); the first player's win "
        "rate minus the fair share, and the stronger agent's heads-up win rate, each with its "
        "95% Wilson interval below it. pp: percentage points.",
        size=8, colour=MUTED,
    )  # fmt: skip


def coasters_page(report: Report, page: Page) -> None:
    """Each coaster's printed points, what its token is worth to winning, suggested points."""
    d = _designer(report)
    names = {c.id: c.name for c in report.coasters}
    page.title("Designer's notes: what a token is worth")
    page.paragraph(
        f"In {count(d.games)} games of {d.agent} self-play at {report.players} seats (seed "
        f"{d.seeds[2]}{_rules(report)}), every token placed is compared with the tokens "
        "placed on other coasters in the same round: the effect is how much more often the "
        "seat that took this coaster won, averaged over the rounds (weighted by its takes). "
        "The worth of a point, "
        f"the within-round slope of winning on the points a placement scored, is "
        f"{_pp(d.point_slope)} pp of win rate per point. The suggested points shift every "
        "space of a coaster by −(effect − mean effect) / worth of a point, rounded, not below "
        "0. It is a first-order estimate from one agent's play: play the new table again "
        "before printing it.",
        size=9,
    )
    rows: list[list[Box | str]] = []
    for c in sorted(d.coasters, key=lambda c: -c.effect.value):
        a, b1, b2 = c.printed
        na, nb1, nb2 = c.suggested
        changed = c.suggested != c.printed
        rows.append([
            Box(names.get(c.coaster, c.coaster), weight="bold"), f"{a} · {b1} / {b2}",
            count(c.taken), _pp(c.effect.value) if c.taken else "—",
            f"{_pp(c.effect.low)} to {_pp(c.effect.high)}" if c.taken else "—",
            Box(f"{na} · {nb1} / {nb2}", weight="bold" if changed else None),
        ])  # fmt: skip
    page.table(
        [Column("coaster", 1.6), Column("printed: A · B", 1.1, "center"),
         Column("tokens taken", 0.9, "right"), Column("effect (pp)", 0.85, "right"),
         Column("95% CI (pp)", 1.2, "right"), Column("suggested: A · B", 1.2, "center")],
        rows, size=8,
    )  # fmt: skip
    page.paragraph(
        f"Agent: {d.agent} in every seat. Effect in percentage points of the taker's win rate, "
        "with a normal 95% interval that treats the placements as independent. A · B: side A's "
        "space, side B's first / second. Most helpful first; bold: a suggested change.",
        size=8, colour=MUTED,
    )  # fmt: skip


def specs(report: Report) -> list[PageSpec]:
    """The three pages when the report has designer's notes, else nothing."""
    if report.designer is None:
        return []
    return [PageSpec(SECTION, partial(draw, report))
            for draw in (scores_page, whatif_page, coasters_page)]  # fmt: skip
