"""The Game object as a value: copies, pickling, readable forms and arrays from elsewhere."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from pinastats._engine.state import states_equal
from pinastats.errors import PinastatsError
from pinastats.game import Game, GameConfig
from pinastats.game.game import IllegalMoveError
from pinastats.game.rules import Rules
from pinastats.simulation import play_game
from tests.game.scenarios import cell as at
from tests.game.scenarios import game


def _played(seed: int, players: int = 3) -> Game:
    game = Game.new(players, seed=seed)
    rng = np.random.default_rng(seed)
    from pinastats.agents import make_agent
    from pinastats.simulation.play import play_turn

    agent = make_agent("greedy")
    for _ in range(5):
        play_turn(game, agent, rng)
    return game


@pytest.mark.parametrize(
    "clone", [Game.copy, copy.deepcopy, lambda g: pickle.loads(pickle.dumps(g))]
)
def test_a_clone_is_equal_and_independent(clone: object) -> None:
    game = _played(1)
    other = clone(game)  # type: ignore[operator]
    assert states_equal(other.state, game.state)
    assert other.config == game.config
    # playing on the clone leaves the original as it was
    before = copy.deepcopy(game.state)
    play_game(other, ["ev"] * 3, seed=2)
    assert other.is_over
    assert states_equal(game.state, before)
    assert not game.is_over


def test_clones_play_the_same_game_from_the_same_seed() -> None:
    game = _played(3)
    a = play_game(game.copy(), ["strategic"] * 3, seed=9)
    b = play_game(pickle.loads(pickle.dumps(game)), ["strategic"] * 3, seed=9)
    assert states_equal(a.state, b.state)


def test_str_draws_the_board_and_repr_names_the_game() -> None:
    game = _played(4)
    text = str(game)
    assert text.startswith(f"turn {game.turn + 1}, seat {game.to_move + 1} to move")  # from 1
    assert text.count("\n") == 4  # a status line and the 4 rows
    for cell in range(16):
        assert game.coaster(cell).combination.value[:16] in text
    assert repr(game).startswith("<Game of 3 players, standard layout")


def test_from_state_checks_the_arrays() -> None:
    game = _played(5)
    config = game.config
    state = copy.deepcopy(game.state)
    assert states_equal(Game.from_state(config, state).state, game.state)
    bad = copy.deepcopy(game.state)
    bad.spaces[0, 0] = 7
    with pytest.raises(PinastatsError, match="seats 0 to 2"):
        Game.from_state(config, bad)
    wrong = GameConfig(players=2)
    with pytest.raises(PinastatsError, match="shape"):
        Game.from_state(wrong, copy.deepcopy(game.state))


def test_rules_options_are_checked() -> None:
    with pytest.raises(PinastatsError, match="rolls must be a whole number from 1 to 6, got 0"):
        Rules(rolls=0)
    with pytest.raises(PinastatsError, match="happy_hour must be True or False"):
        Rules(happy_hour=1)  # type: ignore[arg-type]


def test_an_unpickled_game_has_the_array_types_the_kernels_were_compiled_for() -> None:
    game = _played(2)
    again = pickle.loads(pickle.dumps(game))
    # the board's read-only arrays stay so (a writeable copy would compile the kernels anew)
    board = [a for a in game.config.board if isinstance(a, np.ndarray)]
    assert not all(a.flags.writeable for a in board)
    for before, after in zip(game.config.board, again.config.board, strict=True):
        if isinstance(before, np.ndarray):
            assert after.flags.writeable == before.flags.writeable
    for before, after in zip(game.state, again.state, strict=True):
        assert (after.dtype, after.flags.writeable) == (before.dtype, before.flags.writeable)


@pytest.mark.parametrize(
    ("record", "field", "value"),
    [("players", "score", 2**63 - 1), ("players", "score", -(2**63)),
     ("players", "last_placed", 2**63 - 1), ("players", "reserve", 7),
     ("status", "placements", 2**63 - 1), ("status", "turn", -1)],
)  # fmt: skip
def test_from_state_refuses_numbers_that_would_wrap_or_break_the_rules(
    record: str, field: str, value: int
) -> None:
    game = _played(5)
    bad = copy.deepcopy(game.state)
    getattr(bad, record)[field][0] = value
    with pytest.raises(PinastatsError, match=rf"state\.{record}\['{field}'\] must lie from"):
        Game.from_state(game.config, bad)


def test_from_state_names_what_it_wants_instead_of_a_wrong_object() -> None:
    game = _played(5)
    with pytest.raises(PinastatsError, match="state must be a GameState, got None"):
        Game.from_state(game.config, None)  # type: ignore[arg-type]
    with pytest.raises(PinastatsError, match="config must be a GameConfig, got 'x'"):
        Game.from_state("x", game.state)  # type: ignore[arg-type]


def test_a_game_won_by_a_line_has_no_legal_placement() -> None:
    row = [at(0, c) for c in range(4)]  # seat 0 holds the top row: PIÑA COLADICE
    g = game(tokens={c: [0] for c in row}, to_move=1)
    assert (g.is_over, g.winner) == (True, 0)
    for dice in ([5, 5, 5, 3, 3], [1, 1, 2, 2, 3], [6, 6, 6, 6, 6]):
        assert g.legal_cells(dice) == ()
        assert g.legal_placements(dice) == []
        with pytest.raises(IllegalMoveError, match="the game is over"):
            g.place(at(2, 2), dice)
