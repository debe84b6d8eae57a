"""The one-page PDF of a game review: each seat's chance to win, costly decisions marked."""

from __future__ import annotations

from pathlib import Path

from pinastats._files import written_whole
from pinastats.records.review import GameReview

_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd")


def review_pdf(review: GameReview, path: str | Path, *, worst: int = 8) -> Path:
    """Write the review's page to ``path``: a chart and the ``worst`` costliest decisions.

    The chart shows, for each reviewed seat, its chance to win with the best
    move at each of its decisions (a line) and after the move played (dots);
    a costly decision (loss >= ``COSTLY``) is a red cross joined to the best. The
    file is written whole or not at all (:func:`~pinastats._files.written_whole`).
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=(8.27, 11.69))  # A4 portrait
    chart = fig.add_axes((0.1, 0.5, 0.85, 0.38))
    for seat in review.seats:
        rows = [d for d in review.decisions if d.seat == seat]
        colour = _COLOURS[seat % len(_COLOURS)]
        x = [d.turn + 0.15 * (d.roll - 1) + (0.1 if d.decision == "place" else 0) for d in rows]
        label = f"seat {seat} ({review.agents[seat]}): gave away {review.given_away[seat]:.0%}"
        chart.plot(x, [d.best_win for d in rows], "-", color=colour, lw=1.2, label=label)
        chart.plot(x, [d.played_win for d in rows], ".", color=colour, ms=4)
        for xi, d in zip(x, rows, strict=True):
            if d.costly:
                chart.plot([xi, xi], [d.played_win, d.best_win], "-", color="#d62728", lw=1)
                chart.plot(xi, d.played_win, "x", color="#d62728", ms=7, mew=1.5)
    chart.set_ylim(-0.02, 1.02)
    chart.set_xlabel("turn")
    chart.set_ylabel("chance to win")
    chart.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    chart.grid(alpha=0.3)
    chart.legend(loc="upper left", fontsize=8, frameon=False)
    winner = "no winner" if review.winner is None else f"seat {review.winner} won"
    fig.text(0.1, 0.95, f"Review of game {review.game}", fontsize=16, weight="bold")
    fig.text(
        0.1,
        0.925,
        f"{' vs '.join(review.agents)}; {winner} ({review.reason.lower().replace('_', ' ')}); "
        f"{review.playouts} play-outs, seed {review.seed}",
        fontsize=9,
    )
    fig.text(0.1, 0.9, "line: with the best move; dots: the move played; red x: costly", fontsize=8)
    costly = sorted(review.decisions, key=lambda d: -d.loss)[:worst]
    lines = ["The costliest decisions", ""]
    for d in costly:
        if d.loss <= 0:
            break
        lines.append(
            f"turn {d.turn:>3} seat {d.seat} {' '.join(map(str, d.dice))}: {d.played} "
            f"({d.played_win:.0%}), best {d.best} ({d.best_win:.0%}): -{d.loss:.1%}"
        )
    if len(lines) == 2:
        lines.append("none: every decision was (tied for) the best")
    fig.text(0.1, 0.42, "\n".join(lines), fontsize=7.5, family="monospace", va="top")
    out = Path(path)
    try:
        with written_whole(out) as file:
            fig.savefig(file, format="pdf")
    finally:
        plt.close(fig)
    return out
