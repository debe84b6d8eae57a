"""Python agents in simulate: the Python chunk plays the kernel chunk's games, reproducibly."""

from __future__ import annotations

import importlib.util
import pickle
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from pinastats.agents import PythonAgent, make_agent
from pinastats.game.config import GameConfig
from pinastats.game.game import Game, IllegalMoveError
from pinastats.game.rules import Rules
from pinastats.simulation import simulate
from pinastats.simulation.chunk import ChunkSpec, run_chunk, run_python_chunk

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


class RandomCell(PythonAgent):
    """Keeps a random part of the dice and places on a random legal cell (draws from rng)."""

    name = "random cell"

    def choose_keep(
        self, game: Game, dice: Sequence[int], rolls_left: int, rng: np.random.Generator
    ) -> Sequence[int]:
        return [d for d in dice if rng.random() < 0.5]

    def choose_placement(self, game: Game, dice: Sequence[int], rng: np.random.Generator) -> int:
        cells = game.legal_cells(dice)
        return cells[int(rng.integers(len(cells)))]


def corner_agent() -> Any:
    spec = importlib.util.spec_from_file_location("corner_agent", EXAMPLES / "corner_agent.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["corner_agent"] = module
    spec.loader.exec_module(module)
    return module.CornerAgent()


@pytest.mark.parametrize(
    ("players", "happy_hour", "first_seat", "agents"),
    [
        (2, False, -1, ("random", "strategic")),
        (2, True, 1, ("ev", "greedy")),
        (3, True, -1, ("strategic(line=4)", "random", "ev")),
        (4, False, 2, ("greedy", "ev", "random", "strategic")),
        (2, True, -1, ("rollout(rollouts=2)", "strategic")),  # the rollout agent's game loop
        (3, False, -1, ("random", "rollout(rollouts=3,policy=ev)", "greedy")),
    ],
)
def test_the_python_chunk_plays_the_kernel_chunks_games(
    players: int, happy_hour: bool, first_seat: int, agents: tuple[str, ...]
) -> None:
    config = GameConfig(players=players, rules=Rules(happy_hour=happy_hour))
    seats = tuple(make_agent(a) for a in agents)
    games = 12 if any(a.startswith("rollout") for a in agents) else 150
    spec = ChunkSpec(0, games, np.random.SeedSequence([7, players]), config, seats, first_seat)
    kernel, python = run_chunk(spec), run_python_chunk(spec)
    assert kernel.keys() == python.keys()
    for name in kernel:
        np.testing.assert_array_equal(kernel[name], python[name], err_msg=name)
    assert len(set(kernel["first"].tolist())) > 1 or first_seat >= 0


def test_a_python_agent_is_dispatched_to_the_python_chunk() -> None:
    config = GameConfig(players=2)
    spec = ChunkSpec(0, 20, np.random.SeedSequence(3), config, (RandomCell(), make_agent("ev")), -1)
    out = run_chunk(spec)
    assert out["first"].shape == (20,)
    assert (out["placed"].sum(axis=1) > 0).all()
    # the same games again from the same seed
    for name, values in run_chunk(spec).items():
        np.testing.assert_array_equal(values, out[name])


def test_the_corner_agent_plays_a_tournament_on_one_and_two_workers() -> None:
    seats: list[Any] = [corner_agent(), "strategic"]
    one = simulate(seats, 200, seed=5, workers=1, chunk_size=50)
    two = simulate(seats, 200, seed=5, workers=2, chunk_size=50)
    pd.testing.assert_frame_equal(one.games, two.games)
    np.testing.assert_array_equal(one.owners, two.owners)
    assert len(one.games) == 200
    assert one.games["winner"].isin([0, 1]).mean() > 0.9  # games end with a winner


def test_a_bad_decision_raises_a_clear_error() -> None:
    class Cheat(PythonAgent):
        def choose_keep(
            self, game: Game, dice: Sequence[int], rolls_left: int, rng: np.random.Generator
        ) -> Sequence[int]:
            return (7,)

    spec = ChunkSpec(0, 1, np.random.SeedSequence(3), GameConfig(), (Cheat(), Cheat()), -1)
    with pytest.raises(IllegalMoveError, match="'Cheat' chose a bad keep"):
        run_chunk(spec)

    class Squatter(PythonAgent):
        def choose_placement(
            self, game: Game, dice: Sequence[int], rng: np.random.Generator
        ) -> int:
            return next(c for c in range(16) if c not in game.legal_cells(dice))

    spec = ChunkSpec(0, 1, np.random.SeedSequence(3), GameConfig(), (Squatter(), Squatter()), -1)
    with pytest.raises(IllegalMoveError, match="the legal cells with the dice"):
        run_chunk(spec)


def test_python_agents_play_the_same_games_on_dask_processes(dask_scheduler: str) -> None:
    agent = RandomCell()
    assert pickle.loads(pickle.dumps(agent)).name == agent.name
    seats: list[Any] = [agent, "greedy"]
    config = GameConfig(players=2, rules=Rules(happy_hour=True))
    local = simulate(seats, 120, seed=9, config=config, workers=1, chunk_size=40)
    dask = simulate(seats, 120, seed=9, config=config, scheduler=dask_scheduler, chunk_size=40)
    assert dask.engine == "dask"
    pd.testing.assert_frame_equal(local.games, dask.games)
