"""The strong-play charts: ``strategic`` self-play beside ``value`` self-play.

Each chart draws on axes it is given, from :class:`~pinastats.balance.strong.StrongPlay`
only; :func:`write_figures` saves them as the PNG files of the docs and the site.
Every mark of ``strategic`` is grey and every mark of ``value`` the accent colour,
so the two are told apart without a legend too; error bars are 95% intervals.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from matplotlib.axes import Axes

from pinastats.balance.strong import (
    AGENTS,
    BASELINE,
    SKILL_COLUMNS,
    STRONG,
    StrongPlay,
    position_rate,
)
from pinastats.game.rules import PLAYER_COUNTS
from pinastats.report.ladder_data import LadderRow
from pinastats.report.typeset import ACCENT, INK, MUTED, RULE

COLOURS = {BASELINE: "#8c96a0", STRONG: ACCENT}
"""The colour of each agent's marks."""
LABELS = {BASELINE: "strategic self-play", STRONG: "value self-play (strong play)"}

FIGURES = {
    "strong-play-seats.png": (
        "Win rate by position in turn order for 2, 3 and 4 players, strategic self-play "
        "beside value self-play, with 95% intervals and the fair share marked"
    ),
    "strong-play-coasters.png": (
        "What holding each coaster's token is worth to winning with two players, in points "
        "of win chance, strategic beside value self-play, with 95% intervals"
    ),
    "strong-play-what-if.png": (
        "The skill measure of each what-if rule variant: strategic's heads-up win rate "
        "against ev and value's against strategic, with 95% intervals"
    ),
}
"""File name → alt text of each figure :func:`write_figures` writes."""


def seat_chart(ax: Axes, sp: StrongPlay, happy_hour: bool = False) -> None:
    """Each position's win rate, grouped by player count, both agents side by side."""
    x0, ticks, labels = 0.0, [], []
    for n in PLAYER_COUNTS:
        for k in range(1, n + 1):
            for j, agent in enumerate(AGENTS):
                r = position_rate(sp, agent, n, k, happy_hour)
                x = x0 + (j - 0.5) * 0.36
                ax.bar(
                    x,
                    100 * r.win_rate,
                    width=0.34,
                    color=COLOURS[agent],
                    label=LABELS[agent] if (n, k) == (2, 1) else None,
                )
                ax.errorbar(
                    x,
                    100 * r.win_rate,
                    yerr=[[100 * (r.win_rate - r.ci_low)], [100 * (r.ci_high - r.win_rate)]],
                    color=INK,
                    lw=0.8,
                    capsize=1.5,
                )
            ticks.append(x0)
            labels.append(f"{k}")
            x0 += 1
        ax.hlines(100 / n, x0 - n - 0.45, x0 - 0.55, color=INK, lw=0.9, ls="--")
        ax.text(
            x0 - n / 2 - 0.5, 57, f"{n} players", ha="center", va="top", color=INK, fontsize=8.5
        )
        x0 += 0.7
    ax.set_xticks(ticks, labels)
    ax.set_xlabel("position in turn order (dashed: the fair share 1/n)")
    ax.set_ylabel("win rate (%)")
    ax.set_ylim(0, 60)
    ax.grid(axis="y", color=RULE, lw=0.5)
    ax.set_axisbelow(True)
    ax.legend(frameon=False, fontsize=8, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2)


def coaster_chart(ax: Axes, sp: StrongPlay) -> None:
    """Each coaster's worth (held − not held), ordered by the strong-play worth."""
    co = sp.coasters
    by = {a: co[co["agent"] == a].set_index("coaster") for a in AGENTS}
    order = by[STRONG]["effect"].sort_values().index
    y = np.arange(len(order))
    for j, agent in enumerate(AGENTS):
        d = by[agent].loc[order]
        ax.errorbar(
            100 * d["effect"],
            y + (j - 0.5) * 0.3,
            xerr=[100 * (d["effect"] - d["effect_low"]), 100 * (d["effect_high"] - d["effect"])],
            fmt="o",
            ms=3.5,
            lw=0.8,
            color=COLOURS[agent],
            label=LABELS[agent],
        )
    ax.axvline(0, color=INK, lw=0.8)
    ax.set_yticks(y, list(by[STRONG].loc[order, "combination"]), fontsize=7.5)
    ax.set_xlabel("held − not held: win chance (points)")
    ax.grid(axis="x", color=RULE, lw=0.5)
    ax.set_axisbelow(True)
    ax.legend(frameon=False, fontsize=8, loc="lower right")


def what_if_chart(ax: Axes, sp: StrongPlay) -> None:
    """Per variant, each side's skill measure (NaN where the pair could not play)."""
    w = sp.what_if[sp.what_if["run"] == STRONG]
    cols = dict(zip(AGENTS, SKILL_COLUMNS, strict=True))
    names = {BASELINE: "strategic vs ev", STRONG: "value vs strategic"}
    y = np.arange(len(w))[::-1]
    for j, agent in enumerate(AGENTS):
        c = cols[agent]
        rate = w[c].to_numpy(dtype=float)
        lo, hi = w[f"{c}_low"].to_numpy(dtype=float), w[f"{c}_high"].to_numpy(dtype=float)
        ax.errorbar(
            100 * rate,
            y + (j - 0.5) * 0.3,
            xerr=[100 * (rate - lo), 100 * (hi - rate)],
            fmt="o",
            ms=3.5,
            lw=0.8,
            color=COLOURS[agent],
            label=names[agent],
        )
    for yy, ok in zip(y, w[cols[STRONG]].notna(), strict=True):
        if not ok:
            ax.text(
                50.5, yy + 0.15, "value: standard grid only", fontsize=7, color=MUTED, va="center"
            )
    ax.axvline(50, color=INK, lw=0.8)
    ax.set_yticks(y, list(w["variant"]), fontsize=8)
    ax.set_xlabel("the stronger agent's heads-up win rate (%)")
    ax.grid(axis="x", color=RULE, lw=0.5)
    ax.set_axisbelow(True)
    ax.legend(frameon=False, fontsize=8, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2)


def ladder_chart(ax: Axes, rows: Sequence[LadderRow]) -> None:
    """Each agent's Elo rating with its 95% interval, strongest on top."""
    rows = sorted(rows, key=lambda r: r.elo)
    y = np.arange(len(rows))
    for yy, r in zip(y, rows, strict=True):
        colour = COLOURS.get(r.agent, INK)
        ax.errorbar(r.elo, yy, xerr=[[r.elo - r.low], [r.high - r.elo]], fmt="o", ms=4,
                    lw=1.0, color=colour, capsize=2)  # fmt: skip
    ax.set_yticks(y, [r.agent for r in rows], fontsize=8)
    ax.set_xlabel("Elo (Bradley–Terry), 95% interval")
    ax.grid(axis="x", color=RULE, lw=0.5)
    ax.set_axisbelow(True)


def write_figures(sp: StrongPlay, folder: str | Path) -> list[Path]:
    """Draw the charts into ``folder`` (names and alt texts: :data:`FIGURES`)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    charts: dict[str, tuple[tuple[float, float], Callable[[Axes, StrongPlay], None]]] = {
        "strong-play-seats.png": ((8, 3.6), seat_chart),
        "strong-play-coasters.png": ((6.5, 6.5), coaster_chart),
        "strong-play-what-if.png": ((6.5, 4.2), what_if_chart),
    }
    for name, (size, draw) in charts.items():
        fig, ax = plt.subplots(figsize=size, layout="constrained")
        draw(ax, sp)
        fig.savefig(folder / name, dpi=130)
        plt.close(fig)
        out.append(folder / name)
    return out
