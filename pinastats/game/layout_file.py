"""Reading layout files: the shipped layouts by name, or any layout JSON file by path.

The format is described in ``data/layouts/README.md``. Every problem raises
:class:`~pinastats.game.layout.LayoutError` naming the file and the field (``lines[4][2]``,
``sides["3"]``...). The shipped layouts are read once per process and shared: a
:class:`~pinastats.game.layout.Layout` cannot be changed.

>>> load_layout("Cross") is load_layout("cross")
True
"""

from __future__ import annotations

import difflib
import functools
import json
from collections.abc import Mapping
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from types import MappingProxyType
from typing import Any, NoReturn

from pinastats.errors import MissingFileError
from pinastats.game.layout import (
    NO_CELL,
    Cell,
    Layout,
    LayoutError,
    _assemble,
    _check_cells,
    _Fail,
    grid_lines,
    run_lines,
)

REQUIRED_PLAYERS: tuple[int, ...] = (2, 3, 4)
"""Player counts every layout file must give the sides for."""

_FIELDS = ("name", "description", "lines_note", "cells", "lines", "sides")
_TEXT_FIELDS = ("description", "lines_note")


# ---------------------------------------------------------------- shipped layouts


@functools.cache
def _shipped() -> Mapping[str, Traversable]:
    """The shipped layout files by lower-case name (listed once per process)."""
    folder = files("pinastats.data") / "layouts"
    return MappingProxyType(
        {
            entry.name.removesuffix(".json").lower(): entry
            for entry in folder.iterdir()
            if entry.name.endswith(".json")
        }
    )


@functools.cache
def _shipped_layout(name: str) -> Layout:
    """The shipped layout ``name`` (a key of :func:`_shipped`), read once per process."""
    resource = _shipped()[name]
    return _parse(resource.read_bytes(), str(resource))


def available_layouts() -> list[str]:
    """Names of the layouts shipped with pinastats, sorted.

    >>> "standard" in available_layouts()
    True
    """
    return sorted(_shipped())


def load_layout(name_or_path: str | Path = "standard") -> Layout:
    """Load a shipped layout by name (case-insensitive) or a layout JSON file by path.

    A shipped layout is read once per process and the same (immutable) object returned
    after; a file given by path is read on every call. Raises :class:`LayoutError` for an
    unknown name (listing the shipped ones) or an invalid file (naming the file and the
    field).
    """
    shipped = _shipped()
    if not isinstance(name_or_path, str | Path):
        raise LayoutError(
            f"a layout is a shipped name ({', '.join(sorted(shipped))}) or the path of a "
            f"layout JSON file, got {name_or_path!r}"
        )
    if isinstance(name_or_path, str) and name_or_path.strip().lower() in shipped:
        return _shipped_layout(name_or_path.strip().lower())
    path = Path(name_or_path)
    text = str(name_or_path)
    if isinstance(name_or_path, Path) or path.is_file() or "/" in text or text.endswith(".json"):
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            raise MissingFileError(
                f"no layout file {text!r} (shipped layouts: {', '.join(sorted(shipped))}; "
                "or give the path of a layout JSON file)",
                text,
            ) from None
        return _parse(raw, str(path))
    close = difflib.get_close_matches(text.strip().lower(), list(shipped), n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
    raise LayoutError(
        f"unknown layout {text!r}{hint} (shipped layouts: {', '.join(sorted(shipped))}; "
        "or give the path of a layout JSON file)"
    )


# ---------------------------------------------------------------- the JSON format


def _parse(raw: bytes, source: str) -> Layout:
    def fail(reason: str, where: str | None = None) -> NoReturn:
        raise LayoutError(reason, source=source, field=where)

    def no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [k for k, _ in pairs]
        for k in keys:
            if keys.count(k) > 1:
                fail(f"key {k!r} appears twice in the same object")
        return dict(pairs)

    try:
        data = json.loads(raw.decode("utf-8-sig"), object_pairs_hook=no_duplicate_keys)
    except UnicodeDecodeError as error:
        fail(f"not UTF-8 text ({error})")
    except json.JSONDecodeError as error:
        fail(f"invalid JSON at line {error.lineno}, column {error.colno}: {error.msg}")
    if not isinstance(data, dict):
        fail("the file must hold a JSON object")
    for key in data:
        if key not in _FIELDS and not key.startswith("_"):
            close = difflib.get_close_matches(key, _FIELDS, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            fail(f"unknown field{hint} (fields: {', '.join(_FIELDS)}; '_'-prefixed keys are "
                 "comments)", key)  # fmt: skip
    for key in ("name", "cells", "lines", "sides"):
        if key not in data:
            fail("missing field", key)
    name = data["name"]
    if not isinstance(name, str):
        fail("must be a string", "name")
    description, lines_note = (_read_text(data, key, fail) for key in _TEXT_FIELDS)

    cells, grid = _read_cells(data["cells"], fail)
    _check_cells(cells, fail)
    lines = _read_lines(data["lines"], cells, grid, fail)
    sides = _read_sides(data["sides"], cells, fail)
    return _assemble(name, description, cells, lines, sides, fail, lines_note=lines_note)


def _read_text(data: dict[str, Any], key: str, fail: _Fail) -> str:
    """An optional free-text field (``""`` if absent); a ``lines_note`` given must say something."""
    value = data.get(key, "")
    if not isinstance(value, str):
        fail(f"must be a string, not {json.dumps(value)}", key)
    if key == "lines_note" and key in data and not value.strip():
        fail("is empty: say which lines count and why, or leave the field out", key)
    return value


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _read_cell(value: object, where: str, fail: _Fail) -> Cell:
    if not (isinstance(value, list) and len(value) == 2 and all(_is_int(v) for v in value)):
        fail(f"a cell is [row, column] with two integers, not {json.dumps(value)}", where)
    return (value[0], value[1])


def _read_cells(value: object, fail: _Fail) -> tuple[list[Cell], tuple[int, int] | None]:
    if isinstance(value, dict):
        grid = value.get("grid")
        if set(value) != {"grid"} or not (
            isinstance(grid, list) and len(grid) == 2 and all(_is_int(v) and v > 0 for v in grid)
        ):
            fail('expected {"grid": [rows, columns]} with two positive integers', "cells")
        rows, cols = grid
        return [(r, c) for r in range(rows) for c in range(cols)], (rows, cols)
    if not isinstance(value, list):
        fail('expected {"grid": [rows, columns]} or a list of [row, column] cells', "cells")
    return [_read_cell(v, f"cells[{i}]", fail) for i, v in enumerate(value)], None


def _read_lines(
    value: object, cells: list[Cell], grid: tuple[int, int] | None, fail: _Fail
) -> list[list[Cell]]:
    if value == "grid":
        if grid is None:
            fail('"grid" lines need {"grid": [rows, columns]} cells; list the lines', "lines")
        return grid_lines(*grid)
    if isinstance(value, dict):
        length = value.get("runs")
        if set(value) != {"runs"} or not isinstance(length, int) or isinstance(length, bool):
            fail('expected {"runs": length} with a whole-number length', "lines")
        if length < 2:
            fail(f"runs of {length} cells: a line needs at least 2 cells", "lines")
        runs = run_lines(cells, length)
        if not runs:
            fail(f"no straight run of {length} cells in the layout", "lines")
        return runs
    if not isinstance(value, list):
        fail('expected "grid", {"runs": length} or a list of lines', "lines")
    lines: list[list[Cell]] = []
    for i, line in enumerate(value):
        if not isinstance(line, list):
            fail("a line is a list of [row, column] cells", f"lines[{i}]")
        lines.append([_read_cell(v, f"lines[{i}][{j}]", fail) for j, v in enumerate(line)])
    return lines


def _read_sides(value: object, cells: list[Cell], fail: _Fail) -> dict[int, list[str]]:
    if not isinstance(value, dict):
        fail('expected an object {"2": ..., "3": ..., "4": ...}', "sides")
    sides: dict[int, list[str]] = {}
    for key, entry in value.items():
        where = f"sides[{json.dumps(key)}]"
        if not (key.isdigit() and int(key) >= 1):
            fail("a key of 'sides' is a player count such as \"3\"", where)
        sides[int(key)] = _read_side_entry(entry, cells, where, fail)
    for players in REQUIRED_PLAYERS:
        if players not in sides:
            fail(f'missing player count "{players}" (required: 2, 3 and 4)', "sides")
    return dict(sorted(sides.items()))


def _read_side_entry(entry: object, cells: list[Cell], where: str, fail: _Fail) -> list[str]:
    """Sides of ``cells`` (in file order) from one letter, rows of letters or a list."""
    if isinstance(entry, str):
        _letter(entry, where, fail)
        return [entry] * len(cells)
    if not (isinstance(entry, list) and entry and all(isinstance(s, str) for s in entry)):
        fail("expected a side letter, rows of letters, or one letter per cell", where)
    if all(len(s) == 1 for s in entry) and len(entry) == len(cells):
        for k, letter in enumerate(entry):
            _letter(letter, f"{where}[{k}]", fail)
        return list(entry)
    rows = max(r for r, _ in cells) + 1
    cols = max(c for _, c in cells) + 1
    if len(entry) != rows:
        fail(
            f"{len(entry)} rows for a layout of {rows} rows ({len(cells)} cells; give one "
            "row of letters per row, or one letter per cell)",
            where,
        )
    present = set(cells)
    letters: dict[Cell, str] = {}
    for r, row in enumerate(entry):
        if len(row) != cols:
            fail(f"row {row!r} has {len(row)} letters, expected {cols}", f"{where}[{r}]")
        for c, letter in enumerate(row):
            if (r, c) in present:
                if letter == NO_CELL:
                    fail(f"column {c} is {NO_CELL!r} but [{r}, {c}] is a cell", f"{where}[{r}]")
                _letter(letter, f"{where}[{r}]", fail, column=c)
                letters[(r, c)] = letter
            elif letter != NO_CELL:
                fail(f"column {c} is {letter!r} but [{r}, {c}] is not a cell (use "
                     f"{NO_CELL!r})", f"{where}[{r}]")  # fmt: skip
    return [letters[cell] for cell in cells]


def _letter(letter: str, where: str, fail: _Fail, column: int | None = None) -> None:
    if letter.upper() not in ("A", "B"):
        at = f" in column {column}" if column is not None else ""
        fail(f"unknown side {letter!r}{at} (expected 'A' or 'B')", where)
