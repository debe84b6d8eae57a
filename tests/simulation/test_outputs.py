"""What ``simulate`` writes: checked before playing, held while playing, whole or not at all."""

from __future__ import annotations

import io
import logging
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from pinastats._files import claimed
from pinastats.errors import PinastatsError
from pinastats.simulation import cluster, runner
from pinastats.simulation.pieces import simulate_pieces
from pinastats.simulation.progress import Interrupted, _Progress
from tests.full_disk import NO_SPACE, files_under, fill_disk

Cli = Callable[..., Any]  # the ``cli`` fixture of tests/conftest.py
RUN = ["--agents", "random,random", "--games", "300", "--chunk-size", "100", "-q"]


def refused(result: Any) -> str:
    """The one error line of a refused command."""
    line: str = result.one_error_line()
    return line


@pytest.mark.parametrize(
    ("option", "name"),
    [("--out", "games.csv"), ("--out", "games.parquet"), ("--record", "games.jsonl")],
)
def test_a_full_disk_is_one_error_naming_the_file_and_leaves_nothing(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, option: str, name: str
) -> None:
    target = tmp_path / "runs" / name
    fill_disk(monkeypatch)
    games = ["--games", "20"] if option == "--record" else []
    line = refused(cli("simulate", *RUN, *games, option, str(target)))
    assert line == f"pinastats: error: cannot write {target}: {NO_SPACE}"
    assert files_under(tmp_path) == []  # no partial file, no temporary file, no lock


def test_pieces_on_a_full_disk_say_what_is_left(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fill_disk(monkeypatch, whole=1)  # the first piece fits, the second does not
    line = refused(cli("simulate", *RUN, "--out", f"{tmp_path}/runs/", "--piece-games", "100"))
    first = tmp_path / "runs" / "games-00000.parquet"
    assert line.startswith(
        f"pinastats: error: cannot write {tmp_path}/runs/games-00001.parquet: {NO_SPACE}; "
        f"the run is incomplete: it leaves 1 piece(s), {first} to games-00000.parquet "
        "(games 0 to 99 of 300)"
    )
    assert files_under(tmp_path) == ["runs", "runs/games-00000.parquet"]
    assert len(pd.read_parquet(first)) == 100
    again = refused(cli("simulate", *RUN, "--out", f"{tmp_path}/runs/"))
    assert "already holds 1 piece(s) like games-00000.parquet" in again
    assert "perhaps of an incomplete run" in again


def test_stopped_pieces_say_the_run_is_incomplete(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    update = _Progress.update

    def stop_after_two_pieces(self: _Progress, games: int) -> None:
        update(self, games)
        if self.done == 250:
            raise KeyboardInterrupt

    monkeypatch.setattr(_Progress, "update", stop_after_two_pieces)
    with pytest.raises(Interrupted) as stop:
        simulate_pieces(["random", "random"], 500, str(tmp_path / "p-{}.csv"), piece_games=100,
                        seed=1, chunk_size=50, workers=1)  # fmt: skip
    assert str(stop.value) == (
        f"interrupted after 250 of 500 games; the run is incomplete: it leaves 2 piece(s), "
        f"{tmp_path / 'p-00000.csv'} to p-00001.csv (games 0 to 199 of 500); a rerun to the "
        "same place refuses them: remove them, or write to another place"
    )
    assert files_under(tmp_path) == ["p-00000.csv", "p-00001.csv"]


def test_out_and_record_naming_one_file_are_refused(cli: Cli, tmp_path: Path) -> None:
    same = tmp_path / "same.csv"
    line = refused(cli("simulate", *RUN, "--out", str(same), "--record", f"{tmp_path}/./same.csv"))
    assert "--out and --record both name" in line
    line = refused(cli("simulate", *RUN, "--out", f"{tmp_path}/", "--record",
                       str(tmp_path / "games-00003.parquet")))  # fmt: skip
    assert "is named like a piece of --out" in line
    assert files_under(tmp_path) == []


def test_a_second_run_writing_the_same_file_is_refused(cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "games.csv"
    with claimed(out):  # a run writing it
        line = refused(cli("simulate", *RUN, "--out", str(out)))
        assert line.startswith(f"pinastats: error: --out {out}: another run (process ")
        pieces = refused(cli("simulate", *RUN, "--out", f"{tmp_path}/p-{{}}.csv", "--record",
                             str(out)))  # fmt: skip
        assert f"--record {out}: another run" in pieces
    assert files_under(tmp_path) == []


def test_a_stale_lock_does_not_block(cli: Cli, tmp_path: Path) -> None:
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    out = tmp_path / "games.csv"
    (tmp_path / "games.csv.lock").write_text(f"{ended.pid}\n")
    done = cli("simulate", *RUN, "--out", str(out))
    assert done.code == 0, done.err
    assert files_under(tmp_path) == ["games.csv"]


@pytest.mark.parametrize("option", ["--out", "--record"])
def test_an_unwritable_output_is_refused_before_any_game(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, option: str
) -> None:
    folder = tmp_path / "locked"
    folder.mkdir(mode=0o555)
    if os.geteuid() == 0:  # root may write in a read-only folder: the system says no for it
        real = os.access
        monkeypatch.setattr(os, "access", lambda p, m, **k: Path(p) != folder and real(p, m, **k))

    def no_game(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a game was played")

    monkeypatch.setattr(runner, "run_chunk", no_game)
    target = folder / ("games.csv" if option == "--out" else "games.jsonl")
    line = refused(cli("simulate", *RUN, option, str(target)))
    assert line == f"pinastats: error: {option} {target}: the folder {folder} is not writable"
    pieces = refused(cli("simulate", *RUN, "--out", f"{folder}/"))
    assert pieces.endswith(f"the folder {folder} is not writable")


def test_dask_logs_are_quiet_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lost worker's tracebacks, logged by Dask, are not shown; PINASTATS_DASK_LOG shows them."""
    pytest.importorskip("dask.distributed")
    stderr = io.StringIO()  # stands for the stream handler Dask puts on its logger
    handler = logging.StreamHandler(stderr)
    logging.getLogger("distributed").addHandler(handler)
    levels: list[int] = []

    class Client:
        def close(self) -> None:
            pass

    def connect(workers: int, scheduler: str | None, log_level: int) -> tuple[Client, None]:
        levels.append(log_level)
        return Client(), None

    def run_client(*args: Any) -> tuple[list[dict[str, Any]], int]:
        logging.getLogger("distributed.nanny").error("Worker process died unexpectedly")
        return [], 0

    monkeypatch.setattr(cluster, "_connect", connect)
    monkeypatch.setattr(cluster, "run_client", run_client)

    def run() -> str:
        bar = _Progress(1, "off")
        cluster.run_dask(iter([]), 1, None, bar, 1.0, lambda s: {}, lambda i, p: p, lambda: True)
        said = stderr.getvalue()
        stderr.truncate(0)
        stderr.seek(0)
        return said

    try:
        assert "Worker process died" not in run()
        assert levels == [logging.CRITICAL]
        assert handler.level == logging.NOTSET  # as it was before the run
        monkeypatch.setenv(cluster.DASK_LOG, "error")
        assert "Worker process died" in run()
        assert levels[-1] == logging.ERROR
        monkeypatch.setenv(cluster.DASK_LOG, "loud")
        levels_named = "PINASTATS_DASK_LOG must be one of debug, info, warning, error, critical"
        with pytest.raises(PinastatsError, match=rf"{levels_named}, got 'loud'"):
            run()
    finally:
        logging.getLogger("distributed").removeHandler(handler)
