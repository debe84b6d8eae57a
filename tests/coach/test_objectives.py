"""Points against winning: the sampled decisions, their cells and their situations."""

from __future__ import annotations

import itertools
from typing import Any

import pandas as pd
import pytest

from pinastats.coach.objectives import compare_objectives, situation
from pinastats.errors import PinastatsError
from pinastats.game import Game
from pinastats.game.position import game_from_position, position_of
from tests.game.scenarios import explained_scores, explaining_config

ALL_DICE = list(itertools.combinations_with_replacement(range(1, 7), 5))


@pytest.fixture(scope="module")
def small() -> pd.DataFrame:
    return compare_objectives(4, playouts=8, seed=11).frame


def _position(tokens: dict[int, int], scores: list[int] | None = None, to_move: int = 0) -> Game:
    """Game 1's board with ``tokens`` (cell -> seat) on side A cells, these scores (default:
    those the tokens explain; others are explained by the starting scores of the config)."""
    data: dict[str, Any] = position_of(Game.new(2, seed=1))
    data["tokens"] = [[[tokens[r * 4 + c]] if r * 4 + c in tokens else [] for c in range(4)]
                      for r in range(4)]  # fmt: skip
    held = {cell: [seat] for cell, seat in tokens.items()}
    data["scores"] = scores or explained_scores(2, held, 0, data["board"])
    data["to_move"], data["first_player"] = to_move, 0
    del data["last_placed"]
    del data["turns"]  # the deal's 0 turns: the fewest that reach these tokens instead
    data.pop("starting_scores", None)  # those of the config that explains the scores
    return game_from_position(data, config=explaining_config(data))


def _dice(game: Game, cell: int, legal: bool) -> tuple[int, ...]:
    """Some dice for which ``cell`` is (or is not) a legal placement, with another cell legal."""
    for dice in ALL_DICE:
        cells = game.legal_cells(dice)
        if (cell in cells) == legal and len(cells) >= 1:
            return dice
    raise AssertionError(f"no dice with cell {cell} legal={legal}")


def test_same_seed_same_frame(small: pd.DataFrame) -> None:
    again = compare_objectives(4, playouts=8, seed=11, workers=2).frame
    pd.testing.assert_frame_equal(small, again)


def test_another_seed_other_decisions(small: pd.DataFrame) -> None:
    other = compare_objectives(4, playouts=8, seed=12).frame
    assert not small[["turn", "dice"]].equals(other[["turn", "dice"]])


def test_columns(small: pd.DataFrame) -> None:
    assert list(small.columns) == [
        "game", "turn", "seat", "dice", "options", "situation", "points_cell", "win_cell",
        "agree", "points_cell_win", "win_cell_win", "win_gain", "win_gain_se",
    ]  # fmt: skip
    assert len(small) == 4
    assert (small["options"] >= 2).all()
    assert set(small["situation"]) <= {"block", "race", "last token", "other"}


def test_agree_means_the_same_cell(small: pd.DataFrame) -> None:
    assert (small["agree"] == (small["points_cell"] == small["win_cell"])).all()
    assert (small.loc[small["agree"], "win_gain"] == 0).all()


def test_the_coach_cell_wins_at_least_as_often(small: pd.DataFrame) -> None:
    # both cells are valued by the same play-outs, and the coach takes the best of them
    assert (small["win_cell_win"] >= small["points_cell_win"] - 1e-12).all()
    gain = small["win_cell_win"] - small["points_cell_win"]
    assert ((small["win_gain"] - gain).abs() < 1e-12).all()
    assert small["points_cell_win"].between(0, 1).all()


def test_by_situation_adds_up(small: pd.DataFrame) -> None:
    table = compare_objectives(4, playouts=8, seed=11).by_situation()
    every = table[table["situation"] == "all"].iloc[0]
    assert every["positions"] == 4
    assert every["disagreements"] == int((~small["agree"]).sum())
    parts = table[table["situation"] != "all"]
    assert parts["positions"].sum() == 4
    assert (table["share_low"] <= table["share"]).all()
    assert (table["share"] <= table["share_high"]).all()


def test_a_block_position() -> None:
    # seat 1 holds cells 0, 1, 2 of the top row; cell 3 completes it
    game = _position({0: 1, 1: 1, 2: 1, 9: 0})
    assert situation(game, _dice(game, 3, legal=True)) == "block"
    assert situation(game, _dice(game, 3, legal=False)) == "other"


def test_the_movers_own_line_is_no_block() -> None:
    game = _position({0: 0, 1: 0, 2: 0, 9: 1})
    assert situation(game, _dice(game, 3, legal=True)) == "other"


def test_a_race_position() -> None:
    target = Game.new(2, seed=1).config.rules.target_score
    near = _position({5: 0, 10: 1}, [3, target - 5])
    assert situation(near, _dice(near, 0, legal=True)) == "race"
    far = _position({5: 0, 10: 1}, [3, target - 6])
    assert situation(far, _dice(far, 0, legal=True)) == "other"


def test_a_last_token_position() -> None:
    tokens = Game.new(2, seed=1).config.rules.tokens
    cells = [0, 1, 2, 4, 8, 6, 11][: tokens - 1]
    game = _position(dict.fromkeys(cells, 0))
    assert game.reserves[0] == 1
    free = next(c for c in range(16) if c not in cells)
    assert situation(game, _dice(game, free, legal=True)) == "last token"


def test_bad_settings_are_named() -> None:
    with pytest.raises(PinastatsError, match="positions"):
        compare_objectives(0)
    with pytest.raises(PinastatsError, match="players"):
        compare_objectives(1, players=5)
    with pytest.raises(PinastatsError, match="strategic"):
        compare_objectives(1, policy="strategc")
