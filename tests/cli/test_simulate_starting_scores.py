"""``pinastats simulate --starting-scores``: other scores at setup, in the JSON and the table."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

Cli = Callable[..., Any]  # the ``cli`` fixture of tests/conftest.py


def test_starting_scores_change_the_games_and_are_reported(cli: Cli) -> None:
    args = ("simulate", "--agents", "ev,ev,ev", "--games", "400", "--seed", "3", "--workers", "1",
            "--format", "json", "--no-progress")  # fmt: skip
    rulebook = json.loads(cli(*args).out)
    ahead = cli(*args, "--starting-scores", "1,2,9")
    assert ahead.code == 0, ahead.err
    data = json.loads(ahead.out)
    assert rulebook["starting_scores"] == [1, 2, 3]
    assert data["starting_scores"] == [1, 2, 9]
    # nine points at setup: the third player wins far more often than with three
    third = [d["position_win_rate"][2]["win_rate"] for d in (rulebook, data)]
    assert third[1] > third[0] + 0.1
    table = cli("simulate", "--agents", "ev,ev", "--games", "20", "--starting-scores", "0,0",
                "--workers", "1", "--no-progress")  # fmt: skip
    assert "starting scores 0, 0, seed 0" in table.out


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("1,x", "whole numbers from 0 up, comma-separated, e.g. 1,4,5; got '1,x'"),
        ("1,-2", "got '1,-2'"),
        ("1,2,3", "--starting-scores 1,2,3: give 2, one per player"),
    ],
)
def test_bad_starting_scores_are_refused(cli: Cli, value: str, message: str) -> None:
    res = cli("simulate", "--agents", "ev,ev", "--games", "5", "--starting-scores", value)
    assert message in res.one_error_line()
