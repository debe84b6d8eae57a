"""Ctrl-C and SIGTERM stop ``pinastats simulate`` cleanly: a message, the status, no temp file."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from pinastats.cli._common import Terminated
from pinastats.simulation.progress import Interrupted
from pinastats.simulation.runner import simulate

pytestmark = pytest.mark.slow


def start(out: Path) -> subprocess.Popen[str]:
    """A long run (far more games than it will play) writing its table to ``out``."""
    return subprocess.Popen(
        [sys.executable, "-m", "pinastats.cli.main", "simulate", "--agents", "random,random",
         "--games", "2000000", "--chunk-size", "200", "--workers", "2", "--progress-every", "0.5",
         "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def wait_for_play(proc: subprocess.Popen[str]) -> str:
    """Block until the run prints its first progress line (off a terminal: after 0.5 s)."""
    assert proc.stderr is not None
    deadline = time.monotonic() + 600  # a guard against a hang, not a timing check
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if line.startswith("pinastats: ") and "games," in line:
            return line
        assert line, f"the run ended before playing (status {proc.wait()})"
    raise AssertionError("no progress line")


@pytest.mark.parametrize(
    ("signum", "status", "words"),
    [
        (signal.SIGINT, 130, "interrupted after "),
        (signal.SIGTERM, 143, "interrupted (terminated) after "),
    ],
)
def test_a_signal_mid_run_stops_with_a_message_and_no_file(
    tmp_path: Path, signum: int, status: int, words: str
) -> None:
    out = tmp_path / "runs" / "games.parquet"
    proc = start(out)
    try:
        first = wait_for_play(proc)
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == status, err
    assert "ETA" in first
    assert "elapsed" in first
    last = err.splitlines()[-1]
    assert last.startswith("pinastats: " + words), err
    played = int(last.removeprefix("pinastats: " + words).split(" of ")[0].replace(",", ""))
    assert 0 < played < 2_000_000
    assert last.endswith(" of 2,000,000 games")
    assert "Traceback" not in err
    assert list((tmp_path / "runs").iterdir()) == []  # no table, no temporary file


def test_a_stop_while_saving_leaves_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = simulate(["random", "random"], 200, seed=1, workers=1)

    def stopped(self: pd.DataFrame, path: str, **options: object) -> None:
        Path(path).write_text("half a table")
        raise Terminated

    monkeypatch.setattr(pd.DataFrame, "to_csv", stopped)
    with pytest.raises(Terminated):
        result.save(tmp_path / "games.csv")
    assert os.listdir(tmp_path) == []


def test_an_interrupt_inside_a_lock_wait_is_still_an_interrupt(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pinastats.simulation import runner

    def interrupted_in_a_wait(*args: object, **kwargs: object) -> None:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:  # what CPython raises when the signal lands in the wait
            raise RuntimeError("cannot release un-acquired lock") from None

    monkeypatch.setattr(runner, "_run_local", interrupted_in_a_wait)
    with pytest.raises(Interrupted) as stop:
        simulate(["random", "random"], 100, seed=1, workers=2)
    assert stop.value.total == 100


def test_another_runtime_error_is_not_taken_for_an_interrupt(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pinastats.simulation import runner

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(runner, "_run_local", broken)
    with pytest.raises(RuntimeError, match="a bug"):
        simulate(["random", "random"], 100, seed=1, workers=2)
