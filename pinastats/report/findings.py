"""The report's findings in words, computed from its data.

Each function returns sentences for the cover page; the wording states the
numbers it rests on (with their 95% intervals for simulated rates) and says
when an interval does not settle the question.
"""

from __future__ import annotations

from collections.abc import Sequence

from pinastats.balance.strong import BASELINE, STRONG, position_rate
from pinastats.game.rules import EndReason, Rules
from pinastats.report.coasters import CoasterRow
from pinastats.report.data import Report
from pinastats.report.perfect_text import first_player_words, tokens_text
from pinastats.report.sims import Rate, RunStats
from pinastats.report.text import count, join_words, percent, percent_range, signed_points
from pinastats.report.wording import end_words


def with_ci(rate: Rate) -> str:
    """``51.8% (95% CI 51.1–52.5%)``."""
    return f"{percent(rate.value)} (95% CI {percent_range(rate.low, rate.high)})"


def verdict(rate: Rate, fair: float) -> str:
    """Whether a rate is above, below or indistinguishable from a fair share."""
    if rate.low > fair:
        return "an advantage"
    if rate.high < fair:
        return "a disadvantage"
    return "no clear advantage either way (the interval includes the fair share)"


def _names(rows: Sequence[CoasterRow]) -> str:
    return join_words([r.name for r in rows])


def best_coasters(report: Report) -> str:
    """Which coasters pay best, and least, per turn."""
    rows = sorted(report.coasters, key=lambda r: -r.ev_in_play)
    values: dict[float, list[CoasterRow]] = {}
    for r in rows:
        values.setdefault(round(r.ev_in_play, 2), []).append(r)
    tops = list(values.items())[:3]
    best = "; ".join(f"{_names(group)} {value:.2f}" for value, group in tops)
    worst = rows[-1]
    sides = (
        "side A" if report.b_share == 0 else "side B" if report.b_share == 1
        else "sides A and B averaged as on the board"
    )  # fmt: skip
    return (
        f"Best pay per turn (expected points when targeted alone, {sides}): {best}. "
        f"{worst.name} pays least ({worst.ev_in_play:.2f}): its points do not make up for "
        f"its {percent(worst.three_rolls)} chance."
    )


def easiest_hardest(report: Report) -> str:
    """The likeliest and the least likely coaster in a turn."""
    rows = sorted(report.coasters, key=lambda r: -r.three_rolls)
    easy = [r for r in rows if abs(r.three_rolls - rows[0].three_rolls) < 1e-12]
    hard = [r for r in rows if abs(r.three_rolls - rows[-1].three_rolls) < 1e-12]
    return (
        f"With optimal holds the likeliest coaster in a turn is {_names(easy)} "
        f"({percent(easy[0].three_rolls)}), the hardest {_names(hard)} "
        f"({percent(hard[0].three_rolls, 2)}); the hold cheat-sheets show how."
    )


def first_player(run: RunStats, players: int) -> str:
    """The first-player advantage in self-play."""
    first, last = run.positions[0], run.positions[-1]
    fair = 1 / players
    return (
        f"First-player advantage ({run.label}, {count(run.games)} games): the first player "
        f"wins {with_ci(first)} against a fair share of {percent(fair)}, "
        f"{signed_points(first.value - fair)}: {verdict(first, fair)}. The last to play wins "
        f"{with_ci(last)} (starting scores 1 to {players} in turn order)."
    )


def how_games_end(run: RunStats, rules: Rules) -> str:
    """The ways games end (under ``rules``) and their length."""
    shares = sorted(
        ((name, rate) for name, rate in run.end_reasons if rate.count),
        key=lambda item: -item[1].count,
    )
    words = end_words(rules)
    parts = [
        f"{percent(rate.value)} {words[EndReason[name.upper()]].clause}" for name, rate in shares
    ]
    return (
        f"How games end ({run.label}): {join_words(parts)}. Games last "
        f"{run.mean_rounds:.1f} rounds on average (80% between {run.rounds_quantile(0.1)} "
        f"and {run.rounds_quantile(0.9)})."
    )


def agent_ladder(mixed: RunStats, players: int) -> str:
    """How the agents rank, pooled over the match-ups."""
    ranked = sorted(mixed.wins, key=lambda item: -item[1].value)
    parts = [f"{agent} {with_ci(rate)}" for agent, rate in ranked]
    return (
        f"Playing well pays: pooled over every table of {players} different agents, the "
        f"win rates are {join_words(parts)}, against a fair share of {percent(1 / players)}."
    )


def strong_first_player(report: Report) -> str | None:
    """The first-player advantage on strong play (the shipped ``value`` self-play), if shown."""
    sp = report.strong_play
    if sp is None:
        return None
    n = report.players
    r, baseline = (position_rate(sp, a, n, 1, report.happy_hour) for a in (STRONG, BASELINE))
    rate = Rate(round(float(r.win_rate) * int(r.games)), int(r.games))
    fair = 1 / n
    return (
        f"On strong play ({STRONG} self-play, {count(int(r.games))} games, shipped "
        f"measurements) the first player wins {with_ci(rate)}: {verdict(rate, fair)} "
        f"({BASELINE} self-play in the same runs: {percent(float(baseline.win_rate))}). "
        "The Strong play pages say which findings hold."
    )


def perfect_first_player(report: Report) -> str | None:
    """The first player's exact chance under perfect play (the solved boards), if shown."""
    pp = report.perfect_play
    if pp is None:
        return None
    return (
        f"Under perfect play (the game solved exactly, board by board; seed {pp.about['seed']}, "
        f"{tokens_text(pp)}) {first_player_words(pp, spread=False)}."
    )


def headlines(report: Report) -> list[str]:
    """The cover page's findings, most useful at the table first."""
    sims = report.simulations
    strong = strong_first_player(report)
    perfect = perfect_first_player(report)
    return [
        best_coasters(report),
        easiest_hardest(report),
        first_player(sims.self_play, report.players),
        *([strong] if strong else []),
        *([perfect] if perfect else []),
        how_games_end(sims.self_play, report.rules),
        agent_ladder(sims.mixed, report.players),
    ]
