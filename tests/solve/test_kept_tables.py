"""Kept tables: 16-bit codes within the stated bound, checked on load, capped, never half-written.

Each way a fuzz run broke the earlier ``.npy`` tables (values overwritten, another
board's table, a 0-byte file, a header claiming another dtype, a killed write's
temporary file, a full disk) has its test here: the table is refused with one
line on stderr and the board solved again, never read as values.
"""

from __future__ import annotations

import json
import os
import struct
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import zstandard

from pinastats import _cache, _tables
from pinastats.errors import PinastatsError
from pinastats.game import Game
from pinastats.solve import SolvedBoard, cached, solve, table
from pinastats.solve.solver import solve_values
from tests.conftest import CliResult
from tests.full_disk import NO_SPACE, fill_disk
from tests.solve.test_solver import TINY_GAMES

CONFIG, SEED = TINY_GAMES["2x2, lines of 2, 3 tokens, 2 rolls"]


def use_folder(monkeypatch: pytest.MonkeyPatch, root: Path) -> Path:
    """``root`` as the cache folder (``PINASTATS_CACHE``), no solution at hand: its tables."""
    monkeypatch.setenv(_cache.CACHE_ENV, str(root))
    monkeypatch.delenv(_tables.CAP_ENV, raising=False)
    monkeypatch.setattr(table, "_SOLUTIONS", OrderedDict())
    monkeypatch.setattr(table, "_SAID", set())
    return root / "tables"


@pytest.fixture(name="folder")
def fresh_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A fresh cache folder and a process that keeps no solution at hand (:func:`use_folder`)."""
    return use_folder(monkeypatch, tmp_path)


@pytest.fixture
def solves(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The digests of the boards solved (not read back) from now on."""
    done: list[str] = []
    real = solve_values

    def counted(board: SolvedBoard, **kwargs: Any) -> Any:
        done.append(board.digest)
        return real(board, **kwargs)

    monkeypatch.setattr(table, "solve_values", counted)
    return done


def _game(seed: int = SEED) -> Game:
    return Game.new(config=CONFIG, seed=seed)


def _distinct_games(n: int) -> list[Game]:
    """``n`` games on boards of distinct digests."""
    by_digest = {SolvedBoard.of(g).digest: g for g in (_game(s) for s in range(60))}
    return list(by_digest.values())[:n]


def _parts(path: Path) -> tuple[dict[str, Any], bytes, bytes]:
    """The header, the uncompressed payload and the checksum of the table at ``path``."""
    data = path.read_bytes()
    header, end = _tables._header(data)
    checksum = data[end : end + _tables.CHECKSUM_BYTES]
    frame = data[end + _tables.CHECKSUM_BYTES :]
    return header, zstandard.ZstdDecompressor().decompress(frame), checksum


def _write(path: Path, header: dict[str, Any], payload: bytes, checksum: bytes | None) -> None:
    """Write a table from its parts; ``checksum`` None: the checksum of the new parts."""
    head = json.dumps(header).encode()
    checksum = _tables._checksum(head, payload) if checksum is None else checksum
    body = zstandard.ZstdCompressor().compress(payload)
    path.write_bytes(_tables.MAGIC + struct.pack("<I", len(head)) + head + checksum + body)


def _set_code(payload: bytes, n: int, index: int, code: int) -> bytes:
    """``payload`` with the ``index``-th of its ``n`` byte-shuffled codes set to ``code``."""
    out = bytearray(payload)
    out[index], out[n + index] = code & 0xFF, code >> 8
    return bytes(out)


# ---------------------------------------------------------------- the codes


def test_codes_read_back_within_the_stated_bound_of_float64() -> None:
    rng = np.random.default_rng(47)
    steps = np.arange(0, _tables.SCALE + 1) / _tables.SCALE
    halfway = (np.arange(0, _tables.SCALE) + 0.5) / _tables.SCALE  # the worst rounding
    values = np.concatenate([rng.random(200_000), steps, halfway, np.nextafter(halfway, 0),
                             [0.0, 1.0, np.nan, 1 + 1e-12, -1e-12]])  # fmt: skip
    back = _tables.decode(_tables.encode(values))
    assert back.dtype == np.float32
    assert np.array_equal(np.isnan(back), np.isnan(values))
    error = np.abs(back.astype(np.float64) - np.clip(values, 0, 1))[~np.isnan(values)]
    assert error.max() <= _tables.ERROR_BOUND
    assert error.max() > 0.99 * 0.5 / _tables.SCALE  # the bound is what 16 bits give, no looser
    assert _tables.ERROR_BOUND < 7.7e-6
    for bad in (7.0, -0.5, np.inf):
        with pytest.raises(ValueError, match="in \\[0, 1\\]"):
            _tables.encode(np.array([0.5, bad]))


def test_a_kept_table_answers_like_the_float64_solve_within_the_bound(folder: Path) -> None:
    game = _game()
    exact, kept = solve(game, store=False), solve(game)
    assert kept.path is not None
    assert Path(kept.path).parent == folder
    assert kept.dtype == np.float32
    both = ~np.isnan(exact.values)
    assert np.array_equal(np.isnan(kept.values), np.isnan(exact.values))
    assert np.max(np.abs(kept.values[both] - exact.values[both])) <= _tables.ERROR_BOUND
    table.forget()
    again = cached(game)
    assert again is not None
    assert again is not kept
    assert np.array_equal(again.values, kept.values, equal_nan=True)  # read back: the same codes
    assert np.array_equal(again.final_turn, exact.final_turn)  # the last turn's table: as solved
    assert again.chances(game) == kept.chances(game)


def test_the_header_says_the_board_solver_shape_and_checksum(folder: Path) -> None:
    game = _game()
    kept = solve(game)
    header = _tables.read_header(Path(str(kept.path)))
    board = SolvedBoard.of(game)
    assert header["board"] == board.digest
    assert header["values"]["shape"] == [board.positions, 2]
    assert header["values"]["dtype"] == "uint16"
    assert header["extra"] == {"final_turn": {"shape": [1 << board.n_cells], "dtype": "<f8"}}
    assert header["checksum"].startswith("blake2b-256")
    assert len(header["solver"]) == 16
    assert header["about"]["cells"] == 4
    assert header["about"]["tokens"] == 3


# ---------------------------------------------------------------- refused, solved again


def _corruptions() -> dict[str, Callable[[Path, Path], None]]:
    """Ways to spoil the table at ``path`` (``other``: another board's table)."""

    def overwrite(code: int) -> Callable[[Path, Path], None]:
        def spoil(path: Path, other: Path) -> None:
            header, payload, checksum = _parts(path)
            n = int(np.prod(header["values"]["shape"]))
            _write(path, header, _set_code(payload, n, 0, code), checksum)

        return spoil

    def reheaded(**change: Any) -> Callable[[Path, Path], None]:
        def spoil(path: Path, other: Path) -> None:
            header, payload, _ = _parts(path)
            for key, value in change.items():
                header["values"][key] = value
            _write(path, header, payload, None)  # a valid checksum: still refused

        return spoil

    def flip(at: float) -> Callable[[Path, Path], None]:
        def spoil(path: Path, other: Path) -> None:
            data = bytearray(path.read_bytes())
            data[int(at * (len(data) - 1))] ^= 0x10
            path.write_bytes(bytes(data))

        return spoil

    def last_turn(path: Path, other: Path) -> None:
        header, payload, checksum = _parts(path)
        _write(path, header, payload[:-8] + struct.pack("<d", 0.25), checksum)

    return {
        "a value overwritten with 0.5": overwrite(_tables.SCALE // 2),
        "a value overwritten with NaN": overwrite(_tables.NAN_CODE),
        "a value overwritten with 1": overwrite(_tables.SCALE),
        "the last turn's table overwritten": last_turn,
        "another board's table": lambda path, other: path.write_bytes(other.read_bytes()),
        "0 bytes": lambda path, other: path.write_bytes(b""),
        "a float16 header": reheaded(dtype="float16"),
        "another shape": reheaded(shape=[7, 2]),
        "another scale": reheaded(scale=255),
        "truncated": lambda path, other: path.write_bytes(path.read_bytes()[:-40]),
        "cut in its header": lambda path, other: path.write_bytes(path.read_bytes()[:30]),
        "an old .npy in its place": lambda path, other: path.write_bytes(
            b"\x93NUMPY\x01\x00v\x00{'descr': '<f2', 'fortran_order': False, 'shape': (9, 2), }"
        ),
        **{f"a bit flipped at {at:.0%}": flip(at) for at in (0.0, 0.3, 0.6, 0.97, 1.0)},
    }


CORRUPTIONS = _corruptions()


@pytest.mark.parametrize("how", list(CORRUPTIONS))
def test_a_spoiled_table_is_refused_in_one_line_and_solved_again(
    how: str, folder: Path, solves: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    game, other_game = _distinct_games(2)
    fresh = solve(game)
    other = Path(str(solve(other_game).path))
    path = Path(str(fresh.path))
    CORRUPTIONS[how](path, other)
    table.forget()
    capsys.readouterr()
    again = solve(game)
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1, err
    assert err.startswith(f"pinastats: the kept table {path} is refused (")
    assert err.rstrip().endswith("the board is solved again")
    assert solves == [fresh.digest, SolvedBoard.of(other_game).digest, fresh.digest]
    assert np.array_equal(again.values, fresh.values, equal_nan=True)
    assert again.chances(game) == fresh.chances(game)
    table.forget()  # what was written in its place is whole
    assert np.array_equal(_checked(game).values, fresh.values, equal_nan=True)


def _checked(game: Game) -> Any:
    board = SolvedBoard.of(game)
    path = table.solution_path(board)
    extra = {"final_turn": ((1 << board.n_cells,), "<f8")}
    return _tables.load_table(path, board=board.digest, shape=(board.positions, 2), extra=extra)


def test_no_bit_flipped_anywhere_gives_other_values(folder: Path) -> None:
    """A single bit flipped anywhere in the file (magic, header, checksum, compressed values):
    refused, or (a bit zstd ignores) the very same values; in the header or the checksum,
    always refused."""
    game = _game()
    path = Path(str(solve(game).path))
    data = path.read_bytes()
    _, end = _tables._header(data)
    board = SolvedBoard.of(game)
    extra = {"final_turn": ((1 << board.n_cells,), "<f8")}
    original = _checked(game)
    spoiled = folder / "spoiled.table"
    refused = 0
    for at in range(len(data)):
        for bit in (0x01, 0x80):
            copy = bytearray(data)
            copy[at] ^= bit
            spoiled.write_bytes(bytes(copy))
            try:
                kept = _tables.load_table(spoiled, board=board.digest,
                                          shape=(board.positions, 2), extra=extra)  # fmt: skip
            except _tables.TableError:
                refused += 1
                continue
            assert at >= end + _tables.CHECKSUM_BYTES, f"byte {at} of the header or checksum"
            assert np.array_equal(kept.values, original.values, equal_nan=True)
            assert np.array_equal(kept.extra["final_turn"], original.extra["final_turn"])
    assert refused > 0.95 * 2 * len(data)


def test_the_solve_command_refuses_a_spoiled_table_and_answers_right(
    folder: Path, cli: Callable[..., CliResult]
) -> None:
    ran = cli("solve", "--seed", "11", "--tokens", "3", "--json")
    assert f"(about 65 MiB of memory); its table is kept in {folder} for next time" in ran.err
    first = json.loads(ran.out)
    path = Path(first["table"])
    header, payload, checksum = _parts(path)
    n = int(np.prod(header["values"]["shape"]))
    _write(path, header, _set_code(payload, n, 0, 0), checksum)  # the start's chance: 0
    table.forget()
    result = cli("solve", "--seed", "11", "--tokens", "3", "--json")
    assert result.code == 0
    assert result.err.count("refused") == 1, result.err
    again = json.loads(result.out)
    assert again["solved_now"] is True
    assert again["first_player_chance_at_start"] == first["first_player_chance_at_start"]


# ---------------------------------------------------------------- where, and how much


def test_tables_are_keyed_by_the_board_and_solver_not_the_kernels(
    folder: Path, solves: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An upgrade that changes other kernels (a new kernel folder) keeps the tables."""
    game = _game()
    kept = solve(game)
    assert Path(str(kept.path)).parent == _cache.user_cache_dir() / "tables"
    monkeypatch.setattr(_cache, "source_digest", lambda package=None: "another-engine")
    _cache.cache_dir.cache_clear()
    try:
        table.forget()
        assert cached(game) is not None
        assert solves == [kept.digest]
    finally:
        _cache.cache_dir.cache_clear()  # found again, as it was, once the patch is undone


def test_the_least_recently_used_tables_go_beyond_the_cap(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = _distinct_games(3)
    a = Path(str(solve(games[0]).path))
    b = Path(str(solve(games[1]).path))
    os.utime(a, (1_000, 1_000))
    os.utime(b, (2_000, 2_000))
    table.forget()
    assert cached(games[0]) is not None  # a read: a is now the most recently used
    monkeypatch.setenv(_tables.CAP_ENV, str(a.stat().st_size + b.stat().st_size + 100))
    c = Path(str(solve(games[2]).path))
    assert sorted(p.name for p in folder.iterdir()) == sorted([a.name, c.name])
    monkeypatch.setenv(_tables.CAP_ENV, "1")  # a table just solved stays whatever the cap
    table.forget()
    solve(games[1])
    assert [p.name for p in folder.iterdir()] == [b.name]


def test_a_bad_cap_is_refused_before_the_solve(
    folder: Path, solves: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(_tables.CAP_ENV, "lots")
    with pytest.raises(PinastatsError, match="PINASTATS_CACHE_SIZE: 'lots' is not a size"):
        solve(_game())
    assert solves == []
    assert [_tables.parse_size(t) for t in ("2G", "500M", "1.5k", "1000", "3 GiB")] == [
        2 << 30, 500 << 20, 1536, 1000, 3 << 30,
    ]  # fmt: skip


def test_a_killed_write_s_temporary_file_is_swept(folder: Path) -> None:
    """SIGKILL during a write leaves ``.<name>.*.tmp``; the next store removes it once old."""
    folder.mkdir(parents=True)
    games = _distinct_games(2)
    digest = SolvedBoard.of(games[0]).digest
    orphan = folder / f".{digest}.table.k1ll3d.tmp"
    orphan.write_bytes(b"\x00" * 1000)
    os.utime(orphan, (1_000, 1_000))
    writing = folder / f".{digest}.table.wr1t1n.tmp"  # another process writing now: left alone
    writing.write_bytes(b"\x00" * 10)
    solve(games[1])
    assert not orphan.exists()
    assert writing.exists()


def test_a_full_disk_keeps_the_finished_solve_and_leaves_nothing(
    folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game = _game()
    exact = solve(game, store=False)
    fill_disk(monkeypatch, room=100)
    capsys.readouterr()
    solution = solve(game)
    err = capsys.readouterr().err
    assert solution.path is None
    assert err.count("\n") == 1
    assert NO_SPACE in err
    assert "answers from memory" in err
    both = ~np.isnan(exact.values)
    assert np.max(np.abs(solution.values[both] - exact.values[both])) <= _tables.ERROR_BOUND
    assert [p for p in folder.parent.rglob("*") if p.is_file()] == []
    assert cached(game) is solution  # at hand in this process all the same


def test_a_read_only_cache_folder_is_read_and_never_written(
    folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game = _game()
    solve(game)
    table.forget()
    monkeypatch.setattr(os, "utime", _refuse_write)
    assert cached(game) is not None  # read; marking it used fails quietly
    assert capsys.readouterr().err == ""


def _refuse_write(*args: Any, **kwargs: Any) -> None:
    raise PermissionError(13, "Permission denied")
