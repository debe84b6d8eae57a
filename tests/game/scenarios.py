"""Helpers to build rule scenarios as positions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from pinastats import _engine as E
from pinastats._engine import copy_state
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


def explained_scores(
    players: int,
    tokens: Mapping[int, Sequence[int | None]],
    first_player: int = 0,
    board: list[list[str]] = BOARD,
    config: GameConfig | None = None,
) -> list[int]:
    """The scores the tokens explain: the starting scores (the rulebook's, or the config's) plus
    each placement's points, the tokens placed through the engine in cell order, space by space.
    """
    if not tokens and config is None:  # the board is not read (nor checked)
        return [(seat - first_player) % players + 1 for seat in range(players)]
    g = Game.from_board(board, players=players, first_player=first_player, config=config)
    state = g.state
    for c, seats in sorted(tokens.items()):
        for space, seat in enumerate(seats):
            if seat is not None:
                state.players["score"][seat] += E.placement_points(g.config.board, state, seat, c)
                state.spaces[c, space] = seat
    return list(g.scores)


def position(
    players: int = 2,
    tokens: Mapping[int, Sequence[int | None]] | None = None,
    scores: list[int] | None = None,
    to_move: int = 0,
    **extra: Any,
) -> dict[str, Any]:
    """A position on :data:`BOARD`; ``scores`` default to those the tokens explain."""
    grid: list[list[list[int | None]]] = [[[] for _ in range(4)] for _ in range(4)]
    for c, seats in (tokens or {}).items():
        grid[c // 4][c % 4] = list(seats)
    board = extra.pop("board", BOARD)
    first = extra.get("first_player", 0)
    if scores is None:
        scores = explained_scores(players, tokens or {}, first, board)
    return {
        "players": players,
        "board": board,
        "tokens": grid,
        "scores": scores,
        "to_move": to_move,
        **extra,
    }


def explaining_config(data: Mapping[str, Any], rules: Rules | None = None) -> GameConfig:
    """A config of the position's players and ``rules`` whose starting scores make the
    position's tokens explain its scores (the rulebook's, moved by the difference)."""
    n, first = data["players"], data.get("first_player", 0)
    rows = enumerate(data["tokens"])
    tokens = {r * 4 + c: seats for r, row in rows for c, seats in enumerate(row)}
    made = explained_scores(n, tokens, first, data["board"])
    starts = [0] * n
    for seat in range(n):
        turn = (seat - first) % n
        starts[turn] = turn + 1 + data["scores"][seat] - made[seat]
    return GameConfig(players=n, rules=rules or Rules(), starting_scores=tuple(starts))


def game(
    players: int = 2,
    tokens: Mapping[int, Sequence[int | None]] | None = None,
    scores: list[int] | None = None,
    to_move: int = 0,
    rules: Rules | None = None,
    **extra: Any,
) -> Game:
    """The game of :func:`position`; without Happy Hour, given ``scores`` are explained by
    the starting scores of the config (:func:`explaining_config`)."""
    data = position(players, tokens, scores, to_move, **extra)
    if scores is None or (rules is not None and rules.happy_hour):
        return game_from_position(data, rules=rules)
    return game_from_position(data, config=explaining_config(data, rules))


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


def emptied(g: Game, seat: int) -> Game:
    """``g`` with the reserve of ``seat`` emptied and judged again, through ``Game.from_state``:
    for ``seat`` yet to play in the round, a state no game reaches (nor a position loads)."""
    state = copy_state(g.state)
    state.players["reserve"][seat] = 0
    return Game.from_state(g.config, state, judge=True)


def rulebook_scoring_example() -> Game:
    """Rulebook: "placed a token on the second Full House space: 3 points + 3 adjacent
    tokens = 6 points" (4 players: every coaster on side B); seat 0 to move."""
    fh = cell(2, 2)
    return game(players=4, tokens={fh: [1], cell(1, 1): [0], cell(1, 2): [0], cell(2, 1): [0]})
