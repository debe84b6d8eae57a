"""What a coaster's token is worth to winning, and a points table that evens it out.

Method (stratified by the round the token was placed). Every placement is a
unit: a seat took coaster ``i`` in round ``r``; ``y = 1`` if that seat won the
game. A seat places at most one token per round, so within round ``r`` the
placements on ``i`` and those on every other coaster are tokens taken at the
same moment. The coaster's *effect* is the difference of their win rates,
averaged over the rounds with the weights ``n_ir`` (takes of ``i`` in round ``r``):

    effect_i = sum_r n_ir (p_ir - q_ir) / sum_r n_ir,
    var      = sum_r n_ir^2 (p_ir (1 - p_ir) / n_ir + q_ir (1 - q_ir) / m_ir) / (sum_r n_ir)^2

(``q_ir`` over the ``m_ir`` other placements of round ``r``; a normal 95% interval,
which treats the placements as independent). Coasters are dealt at random, so
the cell a coaster lies on is averaged out.

The worth of a point: ``b``, the within-round least-squares slope of ``y`` on
the points the placement scored (its space plus neighbours). The suggested
table shifts every space of coaster ``i`` by ``round(-(effect_i - mean effect) /
b)`` points (not below 0): to first order, each coaster's token then helps its
taker win equally. It is a first-order suggestion from one agent's play: play it
again (``GameConfig(catalogue=...)``) before printing it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from pinastats.balance.trace import TracedGames, play_traced
from pinastats.dice.errors import at_least
from pinastats.errors import PinastatsError
from pinastats.game.config import GameConfig
from pinastats.game.rules import PLAYER_COUNTS
from pinastats.simulation.stats import Z95, wilson_interval


def placement_wins(traced: TracedGames) -> pd.DataFrame:
    """The placements of ``traced`` with ``won`` (1 if the placing seat won the game)."""
    winner = traced.games["winner"].to_numpy()
    rows = traced.placements
    return rows.assign(won=(winner[rows["game"].to_numpy()] == rows["seat"].to_numpy()).astype(int))


def point_slope(rows: pd.DataFrame) -> float:
    """``b``: the within-round least-squares slope of ``won`` on ``points``."""
    x = rows["points"] - rows.groupby("round")["points"].transform("mean")
    y = rows["won"] - rows.groupby("round")["won"].transform("mean")
    sxx = float((x * x).sum())
    return float((x * y).sum()) / sxx if sxx > 0 else float("nan")


def _held(traced: TracedGames) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(games, coasters, seats)`` held at the end, whether dealt, and ``(games, seats)`` wins."""
    owners = traced.owners
    p = traced.config.players
    seat_bits = 1 << np.arange(p)
    dealt = owners >= 0
    held = dealt[:, :, None] & ((owners[:, :, None] & seat_bits) > 0)
    won = traced.games["winner"].to_numpy()[:, None] == np.arange(p)
    return held, dealt, won


def coaster_effects(traced: TracedGames) -> pd.DataFrame:
    """Per catalogue coaster: win rates held vs not held, the same-round effect, a points shift.

    Columns: ``players``, ``coaster``, ``combination``, ``side_a``, ``side_b_1``,
    ``side_b_2`` (printed), ``dealt`` (games), ``taken`` (placements),
    ``mean_round`` (round taken), ``mean_points`` (scored by the placement),
    ``held_win_rate`` (seats holding it at the end) and ``not_held_win_rate``
    (seats not holding it, in games where it was dealt), each with ``_low``/``_high``
    (95% Wilson), ``effect`` with ``effect_low``/``effect_high``,
    ``shift`` and the suggested ``new_side_a``, ``new_side_b_1``, ``new_side_b_2``.
    """
    config = traced.config
    rows = placement_wins(traced)
    slope = point_slope(rows)
    held, dealt, won = _held(traced)
    by_round = rows.groupby("round")
    round_n, round_w = by_round.size(), by_round["won"].sum()
    out = []
    for i, coaster in enumerate(config.catalogue):
        mine = rows[rows["coaster"] == i]
        h = held[:, i, :]
        chances = np.broadcast_to(dealt[:, i, None], h.shape)
        k_h, n_h = int((h & won).sum()), int(h.sum())
        k_o, n_o = int((~h & chances & won).sum()), int((~h & chances).sum())
        effect, var, weight = 0.0, 0.0, 0
        for r, part in mine.groupby("round"):
            n, w = len(part), int(part["won"].sum())
            m, v = int(round_n[r]) - n, int(round_w[r]) - w
            if m == 0:
                continue
            p_, q_ = w / n, v / m
            effect += n * (p_ - q_)
            var += n * n * (p_ * (1 - p_) / n + q_ * (1 - q_) / m)
            weight += n
        eff = effect / weight if weight else float("nan")
        half = Z95 * np.sqrt(var) / weight if weight else float("nan")
        out.append(
            {
                "players": config.players,
                "coaster": coaster.id,
                "combination": coaster.combination.value,
                "side_a": coaster.side_a,
                "side_b_1": coaster.side_b[0],
                "side_b_2": coaster.side_b[1],
                "dealt": int(dealt[:, i].sum()),
                "taken": len(mine),
                "mean_round": float(mine["round"].mean()) if len(mine) else float("nan"),
                "mean_points": float(mine["points"].mean()) if len(mine) else float("nan"),
                "held_win_rate": k_h / n_h if n_h else float("nan"),
                "held_low": wilson_interval(k_h, n_h)[0],
                "held_high": wilson_interval(k_h, n_h)[1],
                "not_held_win_rate": k_o / n_o if n_o else float("nan"),
                "not_held_low": wilson_interval(k_o, n_o)[0],
                "not_held_high": wilson_interval(k_o, n_o)[1],
                "effect": eff,
                "effect_low": eff - half,
                "effect_high": eff + half,
            }
        )
    frame = pd.DataFrame(out)
    taken = frame["taken"].to_numpy()
    known = taken > 0
    mean_effect = float(np.average(frame.loc[known, "effect"], weights=taken[known]))
    shift = -(frame["effect"] - mean_effect) / slope if slope > 0 else frame["effect"] * 0
    frame["shift"] = shift.round().fillna(0).astype(int)
    for col in ("side_a", "side_b_1", "side_b_2"):
        frame[f"new_{col}"] = np.maximum(frame[col] + frame["shift"], 0)
    frame.attrs["point_slope"] = slope
    frame.attrs["mean_effect"] = mean_effect
    return frame


def coaster_points(
    players: Sequence[int] = PLAYER_COUNTS,
    *,
    games: int = 20_000,
    agent: str = "strategic",
    seed: int = 0,
    config: GameConfig | None = None,
) -> pd.DataFrame:
    """:func:`coaster_effects` of ``agent`` self-play for each player count, one table.

    ``config`` (catalogue, layout, rules) is used with each player count; the
    point slope ``b`` of each count is in the column ``point_slope``.
    """
    if not isinstance(players, Sequence) or isinstance(players, str):
        raise PinastatsError(f"players must be a sequence of player counts, got {players!r}")
    seed = at_least(seed, "seed", 0)
    frames = []
    for p in players:
        cfg = GameConfig(players=p) if config is None else _with_players(config, p)
        traced = play_traced([agent] * p, games, seed=seed + p, config=cfg)
        frame = coaster_effects(traced)
        frames.append(frame.assign(point_slope=frame.attrs["point_slope"]))
    return pd.concat(frames, ignore_index=True)


def _with_players(config: GameConfig, players: int) -> GameConfig:
    return GameConfig(
        players=players, catalogue=config.catalogue, layout=config.layout, rules=config.rules
    )
