"""``pinastats warm-up`` and the notice of commands that find the engine's cache cold."""

from __future__ import annotations

import dataclasses
import importlib
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from numba.core.dispatcher import Dispatcher

from pinastats._cache import cache_dir
from pinastats._warmup import GROUPS, cold_groups, ensure_warm
from pinastats.errors import PinastatsError

Cli = Callable[..., Any]  # the ``cli`` fixture of tests/conftest.py
DEFAULT = [name for name, group in GROUPS.items() if group.default]


def pinastats(*argv: str, cache: Path) -> subprocess.CompletedProcess[str]:
    """Run the console entry point with its numba cache in the (new) folder ``cache``."""
    env = os.environ | {"NUMBA_CACHE_DIR": str(cache)}
    return subprocess.run(
        [sys.executable, "-m", "pinastats.cli.main", *argv],
        capture_output=True, text=True, env=env, timeout=900, check=False,
    )  # fmt: skip


def test_warm_up_compiles_then_reports_time_and_folder(cli: Cli) -> None:
    result = cli("warm-up")
    assert result.code == 0, result.err
    assert cold_groups() == []  # every group's kernels are now in the cache folder
    folder = cache_dir()
    assert folder is not None
    assert result.out.startswith(f"engine ready: {len(DEFAULT)} kernel groups ")
    assert result.out.rstrip().endswith(f"cache: {folder}")
    lines = result.err.splitlines()[1:]  # off a terminal: a line as each group starts and ends
    steps = [f"[{i}/{len(DEFAULT)}" for i in range(1, len(DEFAULT) + 1) for _ in range(2)]
    assert [line.split("]")[0].strip() for line in lines] == steps
    assert [line.endswith(" s") and "done in" in line for line in lines] == [False, True] * len(
        DEFAULT
    )


def test_the_rollout_game_loop_is_warmed_on_request_only(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pinastats import _warmup

    assert "rollout" not in DEFAULT  # it compiles when a rollout agent first plays
    compiled: list[str] = []
    rollout = dataclasses.replace(
        GROUPS["rollout"], kernels=(), compile=lambda: compiled.append("rollout")
    )  # its compile is timed in benchmarks/bench_compile.py, and run by the chunk tests
    monkeypatch.setitem(_warmup.GROUPS, "rollout", rollout)
    assert cli("warm-up", "--quiet").code == 0
    assert compiled == []
    result = cli("warm-up", "--all", "--quiet")
    assert result.code == 0, result.err
    assert result.out.startswith(f"engine ready: {len(GROUPS)} kernel groups ")
    assert compiled == ["rollout"]


def test_a_warm_cache_says_nothing(cli: Cli, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli("warm-up", "--quiet").code == 0
    assert ensure_warm(DEFAULT) is None
    assert capsys.readouterr().err == ""


def test_unknown_group_names_the_choices() -> None:
    choices = "dice, agents, rules, turn, games, rollout, coach"
    with pytest.raises(PinastatsError, match=rf"'dices'.*{choices}"):
        cold_groups(["dices"])


def test_each_group_names_kernels_of_the_package() -> None:
    for group in GROUPS.values():
        assert group.kernels, group.name
        for path in group.kernels:
            module, _, name = f"pinastats.{path}".rpartition(".")
            assert isinstance(getattr(importlib.import_module(module), name), Dispatcher), path


@pytest.mark.slow
@pytest.mark.timeout(900)  # compiles from an empty cache
def test_a_cold_cache_is_announced_once(tmp_path: Path) -> None:
    cache = tmp_path / "numba-cache"
    check = [
        sys.executable,
        "-c",
        "from pinastats._warmup import cold_groups; print(cold_groups())",
    ]
    env = os.environ | {"NUMBA_CACHE_DIR": str(cache)}
    listed = subprocess.run(check, capture_output=True, text=True, env=env, check=True)
    # an empty folder: all cold
    assert listed.stdout.strip() == "['dice', 'agents', 'rules', 'turn', 'games', 'coach', 'value']"
    first = pinastats("optimal-hold", "--target", "full house", cache=cache)
    assert first.returncode == 0, first.stderr
    lines = first.stderr.splitlines()
    assert lines[0].startswith("pinastats: compiling the engine, first run only")
    assert "[1/1] compiling the dice solvers: done in" in first.stderr
    again = pinastats("optimal-hold", "--target", "full house", cache=cache)
    assert (again.returncode, again.stderr) == (0, "")
    assert again.stdout == first.stdout


@pytest.mark.slow
@pytest.mark.timeout(900)  # compiles from an empty cache
def test_a_second_lane_compiles_beside_this_process(tmp_path: Path) -> None:
    # the dice solvers (the cheapest group) in the second process; beside them, here,
    # a group of no kernels that waits a moment
    script = (
        "import dataclasses, sys, time\n"
        "from pinastats import _warmup as w\n"
        "w.GROUPS['dice'] = dataclasses.replace(w.GROUPS['dice'], lane=1)\n"
        "w.GROUPS['idle'] = w.KernelGroup('idle', 'nothing', lambda: time.sleep(0.2), (), 0)\n"
        "w.warm_up(['dice', 'idle'], stream=sys.stderr, lanes=2)\n"
        "print(w.cold_groups(['dice']))\n"
    )
    env = os.environ | {"NUMBA_CACHE_DIR": str(tmp_path / "numba-cache")}
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True
    )
    assert run.stdout.strip() == "[]"  # compiled and cached by the second process
    lines = [line.strip() for line in run.stderr.splitlines()]
    assert lines[0] == "[1/2] compiling the dice solvers… (alongside)"
    assert lines[1] == "[2/2] compiling nothing…"
    assert lines[2].startswith("[2/2] compiling nothing: done in")
    assert lines[3].startswith("[1/2] compiling the dice solvers: done in")
    assert len(lines) == 4


def test_the_notice_says_how_long_the_longer_lane_takes(monkeypatch: pytest.MonkeyPatch) -> None:
    from pinastats import _warmup

    assert _warmup._about(["dice"]) == "under a minute on free cores, longer on a busy machine"
    names = DEFAULT  # what a first run of every command compiles
    lanes = [sum(GROUPS[n].seconds for n in names if GROUPS[n].lane == k) for k in (0, 1)]
    total = sum(lanes)
    assert max(lanes) < total  # two lanes compile side by side
    monkeypatch.setattr(_warmup, "_lanes", lambda: 2)
    two = _warmup._about(names)
    monkeypatch.setattr(_warmup, "_lanes", lambda: 1)
    one = _warmup._about(names)
    assert (two, one) == (
        _warmup._about_minutes(max(lanes) / 60),
        _warmup._about_minutes(total / 60),
    )
    assert two != one
