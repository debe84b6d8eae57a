"""The ``pinastats`` console script: ``run`` exits with the command's status."""

from __future__ import annotations

import gc
import tomllib
from pathlib import Path

import pytest

from pinastats.cli import main as cli_main

ROOT = Path(__file__).resolve().parents[2]


def test_the_console_script_is_run() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {"pinastats": "pinastats.cli.main:run"}


@pytest.mark.parametrize("status", [0, 2])
def test_run_exits_with_the_status_after_freezing_the_collector(
    monkeypatch: pytest.MonkeyPatch, status: int
) -> None:
    calls: list[str] = []

    def fake_main() -> int:
        calls.append("main")
        return status

    monkeypatch.setattr(cli_main, "main", fake_main)
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    with pytest.raises(SystemExit) as exit_info:
        cli_main.run()
    assert exit_info.value.code == status
    assert calls == ["main", "freeze"]
