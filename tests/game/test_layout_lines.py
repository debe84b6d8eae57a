"""The lines of the shipped layouts: what data/layouts/README.md says, and what a game does.

The straight runs are derived here from the cells' coordinates alone (walking each
maximal straight segment of the shape), not with :func:`pinastats.game.layout.run_lines`.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from pinastats.dice.combinations import Combination
from pinastats.dice.hands import dice_tables
from pinastats.game import (
    EndReason,
    Game,
    GameConfig,
    Layout,
    Trigger,
    available_layouts,
    load_catalogue,
    load_layout,
)

Cell = tuple[int, int]

README = Path(__file__).resolve().parents[2] / "data" / "layouts" / "README.md"
DIRECTIONS: tuple[Cell, ...] = ((0, 1), (1, 0), (1, 1), (1, -1))  # across, down, ↘, ↙


def straight_runs(cells: tuple[Cell, ...], length: int) -> list[tuple[Cell, ...]]:
    """Every ``length`` consecutive cells of a maximal straight segment of the shape, sorted."""
    present = set(cells)
    runs: list[tuple[Cell, ...]] = []
    for r, c in present:
        for dr, dc in DIRECTIONS:
            if (r - dr, c - dc) in present:
                continue  # not the first cell of its segment
            segment: list[Cell] = []
            while (r + len(segment) * dr, c + len(segment) * dc) in present:
                segment.append((r + len(segment) * dr, c + len(segment) * dc))
            runs += [tuple(segment[i : i + length]) for i in range(len(segment) - length + 1)]
    return sorted(runs)


def readme_runs(name: str) -> list[tuple[Cell, ...]]:
    """The lines the README says count for a shipped layout, from its cells alone."""
    return straight_runs(load_layout(name).cells, readme_run_length(name))


@functools.cache
def readme_run_length(name: str) -> int:
    """The run length the README's table gives for a layout ("every straight run of L")."""
    lines = README.read_text("utf-8").splitlines()
    rows = [line for line in lines if line.startswith(f"| `{name}` |")]
    assert len(rows) == 1, f"data/layouts/README.md has no single table row for {name!r}"
    found = re.findall(r"every straight run of (\d+)", rows[0])
    assert len(found) == 1, f"the README's row for {name!r} does not say which runs count"
    return int(found[0])


def line_coordinates(layout: Layout) -> list[frozenset[Cell]]:
    return [frozenset(layout.cells[i] for i in line) for line in layout.line_cells()]


# ---------------------------------------------------------------- what counts


@pytest.mark.parametrize("name", available_layouts())
def test_lines_are_the_straight_runs_the_readme_names(name: str) -> None:
    layout = load_layout(name)
    lines = line_coordinates(layout)
    assert len(set(lines)) == len(lines)
    assert set(lines) == {frozenset(run) for run in readme_runs(name)}
    assert f"every straight run of {readme_run_length(name)} cells" in layout.lines_note.lower()


def test_the_run_counts_by_hand() -> None:
    # standard: 4 rows + 4 columns + 2 diagonals; 5x5: 5 + 5 + 2
    assert len(straight_runs(load_layout("standard").cells, 4)) == 10
    assert len(straight_runs(load_layout("grid-5x5").cells, 5)) == 12
    assert len(straight_runs(load_layout("grid-5x5").cells, 4)) == 28
    # cross: 3 runs in each of the 2 long rows and 2 long columns, and 4 diagonals
    cross = straight_runs(load_layout("cross").cells, 4)
    assert len(cross) == 3 * 4 + 4
    assert ((0, 2), (1, 3), (2, 4), (3, 5)) in cross
    assert ((2, 5), (3, 4), (4, 3), (5, 2)) in cross
    # diamond: 2 + 4 + 2 across, as many down, and 4 + 4 diagonal
    assert len(straight_runs(load_layout("diamond").cells, 4)) == 8 + 8 + 8


# ---------------------------------------------------------------- in a game


@functools.cache
def dice_showing(combination: Combination) -> tuple[int, ...]:
    """The first of the 252 hands that shows ``combination``."""
    for dice in dice_tables().hand_dice:
        if combination.holds([int(d) for d in dice]):
            return tuple(int(d) for d in dice)
    raise AssertionError(f"no hand shows {combination.value}")


@functools.cache
def config_for(name: str) -> GameConfig:
    return GameConfig(players=2, layout=load_layout(name))


Case = tuple[str, tuple[Cell, ...]]


def line_cases() -> list[Case]:
    """Every line the README names on every shipped layout: the standard grid's diagonals,
    the cross's diagonals, the diamond's lines, the lines of 5 of the 5×5 grid, ..."""
    return [(name, run) for name in available_layouts() for run in readme_runs(name)]


def case_id(case: Case) -> str:
    name, run = case
    return f"{name}-" + "-".join(f"{r}{c}" for r, c in run)


def set_up(name: str, run: tuple[Cell, ...]) -> tuple[Game, list[int], list[int], int]:
    """A 2-player game on the layout, and cells for seat 0 (the line), seat 1 and a spare.

    The cheapest coasters (side A points) lie on the line and on seat 1's cells, so no
    score reaches the target before the line is filled. Seat 1's cells and the spare are
    off the line; the spare with the line minus its last cell fills no straight run.
    """
    config = config_for(name)
    layout = config.layout
    target = [layout.cell_index(r, c) for r, c in run]
    length = len(target)
    off = [c for c in range(layout.n_cells) if c not in target]
    mine = set(run[:-1])
    spare = next(
        c
        for c in off
        if not any(set(line) <= mine | {layout.cells[c]} for line in readme_runs(name))
    )
    theirs = [c for c in off if c != spare][: length - 1]

    cheap = sorted(load_catalogue(), key=lambda coaster: (coaster.side_a, coaster.side_b))
    order = target + theirs + [spare] + [c for c in off if c not in theirs and c != spare]
    board = [""] * layout.n_cells
    for cell, coaster in zip(order, cheap, strict=False):
        board[cell] = coaster.id
    return Game.from_board(board, config=config), target, theirs, spare


def place(game: Game, cell: int) -> None:
    game.place(cell, dice_showing(game.coaster(cell).combination))


@pytest.mark.parametrize("case", line_cases(), ids=case_id)
def test_filling_a_line_wins_at_once(case: Case) -> None:
    game, target, theirs, _ = set_up(*case)
    for k, cell in enumerate(target):
        assert game.to_move == 0
        place(game, cell)
        if k == len(target) - 1:
            break
        assert game.end_reason is EndReason.ONGOING  # one cell short or more: play on
        place(game, theirs[k])
        assert game.end_reason is EndReason.ONGOING
        assert game.trigger is Trigger.NONE
    assert game.end_reason is EndReason.PINA_COLADICE
    assert game.winner == 0
    assert game.trigger is Trigger.NONE
    assert all(game.tokens(cell) == (0,) for cell in target)


@pytest.mark.parametrize("case", line_cases(), ids=case_id)
def test_one_cell_short_of_a_line_plays_on(case: Case) -> None:
    game, target, theirs, spare = set_up(*case)
    for cell, reply in zip(target[:-1], theirs, strict=True):
        place(game, cell)
        place(game, reply)
    place(game, spare)  # every cell of the line but one, and a cell elsewhere
    assert game.end_reason is EndReason.ONGOING
    assert game.winner is None
    assert [game.tokens(cell) for cell in target] == [(0,)] * (len(target) - 1) + [()]


@pytest.mark.parametrize("name", available_layouts())
def test_the_boards_line_tables_say_what_the_lines_say(name: str) -> None:
    """``line_length`` and ``on_line`` (read by the strategic agent) from the layout's lines."""
    layout = load_layout(name)
    board = GameConfig(layout=layout).board
    assert len(board.line_length) == len(layout.lines)
    for i, line in enumerate(layout.lines):
        cells = [c for c in line if c >= 0]
        assert board.line_length[i] == len(cells)
        assert sorted(int(c) for c in board.on_line[:, i].nonzero()[0]) == sorted(cells)
