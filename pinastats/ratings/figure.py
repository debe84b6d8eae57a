"""The ladder as a figure: each agent's Elo rating with its 95% interval, strongest on top."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from matplotlib.figure import Figure


def ladder_figure(document: Mapping[str, Any], path: str | Path | None = None) -> Figure:
    """Draw a ladder document (:mod:`pinastats.ratings.document`); save it to ``path`` if given.

    One row per agent, strongest on top: a dot at its rating, a bar over its 95%
    interval, and on the right its rating, interval and games. The anchor's rating
    (0) is a dashed line.
    """
    rows = sorted(document["ratings"], key=lambda r: r["elo"])
    n = len(rows)
    fig = Figure(figsize=(8.0, 0.9 + 0.42 * n), dpi=150, layout="constrained")
    ax = fig.add_subplot()
    ys = list(range(n))
    elo = [r["elo"] for r in rows]
    low = [r["elo"] - r["elo_low"] for r in rows]
    high = [r["elo_high"] - r["elo"] for r in rows]
    ax.errorbar(elo, ys, xerr=[low, high], fmt="o", color="#1f4e79", ecolor="#6d9dc5",
                elinewidth=3, capsize=4, markersize=6, zorder=3)  # fmt: skip
    model = document.get("model", {})
    anchor = model.get("anchor")
    ax.set_yticks(ys, [r["agent"] + (" (anchor)" if r["agent"] == anchor else "") for r in rows])
    ax.axvline(0, color="0.6", linestyle="--", linewidth=1, zorder=1)
    left = min(r["elo_low"] for r in rows)
    right = max(r["elo_high"] for r in rows)
    span = max(right - left, 1.0)
    ax.set_xlim(left - 0.04 * span, right + 0.04 * span)
    ax.set_ylim(-0.6, n - 0.4)
    for y, r in zip(ys, rows, strict=True):
        interval = "" if r["elo_low"] == r["elo_high"] else (
            f" ({r['elo_low']:+.0f} to {r['elo_high']:+.0f})"
        )  # fmt: skip
        ax.annotate(f"{r['elo']:+.0f}{interval}, {r['games']:,} games", (1.02, y),
                    xycoords=("axes fraction", "data"), va="center", fontsize=8,
                    color="0.25", annotation_clip=False)  # fmt: skip
    zero = f"{anchor} = 0" if anchor else "average = 0"
    ax.set_xlabel(f"Elo rating ({zero}); bars: 95% intervals")
    ax.grid(axis="x", color="0.9", zorder=0)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    games = document.get("games")
    seed = document.get("seed")
    ax.set_title(
        "Strength ladder: Bradley-Terry ratings from a round-robin"
        + (f"\n{games:,} two-player games, seed {seed}" if games is not None else ""),
        fontsize=10,
    )
    if path is not None:
        fig.savefig(path)
    return fig
