"""``simulate --out DIR|PATTERN``: the per-game table in pieces, the summary from counts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import pandas as pd
import pytest

from pinastats.errors import PinastatsError
from pinastats.game.config import GameConfig
from pinastats.simulation import limits
from pinastats.simulation import pieces as pieces_module
from pinastats.simulation.pieces import GameCounts, piece_plan, simulate_pieces
from pinastats.simulation.runner import simulate

RUN: dict[str, Any] = {"seed": 11, "chunk_size": 70, "workers": 2}
GAMES = 500


def read(paths: list[Path]) -> pd.DataFrame:
    frames = [pd.read_parquet(p) if p.suffix == ".parquet" else pd.read_csv(p) for p in paths]
    return pd.concat(frames, ignore_index=True)


@pytest.mark.parametrize(("out", "suffix"), [("runs/", ".parquet"), ("runs/g-{}.csv", ".csv")])
def test_pieces_concatenated_are_the_table_in_memory(tmp_path: Path, out: str, suffix: str) -> None:
    agents = ["ev", "greedy"]
    summary, paths = simulate_pieces(agents, GAMES, str(tmp_path / out), piece_games=120, **RUN)
    whole = simulate(agents, GAMES, **RUN)
    # 500 games in pieces of 120: four full pieces and one of 20, named in game order
    assert [len(read([p])) for p in paths] == [120, 120, 120, 120, 20]
    assert paths == sorted(paths)
    assert all(p.suffix == suffix for p in paths)
    table = read(paths)
    expected = whole.games if suffix == ".parquet" else read([whole.save(tmp_path / "w.csv")])
    pd.testing.assert_frame_equal(table, expected)
    left = sorted(p.name for p in paths[0].parent.iterdir())
    assert left == sorted(p.name for p in paths), "no temporary file is left"
    timing = {"elapsed", "games_per_second", "workers"}
    mine = {k: v for k, v in summary.items() if k not in timing}
    assert mine == {k: v for k, v in whole.summary().items() if k not in timing}


def test_rounds_quantiles_from_counts_match_pandas() -> None:
    turns = np.array([3, 9, 4, 4, 5, 7, 7, 7, 12, 5, 6], dtype=np.int64)
    rounds = pd.Series(turns)
    counts = GameCounts(players=1)
    zeros = np.zeros(len(turns), dtype=np.int64)
    part = {"winner": zeros, "first": zeros, "reason": zeros + 1, "turns": turns}
    counts.add(part)
    for q in (0.1, 0.25, 0.5, 0.75, 0.9):
        assert counts.rounds_quantile(q) == pytest.approx(rounds.quantile(q))


def test_an_interrupted_write_leaves_no_partial_piece(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = pd.DataFrame.to_parquet
    calls = []

    def half_written(self: pd.DataFrame, file: BinaryIO, **kw: Any) -> None:
        calls.append(file)
        if len(calls) == 2:  # the second piece: a file begun, then Ctrl-C
            file.write(b"PAR1 half")
            raise KeyboardInterrupt
        real(self, file, **kw)

    monkeypatch.setattr(pd.DataFrame, "to_parquet", half_written)
    with pytest.raises(KeyboardInterrupt):
        simulate_pieces(["random", "random"], GAMES, str(tmp_path / "runs/"), piece_games=100,
                        seed=1, chunk_size=50, workers=1)  # fmt: skip
    left = sorted(p.name for p in (tmp_path / "runs").iterdir())
    assert left == ["games-00000.parquet"], left
    assert len(pd.read_parquet(tmp_path / "runs" / left[0])) == 100


def test_the_memory_check_applies_only_to_a_table_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "available_memory", lambda: 10_000)  # room for ~12 games
    with pytest.raises(PinastatsError, match="of memory for the per-game table"):
        simulate(["random", "random"], 200, seed=2)
    summary, paths = simulate_pieces(["random", "random"], 200, str(tmp_path / "p-{}.csv"),
                                     piece_games=10, seed=2, chunk_size=10)  # fmt: skip
    assert summary["games"] == 200
    assert len(paths) == 20


def test_earlier_pieces_and_bad_patterns_are_refused(tmp_path: Path) -> None:
    (tmp_path / "games-00000.parquet").write_bytes(b"")
    with pytest.raises(PinastatsError, match="already holds 1 piece"):
        simulate_pieces(["random", "random"], 10, str(tmp_path))
    with pytest.raises(PinastatsError, match="exactly one"):
        piece_plan(str(tmp_path / "{}" / "g-{}.csv"))
    with pytest.raises(PinastatsError, match=r"\.parquet or \.csv"):
        piece_plan(str(tmp_path / "g-{}.txt"))
    with pytest.raises(PinastatsError, match="is one file"):
        simulate_pieces(["random", "random"], 10, str(tmp_path / "one.csv"))
    with pytest.raises(PinastatsError, match="games per piece"):
        simulate_pieces(["random", "random"], 10, str(tmp_path / "new/"), piece_games=0)
    assert pieces_module.PiecePlan(str(tmp_path / "x-{}.csv")).existing() == []


def test_the_command_line_writes_pieces_and_names_them(tmp_path: Path) -> None:
    out = f"{tmp_path}/g-{{}}.csv"
    cmd = [sys.executable, "-m", "pinastats.cli.main", "simulate", "--agents", "random,random",
           "--games", "250", "--out", out, "--piece-games", "100", "-q"]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"g-0000{i}.csv" for i in range(3)]
    assert "3 piece(s) of at most 100 games" in done.stdout
    bad = subprocess.run([*cmd[:-4], str(tmp_path / "one.csv"), "--piece-games", "5"],
                         capture_output=True, text=True, check=False)  # fmt: skip
    assert bad.returncode == 2
    assert "--piece-games needs --out DIR" in bad.stderr


def test_game_config_players_come_from_the_agents(tmp_path: Path) -> None:
    summary, _ = simulate_pieces(["random"] * 3, 30, str(tmp_path / "r/"), seed=5)
    assert summary["players"] == 3 == GameConfig(players=3).players
    assert sum(summary["wins"]) + summary["draws"] == 30
