"""``pinastats ladder`` on cheap agents: its outputs, its saved file, its refusals."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import CliResult

Cli = Callable[..., CliResult]
BASE = ("ladder", "--agents", "random,greedy,ev", "--games", "20", "--seed", "4", "-q")


def test_table(cli: Cli) -> None:
    done = cli(*BASE)
    assert done.code == 0
    assert done.err == ""
    lines = done.out.splitlines()
    assert lines[0].startswith("Strength ladder: Bradley-Terry on the Elo scale (random = 0)")
    assert "60 games, seed 4" in lines[0]
    rows = [line.split() for line in lines[4:7]]
    assert [r[1] for r in rows if r[1] == "random"] == ["random"]
    assert sum(1 for line in lines if line.strip().startswith(("random", "greedy"))) >= 3
    assert lines[-1].startswith("One scale? deviance ")
    assert "on 1 degrees of freedom (p" in lines[-1]  # 3 pairs, 2 free strengths


def test_json_csv_and_workers_agree(cli: Cli, tmp_path: Path) -> None:
    saved = tmp_path / "ladder.json"
    one = json.loads(cli(*BASE, "--format", "json", "--out", str(saved)).out)
    two = json.loads(cli(*BASE, "--format", "json", "--workers", "2").out)
    assert json.loads(saved.read_text()) == one
    assert one["ratings"] == two["ratings"]
    assert [p | {"seconds": 0} for p in one["pairs"]] == [p | {"seconds": 0} for p in two["pairs"]]
    assert one["schema"] == "pinastats-ladder/1"
    assert one["seed"] == 4
    assert one["games"] == 60
    assert one["config"] == {"players": 2, "starting_scores": [1, 2], "happy_hour": False}
    assert one["model"]["anchor"] == "random"
    assert one["model"]["prior"] == 0
    assert {r["agent"] for r in one["ratings"]} == {"random", "greedy", "ev"}
    for r in one["ratings"]:
        assert r["elo_low"] <= r["elo"] <= r["elo_high"]
        assert r["games"] == 40
    assert len(one["load_average"]["start"]) == 3
    csv = cli(*BASE, "--format", "csv").out.splitlines()
    assert csv[0] == "rank,agent,elo,elo_low,elo_high,strength,se,games,wins,score"
    assert len(csv) == 4
    # re-rating the saved games: another anchor moves the ratings, not their gaps
    mean = json.loads(
        cli("ladder", "--from", str(saved), "--anchor", "mean", "--format", "json").out
    )
    assert mean["pairs"] == one["pairs"]
    gap = {r["agent"]: r["elo"] for r in one["ratings"]}
    gap_mean = {r["agent"]: r["elo"] for r in mean["ratings"]}
    assert gap["ev"] - gap["greedy"] == pytest.approx(gap_mean["ev"] - gap_mean["greedy"], abs=1e-4)
    assert sum(gap_mean.values()) == pytest.approx(0, abs=1e-3)


def test_schedule_option(cli: Cli) -> None:
    done = cli(*BASE, "--format", "json", "--games-for", "ev=6", "--games-for", "random:ev=0",
               "--prior", "1")  # fmt: skip
    pairs = {(p["a"], p["b"]): p["games"] for p in json.loads(done.out)["pairs"]}
    assert pairs == {("random", "greedy"): 20, ("greedy", "ev"): 6}


def test_unrateable_games_are_saved_then_re_rated_with_a_prior(cli: Cli, tmp_path: Path) -> None:
    saved = tmp_path / "ladder.json"
    args = ("ladder", "--agents", "random,strategic", "--games", "4", "--seed", "2", "-q")
    error = cli(*args, "--out", str(saved)).one_error_line()
    assert "'random' never won" in error
    assert f"--from {saved} --prior 1" in error
    kept = json.loads(saved.read_text())
    assert kept["pairs"][0]["b_wins"] == 4
    assert "ratings" not in kept
    assert "error" in kept
    done = cli("ladder", "--from", str(saved), "--prior", "1", "--format", "json")
    assert done.code == 0
    assert json.loads(done.out)["model"]["prior"] == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--agents", "ev", "--games", "5"), "at least 2 agents"),
        (("--agents", "ev,greedy,ev", "--games", "5"), "named twice: ev"),
        (("--agents", "ev,grredy", "--games", "5"), "did you mean 'greedy'"),
        (("--agents", "ev,greedy", "--games", "0"), "--games: must be at least 1"),
        (("--agents", "ev,greedy"), "--agents and --games say what to play"),
        (("--agents", "ev,greedy", "--games", "5", "--games-for", "ev"), "expected AGENT=N"),
        (("--agents", "ev,greedy", "--games", "5", "--games-for", "ev=x"), "whole number >= 0"),
        (("--agents", "ev,greedy", "--games", "5", "--games-for", "ev=-2"), "whole number >= 0"),
        (("--agents", "ev,greedy", "--games", "5", "--games-for", "coach=2"), "entry 'coach'"),
        (("--agents", "ev,greedy", "--games", "5", "--games-for", "ev=0"), "no games to ev"),
        (("--agents", "ev,greedy", "--games", "5", "--anchor", "coach"), "--anchor 'coach'"),
        (("--agents", "ev,greedy", "--games", "5", "--prior", "-1"), "--prior: must be"),
        (("--agents", "ev,mcts0", "--games", "5"), "simulations must be at least 1"),
        (("--from", "no-such-file.json"), "no-such-file.json"),
        (("--from", "pyproject.toml"), "not a saved ladder"),
        (("--from", "x.json", "--agents", "ev,greedy"), "leave out --agents"),
    ],
)
def test_refusals(cli: Cli, args: tuple[str, ...], message: str) -> None:
    assert message in cli("ladder", *args).one_error_line()


def test_mcts_without_openspiel(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pinastats.integrations.openspiel_bots", None)
    error = cli("ladder", "--agents", "ev,mcts100", "--games", "2").one_error_line()
    assert "pip install 'pinastats[openspiel]'" in error
    assert "'mcts100'" in error


def test_help(cli: Cli) -> None:
    done = cli("ladder", "--help")
    assert done.code == 0
    assert "95% intervals" in done.out
    assert "%%" not in done.out
    assert "pinastats[openspiel]" in done.out
