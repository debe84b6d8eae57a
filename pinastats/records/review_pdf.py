"""The PDF of game reviews: per game, the chance to win with each roll's luck and the marks.

One A4 page a game: each seat's chance to win at the start of each of its turns
(the line), the luck of each turn's rolls as bars below it, every marked
decision labelled on the chart, each seat's figures and the costliest decisions.
With several games a first page gives the table per agent.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pinastats._files import written_whole
from pinastats.records.review import LADDER, GameReview, agent_table

_COLOURS = ("#1f77b4", "#d55e00", "#009e73", "#9467bd")
"""Seat colours (told apart by marker shape too)."""
_MARKERS = ("o", "s", "^", "D")


def _seat_chances(review: GameReview) -> dict[int, tuple[list[int], list[float]]]:
    """Per seat, the turns and its chance to win before each (2 players: both at every turn)."""
    out: dict[int, tuple[list[int], list[float]]] = {s: ([], []) for s in range(review.players)}
    for turn, seat, win in review.starts:
        out[seat][0].append(turn)
        out[seat][1].append(win)
        if review.players == 2:
            out[1 - seat][0].append(turn)
            out[1 - seat][1].append(1 - win)
    return out


def draw_review(fig: Any, review: GameReview, worst: int = 8) -> None:
    """Draw one game's review page on ``fig`` (A4 portrait)."""
    import matplotlib.ticker

    chart = fig.add_axes((0.1, 0.62, 0.85, 0.26))
    bars = fig.add_axes((0.1, 0.5, 0.85, 0.1), sharex=chart)
    for seat, (turns, wins) in _seat_chances(review).items():
        colour, marker = _COLOURS[seat % 4], _MARKERS[seat % 4]
        chart.plot(turns, wins, "-", marker=marker, ms=3, color=colour, lw=1.2,
                   label=f"seat {seat} ({review.agents[seat]})")  # fmt: skip
    for d in review.decisions:
        if d.mark:
            chart.annotate(d.mark, (d.turn, d.played_win), fontsize=8, color="#b00020",
                           ha="center", va="bottom", weight="bold")  # fmt: skip
    luck: dict[tuple[int, int], float] = {}
    for r in review.rolls:
        luck[r.turn, r.seat] = luck.get((r.turn, r.seat), 0.0) + r.luck
    for (turn, seat), value in luck.items():
        bars.bar(turn, 100 * value, color=_COLOURS[seat % 4], width=0.8)
    bars.axhline(0, color="#555555", lw=0.6)
    bars.set_ylabel("luck (points)", fontsize=8)
    bars.set_xlabel("turn")
    chart.set_ylim(-0.02, 1.02)
    chart.set_ylabel("chance to win before the turn")
    chart.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    chart.grid(alpha=0.3)
    bars.grid(alpha=0.3)
    chart.legend(loc="upper left", fontsize=8, frameon=False)
    chart.tick_params(labelbottom=False)
    winner = "no winner" if review.winner is None else f"seat {review.winner} won"
    how = ("the network, losses checked by up to "
           f"{review.playouts} play-outs" if review.evaluator == "network"
           else f"{review.playouts} play-outs")  # fmt: skip
    fig.text(0.1, 0.95, f"Review of game {review.game}", fontsize=16, weight="bold")
    fig.text(0.1, 0.925, f"{' vs '.join(review.agents)}; {winner} "
             f"({review.reason.lower().replace('_', ' ')}); {how}, seed {review.seed}",
             fontsize=9)  # fmt: skip
    fig.text(0.1, 0.905, "line: each seat's chance to win before a turn; bars: the luck of the "
             "turn's rolls; ?! ? ??: marked decisions (20, 50, 100+ thousandths lost)",
             fontsize=7.5)  # fmt: skip
    lines = [
        "seat              unforced  error rate (95%)      ?!  ?  ??   luck   result  "
        "adjusted  plays"
    ]
    for s in review.seats:
        m = review.summary(s)
        lines.append(
            f"{f'{s} ({m.agent})':18s}{m.unforced:>8}  {m.error_rate:5.1f} "
            f"[{m.error_low:5.1f}, {m.error_high:5.1f}]  {m.doubtful:>3}{m.bad:>3}{m.very_bad:>4}"
            f"  {100 * m.luck:+5.1f}  {m.result:>6g}  {m.luck_adjusted:8.2f}  {m.rating}"
        )
    costly = sorted((d for d in review.decisions if not d.forced), key=lambda d: -d.loss)[:worst]
    lines += ["", "The costliest decisions (thousandths of a win lost, 95% interval)", ""]
    shown = 0
    for d in costly:
        if d.loss <= 0:
            break
        shown += 1
        lines.append(
            f"turn {d.turn:>3} seat {d.seat} {' '.join(map(str, d.dice))}: {d.played}{d.mark} "
            f"({d.played_win:.0%}), best {d.best} ({d.best_win:.0%}): {1000 * d.loss:.0f} "
            f"[{1000 * d.low:.0f}, {1000 * d.high:.0f}]"
        )
    if not shown:
        lines.append("none: every decision was (tied for) the best")
    fig.text(0.06, 0.42, "\n".join(lines), fontsize=7, family="monospace", va="top")


def _agents_page(fig: Any, reviews: Sequence[GameReview]) -> None:
    table = agent_table(reviews)
    lines = [f"{len(reviews)} games reviewed", "",
             "agent        games  unforced  error rate (95%)      ?!/?/?? per 100   luck  "
             "result  adjusted  plays"]  # fmt: skip
    for r in table.to_dict(orient="records"):
        lines.append(
            f"{r['agent']:12s}{r['games']:>6}{r['unforced']:>10}  {r['error_rate']:5.1f} "
            f"[{r['error_low']:5.1f}, {r['error_high']:5.1f}]  {r['doubtful']:4.1f}/{r['bad']:4.1f}"
            f"/{r['very_bad']:4.1f}  {100 * r['luck']:+5.1f}  {r['result']:6.3f}  "
            f"{r['luck_adjusted']:8.3f}  {r['rating']}"
        )
    fig.text(0.1, 0.95, "Reviewed games: per agent", fontsize=16, weight="bold")
    fig.text(0.06, 0.9, "\n".join(lines), fontsize=7, family="monospace", va="top")
    rows = table.to_dict(orient="records")
    height = 0.06 + 0.04 * len(rows)
    ax = fig.add_axes((0.2, 0.78 - height - 0.015 * len(rows), 0.72, height))
    for k, r in enumerate(rows):
        ax.errorbar([r["error_rate"]], [k], xerr=[[r["error_rate"] - r["error_low"]],
                    [r["error_high"] - r["error_rate"]]], fmt="o", color="#1f77b4",
                    capsize=3)  # fmt: skip
    for name, rate in LADDER:
        ax.axvline(rate, color="#999999", lw=0.6, ls="--")
        ax.text(rate, len(rows) - 0.4, name, rotation=90, fontsize=6, color="#666666",
                va="bottom", ha="right")  # fmt: skip
    ax.set_yticks(range(len(rows)), [str(r["agent"]) for r in rows])
    ax.set_ylim(-0.6, len(rows) + 0.9)
    ax.set_xscale("log")
    ax.set_xlabel("error rate (thousandths of a win per unforced decision, 95% interval); "
                  "dashed: the built-in agents' ladder", fontsize=7)  # fmt: skip


def review_pdf(reviews: GameReview | Sequence[GameReview], path: str | Path, *,
               worst: int = 8) -> Path:  # fmt: skip
    """Write the reviews to ``path``: a page per game (a first page per agent for several).

    The file is written whole or not at all (:func:`~pinastats._files.written_whole`).
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.backends.backend_pdf import PdfPages

    many = [reviews] if isinstance(reviews, GameReview) else list(reviews)
    out = Path(path)
    figures = []
    try:
        if len(many) > 1:
            fig = plt.figure(figsize=(8.27, 11.69))
            _agents_page(fig, many)
            figures.append(fig)
        for review in many:
            fig = plt.figure(figsize=(8.27, 11.69))  # A4 portrait
            draw_review(fig, review, worst)
            figures.append(fig)
        with written_whole(out) as file, PdfPages(file) as pdf:
            for fig in figures:
                pdf.savefig(fig)
    finally:
        for fig in figures:
            plt.close(fig)
    return out
