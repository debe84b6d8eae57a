"""``record_run`` and ``simulate --record``: the records of exactly the games of the table."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from pinastats.errors import PinastatsError
from pinastats.records import read_records, record_games, record_run, replay
from pinastats.simulation import simulate

Cli = Callable[..., Any]  # the ``cli`` fixture of tests/conftest.py


def test_records_are_the_table_games_on_any_number_of_workers(tmp_path: Path) -> None:
    one, two, pool = tmp_path / "one.jsonl", tmp_path / "two.jsonl", tmp_path / "pool.jsonl"
    agents = ["strategic", "greedy", "ev"]
    result = record_run(agents, 7, one, seed=4, chunk_size=3, workers=1)
    record_run(agents, 7, two, seed=4, chunk_size=3, workers=2)
    with ThreadPoolExecutor(2) as executor:
        record_run(agents, 7, pool, seed=4, chunk_size=3, executor=executor)
    assert one.read_bytes() == two.read_bytes() == pool.read_bytes()
    pd.testing.assert_frame_equal(
        result.games, simulate(agents, 7, seed=4, chunk_size=3, workers=1).games
    )
    records = read_records(one)
    assert records == record_games(agents, 7, seed=4, chunk_size=3)
    table = result.games
    assert [r.game for r in records] == list(table["game"])
    for record, row in zip(records, table.to_dict("records"), strict=True):
        assert record.scores == tuple(row[f"score_{p}"] for p in range(3))
        assert record.first == row["first_seat"]
        assert len(record.turns) == row["turns"]
        assert replay(record).winner == record.winner


def test_records_played_on_dask_are_the_same(tmp_path: Path, dask_scheduler: str) -> None:
    local, dask = tmp_path / "local.jsonl", tmp_path / "dask.jsonl"
    record_run(["ev", "random"], 9, local, seed=2, chunk_size=2, workers=1)
    result = record_run(["ev", "random"], 9, dask, seed=2, chunk_size=2, scheduler=dask_scheduler)
    assert result.engine == "dask"
    assert local.read_bytes() == dask.read_bytes()


def test_record_run_passes_the_arrays_on_to_a_chunk_sink(tmp_path: Path) -> None:
    seen: list[tuple[int, set[str]]] = []

    def sink(index: int, part: dict[str, Any]) -> dict[str, Any]:
        seen.append((index, set(part)))
        return part

    result = record_run(["ev", "greedy"], 5, tmp_path / "r.jsonl", chunk_size=2, chunk_sink=sink)
    assert [i for i, _ in seen] == [0, 1, 2]
    assert all("records" not in keys and "winner" in keys for _, keys in seen)
    assert len(read_records(tmp_path / "r.jsonl")) == result.n_games == 5


def test_record_run_refuses_a_folder_before_playing(tmp_path: Path) -> None:
    with pytest.raises(PinastatsError, match="is a directory: give a file name"):
        record_run(["ev", "ev"], 2, tmp_path)
    with pytest.raises(PinastatsError, match="its folder does not exist"):
        record_run(["ev", "ev"], 2, tmp_path / "no" / "r.jsonl")


def test_cli_record_and_its_errors(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    done = cli(
        "simulate",
        "--agents",
        "ev,greedy",
        "--games",
        "5",
        "--seed",
        "3",
        "--record",
        str(path),
        "-q",
    )
    assert done.code == 0, done.err
    assert len(read_records(path)) == 5
    refused = cli("simulate", "--agents", "ev,greedy", "--games", "5", "--record", str(tmp_path))
    assert "--record" in refused.one_error_line()


def test_cli_record_with_the_table_in_pieces(cli: Cli, tmp_path: Path) -> None:
    path, alone = tmp_path / "games.jsonl", tmp_path / "alone.jsonl"
    run = ["simulate", "--agents", "ev,greedy", "--games", "12", "--chunk-size", "5", "-q"]
    done = cli(*run, "--out", f"{tmp_path}/pieces/", "--piece-games", "8",
               "--record", str(path))  # fmt: skip
    assert done.code == 0, done.err
    assert sorted(p.name for p in (tmp_path / "pieces").iterdir()) == [
        "games-00000.parquet",
        "games-00001.parquet",
    ]
    assert cli(*run, "--record", str(alone)).code == 0
    assert path.read_bytes() == alone.read_bytes()
    assert len(read_records(path)) == 12
