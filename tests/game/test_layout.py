from __future__ import annotations

import copy
import dataclasses
import json
import pickle
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pinastats.errors import PinastatsError
from pinastats.game import Game, GameConfig
from pinastats.game.layout import (
    NEIGHBOUR_SLOTS,
    Layout,
    LayoutError,
    available_layouts,
    grid_lines,
    load_layout,
    run_lines,
)
from pinastats.game.sides import Side

A, B = Side.A, Side.B


@pytest.fixture(scope="module")
def standard() -> Layout:
    return load_layout()


# ---------------------------------------------------------------- the standard 4x4 grid


def test_standard_has_16_cells_in_a_4x4_grid(standard: Layout) -> None:
    assert standard.name == "standard"
    assert standard.n_cells == 16
    assert standard.shape == (4, 4)
    assert standard.cells == tuple((r, c) for r in range(4) for c in range(4))
    assert standard.cell_index(2, 3) == 11


def test_standard_has_exactly_the_10_lines(standard: Layout) -> None:
    rows = {frozenset(range(4 * r, 4 * r + 4)) for r in range(4)}
    cols = {frozenset(range(c, 16, 4)) for c in range(4)}
    diagonals = {frozenset({0, 5, 10, 15}), frozenset({3, 6, 9, 12})}
    lines = standard.line_cells()
    assert len(lines) == standard.n_lines == 10
    assert {frozenset(line) for line in lines} == rows | cols | diagonals
    assert standard.lines.shape == (10, 4)
    assert standard.lines.dtype == np.int64


def test_standard_neighbour_counts(standard: Layout) -> None:
    counts = (standard.neighbours >= 0).sum(axis=1).reshape(4, 4)
    assert counts.tolist() == [[3, 5, 5, 3], [5, 8, 8, 5], [5, 8, 8, 5], [3, 5, 5, 3]]
    assert standard.neighbour_cells(standard.cell_index(0, 0)) == (1, 4, 5)
    assert standard.neighbour_cells(standard.cell_index(1, 1)) == (0, 1, 2, 4, 6, 8, 9, 10)
    assert standard.neighbours.shape == (16, NEIGHBOUR_SLOTS)
    assert standard.neighbours.dtype == np.int64


def test_standard_sides_as_in_the_rules(standard: Layout) -> None:
    assert standard.players == (2, 3, 4)
    assert standard.sides_for(2) == (A,) * 16
    assert standard.sides_for(4) == (B,) * 16
    three = standard.sides_for(3)
    corners = {(0, 0), (0, 3), (3, 0), (3, 3)}
    centre = {(1, 1), (1, 2), (2, 1), (2, 2)}
    for cell, side in zip(standard.cells, three, strict=True):
        assert side is (B if cell in corners | centre else A)
    assert three.count(A) == 8
    assert standard.side_indices(3).tolist() == [1, 0, 0, 1, 0, 1, 1, 0, 0, 1, 1, 0, 1, 0, 0, 1]
    assert standard.diagram(3).splitlines() == ["BAAB", "ABBA", "ABBA", "BAAB"]


def test_arrays_are_read_only(standard: Layout) -> None:
    for array in (standard.neighbours, standard.lines):
        assert not array.flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            array[0, 0] = 3


@pytest.mark.parametrize("line", [[0, -1, 5, 10], [0, 5, 5, 10], [-1, 0, 5, 10]])
def test_the_constructor_refuses_a_line_the_kernels_would_misread(
    standard: Layout, line: list[int]
) -> None:
    """The kernels stop at a line's first -1 and count each cell once: nothing else passes."""
    lines = np.vstack([standard.lines, line])
    with pytest.raises(LayoutError, match=re.escape(f"distinct cells, then -1s; got {line}")):
        Layout("x", "", standard.cells, standard.neighbours, lines, dict(standard.sides))
    same = Layout("x", "", standard.cells, standard.neighbours, standard.lines, standard.sides)
    assert same.line_cells() == standard.line_cells()  # the lines as built pass


def test_unsupported_player_count(standard: Layout) -> None:
    with pytest.raises(ValueError, match=r"no sides for 5 players \(supported player counts"):
        standard.sides_for(5)


def test_missing_cell_index(standard: Layout) -> None:
    with pytest.raises(KeyError, match=r"no cell at \(4, 0\)"):
        standard.cell_index(4, 0)


# ---------------------------------------------------------------- every shipped layout


def check_consistent(layout: Layout) -> None:
    n = layout.n_cells
    neighbours = [set(layout.neighbour_cells(i)) for i in range(n)]
    for i, around in enumerate(neighbours):
        (r, c) = layout.cells[i]
        expected = {
            j
            for j, (r2, c2) in enumerate(layout.cells)
            if j != i and abs(r2 - r) <= 1 and abs(c2 - c) <= 1
        }
        assert around == expected
        assert all(i in neighbours[j] for j in around)  # symmetric
        row = layout.neighbours[i]
        k = len(around)
        assert sorted(row[:k].tolist()) == row[:k].tolist()
        assert (row[k:] == -1).all()
    lines = layout.line_cells()
    assert len(lines) == layout.n_lines >= 1
    assert len({frozenset(line) for line in lines}) == len(lines)
    for line, row in zip(lines, layout.lines, strict=True):
        assert len(set(line)) == len(line) >= 2
        assert all(0 <= x < n for x in line)
        assert (row[len(line) :] == -1).all()
    for players in (2, 3, 4):
        assert len(layout.sides_for(players)) == n


@pytest.mark.parametrize("name", available_layouts())
def test_shipped_layouts_load_and_are_consistent(name: str) -> None:
    layout = load_layout(name)
    assert layout.name == name
    assert layout.description
    assert layout.n_cells <= 25  # there are 25 coasters
    assert layout.sides_for(2) == (A,) * layout.n_cells
    assert layout.sides_for(4) == (B,) * layout.n_cells
    check_consistent(layout)


def test_shipped_names() -> None:
    assert {"standard", "grid-5x5", "cross", "diamond"} <= set(available_layouts())
    assert load_layout("STANDARD") == load_layout("standard")
    assert hash(load_layout("Cross")) == hash(load_layout("cross"))


def test_grid_5x5() -> None:
    layout = load_layout("grid-5x5")
    assert (layout.n_cells, layout.n_lines, layout.lines.shape) == (25, 12, (12, 5))
    assert layout.sides_for(3).count(B) == 13


def test_cross_explicit_cells_and_lines() -> None:
    layout = load_layout("cross")
    assert (layout.n_cells, layout.n_lines, layout.shape) == (20, 16, (6, 6))
    assert all(len(line) == 4 for line in layout.line_cells())
    # explicit lines equal the straight runs of 4 of the shape, diagonals included
    runs = run_lines(layout.cells, 4)
    assert {frozenset(layout.cell_index(*c) for c in run) for run in runs} == {
        frozenset(line) for line in layout.line_cells()
    }
    diagonal = frozenset(layout.cell_index(r, c) for r, c in [(0, 2), (1, 3), (2, 4), (3, 5)])
    assert diagonal in {frozenset(line) for line in layout.line_cells()}
    assert layout.diagram(3).splitlines()[2] == "BABBAB"


def test_diamond_runs_of_4() -> None:
    layout = load_layout("diamond")
    assert (layout.n_cells, layout.n_lines, layout.shape) == (25, 24, (7, 7))
    centre = layout.cell_index(3, 3)
    assert len(layout.neighbour_cells(centre)) == 8
    assert len(layout.neighbour_cells(layout.cell_index(0, 3))) == 3


def test_load_by_path(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(spec()), encoding="utf-8")
    assert load_layout(path).name == "mine"
    assert load_layout(str(path)).n_cells == 9


def test_unknown_name_lists_available() -> None:
    with pytest.raises(LayoutError, match="did you mean 'standard'") as info:
        load_layout("standrad")
    assert "grid-5x5" in str(info.value)


def test_grid_lines_and_runs() -> None:
    assert len(grid_lines(4, 4)) == 10
    assert len(grid_lines(3, 4)) == 7  # rows + columns only
    cells = [(r, c) for r in range(4) for c in range(4)]
    assert len(run_lines(cells, 4)) == 10
    assert {frozenset(x) for x in run_lines(cells, 4)} == {frozenset(x) for x in grid_lines(4, 4)}


def test_build_in_code_orders_cells_row_major() -> None:
    layout = Layout.build(
        "l", [(1, 0), (0, 0), (0, 1)], [[(0, 0), (1, 0)]], {2: [B, A, A]}, description="L"
    )
    assert layout.cells == ((0, 0), (0, 1), (1, 0))
    assert layout.sides_for(2) == (A, A, B)  # sides follow the cells as given
    assert layout.line_cells() == ((0, 2),)
    with pytest.raises(LayoutError, match=r"field cells\[1\]: duplicate cell"):
        Layout.build("dup", [(0, 0), (0, 0)], [[(0, 0), (0, 1)]], {2: "AA"})


# ---------------------------------------------------------------- errors


def spec(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "name": "mine",
        "description": "a 3x3 grid",
        "cells": {"grid": [3, 3]},
        "lines": "grid",
        "sides": {"2": "A", "3": ["BAB", "ABA", "BAB"], "4": "B"},
    }
    base.update(changes)
    return {k: v for k, v in base.items() if v is not None}


SIDES_3 = {"2": "A", "4": "B"}


@pytest.mark.parametrize(
    ("changes", "field", "reason"),
    [
        ({"sides": {**SIDES_3, "3": ["BAB", "ACA", "BAB"]}}, 'sides["3"][1]', "unknown side 'C'"),
        ({"sides": {**SIDES_3, "3": "X"}}, 'sides["3"]', "unknown side 'X'"),
        ({"sides": {**SIDES_3, "3": ["BAB", "AB", "BAB"]}}, 'sides["3"][1]', "has 2 letters"),
        ({"sides": {**SIDES_3, "3": ["BAB", "ABA"]}}, 'sides["3"]', "2 rows"),
        ({"sides": SIDES_3}, "sides", 'missing player count "3"'),
        ({"sides": {**SIDES_3, "3": "A", "three": "A"}}, 'sides["three"]', "player count"),
        ({"sides": ["A", "A", "B"]}, "sides", "expected an object"),
        ({"cells": [[0, 0], [0, 1], [0, 0]], "lines": [[[0, 0], [0, 1]]]}, "cells[2]", "duplic"),
        ({"cells": [[0, 0], [0, "1"]]}, "cells[1]", "two integers"),
        ({"cells": [[0, 0], [-1, 1]], "lines": [[[0, 0], [-1, 1]]]}, "cells[1]", "negative"),
        ({"cells": {"grid": [3, 0]}}, "cells", "positive integers"),
        ({"cells": []}, "cells", "at least one cell"),
        ({"lines": [[[0, 0], [0, 1], [0, 3]]]}, "lines[0][2]", "[0, 3] is not in the layout"),
        ({"lines": [[[0, 0], [0, 1]], [[0, 1], [0, 0]]]}, "lines[1]", "same cells as lines[0]"),
        ({"lines": [[[0, 0], [0, 0]]]}, "lines[0][1]", "appears twice"),
        ({"lines": [[[0, 0]]]}, "lines[0]", "at least 2 cells"),
        ({"lines": []}, "lines", "at least one line"),
        ({"lines": "diagonals"}, "lines", "expected"),
        ({"lines": {"runs": 4}}, "lines", "no straight run of 4"),
        ({"lines": {"runs": 1}}, "lines", "at least 2"),
        ({"cells": [[0, 0], [1, 1]]}, "lines", '"grid" lines need'),
        ({"name": None}, "name", "missing field"),
        ({"name": 3}, "name", "must be a string"),
        ({"name": " "}, "name", "empty"),
        ({"colour": "red"}, "colour", "unknown field"),
        ({"lines_note": 4}, "lines_note", "must be a string"),
        ({"lines_note": " "}, "lines_note", "empty"),
        ({"lines_notes": "x"}, "lines_notes", "did you mean 'lines_note'"),
    ],
)
def test_errors_name_file_and_field(
    tmp_path: Path, changes: dict[str, Any], field: str, reason: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(spec(**changes)), encoding="utf-8")
    with pytest.raises(LayoutError) as info:
        load_layout(path)
    error = info.value
    assert (error.source, error.field) == (str(path), field)
    assert reason in error.reason
    assert str(error).startswith(f"{path}: field {field}: ")


def test_explicit_cells_with_rows_and_list_sides(tmp_path: Path) -> None:
    data = spec(
        cells=[[1, 1], [0, 0], [0, 2], [2, 0], [2, 2]],
        lines=[[[0, 0], [1, 1], [2, 2]], [[0, 2], [1, 1], [2, 0]]],
        sides={"2": ["B", "A", "A", "A", "A"], "3": ["B.A", ".B.", "A.B"], "4": "b"},
    )
    path = tmp_path / "x.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    layout = load_layout(path)
    assert layout.cells == ((0, 0), (0, 2), (1, 1), (2, 0), (2, 2))
    assert layout.diagram(2).splitlines() == ["A.A", ".B.", "A.A"]
    assert layout.diagram(3).splitlines() == ["B.A", ".B.", "A.B"]
    assert layout.sides_for(4) == (B,) * 5
    check_consistent(layout)


@pytest.mark.parametrize(
    ("rows", "reason"),
    [(["B.A", "AB.", "A.B"], "[1, 0] is not a cell"), (["B.A", "...", "A.B"], "[1, 1] is a cell")],
)
def test_holes_in_side_rows(tmp_path: Path, rows: list[str], reason: str) -> None:
    data = spec(
        cells=[[0, 0], [0, 2], [1, 1], [2, 0], [2, 2]],
        lines=[[[0, 0], [1, 1], [2, 2]]],
        sides={"2": "A", "3": rows, "4": "B"},
    )
    path = tmp_path / "x.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(LayoutError, match=r'field sides\["3"\]\[1\]') as info:
        load_layout(path)
    assert reason in info.value.reason


def test_invalid_json_and_duplicate_keys(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"name": "x",\n "cells": [}', encoding="utf-8")
    with pytest.raises(LayoutError, match=r"invalid JSON at line 2, column 12") as info:
        load_layout(path)
    assert info.value.source == str(path)
    path.write_text('{"name": "x", "name": "y"}', encoding="utf-8")
    with pytest.raises(LayoutError, match="key 'name' appears twice"):
        load_layout(path)
    path.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(LayoutError, match="a JSON object"):
        load_layout(path)


def test_comment_keys_are_ignored(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"_comment": "mine", **spec()}), encoding="utf-8")
    assert load_layout(path).n_lines == 8


def test_layout_error_is_a_pinastats_error() -> None:
    with pytest.raises(PinastatsError, match="unknown layout 'hexagon'"):
        load_layout("hexagon")


def test_lines_note_is_read_and_compared(tmp_path: Path) -> None:
    path = tmp_path / "n.json"
    path.write_text(json.dumps(spec(lines_note="rows, columns and diagonals")), "utf-8")
    noted = load_layout(path)
    assert noted.lines_note == "rows, columns and diagonals"
    path.write_text(json.dumps(spec()), encoding="utf-8")
    plain = load_layout(path)
    assert plain.lines_note == ""
    assert plain != noted  # the same board, described differently
    assert plain.line_cells() == noted.line_cells()


# ---------------------------------------------------------------- sharing and pickling


def test_shipped_layouts_are_read_once_and_cannot_be_changed(tmp_path: Path) -> None:
    cross = load_layout("cross")
    assert load_layout(" CROSS ") is cross
    path = tmp_path / "cross.json"
    path.write_text(json.dumps(spec()), encoding="utf-8")
    assert load_layout(path) is not load_layout(path)  # a file by path is read each time
    with pytest.raises(dataclasses.FrozenInstanceError):
        cross.name = "plus"  # type: ignore[misc]
    with pytest.raises(TypeError):
        cross.sides[2] = ()  # type: ignore[index]
    for array in (cross.neighbours, cross.lines):
        with pytest.raises(ValueError, match="WRITEABLE"):
            array.setflags(write=True)


@pytest.mark.parametrize("name", available_layouts())
@pytest.mark.parametrize("clone", [lambda x: pickle.loads(pickle.dumps(x)), copy.deepcopy])
def test_pickle_and_deepcopy_round_trip(name: str, clone: Callable[[Layout], Layout]) -> None:
    layout = load_layout(name)
    copied = clone(layout)
    assert copied is not layout
    assert copied == layout
    assert hash(copied) == hash(layout)
    assert (copied.name, copied.description, copied.lines_note) == (
        layout.name,
        layout.description,
        layout.lines_note,
    )
    assert copied.cells == layout.cells
    for mine, theirs in ((copied.neighbours, layout.neighbours), (copied.lines, layout.lines)):
        assert mine.dtype == np.int64
        assert (mine == theirs).all()
        assert not mine.flags.writeable
    assert dict(copied.sides) == dict(layout.sides)
    row, col = layout.cells[-1]
    assert copied.cell_index(row, col) == layout.n_cells - 1


def test_a_game_pickles() -> None:
    game = Game.new(seed=3, config=GameConfig(players=3, layout=load_layout("diamond")))
    copied = pickle.loads(pickle.dumps(game))
    assert copied.config == game.config
    assert copied.config.layout == load_layout("diamond")
    assert all((a == b).all() for a, b in zip(copied.state, game.state, strict=True))
    assert copied.to_move == game.to_move
