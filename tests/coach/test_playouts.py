"""Play-outs: common random numbers, reproducibility, standard errors, bad settings."""

from __future__ import annotations

import numpy as np
import pytest

from pinastats.agents.builtin import make_agent
from pinastats.coach import CoachError, win_advice
from pinastats.coach.outcomes import Playouts, outcome_positions
from pinastats.coach.solve import standard_error
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.game.layout import load_layout
from pinastats.simulation.play import play_turn_fast


def _mid_game(seed: int = 5, turns: int = 5) -> Game:
    game = Game.new(2, seed=seed)
    agent, rng = make_agent("strategic"), np.random.default_rng(seed)
    for _ in range(turns):
        play_turn_fast(game, agent, rng)
    assert not game.is_over
    return game


def test_same_seed_same_answer_whatever_the_threads() -> None:
    game = _mid_game()
    a = win_advice(game, [1, 2, 3, 4, 6], 2, playouts=60, batch=30, seed=9, workers=1)
    b = win_advice(game, [1, 2, 3, 4, 6], 2, playouts=60, batch=30, seed=9, workers=2)
    assert a == b
    c = win_advice(game, [1, 2, 3, 4, 6], 2, playouts=60, batch=30, seed=10)
    assert [k.win_probability for k in c.keeps] != [k.win_probability for k in a.keeps]


def test_playouts_extend_without_changing_earlier_ones() -> None:
    outcomes = outcome_positions(_mid_game())
    whole = Playouts(outcomes, seed=4)
    whole.extend(40)
    steps = Playouts(outcomes, seed=4, workers=2)
    steps.extend(15)
    steps.extend(40)
    np.testing.assert_array_equal(whole.results, steps.results)


def test_common_random_numbers_pair_the_playouts() -> None:
    """Play-out i of every outcome starts from the same seed: the outcomes correlate."""
    outcomes = outcome_positions(_mid_game())
    runner = Playouts(outcomes, seed=3)
    runner.extend(300)
    cov = runner.covariance()
    cells = [j for j, o in enumerate(outcomes.outcomes) if o.kind == "place"]
    assert len(cells) >= 3
    paired, unpaired = [], []
    for a in cells:
        for b in cells:
            if a < b:
                e = np.zeros(outcomes.size)
                e[a], e[b] = 1.0, -1.0
                paired.append(standard_error(e, cov) ** 2)
                unpaired.append(cov[a, a] + cov[b, b])
    # positive covariances: the paired variance of a difference is the smaller
    assert sum(paired) < sum(unpaired)
    advice = win_advice(_mid_game(), [1, 2, 3, 4, 6], 2, playouts=300, batch=300, seed=3)
    first, second = advice.keeps[0], advice.keeps[1]
    assert advice.lead_se < np.hypot(first.win_probability_se, second.win_probability_se)


def test_standard_errors_shrink_with_more_playouts() -> None:
    outcomes = outcome_positions(_mid_game())
    runner = Playouts(outcomes, seed=1)
    runner.extend(50)
    few = np.sqrt(np.diag(runner.covariance()))
    runner.extend(800)
    many = np.sqrt(np.diag(runner.covariance()))
    undecided = outcomes.undecided
    assert np.all(many[undecided] < few[undecided])
    assert np.all((runner.mean() >= 0) & (runner.mean() <= 1))


def test_too_close_to_call_when_the_cap_comes_first() -> None:
    game = _mid_game()
    advice = win_advice(game, [1, 2, 3, 4, 6], 2, playouts=20, batch=20, seed=2)
    assert advice.playouts == 20
    # the best keep leads the second by the lead the flag is judged on
    assert advice.lead == pytest.approx(
        advice.keeps[0].win_probability - advice.keeps[1].win_probability
    )
    assert advice.too_close_to_call == (advice.lead_se > 0 and advice.lead <= 3 * advice.lead_se)


def test_one_playout_measures_no_standard_error_so_the_search_goes_on() -> None:
    advice = win_advice(_mid_game(), [1, 2, 3, 4, 6], 2, playouts=3, batch=1, seed=2)
    assert advice.playouts >= 2


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"policy": "strategc"}, "did you mean 'strategic'"),
        ({"policy": "rollout"}, "policies: random, greedy, ev, strategic, value"),
        ({"playouts": 0}, "play-outs must be a whole number from 1 to 10000, got 0"),
        ({"playouts": -3}, "got -3"),
    ],
)
def test_bad_settings_name_the_value(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(CoachError, match=message):
        win_advice(_mid_game(), [1, 2, 3, 4, 6], 1, **kwargs)  # type: ignore[arg-type]


def test_a_finished_game_has_no_turn_to_advise() -> None:
    game = _mid_game()
    agent, rng = make_agent("strategic"), np.random.default_rng(0)
    while not game.is_over:
        play_turn_fast(game, agent, rng)
    with pytest.raises(ValueError, match="the game is over"):
        win_advice(game, [1, 2, 3, 4, 6], 1)


def test_value_plays_the_play_outs_where_a_network_fits_and_is_refused_elsewhere() -> None:
    by_value = win_advice(_mid_game(), [1, 2, 3, 4, 6], 1, playouts=8, batch=8, seed=2,
                          policy="value")  # fmt: skip
    by_strategic = win_advice(_mid_game(), [1, 2, 3, 4, 6], 1, playouts=8, batch=8, seed=2)
    assert by_value.keeps[0].win_probability != by_strategic.keeps[0].win_probability
    grid = Game.new(config=GameConfig(players=2, layout=load_layout("grid-5x5")), seed=1)
    with pytest.raises(CoachError, match="play-outs by value: the value network plays games on 16"):
        win_advice(grid, [1, 2, 3, 4, 6], 1, playouts=8, policy="value")
