"""Stored turn solutions: read back exactly as solved, never stale, never half-written."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pinastats.dice import Combination, solve_turn, stored
from pinastats.dice.stored import load_solution, save_solution
from tests.full_disk import files_under, fill_disk


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test its own cache folder: a save by a test on another worker cannot show up here."""
    folder = tmp_path / "cache"
    folder.mkdir()
    monkeypatch.setattr(stored, "cache_dir", lambda: folder)
    return folder


@pytest.mark.parametrize(("comb", "rolls", "sticky"), [
    (Combination.FULL_HOUSE, 3, False), (Combination.FULL_HOUSE, 3, True),
    (Combination.LARGE_STRAIGHT, 1, False), (Combination.FIVE_OF_A_KIND, 4, True),
])  # fmt: skip
def test_a_saved_solution_reads_back_exactly(comb: Combination, rolls: int, sticky: bool) -> None:
    solved = solve_turn(comb, rolls=rolls, sticky=sticky)
    path = save_solution(comb, solved)
    assert path is not None
    assert path.exists()
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary file left
    loaded = load_solution(comb, rolls=rolls, sticky=sticky)
    assert loaded is not None
    assert loaded.keep_numerator is not None
    assert solved.keep_numerator is not None
    assert loaded.keep_numerator.tolist() == solved.keep_numerator.tolist()
    assert loaded.keep_value.tolist() == solved.keep_value.tolist()
    assert loaded.final_value.tolist() == solved.final_value.tolist()
    assert (loaded.rolls, loaded.sticky, loaded.fraction) == (rolls, sticky, solved.fraction)
    assert not loaded.keep_value.flags.writeable


def test_each_target_rolls_and_holds_have_their_own_file() -> None:
    paths = {
        stored._path(c, r, s)
        for c in (Combination.FULL_HOUSE, Combination.SMALL_STRAIGHT)
        for r in (2, 3)
        for s in (False, True)
    }
    assert len(paths) == 8


def test_an_unreadable_file_is_solved_again(tmp_path: Path) -> None:
    comb = Combination.FOUR_OF_A_KIND
    path = stored._path(comb, 2, False)
    assert path is not None
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"half a file")
    assert load_solution(comb, rolls=2) is None
    assert save_solution(comb, solve_turn(comb, rolls=2)) == path
    assert load_solution(comb, rolls=2) is not None


def test_a_change_of_the_solver_sources_reads_nothing_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    here = Path(stored.__file__).parent
    original = stored.__file__
    paths = []
    for copy in ("same", "edited"):
        (tmp_path / copy).mkdir()
        for name in stored._SOURCES:
            shutil.copy(here / name, tmp_path / copy / name)
        monkeypatch.setattr(stored, "__file__", str(tmp_path / copy / "stored.py"))
        if copy == "edited":
            with (tmp_path / copy / "solver.py").open("a") as file:
                file.write("\n# an edit\n")
        paths.append(stored._path(Combination.FULL_HOUSE, 3, False))
    monkeypatch.setattr(stored, "__file__", original)
    assert paths[0] == stored._path(Combination.FULL_HOUSE, 3, False)  # a copy: the same key
    assert paths[1] != paths[0]


def test_without_a_writable_folder_nothing_is_stored(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stored, "cache_dir", lambda: None)
    comb = Combination.FULL_HOUSE
    assert save_solution(comb, solve_turn(comb)) is None
    assert load_solution(comb) is None


def test_a_solution_beyond_int64_is_not_stored() -> None:
    solved = solve_turn(Combination.FULL_HOUSE, rolls=20)
    assert solved.keep_numerator is not None
    assert solved.keep_numerator.dtype == np.object_
    assert save_solution(Combination.FULL_HOUSE, solved) is None


def test_optimal_hold_starts_without_numba_once_its_target_is_stored(tmp_path: Path) -> None:
    """The second run of a target reads its solution: numba is not even imported."""
    code = (
        "import contextlib, io, sys\n"
        "from pinastats.cli.main import main\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        "    code = main(['optimal-hold', '--target', 'small straight'])\n"
        "print(code, 'numba' in sys.modules, len(out.getvalue()))\n"
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}  # an empty cache: the first run
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
            for _ in range(2)]  # fmt: skip
    first, second = (r.stdout.split() for r in runs)
    assert runs[0].returncode == 0, runs[0].stderr
    assert first[:2] == ["0", "True"]  # solved: numba compiled the dice solvers
    assert second == ["0", "False", first[2]]  # read back: the same output, no numba
    assert runs[1].stderr == ""


def test_a_full_disk_keeps_nothing_and_the_target_is_solved_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    comb = Combination.FULL_HOUSE
    opened = fill_disk(monkeypatch, room=1_000)  # part of the file, then ENOSPC
    assert save_solution(comb, solve_turn(comb)) is None
    assert len(opened) == 1  # written through the one writer
    where = stored._path(comb, 3, False)
    assert where is not None
    assert files_under(where.parent) == []  # no partial file, no temporary file
    assert load_solution(comb) is None
