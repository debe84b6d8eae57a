"""The solution in use: the perfect agent, exact advice and ``pinastats solve``."""

from __future__ import annotations

import json
from collections.abc import Callable

import numpy as np
import pytest

from pinastats.agents import make_agent
from pinastats.agents.builtin import AgentError, check_plays
from pinastats.evaluation import ExactEvaluator
from pinastats.game import Game, GameConfig, Rules
from pinastats.game.notation import notation_of
from pinastats.simulation.play import play_turn
from pinastats.simulation.stats import wilson_interval
from pinastats.solve import SolveError, solve
from tests.conftest import CliResult
from tests.solve.test_solver import TINY_GAMES

Cli = Callable[..., CliResult]

SMALL = GameConfig(rules=Rules(tokens=3))
"""The 4x4 grid with 3 tokens a player: 14,793 boards, solved in about a second."""


def test_perfect_self_play_wins_as_often_as_the_solution_says() -> None:
    config, seed = TINY_GAMES["2x2, lines of 2, 3 tokens, 2 rolls"]
    start = Game.new(config=config, seed=seed)
    solution = solve(start, store=False)
    expected = solution.chances(start)[start.first_player]
    agents = [make_agent("perfect"), make_agent("perfect")]
    rng = np.random.default_rng(20261205)
    games, first_wins = 2000, 0.0
    for _ in range(games):
        game = start.copy()
        while not game.is_over:
            play_turn(game, agents[game.to_move], rng)
        first_wins += 0.5 if game.winner is None else float(game.winner == start.first_player)
    lo, hi = wilson_interval(first_wins, games)
    assert lo <= expected <= hi


def test_perfect_keeps_and_places_by_the_solution() -> None:
    game = Game.new(config=SMALL, seed=4)
    solution = solve(game)
    agent = make_agent("perfect")
    rng = np.random.default_rng(0)
    dice = (2, 2, 3, 5, 6)
    keeps = solution.keeps(game, dice, 2)
    assert tuple(agent.choose_keep(game, dice, 2, rng)) == keeps.loc[keeps["best"], "keep"].item()
    assert keeps["chance"].is_monotonic_decreasing
    assert keeps["regret"].min() == 0.0
    for dice in ((1, 1, 1, 1, 1), (1, 1, 1, 1, 3)):  # several cells open to each
        placements = solution.placements(game, dice)
        assert len(placements) > 1
        best = placements["cell"].iloc[int(placements["chance"].to_numpy().argmax())]
        assert agent.choose_placement(game, dice, rng) == best
        assert placements.loc[placements["best"], "cell"].item() == best


def test_the_perfect_agent_refuses_games_the_solver_does_not_cover() -> None:
    perfect = make_agent("perfect")
    check_plays(perfect, SMALL)
    for config in (GameConfig(players=3), GameConfig(rules=Rules(happy_hour=True))):
        with pytest.raises(AgentError, match="perfect"):
            check_plays(perfect, config)
    with pytest.raises(AgentError, match="takes no parameters"):
        make_agent("perfect(depth=2)")


def test_exact_advice_is_the_solution_s() -> None:
    game = Game.new(config=SMALL, seed=4)
    solution = solve(game)
    dice = (1, 2, 2, 4, 5)
    advice = ExactEvaluator().advise(game, dice, 1)
    keeps = solution.keeps(game, dice, 1)
    assert advice.evaluator == "exact"
    assert advice.win_probability == pytest.approx(keeps["chance"].iloc[0], abs=1e-7)
    assert advice.win_probability_se == 0.0
    by_keep = {k.keep: k.win_probability for k in advice.keeps}
    for keep, chance in zip(keeps["keep"], keeps["chance"], strict=True):
        assert by_keep[keep] == pytest.approx(chance, abs=1e-7)


def test_exact_advice_refuses_three_players() -> None:
    with pytest.raises(SolveError, match="two players"):
        ExactEvaluator().advise(Game.new(players=3, seed=1), (1, 2, 3, 4, 5), 1)


def test_solve_command_json_and_read_back(cli: Cli) -> None:
    first = cli("solve", "--seed", "11", "--tokens", "3", "--json")
    assert first.code == 0, first.err
    data = json.loads(first.out)
    game = Game.new(config=SMALL, seed=11)
    assert data["first_player_chance_at_start"] == pytest.approx(solve(game).start_chance)
    assert data["boards"] == 14_793
    again = json.loads(cli("solve", "--seed", "11", "--tokens", "3", "--json").out)
    assert again["solved_now"] is False
    assert again["first_player_chance_at_start"] == data["first_player_chance_at_start"]


def test_solve_command_text_shows_the_chance_and_the_table(cli: Cli) -> None:
    result = cli("solve", "--position", notation_of(Game.new(config=SMALL, seed=12)))
    assert result.code == 0, result.err
    assert "First player's chance to win under perfect play:" in result.out
    assert "Table kept in" in result.out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--seed", "1", "--position", "pc1 x"), "--seed goes with a random board"),
        (("--layout", "diamond", "--seed", "1"), "at most 24 cells"),
        (("--tokens", "0"), "must be at least 1"),
    ],
)
def test_solve_command_refuses_with_one_line(cli: Cli, argv: tuple[str, ...], message: str) -> None:
    assert message in cli("solve", *argv).one_error_line()


def test_advise_is_exact_by_default_where_the_game_is_covered(cli: Cli) -> None:
    game = Game.new(config=SMALL, seed=4)
    result = cli(
        "advise", "--position", notation_of(game), "--dice", "1", "2", "2", "4", "5",
        "--rolls-left", "1", "--objective", "win", "--format", "json",
    )  # fmt: skip
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["evaluator"] == "exact"
    assert data["win_probability"] == pytest.approx(
        solve(game).keeps(game, (1, 2, 2, 4, 5), 1)["chance"].iloc[0], abs=1e-7
    )
