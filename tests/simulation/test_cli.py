"""``pinastats simulate``: the table and JSON outputs, saved tables, and every user error."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from pinastats.cli._common import split_agents
from pinastats.errors import PinastatsError
from pinastats.game.config import GameConfig
from pinastats.simulation import chunk, cluster, limits, progress, runner
from pinastats.simulation.plan import plan_run
from tests.conftest import CliResult

Cli = Callable[..., Any]  # the ``cli`` fixture of tests/conftest.py
BASE = ["--games", "300", "--seed", "7", "--chunk-size", "100", "--workers", "2"]


def simulate(cli: Cli, *argv: str) -> tuple[int, str, str]:
    result = cli("simulate", *argv)
    return result.code, result.out, result.err


def _error_line(code: int, out: str, err: str) -> str:
    return CliResult(code, out, err).one_error_line()


# ---------------------------------------------------------------- outputs


def test_json_summary_is_consistent(cli: Cli) -> None:
    code, out, err = simulate(cli, "--agents", "ev,greedy", *BASE, "--format", "json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    for key in ("games", "seed", "agents", "wins", "win_rate", "end_reasons", "games_per_second"):
        assert key in data
    assert (data["games"], data["seed"], data["agents"]) == (300, 7, ["ev", "greedy"])
    assert sum(data["wins"]) + data["draws"] == 300
    for seat, row in enumerate(data["win_rate"]):
        assert row["seat"] == seat
        assert row["wins"] == data["wins"][seat]
        assert row["win_rate"] == pytest.approx(data["wins"][seat] / 300)
        assert row["ci_low"] < row["win_rate"] < row["ci_high"]
    assert sum(data["end_reasons"].values()) == pytest.approx(1.0)
    assert sum(data["end_reason_games"].values()) == 300
    assert sum(r["wins"] for r in data["position_win_rate"]) + data["draws"] == 300
    assert data["games_per_second"] > 0
    assert data["rounds"]["min"] <= data["rounds"]["median"] <= data["rounds"]["max"]
    assert data["first_seat"] is None
    assert data["out"] is None


def test_json_matches_the_table(cli: Cli) -> None:
    argv = ["--agents", "random,ev,random", *BASE]
    _, out, _ = simulate(cli, *argv, "--format", "json")
    data = json.loads(out)
    code, table, err = simulate(cli, *argv)
    assert (code, err) == (0, "")
    assert table.startswith("300 games, 3 players: random vs ev vs random")
    seat_rows = table.split("Win rate by seat\n")[1].split("\n\n")[0].splitlines()[2:]
    assert [int(r.split()[2].replace(",", "")) for r in seat_rows] == data["wins"]
    # random sits in two seats: a table per agent appears, with its wins over both
    agent_rows = table.split("Win rate by agent")[1].split("\n\n")[0].splitlines()[3:]
    random_row = next(r for r in agent_rows if r.split()[0] == "random")
    assert int(random_row.split()[2]) == data["wins"][0] + data["wins"][2]
    for words in (
        "Win rate by position",
        "first player",
        "How games ended",
        "Game length in rounds",
        "games/s",
    ):
        assert words in table


def test_players_default_to_the_agents_and_options_reach_the_rules(cli: Cli) -> None:
    code, out, err = simulate(
        cli,
        "--agents",
        "strategic(line=4,block=2),ev",
        *BASE,
        "--happy-hour",
        "--negative-scores",
        "--first-seat",
        "1",
        "--layout",
        "standard",
        "--format",
        "json",
    )
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data["players"] == 2
    assert data["agents"] == ["strategic(line=4,block=2)", "ev"]
    assert data["happy_hour"]
    assert data["negative_scores"]
    assert data["first_seat"] == 1
    assert data["position_win_rate"][0]["wins"] == data["wins"][1]


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_out_writes_a_readable_table(cli: Cli, tmp_path: Path, suffix: str) -> None:
    path = tmp_path / "new" / "dir" / f"games{suffix}"
    code, out, err = simulate(cli, "--agents", "ev,random", *BASE, "--out", str(path))
    assert (code, err) == (0, "")
    assert f"Saved one row per game to {path}" in out
    games = pd.read_parquet(path) if suffix == ".parquet" else pd.read_csv(path)
    assert len(games) == 300
    assert set(games["agent_0"]) == {"ev"}
    assert list(tmp_path.joinpath("new", "dir").iterdir()) == [path]  # no temporary file left


def test_progress_bar_goes_to_stderr_and_keeps_json_clean(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, out, err = simulate(cli, "--agents", "random,random", *BASE, "--format", "json")
    assert code == 0
    assert json.loads(out)["games"] == 300
    assert "300/300 games" in err
    code, out, err = simulate(cli, "--agents", "random,random", *BASE, "--no-progress")
    assert (code, err) == (0, "")


def test_console_script_in_a_pipe(tmp_path: Path) -> None:
    """As users run it: stderr is not a terminal, so no progress bar; stdout is pure JSON."""
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pinastats.cli.main",
            "simulate",
            "--agents",
            "greedy,random",
            "--games",
            "200",
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert (proc.returncode, proc.stderr) == (0, "")
    assert json.loads(proc.stdout)["games"] == 200


def test_split_agents_respects_parentheses() -> None:
    assert split_agents("ev,strategic(line=4,block=2),greedy") == [
        "ev",
        "strategic(line=4,block=2)",
        "greedy",
    ]
    assert split_agents(" ev , random ") == ["ev", "random"]


# ---------------------------------------------------------------- errors


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--agents", "ev,genius"], "unknown agent 'genius'"),
        (["--agents", "ev,greedy", "--players", "3"], "2 agent(s) given for 3 players"),
        (["--agents", "ev,greedy,ev,ev,ev"], "players must be 2, 3 or 4"),
        (["--agents", "ev,ev", "--players", "5"], "players must be 2, 3 or 4, got 5 (--players)"),
        (["--agents", "ev,ev", "--out", "x.csv", "--record", "./x.csv"], "both name ./x.csv"),
        (["--agents", "ev,greedy", "--games", "0"], "--games: must be at least 1"),
        (["--agents", "ev,greedy", "--games", "-5"], "--games: must be at least 1"),
        (["--agents", "ev,greedy", "--games", "many"], "--games: expected a whole number"),
        (["--agents", "ev,greedy", "--seed", "-1"], "--seed: must be at least 0"),
        (["--agents", "ev,greedy", "--out", "games.xlsx"], "must end in .parquet or .csv"),
        (["--agents", "ev,greedy", "--layout", "hexagon"], "unknown layout 'hexagon'"),
        (["--agents", "ev,greedy", "--layout", "missing.json"], "--layout missing.json"),
        (["--agents", "ev,greedy", "--coasters", "missing.csv"], "--coasters missing.csv"),
        (
            ["--agents", "ev,greedy", "--first-seat", "2"],
            "--first-seat must be a seat from 0 to 1, got 2",
        ),
        (["--agents", "strategic(line=4,block=2"], "a '(' without its ')'"),
        (["--agents", "ev,,greedy"], "an empty agent name"),
        (["--agents", "ev(line=2),greedy"], "takes no parameters"),
        (["--agents", "strategic(speed=2),ev"], "unknown parameter 'speed'"),
        (["--agents", "ev,greedy", "--negative-scores"], "use it with --happy-hour"),
        (["--agents", "ev,greedy", "--engine", "gpu"], "invalid choice: 'gpu'"),
        (
            ["--agents", "ev,greedy", "--engine", "local", "--scheduler", "tcp://h:1"],
            "leave out --engine local",
        ),
        (["--agents", "ev,greedy", "--scheduler", "nonsense"], "nonsense"),
        (["--games", "10"], "the following arguments are required: --agents"),
    ],
)
def test_user_errors_are_one_line(cli: Cli, argv: list[str], message: str) -> None:
    if "--games" not in argv:
        argv = [*argv, "--games", "10"]
    line = _error_line(*simulate(cli, *argv))
    assert message in line


def test_unknown_agent_lists_the_valid_ones(cli: Cli) -> None:
    line = _error_line(*simulate(cli, "--agents", "ev,genius", "--games", "10"))
    for name in ("random", "greedy", "ev", "strategic"):
        assert name in line.split("agents:")[1]


def test_bad_layout_and_catalogue_files_name_the_file(cli: Cli, tmp_path: Path) -> None:
    layout = tmp_path / "layout.json"
    layout.write_text("{not json", encoding="utf-8")
    line = _error_line(*simulate(cli, "--agents", "ev,ev", "--games", "5", "--layout", str(layout)))
    assert str(layout) in line
    coasters = tmp_path / "coasters.csv"
    coasters.write_text("id,points\nx,1\n", encoding="utf-8")
    line = _error_line(
        *simulate(cli, "--agents", "ev,ev", "--games", "5", "--coasters", str(coasters))
    )
    assert str(coasters) in line


def test_out_into_a_file_used_as_directory_fails_before_playing(cli: Cli, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    line = _error_line(
        *simulate(cli, "--agents", "ev,ev", "--games", "5", "--out", str(blocker / "games.csv"))
    )
    assert str(blocker) in line


def test_unreachable_scheduler_fails_fast(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1.0)
    address = f"tcp://127.0.0.1:{free_port()}"
    line = _error_line(*simulate(cli, "--agents", "ev,ev", "--games", "5", "--scheduler", address))
    assert f"cannot reach the Dask scheduler at '{address}'" in line


def test_errors_before_playing_create_no_output_folder(cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "new" / "games.csv"
    for bad in (["--layout", "hexagon"], ["--first-seat", "5"], ["--players", "3"]):
        _error_line(*simulate(cli, "--agents", "ev,ev", "--games", "5", "--out", str(out), *bad))
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- progress, limits, interrupts


def test_off_a_terminal_progress_is_a_line_now_and_then(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(progress, "LINE_EVERY", 0.0)  # a line per chunk instead of every 5 s
    code, _, err = simulate(cli, "--agents", "random,random", *BASE)
    assert code == 0
    lines = err.splitlines()
    assert [line.split(" games,")[0] for line in lines] == [
        "pinastats: 100/300",
        "pinastats: 200/300",
        "pinastats: 300/300",
    ]
    assert all("elapsed, ETA " in line for line in lines)
    assert lines[-1].endswith("ETA 0:00")
    code, _out, err = simulate(cli, "--agents", "random,random", *BASE, "--quiet")
    assert (code, err) == (0, "")


def test_progress_every_sets_the_time_between_lines(cli: Cli) -> None:
    code, _, err = simulate(cli, "--agents", "random,random", *BASE, "--progress-every", "1e-9")
    assert code == 0
    assert [line.split(" games,")[0] for line in err.splitlines()] == [
        "pinastats: 100/300",
        "pinastats: 200/300",
        "pinastats: 300/300",
    ]
    for bad in ("0", "-1", "soon"):
        refused = cli("simulate", "--agents", "random,random", *BASE, "--progress-every", bad)
        assert bad in refused.one_error_line()
        assert "seconds" in refused.one_error_line()


@pytest.mark.parametrize("bad", [0, -2.0, float("inf"), True, "5"])
def test_simulate_refuses_a_bad_progress_interval(bad: object) -> None:
    from pinastats.errors import PinastatsError
    from pinastats.simulation import simulate as run

    with pytest.raises(PinastatsError, match=r"progress_every must be a number of seconds > 0"):
        run(["random", "random"], 10, progress_every=bad)  # type: ignore[arg-type]


def test_quiet_silences_the_bar_on_a_terminal(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, _out, err = simulate(cli, "--agents", "random,random", *BASE, "-q")
    assert (code, err) == (0, "")


def test_ctrl_c_ends_the_bar_line_and_says_how_far_it_got(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    chunks: list[int] = []
    play = chunk.run_chunk

    def stop_at_third(spec: Any) -> Any:
        chunks.append(spec.index)
        if spec.index == 2:
            raise KeyboardInterrupt
        return play(spec)

    monkeypatch.setattr(runner, "run_chunk", stop_at_third)
    argv = ["--games", "300", "--chunk-size", "100", "--workers", "1"]
    code, out, err = simulate(cli, "--agents", "random,random", *argv)
    assert (code, out) == (130, "")
    assert chunks == [0, 1, 2]
    assert err.endswith("\npinastats: interrupted after 200 of 300 games\n")
    assert "\r[####################" in err  # the bar had been drawn at 200/300


def test_a_run_too_large_for_memory_is_refused_before_playing(cli: Cli) -> None:
    line = _error_line(*simulate(cli, "--agents", "ev,ev", "--games", "10000000000000"))
    assert "10,000,000,000,000 games need about" in line
    assert "bytes a game" in line
    assert "available: play at most" in line


def test_memory_check_allows_up_to_its_share_of_the_memory() -> None:
    config = GameConfig(players=2)
    per_game = limits.table_bytes(1, config)
    assert limits.table_bytes(1_000, config) == 1_000 * per_game
    limits.check_memory(1_000, config, available=2 * 1_000 * per_game)  # 50%: fine
    with pytest.raises(PinastatsError, match=r"play at most 800 games"):
        limits.check_memory(1_000, config, available=1_000 * per_game)  # 100%: over 80%


def test_chunks_are_planned_lazily_with_the_children_of_one_spawn() -> None:
    specs = plan_run(["random", "ev"], 1_050, seed=42, chunk_size=250).chunks()
    first = next(specs)  # a generator: nothing planned beyond what is asked for
    rest = list(specs)
    children = np.random.SeedSequence(42).spawn(5)
    assert [s.index for s in [first, *rest]] == [0, 1, 2, 3, 4]
    assert [s.games for s in [first, *rest]] == [250, 250, 250, 250, 50]
    for spec, child in zip([first, *rest], children, strict=True):
        assert spec.seed.spawn_key == child.spawn_key
        assert (spec.seed.generate_state(4) == child.generate_state(4)).all()


def test_worker_timeout_needs_the_dask_engine(cli: Cli) -> None:
    line = _error_line(
        *simulate(cli, "--agents", "ev,ev", "--games", "10", "--worker-timeout", "5")
    )
    assert "--worker-timeout is for the Dask engine" in line
