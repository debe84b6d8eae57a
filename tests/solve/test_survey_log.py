"""A survey's log: recognisably one, read line by line with one clear error, bounded surveys."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pinastats.errors import PinastatsError
from pinastats.game import GameConfig, Rules
from pinastats.solve import SolveError
from pinastats.solve.survey import (
    LOG_FORMAT,
    MAX_BOARDS,
    board_seed,
    board_seeds,
    read_survey,
    survey,
)

SMALL = GameConfig(rules=Rules(tokens=3))
SHIPPED = Path(__file__).resolve().parents[2] / "studies" / "perfect"

Cli = Callable[..., Any]  # the ``cli`` fixture of tests/conftest.py


@pytest.fixture(scope="module")
def logged(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The bytes of a two-board survey's log (seed 4)."""
    log = tmp_path_factory.mktemp("survey") / "boards.jsonl"
    survey(2, seed=4, config=SMALL, log=log)
    return log.read_bytes()


def _with_line(tmp_path: Path, logged: bytes, line: bytes, at: int = 2) -> Path:
    """The log with ``line`` put in as line ``at`` (1-based), newline included."""
    lines = logged.splitlines(keepends=True)
    lines.insert(at - 1, line + b"\n")
    path = tmp_path / "boards.jsonl"
    path.write_bytes(b"".join(lines))
    return path


def _row(logged: bytes, **changes: object) -> bytes:
    """The first board's line with ``changes``."""
    row = json.loads(logged.splitlines()[1])
    row.update(changes)
    return json.dumps(row).encode()


def test_a_new_log_starts_with_its_header_and_a_board_a_line(logged: bytes) -> None:
    header, *rows = [json.loads(line) for line in logged.splitlines()]
    assert header["format"] == LOG_FORMAT
    assert header["version"] == 1
    assert header["seed"] == 4
    assert [r["board"] for r in rows] == [0, 1]
    assert [r["seed"] for r in rows] == board_seeds(4, 2)


@pytest.mark.parametrize(
    ("line", "what"),
    [
        (b"\x00\xff\xfe binary \x81", "line 2: not text"),
        (b"{not json", "line 2: not JSON"),
        (b"[1, 2, 3]", "line 2: a board's row is a JSON object"),
    ],
)
def test_a_line_that_is_no_row_is_one_error_naming_the_file_and_line(
    tmp_path: Path, logged: bytes, line: bytes, what: str
) -> None:
    path = _with_line(tmp_path, logged, line)
    with pytest.raises(SolveError, match=what) as caught:
        read_survey(path)
    assert str(path) in str(caught.value)
    with pytest.raises(SolveError, match=what):
        survey(3, seed=4, config=SMALL, log=path)


@pytest.mark.parametrize(
    ("changes", "what"),
    [
        ({"first_chance": float("nan")}, "first_chance must be a number from 0 to 1, got nan"),
        ({"first_chance": "0.51"}, "first_chance must be a number from 0 to 1, got '0.51'"),
        ({"first_chance": 7.0}, "first_chance must be a number from 0 to 1, got 7.0"),
        ({"board": "0"}, "board must be a whole number"),
        ({"board": True}, "board must be a whole number"),
        ({"seed": -1}, "seed must be a whole number"),
        ({"openings": [0.5, None]}, "openings must be a list of numbers"),
        ({"coasters": "Evens"}, "coasters must be a list of names"),
        ({"extra": 1}, "unknown field 'extra'"),
    ],
)
def test_a_row_of_the_wrong_kind_is_refused_with_its_line(
    tmp_path: Path, logged: bytes, changes: dict[str, object], what: str
) -> None:
    path = _with_line(tmp_path, logged, _row(logged, **changes), at=3)
    with pytest.raises(SolveError, match=f"line 3: {what}"):
        survey(2, seed=4, config=SMALL, log=path)


def test_the_command_says_it_in_one_line(cli: Cli, tmp_path: Path, logged: bytes) -> None:
    path = _with_line(tmp_path, logged, _row(logged, first_chance=float("nan")), at=3)
    err = cli("solve", "--boards", "2", "--seed", "4", "--tokens", "3", "--log", str(path))
    line = err.one_error_line()
    assert str(path) in line
    assert "line 3" in line
    assert "first_chance" in line


def test_a_file_that_is_not_a_survey_log_is_refused_and_left_alone(
    tmp_path: Path, cli: Cli
) -> None:
    records = tmp_path / "games.jsonl"
    records.write_text('{"game": 0, "turns": [], "winner": 1}\n', encoding="utf-8")
    before = records.read_bytes()
    with pytest.raises(SolveError, match="is not a survey log"):
        survey(1, seed=0, config=SMALL, log=records)
    line = cli("solve", "--boards", "1", "--tokens", "3", "--log", str(records)).one_error_line()
    assert "is not a survey log" in line
    notes = tmp_path / "notes.txt"
    notes.write_bytes(b"a single line with no newline")
    with pytest.raises(SolveError, match="is not a survey log"):
        survey(1, seed=0, config=SMALL, log=notes)
    for special in (tmp_path, Path("/dev/zero")):
        with pytest.raises(SolveError, match="is not a regular file"):
            survey(1, seed=0, config=SMALL, log=special)
    assert records.read_bytes() == before
    assert notes.read_bytes() == b"a single line with no newline"


def test_a_log_of_another_version_or_game_is_refused(tmp_path: Path, logged: bytes) -> None:
    header = json.loads(logged.splitlines()[0])
    newer = tmp_path / "newer.jsonl"
    newer.write_text(json.dumps({**header, "version": 2}) + "\n", encoding="utf-8")
    with pytest.raises(SolveError, match="version 2; this pinastats reads version 1"):
        read_survey(newer)
    other = tmp_path / "other.jsonl"
    other.write_bytes(logged)
    with pytest.raises(SolveError, match="holds another survey"):
        survey(2, seed=4, config=GameConfig(rules=Rules(tokens=2)), log=other)


def test_a_resumed_log_stays_whole_after_a_line_cut_short(tmp_path: Path, logged: bytes) -> None:
    path = tmp_path / "boards.jsonl"
    path.write_bytes(logged + b'{"board": 2, "seed": ')  # a stop in the middle of a line
    seen: list[int] = []
    survey(3, seed=4, config=SMALL, log=path, progress=lambda d, t: seen.append(d))
    assert seen == [2, 3]  # the two boards logged, then the one solved
    assert read_survey(path)["board"].tolist() == [0, 1, 2]
    assert path.read_bytes().startswith(logged)
    assert path.read_bytes().endswith(b"}\n")
    seen.clear()
    survey(3, seed=4, config=SMALL, log=path, progress=lambda d, t: seen.append(d))
    assert seen == [3]  # nothing solved again


def test_the_shipped_logs_have_no_header_and_read_as_version_1() -> None:
    logs = sorted(SHIPPED.glob("*.jsonl"))
    assert logs
    for log in logs:
        assert LOG_FORMAT not in log.read_text(encoding="utf-8").splitlines()[0]
        frame = read_survey(log)
        assert frame["board"].tolist() == list(range(len(frame)))
        assert frame["first_chance"].between(0, 1).all()


def test_each_board_seed_is_made_alone() -> None:
    children = np.random.SeedSequence(11).spawn(5)
    spawned = [int(c.generate_state(1, dtype=np.uint64)[0]) for c in children]
    assert [board_seed(11, k) for k in range(5)] == spawned


@pytest.mark.timeout(60)
def test_a_survey_too_large_is_refused_before_any_work(cli: Cli, tmp_path: Path) -> None:
    log = tmp_path / "boards.jsonl"
    with pytest.raises(PinastatsError, match=f"from 1 to {MAX_BOARDS:,}"):
        survey(10**12, config=SMALL, log=log)
    assert not log.exists()
    line = cli("solve", "--boards", "1000000000000", "--tokens", "3").one_error_line()
    assert "1000000000000" in line
    assert f"{MAX_BOARDS:,}" in line


MEMORY_CHECK = textwrap.dedent(
    """
    import resource, sys
    from pinastats.game import Game, GameConfig, load_layout
    from pinastats.solve import SolvedBoard
    from pinastats.solve.solver import check_memory
    from pinastats.errors import PinastatsError

    board = SolvedBoard.of(Game.new(config=GameConfig(players=2, layout=load_layout("cross")),
                                    seed=0))
    with open("/proc/self/statm") as f:
        mapped = int(f.read().split()[0]) * resource.getpagesize()
    resource.setrlimit(resource.RLIMIT_AS, (mapped + 2**30, resource.RLIM_INFINITY))
    try:
        check_memory(board)
    except PinastatsError as exc:
        print(exc)
        sys.exit(0)
    print("passed")
    """
)


@pytest.mark.timeout(120)
def test_the_memory_check_counts_the_limit_of_the_process() -> None:
    # the cross (20 cells, 6 tokens a player): 123 million boards, about 2.8 GiB
    run = subprocess.run(
        [sys.executable, "-c", MEMORY_CHECK], capture_output=True, text=True, timeout=100
    )
    assert run.returncode == 0, run.stderr
    out = run.stdout.strip()
    assert "needs about 2.8 GiB" in out, out
    assert "123,479,901 boards of 20 cells" in out
    assert "GiB is free to this process" in out
    free = float(out.split("but ")[1].split(" GiB")[0])
    assert free <= 1.0
