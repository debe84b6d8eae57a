"""Happy Hour needs all the turn's rolls: an early stop with nothing to place passes.

Rulebook: "if you can't place any tokens after your 3 rolls"; with a longer
turn (``Rules(rolls=n)``) all ``n`` rolls are meant.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from pinastats._engine import values as AV
from pinastats._engine.kinds import K_EV
from pinastats.agents import make_agent
from pinastats.agents.tables import workspace
from pinastats.dice import dice_tables
from pinastats.game import Game, GameConfig, IllegalMoveError
from pinastats.game.rules import HappyHourEffect, Rules
from pinastats.simulation.play import play_turn
from tests.game.scenarios import game

HH = Rules(happy_hour=True)
NOTHING = (1, 2, 4, 5, 6)  # matches no coaster of the scenario board


def test_a_turn_that_stopped_early_passes_without_the_die() -> None:
    g = game(rules=HH, scores=[5, 5])
    with pytest.raises(IllegalMoveError, match="only after the last roll"):
        g.end_turn_without_placement(NOTHING, happy_hour=6, rolls_used=1)
    g.end_turn_without_placement(NOTHING, rolls_used=2)
    assert g.scores == (5, 5)
    assert g.to_move == 1


def test_after_the_last_roll_the_die_is_compulsory() -> None:
    g = game(rules=HH, scores=[5, 5])
    with pytest.raises(ValueError, match="used all 3 rolls"):
        g.end_turn_without_placement(NOTHING, rolls_used=3)
    g.end_turn_without_placement(NOTHING, happy_hour=6, rolls_used=3)
    assert g.scores == (9, 5)


def test_a_longer_turn_needs_all_its_rolls() -> None:
    g = game(rules=Rules(happy_hour=True, rolls=4), scores=[5, 5])
    with pytest.raises(IllegalMoveError):
        g.end_turn_without_placement(NOTHING, happy_hour=6, rolls_used=3)
    g.end_turn_without_placement(NOTHING, rolls_used=3)
    g.end_turn_without_placement(NOTHING, happy_hour=6, rolls_used=4)
    assert g.scores == (5, 9)


@pytest.mark.parametrize("bad", [0, 4, -1, True, 2.0])
def test_rolls_used_is_checked(bad: object) -> None:
    with pytest.raises(ValueError, match="rolls used"):
        game(rules=HH).end_turn_without_placement(NOTHING, rolls_used=bad)  # type: ignore[arg-type]


EACH_EFFECT = 10
"""Happy Hours of each effect an agent's games must contain (each face has chance 1/6)."""


@pytest.mark.parametrize(
    ("agent", "n_games"),
    [
        ("random", 150),
        ("greedy", 150),
        ("ev", 150),
        ("strategic", 150),
        ("rollout(rollouts=2)", 6),
    ],
)
def test_the_die_is_rolled_only_after_all_rolls(agent: str, n_games: int) -> None:
    """Over whole games of every agent (2, 3 and 4 players in turn): Happy Hour implies all
    rolls used, and a turn that used all its rolls and placed nothing rolled the die.

    The games of the one-turn agents that reach Happy Hour contain every effect at
    least ``EACH_EFFECT`` times, so every effect's path is exercised."""
    configs = [GameConfig(players=p, rules=HH) for p in (2, 3, 4)]
    player = make_agent(agent)
    rng = np.random.default_rng(7)
    turns = 0
    effects: Counter[HappyHourEffect] = Counter()
    for seed in range(n_games):
        g = Game.new(config=configs[seed % 3], seed=seed)
        while not g.is_over:
            record = play_turn(g, player, rng)
            turns += 1
            assert 1 <= record.rolls_used <= HH.rolls
            assert len(record.keeps) == record.rolls_used - 1
            if record.happy_hour is not None:
                effects[record.happy_hour] += 1
                assert record.rolls_used == HH.rolls, record
                assert record.cell is None
            elif record.cell is None and record.rolls_used == HH.rolls:
                pytest.fail(f"a turn used every roll, placed nothing and rolled no die: {record}")
    assert turns > 10 * n_games
    if agent == "random":  # it stops after its first roll: never a Happy Hour
        assert not effects
    elif agent != "rollout(rollouts=2)":
        assert {e: effects[e] for e in HappyHourEffect if effects[e] < EACH_EFFECT} == {}


def _oracle_keep_values(final: np.ndarray, stop: np.ndarray, rolls: int) -> list[dict[int, float]]:
    """K_r(k) for r = 1 .. rolls-1 by plain loops: V_0 = final, keeping all five = stop."""
    t = dice_tables()
    hand_value = final.astype(float)
    out = []
    for _ in range(1, rolls):
        keep_value = {}
        for k in range(len(t.keep_size)):
            lo, hi = t.keep_ptr[k], t.keep_ptr[k + 1]
            if t.keep_size[k] == 5:
                keep_value[k] = float(stop[t.keep_hand[lo]])
                continue
            total = sum(
                Fraction(int(t.keep_weight[j])) * Fraction(hand_value[t.keep_hand[j]])
                for j in range(lo, hi)
            )
            keep_value[k] = float(total / 6 ** (5 - int(t.keep_size[k])))
        out.append(keep_value)
        hand_value = np.array(
            [
                max(
                    keep_value[int(k)]
                    for k in t.hand_keep[t.hand_keep_ptr[h] : t.hand_keep_ptr[h + 1]]
                )
                for h in range(252)
            ]
        )
    return out


def _die_points(g: Game) -> Fraction:
    """The mover's mean score change over the die's faces, each applied by the game itself."""
    seat, gained = g.to_move, []
    for effect in HappyHourEffect:
        after = g.copy()
        options = after.happy_hour_options(effect)
        after.end_turn_without_placement(NOTHING, int(effect), options[0] if options else None)
        gained.append(after.scores[seat] - g.scores[seat])
    return Fraction(sum(gained), len(gained))


@pytest.mark.parametrize("negative", [False, True])
@pytest.mark.parametrize("score", [0, 2, 9])
def test_ev_values_the_die_after_the_last_roll_and_a_pass_before(
    score: int, negative: bool
) -> None:
    rules = Rules(happy_hour=True, negative_scores=negative)
    g = game(rules=rules, scores=[score, 5], tokens={0: [0], 5: [1]})
    config = g.config
    work = workspace(config)
    AV._final_values(K_EV, np.zeros(6), config.board, g.state, 0, work)
    placeable = np.array(
        [
            bool(p)
            for p in (
                g.legal_placements(tuple(int(d) for d in dice_tables().hand_dice[h]))
                for h in range(252)
            )
        ]
    )
    lottery = _die_points(g)
    assert lottery == (Fraction(4 - 3, 6) if negative else Fraction(4 - min(score, 3), 6))
    assert np.all(work.final_value[~placeable] == float(lottery))
    assert np.all(work.stop_value[~placeable] == 0)
    assert np.array_equal(work.final_value[placeable], work.stop_value[placeable])
    # the agent's keeps follow the DP with these two value functions
    agent = make_agent("ev")
    rng = np.random.default_rng(0)
    oracle = _oracle_keep_values(work.final_value, work.stop_value, HH.rolls)
    t = dice_tables()
    for h in range(0, 252, 5):
        dice = tuple(int(d) for d in t.hand_dice[h])
        for rolls_left in (1, 2):
            keep = agent.choose_keep(g, dice, rolls_left, rng)
            values = oracle[rolls_left - 1]
            keeps = t.hand_keep[t.hand_keep_ptr[h] : t.hand_keep_ptr[h + 1]]
            best = max(values[int(k)] for k in keeps)
            assert values[t.keep_index(keep)] == pytest.approx(best, abs=1e-9), (dice, rolls_left)
            if not placeable[h]:  # never stop to fish for an effect the rules do not give
                assert keep != dice
