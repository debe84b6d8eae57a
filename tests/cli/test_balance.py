"""``pinastats balance``: the JSON of the search, the other modes, and refused input."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

Cli = Callable[..., Any]  # the ``cli`` fixture of tests/conftest.py
CORNER = str(Path(__file__).resolve().parents[2] / "examples" / "corner_agent.py") + ":CornerAgent"


def test_search_json_has_rulebook_fairest_and_candidates(cli: Cli) -> None:
    res = cli("balance", "--players", "2", "--agent", "greedy", "--games", "1200", "--spread",
              "2", "--seed", "1", "--workers", "1", "--format", "json", "--quiet")  # fmt: skip
    assert res.code == 0, res.err
    data = json.loads(res.out)
    assert data["rulebook"]["starting_scores"] == [1, 2]
    for rec in [data["rulebook"], data["fairest"], *data["candidates"]]:
        assert len(rec["seat_win_rates"]) == 2
        for rate, (lo, hi) in zip(
            rec["seat_win_rates"], rec["seat_win_rate_intervals"], strict=True
        ):
            assert lo <= rate <= hi
        assert rec["max_deviation"] == pytest.approx(
            max(abs(r - 0.5) for r in rec["seat_win_rates"])
        )
    assert data["games"] <= 1200
    assert res.err == ""


def test_search_table_and_progress(cli: Cli) -> None:
    res = cli("balance", "--players", "3", "--agent", "greedy", "--games", "900",
              "--spread", "1", "--workers", "1")  # fmt: skip
    assert res.code == 0, res.err
    assert "rulebook" in res.out
    assert "fairest" in res.out
    assert "round 0" in res.err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "5"], "players must be 2, 3 or 4, got 5"),
        (["--players", "2", "--agent", "stratgic"], "did you mean 'strategic'"),
        (["--players", "2", "--games", "0"], "--games: must be at least 1, got 0"),
        (["--players", "2", "--spread", "1000000"], "makes 1,000,001 starting-score vectors"),
        (["--players", "4", "--spread", "1000"], "makes 167,668,501 starting-score vectors"),
        (["--players", "2", "--games", "10000000000000000"], "of memory for the per-game table"),
        (["--players", "2", "--coasters", "--games", "10000000000000000"], "of memory for the"),
        (["--players", "2", "--what-if", "--games", "10000000000000000"], "of memory for the"),
        (["--players", "2", "--agent", "strategic(win=inf)"], "win must be a finite number"),
        (["--players", "2", "--agent", "x.py:Mine"], "agent file 'x.py' not found"),
        (
            ["--players", "2", "--coasters", "--quiet", "--agent", CORNER],
            "traced games are played in the chunk kernel",
        ),
    ],
)
def test_bad_input_is_one_error_line(cli: Cli, argv: list[str], message: str) -> None:
    assert message in cli("balance", *argv).one_error_line()


def test_coasters_and_what_if_modes(cli: Cli) -> None:
    res = cli("balance", "--players", "2", "--coasters", "--games", "300", "--format", "json")
    assert res.code == 0, res.err
    coasters = json.loads(res.out)["coasters"]
    assert len(coasters) == 25
    assert sum(c["dealt"] for c in coasters) == 300 * 16  # the standard grid deals 16 a game
    res = cli("balance", "--players", "2", "--what-if", "--games", "100", "--workers", "1")
    assert res.code == 0, res.err
    assert "target 15" in res.out
    assert "layout cross" in res.out


def test_the_search_plays_ones_own_agent(cli: Cli) -> None:
    res = cli("balance", "--players", "2", "--agent", CORNER, "--games", "40", "--spread", "1",
              "--workers", "1", "--format", "json", "--quiet")  # fmt: skip
    assert res.code == 0, res.err
    data = json.loads(res.out)
    assert data["agent"] == CORNER
    assert 0 < data["games"] <= 40


def test_what_if_with_a_fallback_names_who_played(cli: Cli) -> None:
    res = cli("balance", "--players", "2", "--what-if", "--agent", "value", "--fallback", "greedy",
              "--skill", "value:ev", "--games", "40", "--workers", "1", "--format", "json",
              "--quiet")  # fmt: skip
    assert res.code == 0, res.err
    rows = {r["variant"]: r for r in json.loads(res.out)["variants"]}
    assert rows["rulebook"]["agent"] == "value"
    assert rows["rulebook"]["agent_note"] == ""
    assert rows["rulebook"]["skill_value_vs_ev_games"] == 40
    assert rows["layout cross"]["agent"] == "greedy"
    assert "'cross' has 20 cells" in rows["layout cross"]["agent_note"]
    assert rows["layout cross"]["skill_value_vs_ev"] is None
    assert rows["layout cross"]["skill_value_vs_ev_games"] == 0
    assert "value vs ev not played" in rows["layout cross"]["skill_note"]
    table = cli(
        "balance",
        "--players",
        "2",
        "--what-if",
        "--agent",
        "value",
        "--fallback",
        "greedy",
        "--skill",
        "value:ev",
        "--games",
        "20",
        "--workers",
        "1",
        "--quiet",
    )
    assert table.code == 0, table.err
    assert "not played" in table.out
    assert "note: greedy plays: agent 'value' cannot play this game" in table.out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--what-if", "--agent", "value"], "layout cross"),  # no fallback for another layout
        (
            ["--what-if", "--skill", "strategic"],
            "STRONGER:WEAKER, e.g. strategic:ev; got 'strategic'",
        ),
        (["--what-if", "--skill", "ev:ev"], "two different agents; got 'ev' twice"),
        (["--what-if", "--skill", "ev:evv"], "'evv'; did you mean 'ev'"),
        (["--fallback", "ev"], "--fallback goes with --what-if"),
        (["--coasters", "--skill", "none"], "--skill goes with --what-if"),
    ],
)
def test_what_if_refusals(cli: Cli, argv: list[str], message: str) -> None:
    res = cli("balance", "--players", "2", "--games", "10", "--workers", "1", "--quiet", *argv)
    assert message in res.one_error_line()
