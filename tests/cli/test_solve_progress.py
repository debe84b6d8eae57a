"""``solve``'s progress: one line redrawn on a terminal, sparse lines elsewhere, compiles said."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest

from pinastats.cli import _solving as solve_cli

Cli = Callable[..., Any]  # the ``cli`` fixture of tests/conftest.py


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class _Clock:
    """A clock the test moves by hand (``time.perf_counter`` in the progress module)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> _Clock:
    tick = _Clock()
    monkeypatch.setattr("pinastats.cli._solving.time.perf_counter", tick)
    return tick


def test_on_a_terminal_the_progress_is_one_line(
    monkeypatch: pytest.MonkeyPatch, clock: _Clock
) -> None:
    out = _Terminal()
    monkeypatch.setattr("sys.stderr", out)
    progress = solve_cli.Progress("solving", "boards")
    for done in range(0, 101, 10):
        clock.now += 1.0
        progress(done, 100)
    text = out.getvalue()
    assert text.count("\n") == 1
    assert text.endswith("\n")
    assert text.count("\r") == 11
    assert "100/100 boards (100%)" in text.split("\r")[-1]


def test_elsewhere_the_lines_are_sparse(monkeypatch: pytest.MonkeyPatch, clock: _Clock) -> None:
    out = io.StringIO()
    monkeypatch.setattr("sys.stderr", out)
    progress = solve_cli.Progress("solving", "boards")
    for done in range(0, 1001):
        clock.now += 0.1  # 100 s in all: a line every 30 s at most
        progress(done, 1000)
    lines = out.getvalue().splitlines()
    assert "\r" not in out.getvalue()
    assert 2 <= len(lines) <= 5
    assert lines[-1].startswith("solving: 1,000/1,000 boards (100%)")


def test_the_first_estimate_waits_for_measured_work(
    monkeypatch: pytest.MonkeyPatch, clock: _Clock
) -> None:
    out = io.StringIO()
    monkeypatch.setattr("sys.stderr", out)
    progress = solve_cli.Progress("solving", "boards")
    progress.line.every = 0.0
    clock.now += 40.0  # a slow first block (a compile, say) before any measured rate
    progress(1, 1000)
    clock.now += 10.0
    progress(60, 1000)  # 6% in 50 s: an estimate now, from the work done
    first, second = out.getvalue().splitlines()
    assert "estimating the time left" in first
    assert "about 3 min left" in second  # 940 more at 59 in 10 s: the first block not counted


def test_the_work_left_counts_only_this_run(monkeypatch: pytest.MonkeyPatch, clock: _Clock) -> None:
    out = io.StringIO()
    monkeypatch.setattr("sys.stderr", out)
    progress = solve_cli.Progress("boards solved", "boards", settle=0.0, share=0.0)
    progress.line.every = 0.0
    progress(90, 100)  # 90 boards in the log already
    clock.now += 60.0
    progress(91, 100)
    assert "about 9 min left" in out.getvalue().splitlines()[-1]


def test_the_solver_compile_is_announced_with_its_time(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import pinastats._jit

    monkeypatch.setattr(pinastats._jit, "cache_is_warm", lambda kernels: False)
    solve_cli.prepare_kernels()
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("compiling the solver's kernels")
    assert err[1].startswith("compiled the solver's kernels in ")
    assert err[1].endswith(" s")
    monkeypatch.setattr(pinastats._jit, "cache_is_warm", lambda kernels: True)
    solve_cli.prepare_kernels()
    assert capsys.readouterr().err == ""
