"""The game in the report's words: how games end and the rules as modelled.

The sentences are built from the :class:`~pinastats.game.Rules` and the
:class:`~pinastats.game.layout.Layout` the report's games are played with (target
score, tokens, Happy Hour, the sides for each player count, the lines), so they
follow the game the numbers come from.
"""

from __future__ import annotations

from dataclasses import dataclass

from pinastats.game.layout import Cell, Layout
from pinastats.game.rules import EndReason, HappyHourEffect, Rules, end_clause, end_entry
from pinastats.game.sides import Side
from pinastats.report.text import join_words

RULES_PAGE = "docs/rules.md"
"""The project's rules page, which the report's rule interpretations follow."""

_NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
_LINE_KINDS = ("row", "column", "diagonal", "line")


@dataclass(frozen=True)
class EndWords:
    """How a game ended, as a table entry and as the end of a sentence."""

    entry: str
    """A table entry: "20 points reached, best score wins"."""
    clause: str
    """The end of a sentence ("60% of the games end ..."): "after 20 points triggered the end"."""


def end_words(rules: Rules) -> dict[EndReason, EndWords]:
    """Every way a game can end (all of :class:`EndReason` but ``ONGOING``), in its order.

    The words are the engine's (:func:`~pinastats.game.rules.end_entry`,
    :func:`~pinastats.game.rules.end_clause`), with the rules' target score.

    >>> end_words(Rules(target_score=15))[EndReason.SCORE].entry
    '15 points reached, best score wins'
    """
    target = rules.target_score
    return {
        reason: EndWords(end_entry(reason, target), end_clause(reason, target))
        for reason in EndReason
        if reason is not EndReason.ONGOING
    }


# ---------------------------------------------------------------- the board


def board_text(layout: Layout) -> str:
    """Where the coasters go: ``16 of the catalogue's coasters dealt at random into the 4×4 grid``.

    A layout that is not a full grid is named: ``20 ... into the 20 cells of the cross layout``.
    """
    rows, cols = layout.shape
    where = (
        f"the {rows}×{cols} grid" if layout.n_cells == rows * cols
        else f"the {layout.n_cells} cells of the {layout.name} layout"
    )  # fmt: skip
    return f"{layout.n_cells} of the catalogue's coasters dealt at random into {where}"


def cells_text(layout: Layout, cells: set[Cell]) -> str:
    """Some cells of a layout in words: ``the corners and the centre 2×2``.

    On a full grid of at least 3×3, cells that make up whole groups among the
    corners, the other edge cells and the centre are named by their groups;
    other cells are shown on the layout's diagram (``x`` for the cells meant).
    """
    rows, cols = layout.shape
    if layout.n_cells == rows * cols and rows >= 3 and cols >= 3:
        corners = {(r, c) for r in (0, rows - 1) for c in (0, cols - 1)}
        edges = {(r, c) for r, c in layout.cells if r in (0, rows - 1) or c in (0, cols - 1)}
        groups = (
            ("the corners", corners),
            ("the edges between the corners", edges - corners),
            (f"the centre {rows - 2}×{cols - 2}", set(layout.cells) - edges),
        )
        named = [(name, group) for name, group in groups if group and group <= cells]
        if set().union(*(group for _, group in named)) == cells:
            return join_words([name for name, _ in named])
    marks = ["x" if cell in cells else "o" for cell in layout.cells]
    grid = [["."] * cols for _ in range(rows)]
    for (r, c), mark in zip(layout.cells, marks, strict=True):
        grid[r][c] = mark
    return f"the coasters marked x in {' / '.join(''.join(row) for row in grid)}"


def sides_text(layout: Layout) -> str:
    """The side each coaster shows at setup, for every player count of the layout.

    A side's number of spaces is given the first time it is named.
    """
    told: set[Side] = set()

    def side(s: Side) -> str:
        spaces = "" if s in told else f" ({s.spaces} space{'s' * (s.spaces > 1)})"
        told.add(s)
        return f"side {s}{spaces}"

    parts = []
    for i, players in enumerate(layout.players):
        sides = layout.sides_for(players)
        if len(set(sides)) == 1:
            what = f"every coaster on {side(sides[0])}"
        else:
            b = {cell for cell, s in zip(layout.cells, sides, strict=True) if s is Side.B}
            what = f"{cells_text(layout, b)} on {side(Side.B)} and the rest on {side(Side.A)}"
        parts.append(f"{players} players {'play ' if i == 0 else ''}{what}")
    return ", ".join(parts)


def lines_text(layout: Layout) -> str:
    """What wins at once: ``four own tokens in a row, column or diagonal (10 lines)``.

    Lines of different lengths: ``own tokens filling a row or column (2 lines)``.
    """
    lines = layout.line_cells()
    kinds: list[str] = []
    for line in lines:
        (r0, c0), (r1, c1) = layout.cells[line[0]], layout.cells[line[-1]]
        kind = _line_kind(r1 - r0, c1 - c0)
        if kind not in kinds:
            kinds.append(kind)
    kinds.sort(key=_LINE_KINDS.index)
    where = f"a {join_words(kinds, 'or')} ({layout.n_lines} lines)"
    lengths = {len(line) for line in lines}
    if len(lengths) > 1:
        return f"own tokens filling {where}"
    length = lengths.pop()
    return f"{_NUMBER_WORDS.get(length, str(length))} own tokens in {where}"


def _line_kind(dr: int, dc: int) -> str:
    """A line from its first to its last cell: a row, a column, a diagonal or another line."""
    if dr == 0:
        return "row"
    if dc == 0:
        return "column"
    return "diagonal" if abs(dr) == abs(dc) else "line"


def _most_neighbours(layout: Layout) -> int:
    return int((layout.neighbours >= 0).sum(axis=1).max())


# ---------------------------------------------------------------- the rules


def happy_hour_effects(rules: Rules) -> dict[HappyHourEffect, str]:
    """What each face of the Happy Hour die does, in the effects' own words.

    "lose 3 points" says whether the score may go below 0 under ``rules``.
    """
    floor = "may go below 0" if rules.negative_scores else "not below 0"
    return {
        effect: f"{effect.words} ({floor})" if effect is HappyHourEffect.LOSE_3 else effect.words
        for effect in HappyHourEffect
    }


def rules_text(rules: Rules, layout: Layout) -> tuple[str, ...]:
    """The rule interpretations the numbers depend on, one paragraph per topic."""
    effects = list(happy_hour_effects(rules).values())
    played = "played" if rules.happy_hour else "not played"
    return (
        f"Coasters: {board_text(layout)}; {sides_text(layout)}. On side B the first token "
        "takes the first (higher or equal) value.",
        "A turn: up to three rolls of five dice; before each re-roll any dice may be kept, and "
        "dice kept earlier may be taken back (free holds). Stopping early is allowed.",
        "Placing: if the final dice match a coaster with a free space that holds none of your "
        "tokens, you must place a token on one of them; it scores the space's points plus 1 per "
        f"own token on the {_most_neighbours(layout)} neighbouring cells.",
        "Combinations: a double pair may be two pairs of one value (four and five of a kind "
        "count); a full house includes five of a kind but not 4 + 1; a large straight counts as "
        "a small straight and as all different.",
        f"End: {lines_text(layout)} win at once (PIÑA COLADICE). {rules.target_score} points "
        f"or a player's last token ({rules.tokens} to place) trigger the end; the round is "
        "completed and the best score wins. Tied leaders: the one who placed most recently "
        "wins; if none of them ever placed, a draw.",
        "Setup: the first player is drawn at random; starting scores are 1, 2, 3, 4 in turn "
        "order. Scores are not capped.",
        f"Happy Hour (variant, {played} in these simulations): a turn without a placement "
        f"rolls one die: {', '.join(effects[:-1])}, or {effects[-1]}.",
    )
