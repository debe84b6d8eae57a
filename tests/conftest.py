"""Shared test configuration.

* ``cli`` runs the command line in process and returns its exit code and output.
* The engine's kernels are compiled (or loaded from the cache) once, at the start
  of the session, so that no command under test prints the first-run notice.
* Hypothesis runs without deadlines: the first call of a numba kernel loads its
  cache, which would make a timing-based failure depend on the machine.
* With pytest-xdist (``-n 2 --dist loadgroup``) the controller compiles the
  kernels before the workers start, so the workers load the cache instead of
  compiling them twice; each worker runs one BLAS thread (two workers already
  fill two cores); the report tests share one worker (group ``report``), so the
  cheat-sheets are learned and the session's reports built once; the tests on a
  running Dask cluster share one worker (group ``dask``) and one cluster
  (``dask_scheduler``), so its worker processes start and load the engine once.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import settings

# In CI the examples are fixed (derandomize), so a red run can be replayed.
settings.register_profile(
    "pinastats", deadline=None, print_blob=True, derandomize=bool(os.environ.get("CI"))
)
settings.load_profile("pinastats")

# The board and `table` solve two-player base boards in the background (a minute of both
# cores each): off in the tests, which switch it on where they test it.
os.environ["PINASTATS_BACKGROUND_SOLVE"] = "0"

REPORT_TESTS = Path(__file__).resolve().parent / "report"
"""The tests sharing the learned cheat-sheets and the session's reports."""


def pytest_configure(config: pytest.Config) -> None:
    """Register the xdist group mark, so that it is known without xdist too."""
    config.addinivalue_line("markers", "xdist_group(name): run the group on one xdist worker")


def pytest_sessionstart(session: pytest.Session) -> None:
    """As xdist's controller, before the workers start: compile the engine, one BLAS thread each.

    The workers inherit the environment and load the compiled kernels from the cache.
    """
    if session.config.pluginmanager.has_plugin("dsession"):
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
        from pinastats._warmup import warm_up

        warm_up()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The report tests in one xdist group (one worker learns the sheets once); so the Dask ones."""
    for item in items:
        if item.path.is_relative_to(REPORT_TESTS):
            item.add_marker(pytest.mark.xdist_group("report"))
        elif "dask_scheduler" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("dask"))


@pytest.fixture(scope="session")
def dask_scheduler() -> Iterator[str]:
    """The address of a real ``LocalCluster`` of 2 worker processes, one for the session.

    Its workers import pinastats (it is installed) and load the engine once for
    every test that plays on it; a test that stops workers makes its own cluster.
    """
    distributed = pytest.importorskip("dask.distributed", reason="the Dask extra is not installed")
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    )
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


@pytest.fixture(scope="session", autouse=True)
def _warm_engine() -> None:
    """Compile every kernel group once, silently, before the first test."""
    from pinastats._warmup import warm_up

    warm_up()


@dataclass(frozen=True)
class CliResult:
    """What one in-process run of ``pinastats`` produced."""

    code: int
    out: str
    err: str

    def one_error_line(self) -> str:
        """The single ``pinastats: error:`` line of a refused command (exit 2, no output)."""
        assert self.code == 2
        assert self.out == ""
        lines = self.err.splitlines()
        assert len(lines) == 1, self.err
        assert lines[0].startswith("pinastats: error: ")
        assert "Traceback" not in self.err
        return lines[0]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., CliResult]:
    """Run ``pinastats ARGS...`` in process; argparse exits become exit codes."""
    from pinastats.cli.main import main

    def run(*argv: str) -> CliResult:
        try:
            code = main(list(argv))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return run
