"""``pinastats cache``: the kept tables listed with their sizes and boards, cleared all or one."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from pinastats import _cache, _tables
from pinastats.solve import SolvedBoard, solve
from tests.conftest import CliResult
from tests.solve.test_kept_tables import _distinct_games, use_folder

Cli = Callable[..., CliResult]


@pytest.fixture
def root(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """An empty cache folder, named by ``PINASTATS_CACHE`` (and no solution at hand)."""
    use_folder(monkeypatch, tmp_path / "cache")
    return tmp_path / "cache"


def test_an_empty_folder_is_listed_as_such(root: Path, cli: Cli) -> None:
    result = cli("cache")
    assert result.code == 0, result.err
    assert f"Cache folder: {root} (empty: nothing kept yet)" in result.out
    assert "Solved tables: 0, 0.0 KiB of a cap of 1.0 GiB" in result.out
    data = json.loads(cli("cache", "--json").out)
    assert data["tables"] == []
    assert data["cap_bytes"] == _tables.DEFAULT_CAP == 1 << 30


def test_kept_tables_are_listed_with_their_boards_and_sizes(root: Path, cli: Cli) -> None:
    games = _distinct_games(2)
    paths = [Path(str(solve(g).path)) for g in games]
    (root / "numba-0123").mkdir()
    (root / "numba-0123" / "k.nbc").write_bytes(b"x" * 5000)
    data = json.loads(cli("cache", "--json").out)
    assert data["folder"] == str(root)
    assert {t["digest"]: t["bytes"] for t in data["tables"]} == {
        p.name.removesuffix(".table"): p.stat().st_size for p in paths
    }
    assert data["tables_bytes"] == sum(p.stat().st_size for p in paths)
    for t in data["tables"]:
        assert (t["layout"], t["cells"], t["tokens"]) == ("grid-2x2", 4, 3)
        assert t["problem"] is None
    assert data["kernels"] == [{"folder": str(root / "numba-0123"), "bytes": 5000,
                                "current": False}]  # fmt: skip
    text = cli("cache").out
    for g in games:
        assert SolvedBoard.of(g).digest[:12] in text
    assert "grid-2x2 (4 cells)" in text
    assert "Compiled kernels: numba-0123, 4.9 KiB" in text


def test_an_unreadable_table_is_listed_with_the_reason(root: Path, cli: Cli) -> None:
    (root / "tables").mkdir(parents=True)
    (root / "tables" / "abcd.table").write_bytes(b"")
    data = json.loads(cli("cache", "--json").out)
    assert data["tables"][0]["problem"] == "truncated (0 bytes)"
    assert "unreadable: truncated (0 bytes)" in cli("cache").out


def test_clear_one_then_all(root: Path, cli: Cli) -> None:
    games = _distinct_games(3)
    digests = [SolvedBoard.of(g).digest for g in games]
    for g in games:
        solve(g)
    orphan = root / "tables" / f".{digests[0]}.table.x.tmp"
    orphan.write_bytes(b"half")
    os.utime(orphan, (1_000, 1_000))
    result = cli("cache", "--clear", digests[1][:8])
    assert result.code == 0, result.err
    assert result.out.startswith(f"removed the table {digests[1][:12]} (")
    left = {p.name for p in (root / "tables").iterdir()}
    assert left == {f"{digests[0]}.table", f"{digests[2]}.table", orphan.name}
    assert json.loads(cli("cache", "--json").out)["temporary_files"] == 1
    result = cli("cache", "--clear", "tables")
    assert result.out.startswith("removed 2 table(s) (")
    assert list((root / "tables").iterdir()) == []  # the orphan too


def test_clear_kernels_of_a_named_folder(tmp_path: Path, root: Path, cli: Cli) -> None:
    other = tmp_path / "other"
    (other / "numba-1").mkdir(parents=True)
    (other / "tables").mkdir()
    (other / "tables" / "keep.table").write_bytes(b"t")
    result = cli("cache", "--folder", str(other), "--clear", "kernels")
    assert result.code == 0, result.err
    assert "removed 1 compiled-kernel folder(s)" in result.out
    assert sorted(p.name for p in other.rglob("*")) == ["keep.table", "tables"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--clear", "everything"), "--clear takes all, tables, kernels or the start of a table"),
        (("--clear", "ab"), "got 'ab'"),
        (("--clear", "abcdef"), "no kept table in"),
    ],
)
def test_bad_clears_are_refused_in_one_line(
    root: Path, cli: Cli, argv: tuple[str, ...], message: str
) -> None:
    assert message in cli("cache", *argv).one_error_line()


def test_a_bad_cap_is_refused_in_one_line(
    root: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(_tables.CAP_ENV, "2X")
    assert "PINASTATS_CACHE_SIZE: '2X' is not a size" in cli("cache").one_error_line()


def test_clear_all_removes_tables_kernels_and_earlier_versions_caches(
    root: Path, tmp_path: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Earlier versions kept kernels and tables in the package's ``__pycache__``."""
    legacy = tmp_path / "package" / "__pycache__"
    (legacy / "numba-old" / "boards").mkdir(parents=True)
    (legacy / "numba-old" / "boards" / "x.npy").write_bytes(b"\0" * 2048)
    (legacy / "other.pyc").write_bytes(b"")
    monkeypatch.setattr(_cache, "legacy_roots", lambda: [legacy])
    solve(_distinct_games(1)[0])
    (root / "numba-0123").mkdir()
    listed = cli("cache")
    assert "Earlier versions' caches beside the code: 2.0 KiB" in listed.out
    try:
        result = cli("cache", "--clear")
    finally:
        _cache.cache_dir.cache_clear()  # found again as it was once the patches are undone
    assert result.code == 0, result.err
    assert result.out.splitlines()[0].startswith("removed 1 table(s)")
    assert "removed 2 compiled-kernel folder(s)" in result.out
    assert sorted(p.name for p in legacy.iterdir()) == ["other.pyc"]
    assert sorted(p.name for p in root.iterdir()) == ["tables"]
