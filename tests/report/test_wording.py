"""The rules and game ends in words, built from the rule options and the board layout."""

from __future__ import annotations

import pytest

from pinastats.game import EndReason, Rules
from pinastats.game.layout import Layout, grid_lines, load_layout
from pinastats.report.wording import (
    board_text,
    end_words,
    lines_text,
    rules_text,
    sides_text,
)


def test_every_end_of_a_game_has_words() -> None:
    words = end_words(Rules())
    assert list(words) == [r for r in EndReason if r is not EndReason.ONGOING]
    entries = [w.entry for w in words.values()]
    clauses = [w.clause for w in words.values()]
    assert len(set(entries)) == len(entries)
    assert len(set(clauses)) == len(clauses)


def test_end_words_follow_the_target_score() -> None:
    score = end_words(Rules(target_score=15))[EndReason.SCORE]
    assert score.entry == "15 points reached, best score wins"
    assert score.clause == "after 15 points triggered the end"
    assert not any("20" in w.entry + w.clause for w in end_words(Rules(target_score=15)).values())


def test_the_standard_board_in_words() -> None:
    # the rulebook's board, as data/layouts/standard.json describes it
    standard = load_layout()
    assert (
        board_text(standard) == "16 of the catalogue's coasters dealt at random into the 4×4 grid"
    )
    assert sides_text(standard) == (
        "2 players play every coaster on side A (1 space), 3 players the corners and the "
        "centre 2×2 on side B (2 spaces) and the rest on side A, 4 players every coaster on side B"
    )
    assert lines_text(standard) == "four own tokens in a row, column or diagonal (10 lines)"


def test_other_boards_in_words() -> None:
    # a 5×5 grid: 5 rows, 5 columns and 2 diagonals of five; B on the corners and the centre 3×3
    cells = [(r, c) for r in range(5) for c in range(5)]
    three = "BAAAB" + "ABBBA" * 3 + "BAAAB"
    grid = Layout.build("grid", cells, grid_lines(5, 5), {2: "A" * 25, 3: three, 4: "B" * 25})
    assert board_text(grid) == "25 of the catalogue's coasters dealt at random into the 5×5 grid"
    assert "3 players the corners and the centre 3×3 on side B (2 spaces)" in sides_text(grid)
    assert lines_text(grid) == "five own tokens in a row, column or diagonal (12 lines)"
    # a plus of five cells (not a full grid): one row and one column of three, B on the tips
    plus = Layout.build(
        "plus", [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)],
        [[(1, 0), (1, 1), (1, 2)], [(0, 1), (1, 1), (2, 1)]],
        {2: "AAAAA", 3: "BBABB", 4: "BBBBB"},
    )  # fmt: skip
    assert (
        board_text(plus)
        == "5 of the catalogue's coasters dealt at random into the 5 cells of the plus layout"
    )
    assert lines_text(plus) == "three own tokens in a row or column (2 lines)"
    assert "3 players the coasters marked x in .x. / xox / .x. on side B (2 spaces)" in sides_text(
        plus
    )


def test_uneven_lines_and_sides() -> None:
    tiny = Layout.build(
        "tiny", [(0, 0), (0, 1), (0, 2), (1, 0)], [[(0, 0), (0, 1), (0, 2)], [(0, 0), (1, 0)]],
        {2: "BBBB", 3: "AAAB"},
    )  # fmt: skip
    assert lines_text(tiny) == "own tokens filling a row or column (2 lines)"
    # side B is named first, with its spaces; side A's spaces then come with its first mention
    assert sides_text(tiny) == (
        "2 players play every coaster on side B (2 spaces), 3 players the coasters marked x in "
        "ooo / x.. on side B and the rest on side A (1 space)"
    )


@pytest.mark.parametrize("happy_hour", [False, True])
def test_rules_follow_the_options(happy_hour: bool) -> None:
    rules = Rules(target_score=25, tokens=5, happy_hour=happy_hour, negative_scores=True)
    text = " ".join(rules_text(rules, load_layout()))
    assert "25 points or a player's last token (5 to place) trigger the end" in text
    played = "played" if happy_hour else "not played"
    assert f"Happy Hour (variant, {played} in these simulations)" in text
    assert "lose 3 points (may go below 0)" in text
    assert "20" not in text
    assert "6 to place" not in text
    assert "flip a coaster, or gain 4." in text


def test_default_rules_in_words() -> None:
    text = " ".join(rules_text(Rules(), load_layout()))
    assert "four own tokens in a row, column or diagonal (10 lines) win at once" in text
    assert "20 points or a player's last token (6 to place) trigger the end" in text
    assert "lose 3 points (not below 0)" in text
    assert "plus 1 per own token on the 8 neighbouring cells" in text
