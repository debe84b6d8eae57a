"""``coach`` is a named agent: made from its name, checked, and played by ``simulate``."""

from __future__ import annotations

import pickle

import pandas as pd
import pytest

from pinastats.agents.builtin import AgentError, agent_names, make_agent
from pinastats.coach.agent import Coach
from pinastats.simulation import simulate


def test_the_coach_is_made_from_its_name() -> None:
    assert "coach" in agent_names()
    coach = make_agent("coach")
    assert isinstance(coach, Coach)
    assert coach.name == "coach"
    custom = make_agent("coach(playouts=200, policy=EV, seed=3)")
    assert isinstance(custom, Coach)
    assert (custom.playouts, custom.policy, custom.seed) == (200, "ev", 3)
    assert make_agent(custom.name) == custom  # the name makes the same agent again
    assert pickle.loads(pickle.dumps(custom)) == custom


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("coach(playout=3)", "unknown parameter 'playout'; did you mean 'playouts'"),
        ("coach(width=3)", "parameters of coach: playouts, policy, seed, leaf, depth"),
        ("coach(playouts=0)", "play-outs must be a whole number from 1 to 10000, got 0"),
        ("coach(playouts=-5)", "got -5"),
        ("coach(playouts=10000000000000)", "from 1 to 10000, got 10000000000000"),
        ("coach(seed=1,seed=2)", "parameter 'seed' is given twice"),
        ("coach(playouts=2.5)", "playouts must be a whole number, got '2.5'"),
        ("coach(policy=gredy)", "unknown play-out policy 'gredy'; did you mean 'greedy'"),
        ("coach(policy=rollout)", "policies: random, greedy, ev, strategic, value"),
        ("coach(seed=-1)", "seed must be a whole number >= 0"),
        ("coahc", "did you mean 'coach'"),
    ],
)
def test_bad_coach_specs_are_named(spec: str, message: str) -> None:
    with pytest.raises(AgentError, match=message.replace("(", r"\(")):
        make_agent(spec)


def test_kernel_agents_are_unchanged() -> None:
    assert make_agent("strategic(line=4)").name == "strategic(line=4)"
    assert make_agent("rollout(rollouts=8,policy=ev)").name == "rollout(rollouts=8,policy=ev)"


def test_simulate_plays_the_same_games_on_one_and_two_workers() -> None:
    seats = ["coach(playouts=2)", "strategic"]
    one = simulate(seats, 6, seed=5, workers=1, chunk_size=3)
    two = simulate(seats, 6, seed=5, workers=2, chunk_size=3)
    assert one.games["winner"].isin([-1, 0, 1]).all()
    pd.testing.assert_frame_equal(one.games, two.games)
    assert [a.name for a in one.agents] == ["coach(playouts=2)", "strategic"]


def test_simulate_on_dask_plays_the_same_games(dask_scheduler: str) -> None:
    seats = ["coach(playouts=2)", "greedy"]
    local = simulate(seats, 4, seed=2, workers=1, chunk_size=2)
    dask = simulate(seats, 4, seed=2, scheduler=dask_scheduler, chunk_size=2)
    assert dask.engine == "dask"
    pd.testing.assert_frame_equal(local.games, dask.games)
