"""Perfect play in words and tables, for the report's pages, its cover and the site.

Everything is computed from :class:`~pinastats.balance.perfect.PerfectPlay` (the
shipped ``data/perfect-play.json``) when it is called, sizes and seed included
(``pp.about``): no number is written down here. Each sentence names what stands
behind its numbers: the exact solution of each board (perfect play), or the agent
graded by it.
"""

from __future__ import annotations

import math

import pandas as pd

from pinastats.balance.perfect import (
    PERFECT,
    RULEBOOK,
    PerfectPlay,
    first_player,
    starting_scores_table,
)
from pinastats.balance.strong import AGENTS, StrongPlay, markdown, position_rate
from pinastats.game.rules import Rules
from pinastats.report.text import count, join_words, percent, percent_range

SOLVED = "docs/solved-game.md"
"""The page that says what is solved and how."""


def rulebook_tokens(pp: PerfectPlay) -> bool:
    """Whether the solved boards give each player the rulebook's number of tokens."""
    return int(pp.about["tokens"]) == Rules().tokens


def tokens_text(pp: PerfectPlay) -> str:
    """``6 tokens a player``, or ``3 tokens a player, not the rulebook's 6`` when they differ."""
    tokens = int(pp.about["tokens"])
    differs = "" if rulebook_tokens(pp) else f", not the rulebook's {Rules().tokens}"
    return f"{tokens} tokens a player{differs}"


def setting(pp: PerfectPlay) -> str:
    """``20 boards dealt from seed 36 (6 tokens a player)``."""
    boards = count(int(pp.about["boards"]))
    return f"{boards} boards dealt from seed {pp.about['seed']} ({tokens_text(pp)})"


def rulebook_text() -> str:
    """The rulebook's two-player starting scores: ``(1, 2)``."""
    return "(" + ", ".join(map(str, RULEBOOK)) + ")"


def edge_verdict(low: float, high: float) -> str:
    """Where a 95% interval of the first player's chance lies against 50%."""
    if low > 0.5:
        return "an advantage to the first player"
    if high < 0.5:
        return "a disadvantage to the first player"
    return "no clear edge either way (the interval includes 50%)"


def first_player_words(pp: PerfectPlay, *, spread: bool = True) -> str:
    """The first player's exact chance over the boards: mean, 95% interval, range, verdict.

    ``the first player's exact chance to win is 52.1% on average over 20 boards (95%
    interval 51.0–53.2%), 48.0% to 56.1% by board: an advantage to the first player``
    (without ``spread``, no "by board" range).
    """
    fp = first_player(pp)
    interval = (
        f" (95% interval {percent_range(fp['low'], fp['high'])})"
        if not math.isnan(fp["low"])
        else ""
    )
    by_board = f", {percent(fp['min'])} to {percent(fp['max'])} by board"
    spread_text = by_board if spread and fp["boards"] > 1 else ""
    one = math.isnan(fp["low"])
    verdict = "one board, no interval" if one else edge_verdict(fp["low"], fp["high"])
    return (
        f"the first player's exact chance to win is {percent(fp['mean'])} on average over "
        f"{count(int(fp['boards']))} boards{interval}{spread_text}: {verdict}"
    )


def agents_first_player(sp: StrongPlay) -> str:
    """```strategic` 51.8% [51.3–52.3%], `value` 49.2% [...]``: the shipped two-player self-play."""
    rates = []
    for agent in AGENTS:
        r = position_rate(sp, agent, 2, 1)
        rates.append(
            f"`{agent}` {percent(float(r.win_rate))} "
            f"[{percent_range(float(r.ci_low), float(r.ci_high))}]"
        )
    return ", ".join(rates)


def ranking(pp: PerfectPlay) -> pd.DataFrame:
    """Each graded agent against perfect play, the one that loses least first.

    Columns: ``agent``, ``boards``, ``games``, ``decisions``, ``loss`` (per decision,
    thousandths of a win, mean over games) with ``loss_low``/``loss_high`` (95%;
    the low end not below 0, a loss is never negative), ``error_rate`` (per
    unforced decision, thousandths) with ``error_low``/``error_high``, and
    ``perfect``'s games against the agent where it played them: ``duel_games``,
    ``duel_score`` (a win 1, a game without a winner ½) with ``duel_low``/``duel_high``
    (95% Wilson), NaN elsewhere. ``perfect`` itself is left out (it loses nothing).
    """
    e = pp.error_rates
    e = e[e["agent"] != PERFECT]
    h = pp.head_to_head.rename(
        columns={"opponent": "agent", "games": "duel_games", "score": "duel_score",
                 "low": "duel_low", "high": "duel_high"}
    )  # fmt: skip
    keep = ["agent", "duel_games", "duel_score", "duel_low", "duel_high"]
    table = e.merge(h[keep], on="agent", how="left") if not h.empty else e
    return table.sort_values("loss", kind="stable").reset_index(drop=True)


def fairest_start(pp: PerfectPlay, starts: pd.DataFrame) -> str:
    """The solved starting scores nearest 50% for the first player, in words."""
    best = starts.sort_values("distance", kind="stable").iloc[0]
    return (
        f"({best['starting_scores']}): the first player's exact chance "
        f"{percent(float(best['first_chance']))} on average over {count(int(best['boards']))} "
        "boards"
    )


def site_text(pp: PerfectPlay, sp: StrongPlay) -> str:
    """The landing page's perfect-play headlines, as Markdown (links from ``site/``).

    What is solved, the first player's exact chance, the fairest starting scores and
    the agents against perfect play; :func:`site_table` of :func:`ranking` goes under it.
    """
    about = pp.about
    rank = ranking(pp)
    starts = starting_scores_table(pp)
    lines = [
        "The two-player base game (no Happy Hour) is solved exactly, board by board: for every "
        "position of a dealt board, the chance that each player wins when both play perfectly "
        f"([the solved game](../{SOLVED})). Measured on {setting(pp)}, never used to train or "
        f"tune an agent, with the rulebook's starting scores {rulebook_text()} unless a line "
        "says otherwise (`benchmarks/perfect_yardstick.py`, `data/perfect-play.json`). Over "
        "boards a mean carries a 95% normal interval; each board's value is exact.",
        "",
        f"- **Turn order.** Under perfect play {first_player_words(pp)}. In the agents' "
        f"self-play of the rulebook's game the first player wins {agents_first_player(sp)} "
        "(simulated, 95% Wilson intervals).",
    ]
    if not starts.empty:
        solved = ", ".join(f"({v})" for v in starts["starting_scores"])
        lines.append(
            f"- **Starting scores.** Under perfect play, the fairest of {solved} is "
            f"{fairest_start(pp, starts)}."
        )
    if not rank.empty:
        best, worst = rank.iloc[0], rank.iloc[-1]
        opponents = [f"`{o}`" for o in pp.head_to_head.get("opponent", [])]
        duels = (
            f" The `{PERFECT}` agent plays the solution; its score against "
            f"{join_words(opponents)} (a win 1, a game without a winner ½; 95% Wilson "
            "intervals) is in the last column."
            if opponents
            else ""
        )
        lines.append(
            "- **The agents against perfect play.** Every decision (keep, stop, placement) of "
            f"{count(int(about['games']))} self-play games a board of each agent, on "
            f"{count(int(about['studied_boards']))} boards, graded by the exact solution: "
            f"`{best['agent']}` loses least, {best['loss']:.1f} thousandths of a win a "
            f"decision, `{worst['agent']}` most, {worst['loss']:.1f}." + duels
        )
    return "\n".join(lines)


def site_table(rank: pd.DataFrame) -> str:
    """:func:`ranking` as the site shows it: a Markdown table."""
    rows = []
    for i, r in enumerate(rank.to_dict("records"), start=1):
        games = float(r.get("duel_games", math.nan))
        duel = (
            f"{percent(float(r['duel_score']), 1)} "
            f"[{percent_range(float(r['duel_low']), float(r['duel_high']), 1)}], "
            f"{count(int(games))}"
            if not math.isnan(games)
            else "—"
        )
        rows.append({
            "rank": i,
            "agent": f"`{r['agent']}`",
            "loss per decision, thousandths of a win [95%]":
                f"{r['loss']:.1f} [{r['loss_low']:.1f}, {r['loss_high']:.1f}]",
            "decisions graded": count(int(r["decisions"])),
            f"`{PERFECT}`'s score against it [95%], games": duel,
        })  # fmt: skip
    return markdown(pd.DataFrame(rows))
