"""What-if rules: one rule changed at a time, measured for length, endings, turn order and skill.

For each variant (:func:`variants`): ``agent`` self-play at ``players`` seats
(mean rounds with a normal 95% interval, the share of each end reason, the first
player's win rate and its edge over 1/n with a Wilson interval), and a **skill
measure**: the stronger agent's win rate heads-up against the weaker one, for
each pair of :data:`SKILL_PAIRS`, 2 players, random first seat (Wilson 95%). A
rule that pushes the stronger agent's rate towards 50% adds luck; one that pushes
it up rewards skill.

An agent that cannot play a variant (``value``: the standard grid only) is
replaced in self-play by ``fallback`` when one is given, and the row names the
agent that played (``agent``, ``agent_note``); a skill pair that cannot play it
is left out of that row (NaN, ``skill_<s>_vs_<w>_games`` = 0, and the reason in
``skill_note``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from pinastats._stats import mean_interval, wilson_interval
from pinastats.agents.builtin import AgentError, check_plays
from pinastats.agents.loading import resolve_agent
from pinastats.balance.seats import check_players
from pinastats.errors import PinastatsError, expect_instance
from pinastats.game.config import GameConfig, check_tokens_fit
from pinastats.game.layout import available_layouts, load_layout
from pinastats.game.rules import EndReason, Rules
from pinastats.simulation.runner import simulate

SKILL_PAIRS: tuple[tuple[str, str], ...] = (("strategic", "ev"), ("ev", "greedy"))
"""(stronger, weaker) agents of the heads-up skill measure."""

END_REASONS = tuple(r.name.lower() for r in EndReason if r is not EndReason.ONGOING)


@dataclass(frozen=True)
class Variant:
    """One rule set: a name, the rule changes and the layout (``standard``: the rulebook's)."""

    name: str
    rules: Rules
    layout: str = "standard"

    def __post_init__(self) -> None:
        """Refuse a variant that cannot be played when it is built, not when it is measured."""
        if not isinstance(self.name, str) or not self.name.strip():
            raise PinastatsError(f"a variant's name must be a non-empty text, got {self.name!r}")
        expect_instance(self.rules, Rules, f"variant {self.name!r}: rules", "Rules(...)")
        expect_instance(self.layout, str, f"variant {self.name!r}: layout", "a layout name")
        layout = load_layout(self.layout)  # an unknown layout is refused here, by name
        try:
            check_tokens_fit(self.rules, layout)
        except PinastatsError as exc:
            raise PinastatsError(f"variant {self.name!r}: {exc}") from None

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


def _cannot_play(agent: str, config: GameConfig) -> str | None:
    """None when ``agent`` can play games of ``config``; else why not."""
    try:
        check_plays(resolve_agent(agent), config)
    except AgentError as exc:
        return str(exc)
    return None


def _self_play_agent(
    variant: Variant, config: GameConfig, agent: str, fallback: str | None
) -> tuple[str, str]:
    """Who plays ``variant``'s self-play games, and why not ``agent`` ("" when it does)."""
    why = _cannot_play(agent, config)
    if why is None:
        return agent, ""
    if fallback is None:
        raise AgentError(
            f"variant {variant.name!r}: {why}; give a fallback agent for it (fallback=, --fallback)"
        )
    if (also := _cannot_play(fallback, config)) is not None:
        raise AgentError(f"variant {variant.name!r}: the fallback cannot play it either: {also}")
    return fallback, f"{fallback} plays: {why}"


def measure_variant(
    variant: Variant,
    *,
    players: int = 2,
    games: int = 5_000,
    agent: str = "strategic",
    seed: int = 0,
    pairs: Sequence[tuple[str, str]] = SKILL_PAIRS,
    workers: int | None = None,
    fallback: str | None = None,
) -> dict[str, Any]:
    """One row of :func:`what_if` for ``variant``."""
    config = variant.config(players)
    player, note = _self_play_agent(variant, config, agent, fallback)
    res = simulate([player] * players, games, seed=seed, config=config, workers=workers)
    g = res.games
    rounds = g["rounds"].to_numpy(dtype=float)
    _, rounds_low, rounds_high = mean_interval(rounds)
    row: dict[str, Any] = {
        "variant": variant.name,
        "layout": variant.layout,
        "target_score": variant.rules.target_score,
        "tokens": variant.rules.tokens,
        "rolls": variant.rules.rolls,
        "happy_hour": variant.rules.happy_hour,
        "players": players,
        "agent": player,
        "agent_note": note,
        "games": res.n_games,
        "mean_rounds": rounds.mean(),
        "mean_rounds_low": rounds_low,
        "mean_rounds_high": rounds_high,
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
    skipped = []
    for k, (strong, weak) in enumerate(pairs):
        key = f"skill_{strong}_vs_{weak}"
        why = _cannot_play(strong, heads_up) or _cannot_play(weak, heads_up)
        if why is not None:
            row.update({key: np.nan, f"{key}_low": np.nan, f"{key}_high": np.nan})
            row[f"{key}_games"] = 0
            skipped.append(f"{strong} vs {weak} not played: {why}")
            continue
        duel = simulate([strong, weak], games, seed=seed + 1 + k, config=heads_up, workers=workers)
        wins = int((duel.games["winner"] == 0).sum())
        row.update(_rate(key, wins, duel.n_games))
        row[f"{key}_games"] = duel.n_games
    row["skill_note"] = "; ".join(skipped)
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
    fallback: str | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """One row per variant: length, end-reason shares, first-player edge and skill.

    Columns: ``variant``, ``layout``, ``target_score``, ``tokens``, ``rolls``,
    ``happy_hour``, ``players``, ``agent`` (who played the self-play games: ``agent``,
    or ``fallback`` where ``agent`` cannot play the variant, with the reason in
    ``agent_note``), ``games``, ``mean_rounds`` (``_low``/``_high``),
    ``share_<end reason>``, ``first_player_win_rate`` and ``first_player_edge``
    (win rate − 1/n), each with ``_low``/``_high``, and per skill pair
    ``skill_<stronger>_vs_<weaker>`` (the stronger agent's heads-up win rate,
    ``_low``/``_high``, ``_games``; NaN where the pair cannot play the variant, the
    reason in ``skill_note``). Every variant plays with the same seeds.
    ``progress`` names each variant on stderr as it starts.
    """
    check_players(players)
    chosen = None if chosen is None else list(chosen)  # any iterable, looked at twice
    for v in chosen or ():
        expect_instance(v, Variant, "every chosen variant", "Variant(...) or variants()")
    pairs = check_pairs(pairs)
    resolve_agent(agent)  # an unknown name fails before any game is played
    if fallback is not None:
        resolve_agent(fallback)
    chosen = variants() if chosen is None else chosen
    for v in chosen:  # a variant nobody can play is refused before any game is played
        _self_play_agent(v, v.config(players), agent, fallback)
    rows = []
    for v in chosen:
        if progress:
            print(f"pinastats: what-if {v.name}", file=sys.stderr, flush=True)
        row = measure_variant(
            v, players=players, games=games, agent=agent, seed=seed, pairs=pairs,
            workers=workers, fallback=fallback,
        )  # fmt: skip
        rows.append(row)
    return pd.DataFrame(rows)


def check_pairs(pairs: Sequence[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """``pairs`` as (stronger, weaker) agent names, refused when malformed or unknown."""
    out = []
    for pair in pairs:
        if (
            not isinstance(pair, tuple | list)
            or len(pair) != 2
            or not all(isinstance(a, str) and a.strip() for a in pair)
        ):
            raise AgentError(
                f"a skill pair is (stronger, weaker) agent names, e.g. ('strategic', 'ev'); "
                f"got {pair!r}"
            )
        strong, weak = (a.strip() for a in pair)
        if strong == weak:
            raise AgentError(f"a skill pair needs two different agents; got {strong!r} twice")
        resolve_agent(strong)
        resolve_agent(weak)
        out.append((strong, weak))
    return tuple(out)
