"""What-if rules: one rule changed at a time, measured for length, endings, turn order and skill.

For each variant (:func:`variants`): ``agent`` self-play at ``players`` seats
(mean rounds with a normal 95% interval, the share of each end reason, the first
player's win rate and its edge over 1/n with a Wilson interval), and a **skill
measure**: the stronger agent's win rate heads-up against the weaker one, for
each pair of :data:`SKILL_PAIRS`, 2 players, random first seat (Wilson 95%). A
rule that pushes the stronger agent's rate towards 50% adds luck; one that pushes
it up rewards skill.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from pinastats.balance.seats import check_players
from pinastats.errors import expect_instance
from pinastats.game.config import GameConfig
from pinastats.game.layout import available_layouts, load_layout
from pinastats.game.rules import EndReason, Rules
from pinastats.simulation.runner import simulate
from pinastats.simulation.stats import Z95, wilson_interval

SKILL_PAIRS: tuple[tuple[str, str], ...] = (("strategic", "ev"), ("ev", "greedy"))
"""(stronger, weaker) agents of the heads-up skill measure."""

END_REASONS = tuple(r.name.lower() for r in EndReason if r is not EndReason.ONGOING)


@dataclass(frozen=True)
class Variant:
    """One rule set: a name, the rule changes and the layout (``standard``: the rulebook's)."""

    name: str
    rules: Rules
    layout: str = "standard"

    def config(self, players: int) -> GameConfig:
        """The game of this variant at ``players`` seats (rulebook starting scores)."""
        return GameConfig(players=players, rules=self.rules, layout=load_layout(self.layout))


def variants() -> list[Variant]:
    """The rulebook, then one change at a time.

    Target score 15/25, tokens 5/7, rolls 2/4, Happy Hour, each other shipped layout.
    """
    base = Rules()
    out = [Variant("rulebook", base)]
    out += [Variant(f"target {t}", replace(base, target_score=t)) for t in (15, 25)]
    out += [Variant(f"tokens {t}", replace(base, tokens=t)) for t in (5, 7)]
    out += [Variant(f"rolls {r}", replace(base, rolls=r)) for r in (2, 4)]
    out.append(Variant("happy hour", replace(base, happy_hour=True)))
    out += [Variant(f"layout {n}", base, n) for n in available_layouts() if n != "standard"]
    return out


def _rate(prefix: str, k: int, n: int) -> dict[str, float]:
    lo, hi = wilson_interval(k, n)
    return {prefix: k / n, f"{prefix}_low": lo, f"{prefix}_high": hi}


def measure_variant(
    variant: Variant,
    *,
    players: int = 2,
    games: int = 5_000,
    agent: str = "strategic",
    seed: int = 0,
    pairs: Sequence[tuple[str, str]] = SKILL_PAIRS,
    workers: int | None = None,
) -> dict[str, Any]:
    """One row of :func:`what_if` for ``variant``."""
    config = variant.config(players)
    res = simulate([agent] * players, games, seed=seed, config=config, workers=workers)
    g = res.games
    rounds = g["rounds"].to_numpy(dtype=float)
    half = Z95 * rounds.std(ddof=1) / np.sqrt(len(rounds)) if len(rounds) > 1 else np.nan
    row: dict[str, Any] = {
        "variant": variant.name,
        "layout": variant.layout,
        "target_score": variant.rules.target_score,
        "tokens": variant.rules.tokens,
        "rolls": variant.rules.rolls,
        "happy_hour": variant.rules.happy_hour,
        "players": players,
        "games": res.n_games,
        "mean_rounds": rounds.mean(),
        "mean_rounds_low": rounds.mean() - half,
        "mean_rounds_high": rounds.mean() + half,
    }
    counts = g["end_reason"].value_counts()
    for reason in END_REASONS:
        row[f"share_{reason}"] = int(counts.get(reason, 0)) / res.n_games
    first = int((g["winner_position"] == 1).sum())
    row.update(_rate("first_player_win_rate", first, res.n_games))
    fair = 1 / players
    row["first_player_edge"] = row["first_player_win_rate"] - fair
    row["first_player_edge_low"] = row["first_player_win_rate_low"] - fair
    row["first_player_edge_high"] = row["first_player_win_rate_high"] - fair
    heads_up = replace(config, starting_scores=None) if players == 2 else variant.config(2)
    for k, (strong, weak) in enumerate(pairs):
        duel = simulate([strong, weak], games, seed=seed + 1 + k, config=heads_up, workers=workers)
        wins = int((duel.games["winner"] == 0).sum())
        row.update(_rate(f"skill_{strong}_vs_{weak}", wins, duel.n_games))
    return row


def what_if(
    players: int = 2,
    *,
    games: int = 5_000,
    agent: str = "strategic",
    seed: int = 0,
    chosen: Iterable[Variant] | None = None,
    pairs: Sequence[tuple[str, str]] = SKILL_PAIRS,
    workers: int | None = None,
) -> pd.DataFrame:
    """One row per variant: length, end-reason shares, first-player edge and skill.

    Columns: ``variant``, ``layout``, ``target_score``, ``tokens``, ``rolls``,
    ``happy_hour``, ``players``, ``games``, ``mean_rounds`` (``_low``/``_high``),
    ``share_<end reason>``, ``first_player_win_rate`` and ``first_player_edge``
    (win rate − 1/n), each with ``_low``/``_high``, and per skill pair
    ``skill_<stronger>_vs_<weaker>`` (the stronger agent's heads-up win rate,
    ``_low``/``_high``). Every variant plays with the same seeds.
    """
    check_players(players)
    chosen = None if chosen is None else list(chosen)  # any iterable, looked at twice
    for v in chosen or ():
        expect_instance(v, Variant, "every chosen variant", "Variant(...) or variants()")
    rows = [
        measure_variant(
            v, players=players, games=games, agent=agent, seed=seed, pairs=pairs, workers=workers
        )
        for v in (variants() if chosen is None else chosen)
    ]
    return pd.DataFrame(rows)
