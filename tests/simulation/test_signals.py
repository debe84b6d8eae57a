"""Ctrl-C and SIGTERM stop ``pinastats simulate`` cleanly: a message, the status, no temp file."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, TextIO

import numpy as np
import pandas as pd
import pytest

from pinastats._signals import Signalled, check, held, pending
from pinastats.cli._common import Terminated
from pinastats.game.config import GameConfig
from pinastats.records.record import record_chunk
from pinastats.simulation.chunk import (
    ChunkSpec,
    RunStoppedError,
    run_chunk,
    run_python_chunk,
    stoppable,
)
from pinastats.simulation.progress import Interrupted
from pinastats.simulation.runner import simulate

pytestmark = pytest.mark.slow


class Run:
    """A ``pinastats`` process whose stderr a thread reads, so that no wait blocks unbounded."""

    def __init__(self, argv: list[str]) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "pinastats.cli.main", *argv],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.put(line)
        self.lines.put("")  # the end

    def line(self, timeout: float) -> str:
        """The next stderr line ("" at the end); fails after ``timeout`` s without one."""
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no stderr line in {timeout:g} s: {self.seen}") from None
        self.seen.append(line)
        return line

    def finish(self, timeout: float = 120) -> tuple[int, str]:
        """Wait for the end (a guard against a hang: killed after ``timeout`` s); status, stderr."""
        try:
            status = self.proc.wait(timeout=timeout)
        finally:
            self.proc.kill()
        self.reader.join(timeout=timeout)
        assert self.proc.stderr is not None
        self.proc.stderr.close()
        while True:
            try:
                self.seen.append(self.lines.get_nowait())
            except queue.Empty:
                break
        return status, "".join(self.seen)


def start(out: Path) -> Run:
    """A long run (far more games than it will play) writing its table to ``out``."""
    return Run(
        ["simulate", "--agents", "random,random", "--games", "2000000", "--chunk-size", "200",
         "--workers", "2", "--progress-every", "0.5", "--out", str(out)]
    )  # fmt: skip


def wait_for_play(run: Run) -> str:
    """Wait for the run's first progress line (off a terminal: after 0.5 s of play)."""
    deadline = time.monotonic() + 600  # a guard against a hang, not a timing check
    while (left := deadline - time.monotonic()) > 0:
        line = run.line(timeout=left)
        if line.startswith("pinastats: ") and "games," in line:
            return line
        assert line, f"the run ended before playing (status {run.proc.wait()})"
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
    run = start(out)
    try:
        first = wait_for_play(run)
        run.proc.send_signal(signum)
    finally:
        code, err = run.finish()
    assert code == status, err
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
        if (here / "signalled").exists():
            with open(here / "after", "a") as turns:
                turns.write(".")
        frame = sys._getframe()
        while frame is not None:
            if frame.f_code.co_name == "record_game":
                (here / "recording").touch()
            frame = frame.f_back
'''
"""A Python agent for the runs below: a file ``playing`` once it plays, ``recording`` once
its games are being recorded (the records are played again after the games), and a dot in
``after`` for each turn it starts once the file ``signalled`` is there."""


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

    The signal goes as the first chunks start: playing them to their end would
    take the marker over 10,000 more turns (1,000 games of ~23 turns, half of
    them its own); it plays a few.
    """
    (tmp_path / "marker.py").write_text(MARKER)
    records = [*extra, str(tmp_path / "games.jsonl")] if extra else []
    run = Run(
        ["simulate", "--agents", f"ev,{tmp_path / 'marker.py'}:Marker", "--games", "1000000",
         "--chunk-size", "1000", "--workers", "2", "--no-progress", *records]
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 600  # a guard against a hang, not a timing check
        while not (tmp_path / signal_on).exists():
            assert run.proc.poll() is None, run.finish()
            assert time.monotonic() < deadline, "the run never played"
            time.sleep(0.05)
        (tmp_path / "signalled").touch()
        run.proc.send_signal(signal.SIGINT)
    finally:
        code, err = run.finish()
    after = tmp_path / "after"
    turns = len(after.read_text()) if after.exists() else 0
    print(f"{' '.join(extra) or 'python agent'}: {turns} turns of the marker after Ctrl-C")
    assert code == 130, err
    assert err.splitlines()[-1].startswith("pinastats: interrupted after ")
    assert turns < 2_000  # far from the chunks' end
    assert not [p.name for p in tmp_path.iterdir() if "games" in p.name]  # no file, no temporary


class Dropper:
    """An object whose finalizer sends Ctrl-C: an exception there is one Python drops."""

    def __del__(self) -> None:
        signal.raise_signal(signal.SIGINT)  # its handler runs here, inside __del__


def interrupting_chunk(spec: ChunkSpec) -> dict[str, Any]:
    """Chunk 1 is played with a Ctrl-C sent from inside a finalizer, as in a dropped callback."""
    if spec.index == 1:
        Dropper()  # collected at once: __del__ runs now
    return run_chunk(spec)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_ctrl_c_inside_a_callback_python_drops_still_stops_the_run(workers: int) -> None:
    """A ``KeyboardInterrupt`` raised in a finalizer or a weakref callback is printed and lost.

    Held as a flag, the signal stops the run at the next chunk instead of being lost.
    """
    with pytest.raises(Interrupted) as stop:
        simulate(["random", "random"], 2_000, seed=1, workers=workers, chunk_size=100,
                 play_chunk=interrupting_chunk)  # fmt: skip
    assert stop.value.signum == signal.SIGINT
    assert stop.value.done < 2_000
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back


def noted_then_checked() -> None:
    """SIGTERM in a held block: noted, not raised, until :func:`check`."""
    with held():
        signal.raise_signal(signal.SIGTERM)
        assert pending() == signal.SIGTERM
        check()
        raise AssertionError("check() did not raise")


def sent_twice() -> None:
    """Two Ctrl-Cs in a held block: the second is raised at once."""
    with held():
        signal.raise_signal(signal.SIGINT)
        signal.raise_signal(signal.SIGINT)
        raise AssertionError("the second signal was not raised")


def test_held_notes_a_signal_and_raises_it_at_a_safe_point() -> None:
    with pytest.raises(Signalled) as raised:
        noted_then_checked()
    assert raised.value.signum == signal.SIGTERM
    assert pending() is None
    with pytest.raises(Signalled), held():  # not checked: raised at the block's end
        signal.raise_signal(signal.SIGINT)
    with pytest.raises(Signalled):
        sent_twice()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_ctrl_c_while_the_commands_load_exits_130_with_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from pinastats.cli import main as cli_main

    build = cli_main.build_parser

    def interrupted_build() -> Any:
        signal.raise_signal(signal.SIGINT)
        return build()

    monkeypatch.setattr(cli_main, "build_parser", interrupted_build)
    assert cli_main.main(["simulate", "--agents", "random,random", "--games", "10"]) == 130
    assert capsys.readouterr().err == "pinastats: interrupted\n"


def test_a_signal_ignored_before_the_block_stays_ignored() -> None:
    """A run started in the background by a shell script keeps ignoring Ctrl-C."""
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with held():
            signal.raise_signal(signal.SIGINT)
            assert pending() is None
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before)
