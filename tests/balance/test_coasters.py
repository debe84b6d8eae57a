"""Traced games are the simulator's games; the coaster analysis adds up to the per-game table."""

from __future__ import annotations

import numpy as np
import pytest

from pinastats.balance.coasters import coaster_effects, placement_wins, point_slope
from pinastats.balance.trace import play_traced
from pinastats.errors import PinastatsError
from pinastats.game import GameConfig, Rules
from pinastats.simulation import simulate


@pytest.mark.parametrize(
    ("agents", "rules"),
    [(["strategic", "ev"], Rules()), (["greedy"] * 3, Rules()), (["ev"] * 4, Rules())],
)
def test_traced_games_are_the_simulated_games(agents: list[str], rules: Rules) -> None:
    config = GameConfig(players=len(agents), rules=rules)
    traced = play_traced(agents, 700, seed=4, config=config, chunk_size=300)
    sim = simulate(agents, 700, seed=4, config=config, chunk_size=300, workers=1)
    for col in ("first_seat", "winner", "turns", "rounds"):
        assert (traced.games[col].to_numpy() == sim.games[col].to_numpy()).all(), col
    assert (traced.games["end_reason"].astype(str) == sim.games["end_reason"].astype(str)).all()
    assert (traced.owners == sim.owners).all()
    placed = traced.placements.groupby(["game", "seat"]).size()
    for s in range(config.players):
        per_game = placed.xs(s, level="seat").reindex(range(700), fill_value=0).to_numpy()
        assert (per_game == sim.games[f"placed_{s}"].to_numpy()).all()
    # the points of a seat's placements add up to its final score minus its starting score
    scored = traced.placements.groupby(["game", "seat"])["points"].sum()
    first = sim.games["first_seat"].to_numpy()
    for s in range(config.players):
        start = config.start_scores[(s - first) % config.players]
        gained = sim.games[f"score_{s}"].to_numpy() - start
        got = scored.xs(s, level="seat").reindex(range(700), fill_value=0).to_numpy()
        assert (got == gained).all()


def test_rounds_and_positions_follow_the_turns() -> None:
    traced = play_traced(["greedy"] * 3, 200, seed=1)
    rows = traced.placements
    assert (rows["round"] == rows["turn"] // 3 + 1).all()
    first = traced.games["first_seat"].to_numpy()[rows["game"]]
    assert (rows["seat"] == (first + rows["turn"]) % 3).all()  # the mover of each turn
    assert (rows["position"] == (rows["turn"] % 3) + 1).all()


def test_coaster_table_adds_up_to_the_per_game_table() -> None:
    config = GameConfig(players=2)
    traced = play_traced(["strategic"] * 2, 1500, seed=9, config=config)
    sim = simulate(["strategic"] * 2, 1500, seed=9, config=config, workers=1)
    frame = coaster_effects(traced)
    owners, winner = sim.owners, sim.games["winner"].to_numpy()
    bits = np.array([[(o >> s) & 1 if o >= 0 else 0 for s in range(2)] for o in owners.ravel()])
    held = bits.reshape(*owners.shape, 2).astype(bool)
    won = winner[:, None] == np.arange(2)
    assert (frame["dealt"].to_numpy() == (owners >= 0).sum(axis=0)).all()
    assert (frame["taken"].to_numpy() == held.sum(axis=(0, 2))).all()
    wins_held = (held & won[:, None, :]).sum(axis=(0, 2))
    rate = np.divide(wins_held, held.sum(axis=(0, 2)))
    assert np.allclose(frame["held_win_rate"].to_numpy(), rate, equal_nan=True)
    assert frame["taken"].sum() == len(traced.placements)
    assert (frame["effect_low"] <= frame["effect"]).all()
    assert (frame["effect"] <= frame["effect_high"]).all()
    assert (frame["new_side_a"] == np.maximum(frame["side_a"] + frame["shift"], 0)).all()


def test_point_slope_recovers_a_planted_slope() -> None:
    rng = np.random.default_rng(0)
    rows = traced_like(rng, 20_000)
    assert point_slope(rows) == pytest.approx(0.04, abs=0.01)


def traced_like(rng: np.random.Generator, n: int):  # type: ignore[no-untyped-def]
    import pandas as pd

    points = rng.integers(1, 7, n)
    rounds = rng.integers(1, 6, n)
    p = 0.2 + 0.04 * points + 0.05 * rounds  # the round shifts the rate, not the slope
    return pd.DataFrame({"points": points, "round": rounds, "won": rng.random(n) < p})


def test_placement_wins_marks_the_winner() -> None:
    traced = play_traced(["ev", "greedy"], 100, seed=2)
    rows = placement_wins(traced)
    winner = traced.games.set_index("game")["winner"]
    assert (rows["won"] == (winner[rows["game"]].to_numpy() == rows["seat"])).all()


def test_traced_play_refuses_bad_input() -> None:
    with pytest.raises(PinastatsError, match="games must be a whole number >= 1, got 0"):
        play_traced(["ev", "ev"], 0)
    with pytest.raises(PinastatsError, match="3 agents given for 2 players"):
        play_traced(["ev"] * 3, 10, config=GameConfig(players=2))
