"""One's own agent that raises: the error names the agent, the decision and the game, not a bug."""

from __future__ import annotations

import pickle
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pinastats.agents import PythonAgent, make_agent
from pinastats.agents.builtin import is_built_in
from pinastats.errors import AgentFailedError
from pinastats.game import Game, GameConfig
from pinastats.simulation import play_game, simulate
from pinastats.simulation.chunk import ChunkSpec, run_python_chunk
from pinastats.simulation.plan import plan_run

Cli = Callable[..., Any]  # the ``cli`` fixture of tests/conftest.py

BROKEN = """
from pinastats.agents import PythonAgent


class Broken(PythonAgent):
    def choose_placement(self, game, dice, rng):
        return {}["cell"]
"""


class Broken(PythonAgent):
    """Raises a KeyError at its first placement."""

    def choose_placement(self, game: Game, dice: Sequence[int], rng: np.random.Generator) -> int:
        cells: dict[str, int] = {}
        return cells["cell"]


class BrokenInItsSecondGame(PythonAgent):
    """Raises at a placement of the second game it plays (its copy sees one chunk's games)."""

    def __init__(self) -> None:
        self.games = 0

    def start_turn(self, game: Game) -> None:
        if game.turn < game.players:  # its first turn of a game
            self.games += 1

    def choose_placement(self, game: Game, dice: Sequence[int], rng: np.random.Generator) -> int:
        if self.games == 2:
            raise RuntimeError("second game")
        return game.legal_cells(dice)[0]


def test_simulate_names_the_agent_the_decision_and_the_game() -> None:
    with pytest.raises(AgentFailedError) as info:
        simulate([Broken(), "ev"], 3, seed=1, workers=1)
    error = info.value
    assert str(error).startswith("agent 'Broken' raised KeyError: 'cell' in choose_placement (")
    assert (error.agent, error.decision) == ("Broken", "choose_placement")
    assert error.raised == "KeyError: 'cell'"
    assert error.where.startswith("game 1, turn ")
    assert error.where.endswith(", seat 0")
    assert error.details.startswith("Traceback (most recent call last):")
    assert __file__ in error.details  # the agent's own frame
    assert "play.py" not in error.details  # not pinastats' frames
    assert error.details.rstrip().endswith("KeyError: 'cell'")


def test_the_game_number_counts_the_games_of_the_earlier_chunks() -> None:
    plan = plan_run(["ev", "ev"], 5, seed=0, chunk_size=2)
    assert [spec.first_game for spec in plan.chunks()] == [0, 2, 4]
    seats = (BrokenInItsSecondGame(), make_agent("ev"))
    spec = ChunkSpec(1, 2, np.random.SeedSequence(5), GameConfig(), seats, -1, first_game=2)
    with pytest.raises(AgentFailedError, match=r"\(game 4, turn \d+, seat 0\)"):
        run_python_chunk(spec)


def test_play_game_names_the_turn_and_seat() -> None:
    game = Game.new(players=2, seed=3)
    with pytest.raises(AgentFailedError, match=r"in choose_placement \(turn \d+, seat 1\)"):
        play_game(game, ["ev", Broken()], seed=3)


def test_the_error_pickles_whole() -> None:
    error = AgentFailedError("mine", "choose_keep", "turn 3, seat 1", "ValueError: x", "Traceback")
    copy = pickle.loads(pickle.dumps(error.in_game(7)))
    assert str(copy) == "agent 'mine' raised ValueError: x in choose_keep (game 7, turn 3, seat 1)"
    assert copy.details == "Traceback"


def test_only_the_agents_of_pinastats_are_built_in() -> None:
    assert is_built_in(make_agent("ev"))
    assert is_built_in(make_agent("coach"))
    assert not is_built_in(Broken())


def test_the_command_line_shows_the_agents_traceback_and_exits_3(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "broken.py"
    path.write_text(BROKEN)
    res = cli("simulate", "--agents", f"{path}:Broken,ev", "--games", "2", "--workers", "1",
              "--no-progress")  # fmt: skip
    assert res.code == 3
    assert res.out == ""
    lines = res.err.splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert str(path) in res.err
    assert "KeyError: 'cell'" in lines[-2]
    assert lines[-1].startswith(
        "pinastats: error: agent 'Broken' raised KeyError: 'cell' in choose_placement (game 1, "
    )
    assert lines[-1].endswith("the traceback above is the agent's own")
    assert "internal error" not in res.err
