"""Shared test configuration.

* ``cli`` runs the command line in process and returns its exit code and output.
* The engine's kernels are compiled (or loaded from the cache) once, at the start
  of the session, so that no command under test prints the first-run notice.
* Hypothesis runs without deadlines: the first call of a numba kernel loads its
  cache, which would make a timing-based failure depend on the machine.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from hypothesis import settings

# In CI the examples are fixed (derandomize), so a red run can be replayed.
settings.register_profile(
    "pinastats", deadline=None, print_blob=True, derandomize=bool(os.environ.get("CI"))
)
settings.load_profile("pinastats")


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
