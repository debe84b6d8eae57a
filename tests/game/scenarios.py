"""Helpers to build rule scenarios as positions."""

from __future__ import annotations

from typing import Any

import numpy as np

from pinastats.agents import make_agent
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.game.position import game_from_position
from pinastats.game.rules import Rules
from pinastats.simulation.play import play_turn_fast

ROLL_EXAMPLE = (5, 5, 5, 3, 3)
"""The rulebook's roll example: a pair, three of a kind and a full house at once."""

# a 4x4 board using 16 distinct coasters of the default catalogue
BOARD = [
    ["pair of 1s", "pair of 2s", "pair of 3s", "pair of 4s"],
    ["pair of 5s", "pair of 6s", "double pair", "three 1s"],
    ["three 2s", "three 3s", "full house", "three 5s"],
    ["odds", "evens", "small straight", "large straight"],
]


def cell(row: int, col: int) -> int:
    return row * 4 + col


def position(
    players: int = 2,
    tokens: dict[int, list[int]] | None = None,
    scores: list[int] | None = None,
    to_move: int = 0,
    **extra: Any,
) -> dict[str, Any]:
    grid: list[list[list[int]]] = [[[] for _ in range(4)] for _ in range(4)]
    for c, seats in (tokens or {}).items():
        grid[c // 4][c % 4] = list(seats)
    return {
        "players": players,
        "board": extra.pop("board", BOARD),
        "tokens": grid,
        "scores": scores if scores is not None else list(range(1, players + 1)),
        "to_move": to_move,
        **extra,
    }


def game(
    players: int = 2,
    tokens: dict[int, list[int]] | None = None,
    scores: list[int] | None = None,
    to_move: int = 0,
    rules: Rules | None = None,
    **extra: Any,
) -> Game:
    return game_from_position(position(players, tokens, scores, to_move, **extra), rules=rules)


def mid_game(
    players: int, seed: int, turns: int, happy_hour: bool = False, agent: str = "random"
) -> Game:
    """A position reached by ``turns`` turns of ``agent`` self-play (fewer if it ends)."""
    config = GameConfig(players=players, rules=Rules(happy_hour=happy_hour))
    g = Game.new(config=config, seed=seed)
    rng = np.random.default_rng(seed)
    player = make_agent(agent)
    for _ in range(turns):
        if g.is_over:
            break
        play_turn_fast(g, player, rng)
    return g


def rulebook_scoring_example() -> Game:
    """Rulebook: "placed a token on the second Full House space: 3 points + 3 adjacent
    tokens = 6 points" (4 players: every coaster on side B); seat 0 to move."""
    fh = cell(2, 2)
    return game(players=4, tokens={fh: [1], cell(1, 1): [0], cell(1, 2): [0], cell(2, 1): [0]})
