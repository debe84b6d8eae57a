"""Ctrl-C and SIGTERM stop ``pinastats simulate`` cleanly: a message, the status, no temp file."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import TextIO

import numpy as np
import pandas as pd
import pytest

from pinastats.cli._common import Terminated
from pinastats.game.config import GameConfig
from pinastats.records.record import record_chunk
from pinastats.simulation.chunk import ChunkSpec, RunStoppedError, run_python_chunk, stoppable
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
    assert list(tmp_path.iterdir()) == []  # no table, no temporary file, no lock, no new folder


def test_a_stop_while_saving_leaves_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = simulate(["random", "random"], 200, seed=1, workers=1)

    def stopped(self: pd.DataFrame, file: TextIO, **options: object) -> None:
        file.write("half a table")
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


MARKER = '''
"""An agent of the default moves whose turns leave word of what is being played."""

import sys
from pathlib import Path

from pinastats.agents import PythonAgent


class Marker(PythonAgent):
    def start_turn(self, game):
        here = Path(__file__).parent
        (here / "playing").touch()
        frame = sys._getframe()
        while frame is not None:
            if frame.f_code.co_name == "record_game":
                (here / "recording").touch()
            frame = frame.f_back
'''
"""A Python agent for the runs below: a file ``playing`` once it plays, ``recording`` once
its games are being recorded (the records are played again after the games)."""


def test_a_stopped_run_stops_its_python_chunks_at_the_next_turn() -> None:
    from pinastats.agents.protocol import PythonAgent

    agents = (PythonAgent(), PythonAgent())
    spec = ChunkSpec(0, 50, np.random.SeedSequence(1), GameConfig(players=2), agents, -1)
    stop = threading.Event()
    with stoppable(stop):
        assert len(run_python_chunk(spec)["winner"]) == 50  # not stopped: every game
        stop.set()
        with pytest.raises(RunStoppedError):
            run_python_chunk(spec)
        with pytest.raises(RunStoppedError):
            record_chunk(spec, seed=1, chunk_size=50)
    assert len(record_chunk(spec, seed=1, chunk_size=50)) == 50  # outside: no stop


@pytest.mark.parametrize(("extra", "signal_on"), [([], "playing"), (["--record"], "recording")])
def test_ctrl_c_stops_a_python_agent_run_at_once(
    tmp_path: Path, extra: list[str], signal_on: str
) -> None:
    """The chunks being played on threads stop within a turn, not at their end.

    A chunk of 1,000 games of a Python agent takes over 10 s on one core; the
    run stops within a generous bound of that.
    """
    (tmp_path / "marker.py").write_text(MARKER)
    records = [*extra, str(tmp_path / "games.jsonl")] if extra else []
    proc = subprocess.Popen(
        [sys.executable, "-m", "pinastats.cli.main", "simulate", "--agents",
         f"ev,{tmp_path / 'marker.py'}:Marker", "--games", "1000000", "--chunk-size", "1000",
         "--workers", "2", "--no-progress", *records],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 600  # a guard against a hang, not a timing check
        while not (tmp_path / signal_on).exists():
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the run never played"
            time.sleep(0.05)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
        stopped = time.monotonic() - sent
    finally:
        proc.kill()
    print(f"{' '.join(extra) or 'python agent'}: stopped {stopped:.2f} s after Ctrl-C")
    assert proc.returncode == 130, err
    assert err.splitlines()[-1].startswith("pinastats: interrupted after ")
    assert stopped < 5.0, f"{stopped:.1f} s to stop"  # a chunk's end is over 10 s away
    assert not [p.name for p in tmp_path.iterdir() if "games" in p.name]  # no file, no temporary
