"""The built-in agents' decisions against the exact turn DP and the rules."""

from __future__ import annotations

import numpy as np
import pytest

from pinastats.agents import Agent, AgentKind, agent_names, make_agent
from pinastats.agents.advice import advise, placement_values
from pinastats.dice import dice_tables, solve_turn
from pinastats.game import Game
from pinastats.simulation import play_game
from tests.game.scenarios import mid_game


@pytest.mark.parametrize("seed", range(4))
def test_ev_keeps_are_optimal_for_this_turns_points(seed: int) -> None:
    game = mid_game(2, seed, 4, agent="greedy")
    agent = make_agent("ev")
    agent.start_turn(game)
    rng = np.random.default_rng(0)
    hands = dice_tables().hand_dice
    for h in range(0, 252, 7):
        dice = tuple(int(d) for d in hands[h])
        for rolls_left in (1, 2):
            chosen = agent.choose_keep(game, dice, rolls_left, rng)
            best = [k.keep for k in advise(game, dice, rolls_left).best_keeps]
            assert chosen in best, (dice, rolls_left, chosen, best)
            # ties go to the keep with the most dice (stopping when it is optimal)
            assert len(chosen) == max(len(k) for k in best)


@pytest.mark.parametrize("seed", range(3))
def test_ev_places_on_the_best_scoring_legal_coaster(seed: int) -> None:
    game = mid_game(2, seed, 4, agent="greedy")
    agent = make_agent("ev")
    rng = np.random.default_rng(0)
    hands = dice_tables().hand_dice
    values = placement_values(game)
    for h in range(252):
        dice = tuple(int(d) for d in hands[h])
        legal = game.legal_placements(dice)
        if not legal:
            assert values[h] == 0
            continue
        cell = agent.choose_placement(game, dice, rng)
        points = {p.cell: p.points for p in legal}
        assert points[cell] == max(points.values()) == values[h]


def test_greedy_keeps_toward_its_most_reachable_open_coaster() -> None:
    game = Game.from_board(
        [["full house", "pair of 1s", "pair of 2s", "pair of 3s"],
         ["pair of 4s", "pair of 5s", "pair of 6s", "double pair"],
         ["three 1s", "three 2s", "three 3s", "three 4s"],
         ["three 5s", "three 6s", "odds", "evens"]]
    )  # fmt: skip
    agent = make_agent("greedy")
    agent.start_turn(game)
    keep = agent.choose_keep(game, (1, 2, 3, 5, 6), 2, np.random.default_rng(0))
    # every pair coaster is open: the most reachable target is a pair; keep one die
    best_pair = max(solve_turn(f"pair of {v}s").hand_value((1, 2, 3, 5, 6), 2) for v in range(1, 7))
    assert best_pair > 0.5
    assert len(keep) == 1


def test_random_agent_rolls_once() -> None:
    game = Game.new(players=2, seed=3)
    agent = make_agent("random")
    agent.start_turn(game)
    assert agent.choose_keep(game, (1, 2, 3, 4, 6), 2, np.random.default_rng(0)) == (
        1, 2, 3, 4, 6,
    )  # fmt: skip


def test_agent_names_and_parameters() -> None:
    kernel = ["random", "greedy", "ev", "strategic", "rollout", "value"]
    assert agent_names() == [*kernel, "coach", "perfect", "search"]
    a = make_agent("strategic(line=4, block=1)")
    assert a.kind is AgentKind.STRATEGIC
    assert a.params == {"line": 4.0, "block": 1.0}
    assert make_agent("rollout(rollouts=8,policy=ev)").name == "rollout(rollouts=8,policy=ev)"
    assert make_agent(Agent(AgentKind.EV)).kind is AgentKind.EV


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("evv", "unknown agent 'evv'; did you mean 'ev'"),
        ("ev(line=2)", "takes no parameters"),
        ("strategic(depth=2)", "unknown parameter 'depth'"),
        ("strategic(line=x)", "line must be a number"),
        ("strategic(line=2", "parentheses"),
        ("rollout(rollouts=2.5)", "whole number"),
        ("rollout(policy=rollout)", "policy must be one of"),
        ("strategic(line=nan)", "line must be a finite number from -1e.09 to 1e.09, got 'nan'"),
        ("strategic(line=1e400)", "line must be a finite number .*, got '1e400'"),
        ("strategic(win=inf)", "win must be a finite number .*, got 'inf'"),
        ("strategic(block=-2e9)", "block must be a finite number from -1e.09"),
        ("strategic(line=1,line=2)", "parameter 'line' is given twice"),
        ("rollout(rollouts=inf)", "rollouts must be a whole number from 1 to 10,000 .*got 'inf'"),
        ("rollout(rollouts=nan)", "rollouts must be a whole number .*got 'nan'"),
        ("rollout(rollouts=1e12)", "from 1 to 10,000 .play-outs per placement., got '1e12'"),
    ],
)
def test_bad_agent_specs_are_named(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        make_agent(spec)


@pytest.mark.parametrize("agents", [["ev", "strategic"], ["random", "greedy"]])
def test_python_and_kernel_paths_play_the_same_game(agents: list[str]) -> None:
    for seed in range(3):
        slow = play_game(Game.new(players=2, seed=seed), agents, seed=seed, fast=False)
        fast = play_game(Game.new(players=2, seed=seed), agents, seed=seed, fast=True)
        for a, b in zip(slow.state, fast.state, strict=True):
            np.testing.assert_array_equal(a, b)
        assert slow.is_over
