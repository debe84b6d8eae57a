"""The perfect-play charts: the two-player base game solved board by board.

Each chart draws on axes it is given, from :class:`~pinastats.balance.perfect.PerfectPlay`
only (the shipped ``data/perfect-play.json``), so a new file redraws them;
:func:`figure_png` draws one as PNG bytes (the site embeds them),
:func:`write_figures` saves them as PNG files. Values of perfect play are in
the accent colour; error bars are 95% intervals (normal over boards, or over
games for an agent's loss).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator

from pinastats.balance.perfect import PerfectPlay, coaster_worth, first_player
from pinastats.report.perfect_text import ranking
from pinastats.report.typeset import ACCENT, HEADER_FILL, INK, MUTED, RULE, style

Chart = Callable[[Axes, PerfectPlay], None]

FIGURES = {
    "perfect-play-first-player.png": (
        "Histogram of the first player's exact chance to win at the start of each solved "
        "board under perfect play, with the fair 50% dashed, the mean over the boards and "
        "its 95% interval marked"
    ),
    "perfect-play-coasters.png": (
        "What an opening token on each coaster is worth to the first player under perfect "
        "play, in points of win chance, mean over the solved boards with 95% intervals "
        "(a hollow dot: a coaster dealt on one board, no interval)"
    ),
    "perfect-play-losses.png": (
        "Each agent's loss of winning chance per decision against perfect play, in "
        "thousandths of a win, with 95% intervals, the agent that loses least on top"
    ),
}
"""File name → alt text of each figure :func:`write_figures` writes."""


def _bins(values: np.ndarray) -> list[float]:
    """Edges of round width (points) covering the values and 50%, at most 16 bins."""
    lo, hi = min(float(values.min()), 50.0), max(float(values.max()), 50.0)
    for width in (0.5, 1.0, 2.0, 2.5, 5.0, 10.0, 20.0):
        if (hi - lo) / width <= 16:
            break
    start = math.floor(lo / width) * width
    stop = math.ceil(hi / width) * width
    if stop <= hi:
        stop += width
    return [float(e) for e in np.arange(start, stop + width / 2, width)]


def first_player_chart(ax: Axes, pp: PerfectPlay, *, legend_columns: int = 4) -> None:
    """How many boards give the first player each exact chance; 50%, mean and interval marked."""
    x = 100 * pp.boards["first_chance"].to_numpy(dtype=float)
    fp = first_player(pp)
    ax.hist(x, bins=_bins(x), color=HEADER_FILL, edgecolor=ACCENT, linewidth=0.8,
            label="boards")  # fmt: skip
    handles: list[Artist] = [Patch(facecolor=HEADER_FILL, edgecolor=ACCENT, label="solved boards")]
    if not math.isnan(fp["low"]):
        band = ax.axvspan(100 * fp["low"], 100 * fp["high"], color=ACCENT, alpha=0.18, lw=0,
                          label="95% interval of the mean")  # fmt: skip
        handles.append(band)
    handles.append(ax.axvline(100 * fp["mean"], color=ACCENT, lw=1.6,
                              label=f"mean over boards {100 * fp['mean']:.1f}%"))  # fmt: skip
    handles.append(ax.axvline(50, color=INK, lw=1.0, ls="--", label="fair 50%"))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("the first player's exact chance to win at the start, perfect play (%)")
    ax.set_ylabel("boards")
    ax.grid(axis="y", color=RULE, lw=0.5)
    ax.set_axisbelow(True)
    ax.legend(handles=handles, frameon=False, fontsize=7.5, loc="lower center",
              bbox_to_anchor=(0.5, 1.0), ncol=legend_columns)  # fmt: skip


def coaster_chart(ax: Axes, pp: PerfectPlay, *, label_size: float = 7.5) -> None:
    """Each coaster's opening worth under perfect play, most worth on top (95%, over boards)."""
    w = coaster_worth(pp).iloc[::-1].reset_index(drop=True)
    y = np.arange(len(w))
    worth, low, high = (100 * w[c].to_numpy(dtype=float) for c in ("worth", "low", "high"))
    ok = ~np.isnan(low)
    ax.errorbar(worth[ok], y[ok], xerr=[worth[ok] - low[ok], high[ok] - worth[ok]], fmt="o",
                ms=3.5, lw=0.8, color=ACCENT)  # fmt: skip
    if (~ok).any():  # dealt on one board: a hollow dot, no interval
        ax.plot(worth[~ok], y[~ok], "o", ms=3.5, mfc="white", mec=ACCENT)
    ax.axvline(0, color=INK, lw=0.8)
    names = [f"{n} ({b} boards)" if b != 1 else f"{n} (1 board)"
             for n, b in zip(w["name"], w["boards"], strict=True)]  # fmt: skip
    ax.set_yticks(y, names, fontsize=label_size)
    ax.set_ylim(-0.7, len(w) - 0.3)
    ax.set_xlabel("first token on it − the start: the first player's exact chance (points)")
    ax.grid(axis="x", color=RULE, lw=0.5)
    ax.set_axisbelow(True)


def loss_chart(ax: Axes, pp: PerfectPlay) -> None:
    """Each agent's loss per decision against perfect play, the one that loses least on top."""
    r = ranking(pp).iloc[::-1].reset_index(drop=True)
    y = np.arange(len(r))
    loss, low, high = (r[c].to_numpy(dtype=float) for c in ("loss", "loss_low", "loss_high"))
    ax.barh(y, loss, height=0.6, color=ACCENT, alpha=0.85)
    ax.errorbar(loss, y, xerr=[loss - low, high - loss], fmt="none", ecolor=INK, lw=0.8,
                capsize=2)  # fmt: skip
    right = float(np.nanmax(np.r_[high, loss, 1.0]))
    for yy, value, top in zip(y.tolist(), loss.tolist(), high.tolist(), strict=True):
        end = top if not math.isnan(top) else value
        ax.text(end + 0.02 * right, yy, f"{value:.1f}", va="center", fontsize=7.5, color=MUTED)
    ax.set_xlim(0, right * 1.12)
    ax.set_yticks(y, list(r["agent"]), fontsize=8)
    ax.set_ylim(-0.6, len(r) - 0.4)
    ax.set_xlabel("loss per decision against perfect play (thousandths of a win), 95% interval")
    ax.grid(axis="x", color=RULE, lw=0.5)
    ax.set_axisbelow(True)


def _charts(pp: PerfectPlay) -> dict[str, tuple[tuple[float, float], Chart]]:
    """File name → (size in inches, drawing) of each figure, sized to ``pp``'s rows."""
    return {
        "perfect-play-first-player.png": (
            (5.6, 3.4),
            partial(first_player_chart, legend_columns=2),
        ),
        "perfect-play-coasters.png": ((7, 1.2 + 0.22 * len(coaster_worth(pp))), coaster_chart),
        "perfect-play-losses.png": ((7, 0.9 + 0.3 * len(ranking(pp))), loss_chart),
    }


def figure_png(pp: PerfectPlay, name: str) -> bytes:
    """The figure ``name`` (a key of :data:`FIGURES`) as PNG bytes."""
    import io

    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    size, draw = _charts(pp)[name]
    fig = Figure(figsize=size, layout="constrained")
    FigureCanvasAgg(fig)
    with style():
        ax = fig.add_subplot()
        ax.spines[["top", "right"]].set_visible(False)
        draw(ax, pp)
        out = io.BytesIO()
        fig.savefig(out, format="png", dpi=130)
    return out.getvalue()


def write_figures(pp: PerfectPlay, folder: str | Path) -> list[Path]:
    """Draw the charts into ``folder`` (names and alt texts: :data:`FIGURES`)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name in FIGURES:
        (folder / name).write_bytes(figure_png(pp, name))
        out.append(folder / name)
    return out
