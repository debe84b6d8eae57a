"""Playing to win: the coach's chance to win against the points of this turn.

Only in a report built with ``win_positions > 0``: one decision worked through
(the board, the dice, every legal cell with its points and its win probability);
over the sampled decisions, how often the coach's cell differs from the
points' cell and what that is worth, by situation; and the calibration of the
coach's and the network's win probabilities, by phase of the game.
"""

from __future__ import annotations

from functools import partial

import numpy as np
from matplotlib.axes import Axes

from pinastats._stats import Z95
from pinastats.report.data import Report
from pinastats.report.designer_data import Estimate
from pinastats.report.pages.spec import PageSpec
from pinastats.report.text import count, dice_text, percent, percent_range
from pinastats.report.typeset import ACCENT, INK, MUTED, Box, Column, Page
from pinastats.report.win_data import (
    EXAMPLE_MIN_CELLS,
    EXAMPLE_PLAYOUTS_FACTOR,
    Calibration,
    PlayingToWin,
    SituationRow,
)

SECTION = "Playing to win"

LEGAL_FILL = "#fbefd0"
"""Background of a legal cell on the example's board."""
CHOICE_FILL = "#f3d58c"
"""Background of a chosen cell (the coach's or the points')."""
SITUATION_TEXT = {
    "block": "an opponent holds every cell of a line but one, and these dice may take it",
    "race": "some player is within 5 points of the target",
    "last token": "the mover places its last token",
    "other": "not a block, a race or a last token",
}
"""What each situation means (the first that applies), from the position and the dice only."""


def _section(report: Report) -> PlayingToWin:
    assert report.playing_to_win is not None
    return report.playing_to_win


def _pp(value: float, digits: int = 1) -> str:
    """A number of percentage points, the minus sign typeset."""
    return f"{100 * value:.{digits}f}".replace("-", "\u2212")


def _interval(e: Estimate | None) -> str:
    return "— (fewer than 2)" if e is None else f"{_pp(e.value)}\n{_pp(e.low)} to {_pp(e.high)}"


def _seats(seats: tuple[int | None, ...]) -> str:
    taken = [str(s) for s in seats if s is not None]
    free = sum(s is None for s in seats)
    parts = ([f"seat {', '.join(taken)}"] if taken else []) + (["free"] if free else [])
    return " · ".join(parts)


def _board(report: Report, page: Page, size: float) -> None:
    """The example's board: a box per cell (coaster, side, tokens), the legal cells tinted."""
    ex = _section(report).example
    legal = {c.cell: c for c in ex.cells}
    rows = 1 + max(c.row for c in ex.board)
    cols = 1 + max(c.col for c in ex.board)
    grid: list[list[Box | str]] = [[""] * cols for _ in range(rows)]
    for c in ex.board:
        mark = legal.get(c.cell)
        marks = []
        if mark is not None and mark.coach:
            marks.append("coach")
        if mark is not None and mark.points_choice:
            marks.append("points")
        tag = f" ({' + '.join(marks)})" if marks else (" (legal)" if mark else "")
        text = f"cell {c.cell}{tag}\n{c.coaster}\nside {c.side}: {_seats(c.spaces)}"
        fill = CHOICE_FILL if marks else LEGAL_FILL if mark else None
        grid[c.row][c.col] = Box(text, fill=fill, weight="bold" if marks else None)
    width = min(1.65, page.width / cols)
    page.table([Column(f"column {k}", width, "center") for k in range(cols)], grid, size=size,
               zebra=False, after=0.06)  # fmt: skip


def example_page(report: Report, small: bool, page: Page) -> None:
    """One decision worked through: the position, every legal cell, the two choices."""
    s = _section(report)
    ex = s.example
    base = 8.5 if small else 9
    n = report.players
    target = report.rules.target_score
    page.title("Playing to win: how the coach decides")
    page.paragraph(
        "The points advice takes the legal cell that scores the most this turn. The coach "
        "(pinastats.coach.win_advice) takes the cell with the highest chance to win the game, "
        "W: from the position after each legal placement, the game is played to the end "
        f"with {s.policy} in every seat, the same random numbers for every cell, and W is the "
        "share of those play-outs the mover wins (a game with no winner counts ½).",
        size=base,
    )
    origin = (
        f"decision {ex.decision + 1} of the {count(s.positions)} on the next page"
        if ex.decision < s.positions
        else f"drawn after the {count(s.positions)} on the next page: none had "
        f"{EXAMPLE_MIN_CELLS} legal cells"
    )
    scores = ", ".join(f"seat {k} {v}" for k, v in enumerate(ex.scores))
    tokens = ", ".join(f"seat {k} {v}" for k, v in enumerate(ex.reserves))
    page.paragraph(
        f"The position ({origin}, {s.policy} self-play of {n} players, seed {s.seed}): turn "
        f"{ex.turn + 1}, seat {ex.seat} to move. Scores {scores} (the game ends at {target}); "
        f"tokens left {tokens}. The final dice, no re-roll left: {dice_text(ex.dice)}, which "
        f"may go on {len(ex.cells)} cells (tinted below). Situation: {ex.situation} "
        f"({SITUATION_TEXT[ex.situation]}).",
        size=base,
    )
    _board(report, page, 7.5 if small else 8)
    best = ex.coach_cell
    rows: list[list[Box | str]] = []
    for c in ex.cells:
        choice = " and ".join(w for w, on in (("coach", c.coach), ("points", c.points_choice))
                              if on) or ""  # fmt: skip
        low = max(c.win_probability - Z95 * c.win_probability_se, 0.0)
        high = min(c.win_probability + Z95 * c.win_probability_se, 1.0)
        weight = "bold" if choice else None
        se, ci = (
            ("0 (exact)", "game over")
            if c.exact else (f"{_pp(c.win_probability_se)} pp", percent_range(low, high))
        )  # fmt: skip
        rows.append([
            Box(f"cell {c.cell}", weight=weight), Box(c.coaster, weight=weight), str(c.points),
            Box(percent(c.win_probability), weight=weight), se, ci,
            _pp(c.win_probability - best.win_probability),
            Box(choice, weight=weight),
        ])  # fmt: skip
    page.table(
        [Column("cell", 0.6), Column("coaster", 1.35), Column("points now", 0.6, "right"),
         Column("win probability W", 0.85, "right"), Column("standard error", 0.75, "right"),
         Column("95% CI", 0.95, "right"), Column("vs coach's cell (pp)", 0.85, "right"),
         Column("choice", 0.9)],
        rows, size=base - 0.5,
    )  # fmt: skip
    page.paragraph(
        f"{ex.playouts} play-outs from each outcome position (play-outs are added "
        f"{s.playouts} at a time, up to {EXAMPLE_PLAYOUTS_FACTOR * s.playouts}, until the best "
        f"cell leads the second by more than 3 standard errors), {s.policy} in every seat, "
        f"play-out seed {ex.seed}. pp: percentage points; CI: a normal 95% interval; exact: "
        "the game is over after that placement, W is its result.",
        size=8, colour=MUTED,
    )  # fmt: skip
    points = ex.points_cell
    if points.cell == best.cell:
        verdict = (
            f"Here both objectives take cell {best.cell} ({best.coaster}, {best.points} points, "
            f"W = {percent(best.win_probability)})."
        )
    else:
        verdict = (
            f"The coach takes cell {best.cell} ({best.coaster}, {best.points} points, "
            f"W = {percent(best.win_probability)}); the points take cell {points.cell} "
            f"({points.coaster}, {points.points} points, W = {percent(points.win_probability)})."
        )
    lead = (
        f" The best cell leads the second by {_pp(ex.lead)} ± {_pp(ex.lead_se)} pp (paired "
        "standard error): "
        + ("too close to call, the play-outs cannot tell them apart."
           if ex.too_close_to_call else "a clear lead, more than 3 standard errors.")
    )  # fmt: skip
    if ex.sample_agree is False and points.cell == best.cell:
        lead += (
            f" With the sample's {s.playouts} play-outs the coach preferred another cell: "
            "more play-outs brought it back to the points' cell."
        )
    page.note(verdict + lead, size=base, bold=False)


def _chart(ax: Axes, rows: tuple[SituationRow, ...]) -> None:
    """Share of decisions that differ and the mean win gain, by situation, 95% intervals."""
    y = np.arange(len(rows))
    for k, r in enumerate(rows):
        colour = ACCENT if r.situation != "all" else INK
        e = r.share
        ax.errorbar([e.value], [k], xerr=[[e.value - e.low], [e.high - e.value]], fmt="o",
                    color=colour, ms=4, capsize=2, lw=1)  # fmt: skip
    ax.set_yticks(y, [f"{r.situation} ({r.positions})" for r in rows])
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlim(0, 1)
    ticks = np.linspace(0, 1, 6)
    ax.set_xticks(ticks, [f"{t:.0%}" for t in ticks])
    ax.set_xlabel("share where the cells differ (95% CI)")
    ax.grid(axis="x", color="#e4e8ec", lw=0.5, zorder=0)
    ax.tick_params(axis="y", length=0)


def _gain_chart(ax: Axes, rows: tuple[SituationRow, ...]) -> None:
    """The mean win gain where the cells differ, by situation, 95% intervals."""
    top = 0.0
    for k, r in enumerate(rows):
        if r.gain is None:
            ax.text(
                0.0,
                k,
                " fewer than 2 differ",
                va="center",
                fontsize=7,
                color=MUTED,
                parse_math=False,
            )
            continue
        g = r.gain
        colour = ACCENT if r.situation != "all" else INK
        spread = [[100 * (g.value - g.low)], [100 * (g.high - g.value)]]
        ax.errorbar([100 * g.value], [k], xerr=spread, fmt="o", color=colour, ms=4, capsize=2,
                    lw=1)  # fmt: skip
        top = max(top, 100 * g.high)
    ax.set_yticks(np.arange(len(rows)), [""] * len(rows))
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlim(min([0.0, *(100 * r.gain.low for r in rows if r.gain)]) - 0.5, top * 1.1 + 1)
    ax.axvline(0, color=MUTED, lw=0.6)
    ax.set_xlabel("mean win gain where they differ (pp, 95% CI)")
    ax.grid(axis="x", color="#e4e8ec", lw=0.5, zorder=0)
    ax.tick_params(axis="y", length=0)


def disagree_page(report: Report, small: bool, page: Page) -> None:
    """Over the sampled decisions: how often the two objectives differ, by situation."""
    s = _section(report)
    base = 8.5 if small else 9
    page.title("Playing to win: where points and winning disagree")
    page.paragraph(
        f"{count(s.positions)} placement decisions of {s.policy} self-play at "
        f"{report.players} seats (pinastats.coach.compare_objectives), each from a game of its "
        "own: a turn drawn at random, its final dice kept when at least two cells are legal "
        "for them. Each decision is asked of the points advice and of the coach "
        f"({s.playouts} play-outs per outcome position, {s.policy} in every seat; seed "
        f"{s.seed}, decision i from its child i). The situation is read from the position and "
        "the dice alone, the first that applies:",
        size=base, after=0.04,
    )  # fmt: skip
    page.bullets([f"{k}: {v}." for k, v in SITUATION_TEXT.items()], size=base - 0.5, after=0.0)
    page.space(0.08)
    rows: list[list[Box | str]] = []
    for r in s.situations:
        weight = "bold" if r.situation == "all" else None
        rows.append([
            Box(r.situation, weight=weight), count(r.positions), count(r.disagreements),
            f"{percent(r.share.value)}\n{percent_range(r.share.low, r.share.high)}",
            _interval(r.gain),
        ])  # fmt: skip
    page.table(
        [Column("situation", 1.1), Column("decisions", 0.85, "right"),
         Column("cells differ", 0.85, "right"),
         Column("share where the cells differ (95% CI)", 1.7, "right"),
         Column("mean win gain where they differ (pp, 95% CI)", 2.3, "right")],
        rows, size=base - 0.5,
    )  # fmt: skip
    height = min(0.5 + 0.3 * len(s.situations), page.room)
    half = page.width / 2
    top = page.y
    left = page.axes(height, width=half, left=1.0, bottom=0.45, top=0.05, right=0.2)
    _chart(left, s.situations)
    page.y = top
    right = page.axes(height, x=page.left + half, width=half, left=0.4, bottom=0.45,
                      top=0.05, right=0.1)  # fmt: skip
    _gain_chart(right, s.situations)
    page.space(0.1)
    every = s.overall.gain_per_decision
    if every is not None:
        page.paragraph(
            f"Over all {count(s.overall.positions)} decisions, taking the coach's cell rather "
            f"than the points' adds {_pp(every.value)} percentage points of win probability "
            f"per decision on average (95% CI {_pp(every.low)} to {_pp(every.high)}).",
            size=base,
        )
    page.paragraph(
        "The win gain of a decision is W(coach's cell) − W(points' cell) from the same "
        "play-outs, never negative; its mean over the decisions that differ has a normal 95% "
        "interval (their spread includes the play-outs' noise). Both numbers are biased "
        "upward: with few play-outs some differences are noise, and the coach takes the "
        "highest of several noisy estimates, which is on average too high. Read a share "
        "together with its gain: a share whose gain is near zero is mostly noise.",
        size=base,
    )
    page.paragraph(
        "Is the coach's W a probability? The next page measures it, and the learned network's.",
        size=8, colour=MUTED,
    )  # fmt: skip


_PREDICTOR_STYLE = (("o", ACCENT), ("s", INK))
"""Marker and colour of the coach's and the network's points in the reliability chart."""


def _reliability_chart(ax: Axes, c: Calibration) -> None:
    """Observed against predicted by decile of the prediction, 95% intervals, per predictor."""
    ax.plot([0, 1], [0, 1], color=MUTED, ls="--", lw=0.8, label="perfect calibration")
    for name, (marker, colour) in zip(c.predictors, _PREDICTOR_STYLE, strict=False):
        d = [x for x in c.deciles if x.predictor == name]
        spread = [[x.observed - x.low for x in d], [x.high - x.observed for x in d]]
        ax.errorbar([x.predicted for x in d], [x.observed for x in d], yerr=spread, fmt=marker,
                    color=colour, ms=3.5, capsize=2, lw=0.9, label=name)  # fmt: skip
    ticks = np.linspace(0, 1, 6)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xticks(ticks, [f"{t:.0%}" for t in ticks])
    ax.set_yticks(ticks, [f"{t:.0%}" for t in ticks])
    ax.set_xlabel("predicted chance to win (mean of the decile)")
    ax.set_ylabel("observed result")
    ax.grid(color="#e4e8ec", lw=0.5, zorder=0)
    ax.legend(fontsize=7, loc="upper left", frameon=False)


def calibration_page(report: Report, small: bool, page: Page) -> None:
    """Are the coach's and the network's win probabilities probabilities? By phase."""
    s = _section(report)
    c = s.calibration
    base = 8.5 if small else 9
    page.title("Playing to win: can the win probabilities be trusted?")
    sizes = " and ".join(f"{count(r.positions)} for the {r.predictor}" for r in c.rows
                         if r.phase == "all")  # fmt: skip
    page.paragraph(
        "pinastats.coach.calibration samples turn starts of strategic self-play (positions: "
        f"{sizes}; seed {s.seed}), asks each predictor for the mover's chance to win before "
        "the first roll, plays the turn as its agent would (the coach, or value for the "
        "network) and the rest with strategic in every seat, and records the result (1 win, "
        "½ no winner, 0 loss). Brier score: mean squared error, against predicting the base "
        "rate everywhere; log loss: −mean(y log p + (1 − y) log(1 − p)); ECE: the positions "
        "in ten bins of equal count, the mean gap between predicted and observed. With "
        "results of 0 or 1 even a perfect predictor shows an ECE on a finite sample: its "
        "floor (simulated) stands beside it.",
        size=base, after=0.04,
    )  # fmt: skip
    rows: list[list[Box | str]] = []
    for r in c.rows:
        weight = "bold" if r.phase == "all" else None
        rows.append([
            Box(r.predictor, weight=weight), Box(r.phase, weight=weight), count(r.positions),
            f"{r.brier:.3f} ({r.brier_constant:.3f})",
            f"{r.log_loss:.3f}", f"{r.ece:.3f} ({r.ece_floor:.3f})",
        ])  # fmt: skip
    page.table(
        [Column("predictor", 1.6), Column("phase", 0.8), Column("positions", 0.8, "right"),
         Column("Brier (base rate)", 1.3, "right"), Column("log loss", 0.9, "right"),
         Column("ECE (floor)", 1.1, "right")],
        rows, size=base - 0.5,
    )  # fmt: skip
    page.space(0.08)
    height = min(3.0, page.room - 0.8)
    chart = page.axes(height, width=min(page.width, 4.2), left=0.7, bottom=0.5, top=0.1,
                      right=0.2)  # fmt: skip
    _reliability_chart(chart, c)
    page.space(0.08)
    page.paragraph(
        "Phases by the share of all tokens placed: early below a third, middle below two "
        "thirds, late the rest. A decile whose interval misses the diagonal is one where the "
        "predictor is off by more than the sample's noise."
        + (" " + c.network_note if c.network_note else ""),
        size=8, colour=MUTED,
    )  # fmt: skip


def specs(report: Report) -> list[PageSpec]:
    """The three pages when the report has the section, else nothing."""
    if report.playing_to_win is None:
        return []
    return [
        PageSpec(SECTION, partial(draw, report, False), (partial(draw, report, True),))
        for draw in (example_page, disagree_page, calibration_page)
    ]
