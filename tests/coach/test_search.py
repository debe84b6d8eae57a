"""The search evaluator: each seat's chance after each way a turn can end, by plies of turns."""

from __future__ import annotations

import numpy as np
import pytest

from pinastats.agents.network import load_networks
from pinastats.agents.search import SearchAgent
from pinastats.coach.outcomes import CoachError, network_values, outcome_positions
from pinastats.coach.search import search_values
from tests.agents.search_oracle import oracle
from tests.game.scenarios import mid_game


@pytest.mark.parametrize(("players", "happy_hour"), [(2, True), (3, False), (4, True)])
def test_depth_one_is_the_network(players: int, happy_hour: bool) -> None:
    g = mid_game(players, 5, 3 * players, happy_hour=happy_hour, agent="strategic")
    outcomes = outcome_positions(g)
    values = search_values(outcomes, depth=1)
    assert values.shape == (outcomes.size, players)
    np.testing.assert_allclose(values[:, g.to_move], network_values(outcomes), atol=1e-12)


def test_two_plies_match_the_oracle_and_the_agent() -> None:
    g = mid_game(3, 21, 12, agent="strategic")
    assert not g.is_over
    outcomes = outcome_positions(g)
    values = search_values(outcomes, depth=2, variant="paranoid")
    for j in range(0, outcomes.size, 3):  # a third of them: the oracle is slow
        want = oracle(g.config, outcomes.states[j], 1, "paranoid", root=g.to_move)
        np.testing.assert_allclose(values[j], want, atol=1e-9)
    agent = SearchAgent(depth=2, variant="paranoid")
    agent.start_turn(g)
    work = agent._searcher(g).work
    cells = outcomes.cells
    np.testing.assert_allclose(work.cell_value[cells], values[: len(cells), g.to_move], atol=1e-12)


def test_two_players_chances_add_up_and_decided_outcomes_are_exact() -> None:
    """Two players: each leaf's chances add to 1 (a draw is 1/2 each), so every row does."""
    checked = 0
    for seed in range(4):
        g = mid_game(2, seed, 6 + 2 * seed, agent="strategic")
        if g.is_over:
            continue
        checked += 1
        outcomes = outcome_positions(g)
        values = search_values(outcomes, depth=2)
        np.testing.assert_allclose(values.sum(axis=1), 1.0, atol=1e-9)
        decided = ~np.isnan(outcomes.exact)
        assert np.array_equal(values[decided, g.to_move], outcomes.exact[decided])
    assert checked >= 2


def test_bad_settings_and_networks_are_named() -> None:
    outcomes = outcome_positions(mid_game(2, 1, 4))
    with pytest.raises(CoachError, match="depth must be a whole number from 1 to 3, got 0"):
        search_values(outcomes, depth=0)
    with pytest.raises(CoachError, match="did you mean 'max-n'"):
        search_values(outcomes, variant="maxn")
    with pytest.raises(CoachError, match="is for 3 players"):
        search_values(outcomes, networks=load_networks().for_players(3))
    same = search_values(outcomes, networks=load_networks())
    assert np.array_equal(same, search_values(outcomes))
