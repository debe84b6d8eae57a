"""Parquet is offered with what it needs: ``--help`` and the README say pyarrow, a run without it
is refused before it starts."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_help_and_the_readme_say_that_parquet_needs_pyarrow(cli: Callable[..., Any]) -> None:
    result = cli("simulate", "--help")
    assert result.code == 0
    help_text = " ".join(result.out.split())
    assert ".parquet, which needs pyarrow: pip install pyarrow" in help_text
    readme = " ".join(README.read_text(encoding="utf-8").split())
    assert "needs pyarrow, which is not installed with pinastats (`pip install pyarrow`" in readme


def test_without_pyarrow_parquet_is_refused_before_the_run(
    cli: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    find_spec = importlib.util.find_spec

    def without(name: str, *args: Any) -> Any:
        return None if name in ("pyarrow", "fastparquet") else find_spec(name, *args)

    monkeypatch.setattr(importlib.util, "find_spec", without)
    out = tmp_path / "games.parquet"
    argv = ("--agents", "ev,ev", "--games", "10", "--out", str(out), "--no-progress")
    line = cli("simulate", *argv).one_error_line()
    assert "needs pyarrow: pip install pyarrow" in line
    assert list(tmp_path.iterdir()) == []
