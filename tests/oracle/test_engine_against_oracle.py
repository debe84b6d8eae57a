"""The engine against the reference engine (:mod:`tests.oracle.reference_engine`), turn by turn.

Each game is played through the public API: ``Game.new`` deals it and
``play_turn`` plays every turn with the built-in agents' decisions. The
reference engine deals the same game from the same seed, then replays each
turn's record (rolls, keeps, cell, Happy Hour die and choice): it refuses a
move the rules forbid, and the points, the open cells, the Happy Hour options
and the whole state after the turn (scores, reserves, coasters, sides, the seat
on every token space, turn, mover, tie-break order, trigger, end reason,
winner) must be its own. ``play_game`` then plays the game again on the kernel
turn, which must end the same way. The ``random`` agent's games are also
compared draw for draw with the games the simulator plays.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest

from pinastats.agents import make_agent
from pinastats.game import EndReason, Game, GameConfig, HappyHourEffect, Rules, load_layout
from pinastats.simulation import play_game, play_turn
from tests.oracle.reference_engine import (
    FREE,
    ReferenceGame,
    Table,
    check_same_games,
    final_dice,
)

View = dict[str, Any]

AGENT_SETS = (
    ("random",) * 4,
    ("greedy",) * 4,
    ("ev",) * 4,
    ("strategic",) * 4,
    ("strategic", "ev", "greedy", "random"),
)
"""The seats of each game (the first ``players`` of them)."""

GAMES = 8
"""Games per agent set in each case."""

RULES = {
    "plain": Rules(),
    "happy hour": Rules(happy_hour=True),
    "happy hour, negative scores": Rules(happy_hour=True, negative_scores=True),
}


def engine_view(game: Game) -> View:
    """What the rules decide about a game, read through the public API."""
    n = game.players
    last = game.last_placed
    return {
        "first": game.first_player,
        "to_move": game.to_move,
        "turn": game.turn,
        "scores": list(game.scores),
        "reserves": list(game.reserves),
        "cells": [(c.coaster, c.side, c.spaces) for c in game.cells],
        "placed order": sorted((p for p in range(n) if last[p] > 0), key=lambda p: last[p]),
        "trigger": game.trigger.name,
        "reason": game.end_reason.name,
        "winner": game.winner,
    }


def oracle_view(ref: ReferenceGame) -> View:
    """The same reading of a reference game."""
    n = ref.table.players
    cells = [
        (ref.table.ids[k], "AB"[side], tuple(None if s == FREE else s for s in seats[: 1 + side]))
        for k, side, seats in zip(ref.coaster, ref.side, ref.spaces, strict=True)
    ]
    return {
        "first": ref.first,
        "to_move": ref.mover,
        "turn": ref.turn,
        "scores": ref.score,
        "reserves": ref.reserve,
        "cells": cells,
        "placed order": sorted((p for p in range(n) if ref.last[p] > 0), key=lambda p: ref.last[p]),
        "trigger": ref.trigger.name,
        "reason": ref.reason.name,
        "winner": ref.winner,
    }


def play_against_oracle(
    config: GameConfig, table: Table, seats: tuple[str, ...], seed: int
) -> Counter[str]:
    """Play one game on both engines, comparing them after every turn; what came up.

    The events counted: each Happy Hour effect applied (its name), a score below 0,
    the end reason, and a line completed by a token moved by Happy Hour.
    """
    game = Game.new(seed=seed, config=config)
    ref = ReferenceGame.deal(table, np.random.default_rng(seed).random)
    assert engine_view(game) == oracle_view(ref), "the deal"
    agents = [make_agent(name) for name in seats]
    rng = np.random.default_rng(seed)
    events: Counter[str] = Counter()
    while not game.is_over:
        before = game.copy()
        if config.rules.happy_hour:
            for effect in HappyHourEffect:
                assert before.happy_hour_options(effect) == ref.happy_hour_options(effect), effect
        record = play_turn(game, agents[game.to_move], rng)
        where = f"seed {seed}, turn {ref.turn}: {record}"
        assert record.player == ref.mover, where
        dice = final_dice(record.rolls, record.keeps, config.rules.rolls)
        assert list(before.legal_cells(dice)) == ref.legal_cells(dice), where
        points = ref.play_turn(
            dice, record.rolls_used, record.cell, record.happy_hour, record.happy_hour_option
        )
        assert record.points == points, where
        assert engine_view(game) == oracle_view(ref), where
        if record.happy_hour is not None and record.happy_hour_option is not None:
            events[record.happy_hour.name] += 1
            moved = record.happy_hour is HappyHourEffect.MOVE_OTHER_TOKEN
            events["line by a moved token"] += moved and ref.reason is EndReason.PINA_COLADICE
        events["score below 0"] += min(ref.score) < 0
    events[ref.reason.name] += 1
    fast = play_game(Game.new(seed=seed, config=config), seats, seed=seed)
    assert engine_view(fast) == oracle_view(ref), f"seed {seed}: the kernel turn"
    return +events


def play_cases(config: GameConfig, games: int) -> Counter[str]:
    """``games`` games of each agent set on both engines; the events that came up."""
    table = Table.of(config)
    events: Counter[str] = Counter()
    for i, seats in enumerate(AGENT_SETS):
        for seed in range(games):
            events += play_against_oracle(config, table, seats[: config.players], 100 * i + seed)
    return events


@pytest.mark.parametrize("rules", list(RULES))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_games_agree_turn_by_turn(players: int, rules: str) -> None:
    events = play_cases(GameConfig(players=players, rules=RULES[rules]), GAMES)
    assert {"PINA_COLADICE", "SCORE", "TOKENS"} <= set(events)
    if RULES[rules].happy_hour:  # the effects with a choice came up, and their options agreed
        assert {"REMOVE_OWN_TOKEN", "MOVE_OTHER_TOKEN", "FLIP_COASTER"} <= set(events)


EFFECTS = {effect.name for effect in HappyHourEffect}


@pytest.mark.parametrize(
    ("board", "players", "rules", "starting_scores", "expected"),
    [
        ("cross", 2, Rules(happy_hour=True, rolls=2), None, {"MOVE_OTHER_TOKEN"}),
        ("diamond", 3, Rules(happy_hour=True, negative_scores=True, rolls=1), (0, 0, 0),
         EFFECTS | {"score below 0"}),
        ("standard", 3, Rules(happy_hour=True, rolls=1), None, {"line by a moved token"}),
        ("grid-5x5", 4, Rules(target_score=12, tokens=4, max_turns=10), (0, 0, 5, 5),
         {"SCORE", "TURN_LIMIT"}),
    ],
)  # fmt: skip
def test_other_boards_and_rules_agree(
    board: str,
    players: int,
    rules: Rules,
    starting_scores: tuple[int, ...] | None,
    expected: set[str],
) -> None:
    layout = load_layout(board)
    config = GameConfig(players, layout=layout, rules=rules, starting_scores=starting_scores)
    events = play_cases(config, GAMES)
    assert expected <= set(events), events


@pytest.mark.parametrize("happy_hour", [False, True])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_draw_for_draw(players: int, happy_hour: bool) -> None:
    config = GameConfig(players=players, rules=Rules(happy_hour=happy_hour))
    assert check_same_games(config, 100, seed=players)
