"""A survey on a Dask cluster: one task a board, the local run's values, resumable, retried."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from pinastats.game import Game, GameConfig, Rules
from pinastats.solve import SolveError
from pinastats.solve.solution import Solution
from pinastats.solve.survey import RETRIES, read_survey, survey

distributed = pytest.importorskip("dask.distributed", reason="the Dask extra is not installed")

SMALL = GameConfig(rules=Rules(tokens=3))
Cli = Callable[..., Any]  # the ``cli`` fixture of tests/conftest.py


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """A client of a local cluster of two single-thread workers in this process."""
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as cluster, distributed.Client(cluster) as c:  # fmt: skip
        yield c


def _values(frame: Any) -> list[dict[str, Any]]:
    """The rows without the solve's wall time (the one field that differs run to run)."""
    return [{k: v for k, v in row.items() if k != "seconds"} for row in frame.to_dict("records")]


def _first_player(number: int, start: Game, solution: Solution) -> dict[str, Any]:
    """A study: the board's number and the chances at its start."""
    return {"number": number, "chances": [float(c) for c in solution.chances(start)]}


@pytest.fixture(scope="module")
def local() -> Any:
    """The 4-board survey (seed 3) run here, one board after the other."""
    return survey(4, seed=3, config=SMALL, study=_first_player)


@pytest.mark.timeout(300)
def test_a_survey_on_dask_equals_the_local_run_value_for_value(local: Any, client: Any) -> None:
    on_dask = survey(4, seed=3, config=SMALL, study=_first_player, executor=client)
    assert _values(on_dask) == _values(local)
    assert [s["number"] for s in on_dask["study"]] == [0, 1, 2, 3]


@pytest.mark.timeout(300)
def test_a_survey_on_dask_resumes_a_local_log(local: Any, client: Any, tmp_path: Path) -> None:
    log = tmp_path / "boards.jsonl"
    survey(2, seed=3, config=SMALL, study=_first_player, log=log)
    seen: list[int] = []
    whole = survey(4, seed=3, config=SMALL, study=_first_player, log=log, executor=client,
                   progress=lambda done, total: seen.append(done))  # fmt: skip
    assert seen == [2, 3, 4]  # boards 0 and 1 read from the log, 2 and 3 solved on the cluster
    assert _values(whole) == _values(local)
    assert _values(read_survey(log)) == _values(local)
    assert len(log.read_text(encoding="utf-8").splitlines()) == 1 + 4  # the header, 4 boards


def _fails_once(folder: Path, number: int, start: Game, solution: Solution) -> dict[str, Any]:
    """A study whose first try on board 1 fails, as if its worker had been lost."""
    mark = folder / f"tried-{number}"
    if number == 1 and not mark.exists():
        mark.write_text("once", encoding="utf-8")
        raise OSError("worker lost")
    return _first_player(number, start, solution)


@pytest.mark.timeout(300)
def test_a_board_whose_task_fails_is_tried_again(local: Any, client: Any, tmp_path: Path) -> None:
    assert RETRIES >= 1
    study = partial(_fails_once, tmp_path)
    frame = survey(4, seed=3, config=SMALL, study=study, executor=client)
    assert (tmp_path / "tried-1").exists()  # the first try failed
    assert _values(frame) == _values(local)


@pytest.mark.timeout(300)
def test_the_command_runs_a_survey_at_a_scheduler(
    cli: Cli, local: Any, dask_scheduler: str, tmp_path: Path
) -> None:
    log = tmp_path / "boards.jsonl"
    args = ("solve", "--boards", "4", "--seed", "3", "--tokens", "3", "--json")
    plain = cli(*args)
    assert plain.code == 0, plain.err
    run = cli(*args, "--scheduler", dask_scheduler, "--log", str(log))
    assert run.code == 0, run.err
    assert f"on the Dask scheduler at {dask_scheduler}" in run.err
    got, want = json.loads(run.out), json.loads(plain.out)
    assert got["summary"] == want["summary"]
    assert [b["first_chance"] for b in got["boards"]] == [
        b["first_chance"] for b in local.to_dict("records")
    ]
    assert len(read_survey(log)) == 4


def test_the_command_refuses_cluster_options_without_boards(cli: Cli) -> None:
    line = cli("solve", "--seed", "1", "--engine", "dask").one_error_line()
    assert "--engine goes with --boards" in line
    line = cli("solve", "--boards", "2", "--scheduler", "tcp://127.0.0.1:1", "--engine",
               "local").one_error_line()  # fmt: skip
    assert "leave out --engine local" in line


@pytest.mark.timeout(600)
def test_the_yardstick_and_the_labels_on_dask_equal_the_local_run(
    client: Any, tmp_path: Path
) -> None:
    from pinastats.records.yardstick import label_board, label_file, perfect_survey

    kwargs: dict[str, Any] = {"agents": ["ev"], "games": 1, "opponents": ["greedy"],
                              "duels": 2, "reviewed": 1, "seed": 5, "config": SMALL}  # fmt: skip
    plain = perfect_survey(2, **kwargs)
    on_dask = perfect_survey(2, executor=client, **kwargs)
    assert _values(on_dask) == _values(plain)
    here, there = tmp_path / "here", tmp_path / "there"
    for folder, executor in ((here, None), (there, client)):
        labels = partial(label_board, games=2, folder=folder, seed=5)
        survey(2, seed=5, config=SMALL, study=labels, executor=executor)
    for board in (0, 1):
        assert label_file(there, board).read_bytes() == label_file(here, board).read_bytes()


class _Killed:
    """A Dask future whose workers all died while solving its board."""

    def __init__(self, key: str) -> None:
        self.key = key

    def result(self, timeout: float | None = None) -> Any:
        raise distributed.KilledWorker(self.key, "tcp://127.0.0.1:40001", 4)


class _Client:
    """What a survey asks of a Dask client, each board's workers killed until Dask gives up."""

    def __init__(self) -> None:
        self.options: list[dict[str, Any]] = []

    def scheduler_info(self) -> dict[str, Any]:
        return {"workers": {"tcp://127.0.0.1:40001": {}}}

    def submit(self, function: Callable[..., Any], *args: Any, **options: Any) -> _Killed:
        self.options.append(options)
        return _Killed(f"board-{args[1]}")


def test_a_board_whose_workers_all_die_is_one_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr("distributed.wait", lambda jobs, return_when: _Done(set(jobs[:1])))
    stand_in = _Client()
    monkeypatch.setattr("pinastats.solve.survey.is_dask_client", lambda e: e is stand_in)
    log = tmp_path / "boards.jsonl"
    with pytest.raises(SolveError, match="lost every worker that solved board 0"):
        survey(3, seed=3, config=SMALL, executor=stand_in, log=log)
    assert stand_in.options[0] == {"retries": RETRIES, "pure": False}
    assert len(log.read_text(encoding="utf-8").splitlines()) == 1  # the header only


class _Done:
    def __init__(self, done: set[Any]) -> None:
        self.done = done


def test_a_local_cluster_too_large_for_the_memory_is_refused_before_it_starts(cli: Cli) -> None:
    # the cross (20 cells, 6 tokens a player): about 2.8 GiB a board, 1,000 boards at once
    line = cli("solve", "--boards", "2", "--layout", "cross", "--engine", "dask",
               "--workers", "1000").one_error_line()  # fmt: skip
    assert "solving 1000 boards like this one at once needs about 2" in line
    assert "give fewer --workers" in line
