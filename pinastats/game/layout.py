"""Board layouts: cells, neighbours, winning lines and the side of each coaster.

The model is :class:`Layout`, built from coordinates by :meth:`Layout.build` or read from a
layout JSON file by :func:`load_layout`. The shipped layouts are the JSON files of
``data/layouts`` (installed as ``pinastats.data``; the format is described in
``data/layouts/README.md``), listed by :func:`available_layouts`, read once per process
and shared: a :class:`Layout` cannot be changed. Every problem in a file raises
:class:`LayoutError` naming the file and the field (``lines[4][2]``, ``sides["3"]``...).

A layout also fixes the side each coaster shows at setup for each number of players.
Cells are numbered row-major (by row, then column). A cell's neighbours are the up to 8
cells of the layout that surround it orthogonally and diagonally; a player whose tokens
cover every cell of a line wins at once (PIÑA COLADICE).

>>> standard = load_layout()
>>> standard.n_cells, standard.n_lines
(16, 10)
>>> print(standard.diagram(players=3))
BAAB
ABBA
ABBA
BAAB
>>> load_layout("Cross") is load_layout("cross")
True
"""

from __future__ import annotations

import contextlib
import difflib
import functools
import json
import os
import stat
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from types import MappingProxyType
from typing import Any, NoReturn, Protocol

import numpy as np
import numpy.typing as npt

from pinastats.dice.errors import is_whole
from pinastats.errors import MissingFileError, PinastatsError
from pinastats.game.rules import PLAYER_COUNTS
from pinastats.game.sides import Side

__all__ = [
    "MAX_LAYOUT_BYTES",
    "NEIGHBOUR_SLOTS",
    "REQUIRED_PLAYERS",
    "Cell",
    "Layout",
    "LayoutError",
    "available_layouts",
    "grid_lines",
    "load_layout",
    "names_only",
    "run_lines",
]

Cell = tuple[int, int]
"""A cell's ``(row, column)`` coordinates."""

NEIGHBOUR_SLOTS = 8
"""Columns of :attr:`Layout.neighbours`: a cell has at most 8 neighbours."""

REQUIRED_PLAYERS: tuple[int, ...] = PLAYER_COUNTS
"""Player counts every layout file must give the sides for (all the game is played with)."""

_DIRECTIONS: tuple[Cell, ...] = tuple(
    (dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)
)
_RUN_DIRECTIONS: tuple[Cell, ...] = ((0, 1), (1, 0), (1, 1), (1, -1))
NO_CELL = "."
"""The mark of a position of the bounding box without a cell (diagrams, side rows)."""

_FIELDS = ("name", "description", "lines_note", "cells", "lines", "sides")
_TEXT_FIELDS = ("description", "lines_note")


class LayoutError(PinastatsError):
    """A layout that cannot be built, naming the file and the offending field."""

    def __init__(self, reason: str, *, source: str | None = None, field: str | None = None):
        self.reason = reason
        self.source = source
        self.field = field
        where = [p for p in (source, f"field {field}" if field else None) if p]
        super().__init__(": ".join([*where, reason]))


class NoCellError(LayoutError, KeyError):
    """A position or cell index the layout does not have (also a ``KeyError``)."""

    __str__ = ValueError.__str__  # the message as it is, not quoted as a KeyError's


class _Fail(Protocol):
    """The error reporter: ``fail(reason, field)`` raises :class:`LayoutError`."""

    def __call__(self, reason: str, where: str, /) -> NoReturn: ...


@dataclass(frozen=True, eq=False, repr=False)
class Layout:
    """Where the coasters lie and what counts as a line (immutable).

    Build one with :meth:`build` or :func:`load_layout`; the arrays are read-only:

    - ``neighbours``: ``(n_cells, 8)`` int64, the neighbouring cells of each cell in
      increasing order, padded with -1;
    - ``lines``: ``(n_lines, max_line_length)`` int64, the distinct cells of each line,
      then -1 to pad it;
    - ``sides``: player count -> the side of each cell (in cell order).

    ``lines_note`` says in words which lines count and why (may be empty). Layouts are
    shared (the shipped ones are loaded once per process), so nothing in one can be
    changed: the arrays cannot even be made writeable again.
    """

    name: str
    description: str
    cells: tuple[Cell, ...]
    neighbours: npt.NDArray[np.int64] = field(repr=False)
    lines: npt.NDArray[np.int64] = field(repr=False)
    sides: Mapping[int, tuple[Side, ...]] = field(repr=False)
    lines_note: str = field(default="", repr=False)
    _index: dict[Cell, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        cells = tuple((int(r), int(c)) for r, c in self.cells)
        n = len(cells)
        if list(cells) != sorted(set(cells)):
            raise LayoutError("cells must be distinct and in row-major order")
        neighbours = np.array(self.neighbours, dtype=np.int64)
        lines = np.array(self.lines, dtype=np.int64)
        if neighbours.shape != (n, NEIGHBOUR_SLOTS) or lines.ndim != 2:
            raise LayoutError("neighbours must be (n_cells, 8) and lines 2-dimensional")
        for array in (neighbours, lines):
            if array.size and (array.min() < -1 or array.max() >= n):
                raise LayoutError("neighbours and lines hold cell indices or -1")
        for row in lines:  # what the kernels read: a line's distinct cells, then -1 padding
            line = row[row >= 0]
            if (row[: line.size] < 0).any() or np.unique(line).size != line.size:
                raise LayoutError(f"a line lists distinct cells, then -1s; got {row.tolist()}")
        sides = {int(p): tuple(Side.parse(s) for s in seq) for p, seq in self.sides.items()}
        if any(len(seq) != n for seq in sides.values()):
            raise LayoutError("sides must give one side per cell")
        object.__setattr__(self, "cells", cells)
        object.__setattr__(self, "neighbours", _read_only(neighbours))
        object.__setattr__(self, "lines", _read_only(lines))
        object.__setattr__(self, "lines_note", str(self.lines_note))
        object.__setattr__(self, "sides", MappingProxyType(dict(sorted(sides.items()))))
        object.__setattr__(self, "_index", {cell: i for i, cell in enumerate(cells)})

    @classmethod
    def build(
        cls,
        name: str,
        cells: Iterable[Cell],
        lines: Iterable[Iterable[Cell]],
        sides: Mapping[int, Sequence[Side | str]],
        description: str = "",
        lines_note: str = "",
    ) -> Layout:
        """Build a layout from cell coordinates, lines of coordinates and sides per player count.

        ``sides[p]`` lists one side per cell in the order ``cells`` are given; cells are
        then numbered row-major and the neighbours derived; ``lines_note`` says in words
        which lines count and why. Raises :class:`LayoutError`.

        >>> tiny = Layout.build("tiny", [(0, 0), (0, 1), (1, 1)], [[(0, 0), (0, 1)]], {2: "AAB"})
        >>> tiny.neighbour_cells(0), tiny.line_cells(), tiny.sides_for(2)
        ((1, 2), ((0, 1),), (<Side.A: 'A'>, <Side.A: 'A'>, <Side.B: 'B'>))
        """

        def fail(reason: str, where: str) -> NoReturn:
            raise LayoutError(reason, source=f"layout {name!r}", field=where)

        pieces = (list(cells), [list(x) for x in lines], sides)
        return _assemble(name, description, *pieces, fail, lines_note=lines_note)

    # ------------------------------------------------------------ value semantics

    def __repr__(self) -> str:
        rows, cols = self.shape
        return (
            f"<Layout {self.name!r}: {self.n_cells} cells in {rows}×{cols}, {self.n_lines} lines>"
        )

    def _key(self) -> tuple[object, ...]:
        text = (self.name, self.description, self.lines_note)
        return (*text, self.cells, self.line_cells(), tuple(self.sides.items()))

    def __reduce__(self) -> tuple[type[Layout], tuple[Any, ...]]:
        """Pickle (and deep-copy) by the constructor's arguments, checked again on loading."""
        arrays = (np.array(self.neighbours), np.array(self.lines))
        sides = dict(self.sides)
        args = (self.name, self.description, self.cells, *arrays, sides, self.lines_note)
        return (type(self), args)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Layout) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    # ------------------------------------------------------------ queries

    @property
    def n_cells(self) -> int:
        """Number of cells (coasters on the table)."""
        return len(self.cells)

    @property
    def n_lines(self) -> int:
        """Number of winning lines."""
        return int(self.lines.shape[0])

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, columns)`` of the bounding box, counted from row 0 and column 0."""
        return (max(r for r, _ in self.cells) + 1, max(c for _, c in self.cells) + 1)

    @property
    def players(self) -> tuple[int, ...]:
        """The player counts the layout gives sides for."""
        return tuple(self.sides)

    def cell_index(self, row: int, col: int) -> int:
        """Index of the cell at ``(row, col)``; :class:`NoCellError` if there is none.

        >>> load_layout().cell_index(1, 2)
        6
        """
        try:
            return self._index[(row, col)]
        except KeyError:
            raise NoCellError(f"layout {self.name!r} has no cell at ({row!r}, {col!r})") from None

    def neighbour_cells(self, cell: int) -> tuple[int, ...]:
        """Return the indices of the neighbours of cell ``cell``.

        >>> load_layout().neighbour_cells(0)
        (1, 4, 5)
        """
        if not is_whole(cell) or not 0 <= cell < self.n_cells:
            raise NoCellError(
                f"cell must be a whole number from 0 to {len(self.cells) - 1}, got {cell!r}"
            )
        return tuple(int(x) for x in self.neighbours[cell] if x >= 0)

    def line_cells(self) -> tuple[tuple[int, ...], ...]:
        """Return the cell indices of each line (without padding).

        >>> load_layout().line_cells()[-2:]
        ((0, 5, 10, 15), (3, 6, 9, 12))
        """
        return tuple(tuple(int(x) for x in row if x >= 0) for row in self.lines)

    def sides_for(self, players: int) -> tuple[Side, ...]:
        """Return the side of each cell's coaster at setup for ``players`` players."""
        if players not in self.sides:
            supported = ", ".join(str(p) for p in self.sides)
            raise LayoutError(
                f"layout {self.name!r} gives no sides for {players} players "
                f"(supported player counts: {supported})"
            )
        return self.sides[players]

    def side_indices(self, players: int) -> npt.NDArray[np.int64]:
        """``(n_cells,)`` int64: 0 where a cell starts on side A, 1 on side B."""
        return _read_only(np.array([s.code for s in self.sides_for(players)], dtype=np.int64))

    def diagram(self, players: int | None = None) -> str:
        """Draw the layout as text: one character per position of the bounding box.

        A cell is its side letter for ``players`` players (``o`` if ``players`` is
        ``None``); ``.`` marks a position without a cell.
        """
        marks = self.sides_for(players) if players is not None else ("o",) * self.n_cells
        rows, cols = self.shape
        grid = [[NO_CELL] * cols for _ in range(rows)]
        for (r, c), mark in zip(self.cells, marks, strict=True):
            grid[r][c] = str(mark)
        return "\n".join("".join(row) for row in grid)


# ---------------------------------------------------------------- assembling


def _assemble(
    name: str,
    description: str,
    cells: list[Cell],
    lines: list[list[Cell]],
    sides: Mapping[int, Sequence[Side | str]],
    fail: _Fail,
    *,
    lines_note: str = "",
) -> Layout:
    """Check the pieces of a layout (reporting through ``fail``) and build it."""
    if not name.strip():
        fail("the name is empty", "name")
    ordered = _check_cells(cells, fail)
    index = {cell: i for i, cell in enumerate(ordered)}

    if not lines:
        fail("a layout needs at least one line", "lines")
    line_indices: list[tuple[int, ...]] = []
    seen_lines: dict[frozenset[int], int] = {}
    for i, line in enumerate(lines):
        if len(line) < 2:
            fail("a line needs at least 2 cells", f"lines[{i}]")
        indices: list[int] = []
        for j, (r, c) in enumerate(line):
            if (r, c) not in index:
                fail(f"cell [{r}, {c}] is not in the layout", f"lines[{i}][{j}]")
            if index[(r, c)] in indices:
                fail(f"cell [{r}, {c}] appears twice in the line", f"lines[{i}][{j}]")
            indices.append(index[(r, c)])
        key = frozenset(indices)
        if key in seen_lines:
            fail(f"the same cells as lines[{seen_lines[key]}]", f"lines[{i}]")
        seen_lines[key] = i
        line_indices.append(tuple(indices))

    by_player: dict[int, tuple[Side, ...]] = {}
    for players, seq in sides.items():
        where = f"sides[{json.dumps(str(players))}]"
        if players < 1:
            fail(f"{players} is not a player count", where)
        if len(seq) != len(cells):
            fail(f"{len(seq)} sides for {len(cells)} cells", where)
        given: list[Side] = []
        for k, letter in enumerate(seq):
            try:
                given.append(Side.parse(letter))
            except ValueError:
                fail(f"unknown side {letter!r} (expected 'A' or 'B')", f"{where}[{k}]")
        by_cell = dict(zip(cells, given, strict=True))
        by_player[players] = tuple(by_cell[cell] for cell in ordered)

    neighbours = np.full((len(ordered), NEIGHBOUR_SLOTS), -1, dtype=np.int64)
    for i, (r, c) in enumerate(ordered):
        around = sorted(
            index[(r + dr, c + dc)] for dr, dc in _DIRECTIONS if (r + dr, c + dc) in index
        )
        neighbours[i, : len(around)] = around
    width = max(len(x) for x in line_indices)
    line_array = np.full((len(line_indices), width), -1, dtype=np.int64)
    for i, members in enumerate(line_indices):
        line_array[i, : len(members)] = members
    return Layout(name, description, tuple(ordered), neighbours, line_array, by_player, lines_note)


def _read_only(array: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """A read-only view of a read-only array: its ``writeable`` flag cannot be set again."""
    array.setflags(write=False)
    view = array.view()
    view.setflags(write=False)
    return view


def _check_cells(cells: list[Cell], fail: _Fail) -> list[Cell]:
    """Check that there are cells, distinct and non-negative; return them row-major."""
    if not cells:
        fail("a layout needs at least one cell", "cells")
    first_seen: dict[Cell, int] = {}
    for i, (r, c) in enumerate(cells):
        if r < 0 or c < 0:
            fail(f"negative coordinate [{r}, {c}]", f"cells[{i}]")
        if (r, c) in first_seen:
            fail(f"duplicate cell [{r}, {c}] (also cells[{first_seen[(r, c)]}])", f"cells[{i}]")
        first_seen[(r, c)] = i
    return sorted(first_seen)


def grid_lines(rows: int, cols: int) -> list[list[Cell]]:
    """Every full row and column of a grid, and its two main diagonals if it is square.

    >>> len(grid_lines(4, 4)), len(grid_lines(5, 5)), len(grid_lines(3, 5))
    (10, 12, 8)
    """
    lines = [[(r, c) for c in range(cols)] for r in range(rows)]
    lines += [[(r, c) for r in range(rows)] for c in range(cols)]
    if rows == cols:
        lines += [[(i, i) for i in range(rows)], [(i, cols - 1 - i) for i in range(rows)]]
    return [line for line in lines if len(line) >= 2]


def run_lines(cells: Iterable[Cell], length: int) -> list[list[Cell]]:
    """Every straight run of ``length`` consecutive cells, across, down or diagonal.

    Runs are listed by direction (across, down, down-right, down-left), then by first cell.

    >>> len(run_lines([(r, c) for r in range(4) for c in range(4)], 3))
    24
    """
    present = set(cells)
    runs = []
    for dr, dc in _RUN_DIRECTIONS:
        for r, c in sorted(present):
            run = [(r + k * dr, c + k * dc) for k in range(length)]
            if all(cell in present for cell in run):
                runs.append(run)
    return runs


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


MAX_LAYOUT_BYTES = 1 << 20
"""The largest layout file read, in bytes (the shipped ones are under 4 KiB)."""

_NAMES_ONLY: ContextVar[str | None] = ContextVar("pinastats_layout_names_only", default=None)


@contextlib.contextmanager
def names_only(who: str) -> Iterator[None]:
    """Within it (in this thread), :func:`load_layout` takes shipped names only, never a path.

    ``who`` names what asks (``"the served board"``) in the refusal. The board's server
    carries out every request inside it: a position line saying ``layout=<path>``
    opens no file.
    """
    token = _NAMES_ONLY.set(who)
    try:
        yield
    finally:
        _NAMES_ONLY.reset(token)


def load_layout(name_or_path: str | Path = "standard") -> Layout:
    """Load a shipped layout by name (case-insensitive) or a layout JSON file by path.

    A shipped layout is read once per process and the same (immutable) object returned
    after; a file given by path is read on every call, if it is a regular file of at most
    :data:`MAX_LAYOUT_BYTES` (a device, a FIFO or a folder is refused before anything is
    read). Raises :class:`LayoutError` for an unknown name (listing the shipped ones), an
    invalid file (naming the file and the field), or any path inside :func:`names_only`.
    """
    shipped = _shipped()
    names = ", ".join(sorted(shipped))
    if not isinstance(name_or_path, str | Path):
        raise LayoutError(
            f"a layout is a shipped name ({names}) or the path of a layout JSON file, "
            f"got {name_or_path!r}"
        )
    if isinstance(name_or_path, str) and name_or_path.strip().lower() in shipped:
        return _shipped_layout(name_or_path.strip().lower())
    text = str(name_or_path)
    who = _NAMES_ONLY.get()
    if who is not None:
        raise LayoutError(f"{who} takes a shipped layout by name ({names}), not a file: "
                          f"got {text[:80]!r}")  # fmt: skip
    path = Path(name_or_path)
    if isinstance(name_or_path, Path) or path.is_file() or "/" in text or text.endswith(".json"):
        return _parse(_read_file(path, text, names), str(path))
    close = difflib.get_close_matches(text.strip().lower(), list(shipped), n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
    raise LayoutError(
        f"unknown layout {text!r}{hint} (shipped layouts: {names}; "
        "or give the path of a layout JSON file)"
    )


def _read_file(path: Path, text: str, names: str) -> bytes:
    """The bytes of the layout file ``path``: a regular file of at most MAX_LAYOUT_BYTES.

    Opened without blocking (a FIFO with no writer does not wait), checked by ``fstat``
    on the open file, then read at most one byte past the bound.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (FileNotFoundError, ValueError):  # ValueError: a NUL character, in no file name
        raise MissingFileError(
            f"no layout file {text!r} (shipped layouts: {names}; "
            "or give the path of a layout JSON file)",
            text,
        ) from None
    except IsADirectoryError:
        raise LayoutError(f"{text!r} is a folder; a layout is a JSON file") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise LayoutError(f"{text!r} is a folder; a layout is a JSON file")
        if not stat.S_ISREG(mode):
            raise LayoutError(f"{text!r} is not a regular file (a device, a pipe or a "
                              "socket); a layout is a JSON file")  # fmt: skip
    except BaseException:
        os.close(fd)
        raise
    with os.fdopen(fd, "rb") as file:
        raw = file.read(MAX_LAYOUT_BYTES + 1)
    if len(raw) > MAX_LAYOUT_BYTES:
        raise LayoutError(f"{text!r} is over {MAX_LAYOUT_BYTES:,} bytes; a layout file is "
                          "smaller")  # fmt: skip
    return raw


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


def _read_cell(value: object, where: str, fail: _Fail) -> Cell:
    if not (isinstance(value, list) and len(value) == 2 and all(is_whole(v) for v in value)):
        fail(f"a cell is [row, column] with two integers, not {json.dumps(value)}", where)
    return (value[0], value[1])


def _read_cells(value: object, fail: _Fail) -> tuple[list[Cell], tuple[int, int] | None]:
    if isinstance(value, dict):
        grid = value.get("grid")
        if set(value) != {"grid"} or not (
            isinstance(grid, list) and len(grid) == 2 and all(is_whole(v) and v > 0 for v in grid)
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
