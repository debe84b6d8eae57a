"""Helpers to build rule scenarios as positions."""

from __future__ import annotations

from typing import Any

from pinastats.game.game import Game
from pinastats.game.position import game_from_position
from pinastats.game.rules import Rules

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
