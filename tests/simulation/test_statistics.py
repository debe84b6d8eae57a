"""Simulated frequencies against exact values, and the strength order of the agents.

Tolerances: a frequency must lie within 4 standard errors of the exact
probability (a false alarm about once in 16,000 runs); a win rate must have its
whole 95% Wilson interval above one half.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from pinastats.agents.builtin import make_agent
from pinastats.dice.solver import solve_turn
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.game.layout import Layout, load_layout
from pinastats.game.position import game_from_position
from pinastats.simulation.play import play_turn_fast
from pinastats.simulation.runner import simulate
from tests.game.scenarios import explained_scores

# 4x4 board (cell = 4*row + col); the cell of the target is 15.
OTHERS = [
    "pair of 1s",
    "pair of 2s",
    "pair of 3s",
    "pair of 4s",
    "pair of 5s",
    "pair of 6s",
    "double pair",
    "three 1s",
    "three 2s",
    "three 3s",
    "three 4s",
    "three 5s",
    "odds",
    "evens",
    "sum <= 9",
]
# Seat 0 (to move) holds 5 coasters and has one token left; seats 1-3 fill the
# other 10 (all side A, one space). The target is the only coaster open to seat 0,
# and nobody holds a line.
OWNER = [0, 0, 0, 1, 0, 1, 1, 1, 2, 0, 2, 2, 3, 3, 3, None]
TARGET_CELL = 15


def single_target_game(target: str) -> Game:
    board = [*OTHERS, target] if target not in OTHERS else None
    assert board is not None
    tokens = [
        [[] if OWNER[4 * r + c] is None else [OWNER[4 * r + c]] for c in range(4)] for r in range(4)
    ]
    # the standard grid with every coaster on side A for 4 players (no flip: no Happy Hour)
    standard = load_layout()
    lines = [[standard.cells[c] for c in line] for line in standard.line_cells()]
    layout = Layout.build("standard, side A", standard.cells, lines, {4: "A" * 16})
    config = GameConfig(players=4, layout=layout)
    rows = [board[4 * r : 4 * r + 4] for r in range(4)]
    held = {c: [seat] for c, seat in enumerate(OWNER) if seat is not None}
    return game_from_position(
        {
            "players": 4,
            "layout": layout.name,
            "board": rows,
            "tokens": tokens,
            "scores": explained_scores(4, held, 0, rows, config),
            "to_move": 0,
        },
        config=config,
    )


@pytest.mark.parametrize("target", ["full house", "large straight", "four of a kind"])
def test_ev_agent_reaches_a_single_target_as_often_as_the_dp_says(target: str) -> None:
    game = single_target_game(target)
    assert game.reserves[0] == 1
    assert [p.cell for p in game.legal_placements(_dice_showing(target))] == [TARGET_CELL]
    agent = make_agent("ev")
    rng = np.random.default_rng(20240601)
    turns = 12_000
    hits = 0
    for _ in range(turns):
        g = game.copy()
        play_turn_fast(g, agent, rng)
        hits += g.tokens(TARGET_CELL) == (0,)
    exact = solve_turn(target).value
    se = math.sqrt(exact * (1 - exact) / turns)
    assert abs(hits / turns - exact) < 4 * se, (hits / turns, exact, se)


def _dice_showing(target: str) -> tuple[int, ...]:
    return {
        "full house": (2, 2, 2, 5, 5),
        "large straight": (2, 3, 4, 5, 6),
        "four of a kind": (3, 3, 3, 3, 1),
    }[target]


def win_interval(agents: list[str], games: int, seed: int) -> tuple[float, float]:
    """95% interval of seat 0's win rate, first player drawn at random each game."""
    result = simulate(agents, games, seed=seed, chunk_size=250, workers=2)
    row = result.seat_win_rates().iloc[0]
    return float(row.ci_low), float(row.ci_high)


@pytest.mark.parametrize(
    ("agents", "games"),
    [
        (["ev", "random"], 400),
        (["ev", "greedy"], 1_500),
        (["strategic", "ev"], 3_000),
    ],
    ids=["ev-beats-random", "ev-beats-greedy", "strategic-beats-ev"],
)
def test_strength_order(agents: list[str], games: int) -> None:
    low, _ = win_interval(agents, games, seed=5)
    assert low > 0.5
    # and from the other seat too
    _, swapped_high = win_interval(agents[::-1], games, seed=6)
    assert swapped_high < 0.5
