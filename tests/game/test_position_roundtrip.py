"""Saving a game as a position and loading it back keeps everything the rules read.

Over 1,008 simulated games (2-4 players, Happy Hour off and on, the ``greedy``
and ``strategic`` agents), after every turn (and before the first),
``game_from_position(position_of(g))`` must agree with ``g`` on every field the
state format carries:

* per cell: the coaster, its side and the seat on each space (``state.spaces``);
* per seat: score, reserve and last-placed clock (``state.players``);
* status: first player, player to move, trigger, winner, end reason, the
  turns completed (``turns``) and the placement clock (the latest
  ``last_placed``).

Not carried: the turn the end was triggered in (no rule reads it).

At a sample of turns (every 400th turn of a setup, and the first turn where a
side-B coaster has its first space free and its second taken, in up to ten
games of each Happy Hour setup) the
loaded game must also give the same legal placements with the same points for
all 252 hands, and the same Happy Hour options.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

from pinastats.agents.builtin import make_agent
from pinastats.dice import dice_tables
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.game.position import game_from_position, position_of
from pinastats.game.rules import HappyHourEffect, Rules
from pinastats.simulation.play import play_turn_fast

GAMES_PER_SETUP = 84  # 12 setups: 1,008 games
EVERY = 400  # every hand is checked every EVERY turns of a setup ...
SPLIT_CHECKS = 10  # ... and at the first split-coaster turn of up to this many games
SETUPS = list(itertools.product([2, 3, 4], [False, True], ["greedy", "strategic"]))
STATUS_CARRIED = ("first", "to_move", "trigger", "winner", "reason", "turn", "placements")


def state_differences(g: Game, loaded: Game) -> list[str]:
    """The carried fields on which ``loaded`` differs from ``g`` (empty: none)."""
    out = []
    for name in ("cell_coaster", "cell_side", "spaces", "players"):
        mine, theirs = getattr(g.state, name), getattr(loaded.state, name)
        if not np.array_equal(mine, theirs):
            out.append(f"{name}: {mine.tolist()} != {theirs.tolist()}")
    status, again = g.state.status[0], loaded.state.status[0]
    for name in STATUS_CARRIED:
        if status[name] != again[name]:
            out.append(f"{name}: {status[name]} != {again[name]}")
    return out


def split_coaster(g: Game) -> bool:
    """Whether a side-B coaster has its first space free and its second taken."""
    tokens, sides = g.state.spaces, g.state.cell_side
    return bool(((sides == 1) & (tokens[:, 0] < 0) & (tokens[:, 1] >= 0)).any())


def rule_differences(g: Game, loaded: Game) -> list[str]:
    """Hands (and Happy Hour effects) on which the two games' choices differ."""
    out = []
    if not g.is_over:
        for hand in dice_tables().hand_dice:
            dice = [int(d) for d in hand]
            if g.legal_placements(dice) != loaded.legal_placements(dice):
                out.append(f"placements for {dice}")
    if g.config.rules.happy_hour:
        for effect in HappyHourEffect:
            if g.happy_hour_options(effect) != loaded.happy_hour_options(effect):
                out.append(f"Happy Hour {effect.name} options")
    return out


def round_trip(g: Game) -> Game:
    return game_from_position(position_of(g), config=g.config)


@pytest.mark.parametrize(("players", "happy_hour", "agent"), SETUPS)
def test_every_turn_round_trips(players: int, happy_hour: bool, agent: str) -> None:
    config = GameConfig(players=players, rules=Rules(happy_hour=happy_hour))
    seed = 1000 * players + 10 * happy_hour + SETUPS.index((players, happy_hour, agent))
    rng = np.random.default_rng(seed)
    seat = make_agent(agent)
    failures: list[tuple[int, int, list[str], dict[str, Any]]] = []
    turns = checked = split_checks = 0
    for n_game in range(GAMES_PER_SETUP):
        g = Game.new(seed=rng, config=config)
        split_seen = False
        while True:
            loaded = round_trip(g)
            problems = state_differences(g, loaded)
            sample = turns % EVERY == 0
            if not split_seen and split_coaster(g):
                split_seen = True  # the first such turn of a game, in SPLIT_CHECKS games
                sample = split_checks < SPLIT_CHECKS
                split_checks += sample
            if sample:
                checked += 1
                problems += rule_differences(g, loaded)
            if problems:
                failures.append((n_game, g.turn, problems, position_of(g)))
            if g.is_over:
                break
            play_turn_fast(g, seat, rng)
            turns += 1
    assert not failures, f"{len(failures)} positions differ; first: {failures[0]}"
    assert turns > 10 * GAMES_PER_SETUP
    assert checked >= turns // EVERY


def test_happy_hour_games_reach_split_coasters_and_late_triggers() -> None:
    """The games above meet the positions this test is for (checked on one setup)."""
    config = GameConfig(players=4, rules=Rules(happy_hour=True))
    rng = np.random.default_rng(7)
    seat = make_agent("greedy")
    split = late_trigger = 0
    for _ in range(GAMES_PER_SETUP):
        g = Game.new(seed=rng, config=config)
        while not g.is_over:
            play_turn_fast(g, seat, rng)
            split += split_coaster(g)
            scores, reserves = g.scores, g.reserves
            shown = max(scores) >= config.rules.target_score or min(reserves) == 0
            late_trigger += g.trigger.value != 0 and not shown
    assert split > 0
    assert late_trigger > 0
