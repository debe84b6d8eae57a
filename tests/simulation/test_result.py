"""``SimulationResult``: the per-game table, the summaries, and saving it atomically."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any, TextIO

import numpy as np
import pandas as pd
import pytest

from pinastats.agents.builtin import make_agent
from pinastats.game.config import GameConfig
from pinastats.simulation.result import SimulationResult
from pinastats.simulation.runner import simulate


@pytest.fixture(scope="module")
def result() -> SimulationResult:
    return simulate(["ev", "random", "ev"], 600, seed=4, chunk_size=200, workers=2)


def test_table_columns_agree_with_each_other(result: SimulationResult) -> None:
    g = result.games
    assert len(g) == 600
    assert list(g["game"]) == list(range(600))
    won = g["winner"] >= 0
    names = np.array([a.name for a in result.agents])
    assert (g.loc[won, "winner_agent"].astype(str).to_numpy() == names[g.loc[won, "winner"]]).all()
    assert (g.loc[~won, "winner_agent"] == "").all()
    position = (g["winner"] - g["first_seat"]) % 3 + 1
    assert (g.loc[won, "winner_position"] == position[won]).all()
    assert (g.loc[~won, "winner_position"] == 0).all()
    assert (g["rounds"] == np.ceil(g["turns"] / 3)).all()
    assert set(g["end_reason"].cat.categories) >= {"pina_coladice", "score", "tokens"}
    assert ((g["line"] >= 0) == (g["end_reason"] == "pina_coladice")).all()
    placed = g[["placed_0", "placed_1", "placed_2"]].to_numpy()
    assert ((placed >= 0) & (placed <= 6)).all()
    # owners: a coaster is dealt on 16 of the 25, and its holders placed there
    assert ((result.owners >= 0).sum(axis=1) == 16).all()
    held = np.array(
        [
            [np.sum((result.owners[i] >> s) & 1 & (result.owners[i] >= 0)) for s in range(3)]
            for i in range(600)
        ]
    )
    assert (held <= placed).all()


def test_summaries_add_up(result: SimulationResult) -> None:
    seats = result.seat_win_rates()
    agents = result.agent_win_rates()
    assert agents.set_index("agent").loc["ev", "wins"] == seats["wins"].iloc[[0, 2]].sum()
    assert agents.set_index("agent").loc["ev", "seats"] == 2
    assert result.position_win_rates()["wins"].sum() == seats["wins"].sum()
    assert result.end_reasons()["games"].sum() == 600
    assert result.game_length()["games"].sum() == 600
    summary = result.summary()
    json.dumps(summary, allow_nan=False)  # plain, finite JSON
    assert summary["wins"] == seats["wins"].tolist()
    assert summary["chunk_size"] == 200
    assert summary["workers"] == 2
    stats = result.coaster_stats()
    assert len(stats) == 25
    assert (stats["dealt"] > 0).all()


def test_from_arrays_with_no_winner_and_every_end_reason() -> None:
    config = GameConfig(players=2)
    n = 7
    arrays: dict[str, Any] = {
        "first": np.array([0, 1, 0, 1, 0, 1, 0]),
        "winner": np.array([0, 1, 1, 0, 1, -1, -1]),
        "reason": np.arange(7),
        "trigger": np.array([0, 0, 1, 2, 1, 1, 0]),
        "turns": np.array([0, 7, 8, 10, 12, 14, 1000]),
        "line": np.array([-1, 3, -1, -1, -1, -1, -1]),
        "scores": np.zeros((n, 2), dtype=np.int64),
        "placed": np.zeros((n, 2), dtype=np.int64),
        "owners": np.full((n, 25), -1, dtype=np.int64),
    }
    agents = (make_agent("ev"), make_agent("ev"))
    r = SimulationResult.from_arrays(
        arrays, config=config, agents=agents, seed=0, elapsed=0.0, workers=1, engine="local"
    )
    assert r.games["end_reason"].astype(str).tolist() == [
        "ongoing",
        "pina_coladice",
        "score",
        "tokens",
        "tie_break",
        "draw",
        "turn_limit",
    ]
    assert r.games["trigger"].astype(str).tolist()[:4] == ["none", "none", "score", "tokens"]
    assert r.games["winner_agent"].astype(str).tolist() == ["ev"] * 5 + [""] * 2
    assert r.games["winner_position"].tolist() == [1, 1, 2, 2, 2, 0, 0]
    assert r.summary()["games_per_second"] is None  # no time measured: not a number


# ---------------------------------------------------------------- saving


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_save_round_trips(result: SimulationResult, tmp_path: Path, suffix: str) -> None:
    path = result.save(tmp_path / "out" / f"games{suffix}")
    back = pd.read_parquet(path) if suffix == ".parquet" else pd.read_csv(path)
    if suffix == ".parquet":
        pd.testing.assert_frame_equal(back, result.games)
    else:
        assert back["winner"].tolist() == result.games["winner"].tolist()
        assert back["end_reason"].tolist() == result.games["end_reason"].astype(str).tolist()
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask  # not mkstemp's private 0600


@pytest.mark.parametrize("error", [OSError("disk full"), KeyboardInterrupt()])
def test_failed_write_leaves_no_partial_file(
    result: SimulationResult, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: BaseException
) -> None:
    def half_write(self: pd.DataFrame, file: TextIO, **kw: Any) -> None:
        file.write("game,first_seat\n0,")
        raise error

    monkeypatch.setattr(pd.DataFrame, "to_csv", half_write)
    fresh = tmp_path / "fresh.csv"
    with pytest.raises(type(error)):
        result.save(fresh)
    assert list(tmp_path.iterdir()) == []
    # an existing file stays as it was
    old = tmp_path / "old.csv"
    old.write_text("previous run\n", encoding="utf-8")
    with pytest.raises(type(error)):
        result.save(old)
    assert list(tmp_path.iterdir()) == [old]
    assert old.read_text(encoding="utf-8") == "previous run\n"


def test_save_refuses_other_formats(result: SimulationResult, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"must end in \.parquet or \.csv"):
        result.save(tmp_path / "games.xlsx")
    assert list(tmp_path.iterdir()) == []


def test_winner_holds_share_ignores_coasters_not_dealt() -> None:
    from pinastats.simulation import simulate

    stats = simulate(["strategic", "strategic"], 300, seed=1, workers=1).coaster_stats()
    assert (stats["winner_holds_share"] <= stats["taken_share"] + 1e-12).all()
    assert (stats["winner_holds_share"] <= 1).all()


def test_wilson_interval_contains_the_rate_at_the_edges() -> None:
    from pinastats.simulation import wilson_interval

    assert wilson_interval(10, 10)[1] == 1.0
    assert wilson_interval(0, 10)[0] == 0.0
