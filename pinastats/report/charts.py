"""The report's charts, each drawn on axes a page gives it.

Charts read the report's data only; they choose no positions on the page.
Point labels are placed by :func:`place_labels`, which tries positions around
each point until the label overlaps neither another label nor a point.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.axes import Axes
from matplotlib.text import Annotation
from matplotlib.transforms import Bbox

from pinastats.report.coasters import CoasterRow
from pinastats.report.sims import RunStats
from pinastats.report.text import group_label, ordinal
from pinastats.report.typeset import ACCENT, INK, MUTED, RULE

COASTER_COLOURS = {"green": "#2e8b57", "blue": "#2f6fb3", "red": "#c8463d"}
"""Marker colours of the coaster colour groups."""
SERIES = ("#9fb3c8", "#5b84b1", ACCENT)
"""Bar colours of 1, 2 and 3 rolls (light to dark)."""
RUN_COLOURS = (ACCENT, "#d08c2f")
"""Self-play, then the pooled match-ups."""
_WHITE = {"facecolor": "white", "edgecolor": "none", "pad": 0.6}

_OFFSETS = [
    (7, 0, "left", "center"), (-7, 0, "right", "center"),
    (0, 7, "center", "bottom"), (0, -7, "center", "top"),
    (7, 6, "left", "bottom"), (7, -6, "left", "top"),
    (-7, 6, "right", "bottom"), (-7, -6, "right", "top"),
    (0, 16, "center", "bottom"), (0, -16, "center", "top"),
    (16, 12, "left", "bottom"), (16, -12, "left", "top"),
    (-16, 12, "right", "bottom"), (-16, -12, "right", "top"),
    (0, 26, "center", "bottom"), (0, -26, "center", "top"),
]  # fmt: skip


def place_labels(
    ax: Axes, points: Sequence[tuple[float, float]], labels: Sequence[str], size: float = 7.5
) -> None:
    """Label each point where the label collides with nothing placed so far.

    Call once the axes' limits are final. Labels far from their point get a
    thin leader line.
    """
    fig = ax.get_figure()
    assert fig is not None
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    area = ax.get_window_extent(renderer)
    xy = ax.transData.transform(np.asarray(points, dtype=float))
    taken = [Bbox.from_extents(x - 3.5, y - 3.5, x + 3.5, y + 3.5) for x, y in xy]
    order = sorted(range(len(points)), key=lambda i: (-points[i][1], points[i][0]))
    for i in order:
        chosen: Annotation | None = None
        for dx, dy, ha, va in _OFFSETS:
            far = abs(dx) > 8 or abs(dy) > 8
            label = ax.annotate(
                labels[i], points[i], xytext=(dx, dy), textcoords="offset points", ha=ha,
                va=va, fontsize=size, color=INK, annotation_clip=False,
                arrowprops={"arrowstyle": "-", "color": RULE, "lw": 0.5, "shrinkA": 0,
                            "shrinkB": 3} if far else None,
            )  # fmt: skip
            box = label.get_window_extent(renderer)
            inside = (
                box.x0 >= area.x0 and box.x1 <= area.x1 and box.y0 >= area.y0 and box.y1 <= area.y1
            )
            if inside and not any(box.overlaps(t) for t in taken):
                chosen = label
                taken.append(box)
                break
            label.remove()
        if chosen is None:  # nowhere free: the first position, drawn anyway
            dx, dy, ha, va = _OFFSETS[0]
            label = ax.annotate(labels[i], points[i], xytext=(dx, dy), textcoords="offset points",
                                ha=ha, va=va, fontsize=size, color=INK)  # fmt: skip
            taken.append(label.get_window_extent(renderer))


def coaster_scatter(ax: Axes, rows: Sequence[CoasterRow], side: str, in_play: bool) -> None:
    """Points of one side against the chance in a turn, with curves of equal expected points."""
    groups: dict[tuple[float, int], list[CoasterRow]] = {}
    for r in rows:
        points = r.side_a if side == "A" else r.side_b[0]
        groups.setdefault((round(r.three_rolls, 9), points), []).append(r)
    top = max(max(p for _, p in groups), 1) + 1
    xs = np.linspace(0.02, 1, 200)
    for level in (0.5, 1.0, 1.5, 2.0, 2.5, 3.0):
        ys = level / xs
        keep = ys <= top
        if not keep.any():
            continue
        ax.plot(xs[keep], ys[keep], color=RULE, lw=0.6, ls=(0, (3, 3)), zorder=1)
        k = int(np.argmax(keep))
        x_end = 0.985 if level / 0.985 <= top else float(xs[k])
        y_end = level / x_end
        ax.text(x_end, y_end + 0.07 * (y_end < top - 0.3), f"{level:g}", fontsize=7,
                color=MUTED, ha="right", va="bottom", parse_math=False)  # fmt: skip
    for (x, y), members in groups.items():
        colour = COASTER_COLOURS.get(members[0].colour, INK)
        ax.scatter([x], [y], s=34, color=colour, edgecolor="white", linewidth=0.6, zorder=3)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, top)
    ax.set_xticks(np.linspace(0, 1, 11))
    ax.set_xticklabels([f"{v:.0%}" for v in np.linspace(0, 1, 11)])
    ax.set_yticks(range(0, top + 1))
    ax.set_xlabel("chance in a turn of three rolls (optimal holds)")
    ax.set_ylabel("points" if side == "A" else "points of the first token")
    ax.grid(axis="y", color="#e4e8ec", lw=0.5, zorder=0)
    play = "in play" if in_play else "not in play for this player count"
    name = "Side A (one space)" if side == "A" else "Side B (first of two spaces)"
    ax.set_title(f"{name}: {play}", loc="left", fontweight="bold", color=INK)
    place_labels(ax, list(groups), [group_label([m.name for m in g]) for g in groups.values()])


def probability_bars(ax: Axes, rows: Sequence[CoasterRow]) -> None:
    """The chance of each coaster in 1, 2 and 3 rolls, likeliest first."""
    order = sorted(rows, key=lambda r: -r.three_rolls)
    y = np.arange(len(order))
    height = 0.27
    for k, colour in enumerate(SERIES):
        values = [r.chances[k] for r in order]
        label = f"{k + 1} roll{'s' * (k > 0)}"
        ax.barh(y + (k - 1) * height, values, height=height, color=colour, label=label, zorder=2)
    for yi, r in zip(y, order, strict=True):
        ax.text(r.three_rolls + 0.008, yi + height, f"{r.three_rolls:.1%}", va="center",
                fontsize=7, color=INK, parse_math=False)  # fmt: skip
    ax.set_yticks(y)
    ax.set_yticklabels([r.name for r in order])
    ax.invert_yaxis()
    ax.set_ylim(len(order) - 0.4, -0.6)
    ax.set_xlim(0, 1.0)
    ax.set_xticks(np.linspace(0, 1, 11))
    ax.set_xticklabels([f"{v:.0%}" for v in np.linspace(0, 1, 11)])
    ax.xaxis.tick_top()
    ax.grid(axis="x", color="#e4e8ec", lw=0.5, zorder=0)
    ax.tick_params(axis="y", length=0)
    ax.legend(loc="lower right", ncols=3, bbox_to_anchor=(1.0, -0.045))


def matchup_forest(ax: Axes, runs: Sequence[RunStats], players: int) -> None:
    """Each agent's win rate at each table, with 95% intervals and the fair share."""
    labels: list[str] = []
    y = 0.0
    ticks: list[float] = []
    for run in runs:
        for agent in dict.fromkeys(run.agents):  # a guest's table repeats its opponent
            rate = run.win_rate(agent)
            assert rate is not None
            spread = [[max(rate.value - rate.low, 0.0)], [max(rate.high - rate.value, 0.0)]]
            ax.errorbar(rate.value, y, xerr=spread,
                        fmt="o", color=ACCENT, ms=4, capsize=2, lw=1, zorder=3)  # fmt: skip
            right = rate.high < 0.88
            ax.text(rate.high + 0.015 if right else rate.low - 0.015, y, f"{rate.value:.1%}",
                    va="center", ha="left" if right else "right", fontsize=7, color=INK,
                    parse_math=False, zorder=4, bbox=_WHITE)  # fmt: skip
            labels.append(agent)
            ticks.append(y)
            y += 1
        if run is not runs[-1]:
            ax.axhline(y - 0.0, color="#e4e8ec", lw=0.6)
            y += 0.5
    fair = 1 / players
    ax.axvline(fair, color="#d08c2f", lw=1, ls="--", zorder=2.5)
    ax.text(fair + 0.01, -0.75, f"fair share {fair:.0%}", color="#d08c2f", fontsize=7,
            ha="left", va="center", parse_math=False)  # fmt: skip
    ax.set_yticks(ticks)
    ax.set_yticklabels(labels)
    ax.set_ylim(y - 0.5, -1.0)
    ax.set_xlim(0, 1)
    ax.set_xticks(np.linspace(0, 1, 11))
    ax.set_xticklabels([f"{v:.0%}" for v in np.linspace(0, 1, 11)])
    ax.set_xlabel("win rate (95% interval)")
    ax.grid(axis="x", color="#e4e8ec", lw=0.5, zorder=0)
    ax.tick_params(axis="y", length=0)


def position_bars(ax: Axes, runs: Sequence[RunStats], players: int) -> None:
    """Win rate by position in turn order for each run, with 95% intervals."""
    width = 0.8 / len(runs)
    x = np.arange(players)
    for k, (run, colour) in enumerate(zip(runs, RUN_COLOURS, strict=False)):
        values = np.array([r.value for r in run.positions])
        err = np.array([[max(r.value - r.low, 0.0) for r in run.positions],
                        [max(r.high - r.value, 0.0) for r in run.positions]])  # fmt: skip
        xs = x + (k - (len(runs) - 1) / 2) * width
        ax.bar(xs, values, width=width * 0.92, color=colour, label=run.label, zorder=2)
        ax.errorbar(xs, values, yerr=err, fmt="none", ecolor=INK, capsize=2, lw=0.8, zorder=3)
        for xi, v, hi in zip(xs, values, values + err[1], strict=True):
            ax.text(xi, hi + 0.01, f"{v:.1%}", ha="center", va="bottom", fontsize=7,
                    parse_math=False)  # fmt: skip
    fair = 1 / players
    ax.axhline(fair, color=MUTED, lw=0.8, ls="--", zorder=2.5)
    ax.set_xticks(x)
    ax.set_xticklabels([f"{ordinal(p + 1)} to play" for p in range(players)])
    top = max(r.high for run in runs for r in run.positions)
    ax.set_ylim(0, min(1.0, top * 1.25 + 0.02))
    ticks = ax.get_yticks()
    ax.set_yticks(ticks)
    ax.set_yticklabels([f"{t:.0%}" for t in ticks])
    ax.set_ylim(0, min(1.0, top * 1.25 + 0.02))
    ax.set_ylabel("games won")
    ax.grid(axis="y", color="#e4e8ec", lw=0.5, zorder=0)
    ax.legend(loc="upper right", ncols=len(runs))


def rounds_histogram(ax: Axes, runs: Sequence[RunStats]) -> None:
    """Share of games lasting each number of rounds, one bar series per run."""
    lengths = sorted({r for run in runs for r, _ in run.rounds})
    x = np.arange(lengths[0], lengths[-1] + 1)
    width = 0.8 / len(runs)
    for k, (run, colour) in enumerate(zip(runs, RUN_COLOURS, strict=False)):
        counts = dict(run.rounds)
        shares = np.array([counts.get(int(v), 0) / run.games for v in x])
        ax.bar(x + (k - (len(runs) - 1) / 2) * width, shares, width=width * 0.92, color=colour,
               label=f"{run.label} (mean {run.mean_rounds:.2f})", zorder=2)  # fmt: skip
    ax.set_xticks(x)
    ax.set_xlabel("rounds (every player plays once per round)")
    ticks = ax.get_yticks()
    ax.set_yticks(ticks)
    ax.set_yticklabels([f"{t:.0%}" for t in ticks])
    ax.set_ylabel("share of games")
    ax.grid(axis="y", color="#e4e8ec", lw=0.5, zorder=0)
    ax.legend(loc="upper right")
