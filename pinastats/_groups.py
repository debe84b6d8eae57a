"""What each kernel group of the warm-up compiles, and how (see :mod:`pinastats._warmup`).

For each group, ``<name>_kernels()`` lists the entry kernels whose cache tells
whether the group is warm, and ``<name>_compile()`` compiles the group by one
small call of its public entry points. Kernel modules are imported inside the
functions only, so that importing this module compiles and loads nothing.
"""

from __future__ import annotations

from typing import Any


def dice_kernels() -> list[Any]:
    from pinastats.dice import _kernels

    return [_kernels._solve_free, _kernels._solve_sticky]


def dice_compile() -> None:
    from pinastats.dice import Combination, solve_turn

    target = next(iter(Combination))
    for sticky in (False, True):
        solve_turn(target, rolls=3, sticky=sticky)


def agents_kernels() -> list[Any]:
    from pinastats._engine import decide, values

    return [values._final_values, decide._choose_keep, decide._choose_happy_hour]


def agents_compile() -> None:
    import numpy as np

    from pinastats.agents.advice import advise
    from pinastats.agents.builtin import make_agent
    from pinastats.game.game import Game
    from pinastats.game.rules import HappyHourEffect

    game = Game.new(2, seed=0)
    advise(game, [1, 2, 3, 4, 5], 2)
    rng = np.random.default_rng(0)
    agent = make_agent("strategic")  # the decisions of the readable turn (every kind: one kernel)
    agent.choose_keep(game, [1, 1, 2, 3, 4], 1, rng)
    agent.choose_placement(game, [1, 1, 1, 1, 1], rng)
    effect = HappyHourEffect.FLIP_COASTER
    agent.choose_happy_hour(game, effect, game.happy_hour_options(effect), rng)


class _FirstChoice:
    """A placeholder agent for the warm-up: keeps nothing, takes the first option."""

    name = "first choice"

    def start_turn(self, game: Any) -> None:
        """Nothing to prepare."""

    def choose_keep(self, game: Any, dice: Any, rolls_left: int, rng: Any) -> tuple[int, ...]:
        """Keep nothing (every roll is used, so Happy Hour can come)."""
        return ()

    def choose_placement(self, game: Any, dice: Any, rng: Any) -> int:
        """The first legal cell."""
        return int(game.legal_cells(dice)[0])

    def choose_happy_hour(self, game: Any, effect: Any, options: list[int], rng: Any) -> int:
        """The first option."""
        return options[0]


def rules_kernels() -> list[Any]:
    from pinastats._engine import happy_hour, rules

    return [happy_hour._apply_happy_hour, rules._end_turn, rules._deal]


def rules_compile() -> None:
    from pinastats.game.config import GameConfig
    from pinastats.game.game import Game
    from pinastats.game.rules import Rules
    from pinastats.simulation.play import play_game

    # the rules' kernels that the readable turn calls one by one, Happy Hour included
    config = GameConfig(players=2, rules=Rules(happy_hour=True))
    for seed in range(2):
        play_game(Game.new(config=config, seed=seed), [_FirstChoice()] * 2, seed=seed)


def turn_kernels() -> list[Any]:
    from pinastats._engine import playout

    return [playout._policy_turn]


def turn_compile() -> None:
    from pinastats.game.config import GameConfig
    from pinastats.game.game import Game
    from pinastats.game.rules import Rules
    from pinastats.simulation.play import play_game

    config = GameConfig(players=2, rules=Rules(happy_hour=True))
    play_game(Game.new(config=config, seed=0), ["ev", "strategic"], seed=0, fast=True)


def games_kernels() -> list[Any]:
    from pinastats._engine import loop

    return [loop._play_games]


def games_compile() -> None:
    from pinastats.simulation.chunk import warm_up as warm_chunk

    warm_chunk()


def rollout_kernels() -> list[Any]:
    from pinastats._engine import playout

    return [playout._rollout_cell]


def rollout_compile() -> None:
    from pinastats.simulation.chunk import warm_up as warm_chunk

    warm_chunk(rollout=True)


def coach_kernels() -> list[Any]:
    from pinastats._engine import playout

    return [playout._play_outs, playout._best_keeps]


def coach_compile() -> None:
    from pinastats.coach.advice import win_advice
    from pinastats.game.game import Game

    win_advice(Game.new(2, seed=0), [1, 2, 3, 4, 5], 2, playouts=1)
