"""``simulate --record``: the records of exactly the games of the per-game table."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from pinastats.records import read_records, replay
from pinastats.simulation import simulate

Cli = Callable[..., Any]  # the ``cli`` fixture of tests/conftest.py


def test_records_are_the_table_games_on_any_number_of_workers(tmp_path: Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    agents = ["strategic", "greedy", "ev"]
    result = simulate(agents, 7, seed=4, chunk_size=3, workers=1, record=one)
    simulate(agents, 7, seed=4, chunk_size=3, workers=2, record=two)
    assert one.read_bytes() == two.read_bytes()
    records = read_records(one)
    table = result.games
    assert [r.game for r in records] == list(table["game"])
    for record, row in zip(records, table.to_dict("records"), strict=True):
        assert record.scores == tuple(row[f"score_{p}"] for p in range(3))
        assert record.first == row["first_seat"]
        assert len(record.turns) == row["turns"]
        assert replay(record).winner == record.winner


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
