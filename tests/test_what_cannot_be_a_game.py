"""Settings that cannot make a game are refused when given, with the bad value and the bounds.

Found by fuzzing: each was accepted and played (or refused only later, by
another function) before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from pinastats.agents.builtin import AgentError, make_agent
from pinastats.balance.whatif import Variant
from pinastats.errors import PinastatsError
from pinastats.game import GameConfig
from pinastats.game.rules import Rules

Cli = Callable[..., Any]  # the ``cli`` fixture of tests/conftest.py


@pytest.mark.parametrize("spec", ["rollout(rollouts=0)", "rollout(rollouts=0.0)"])
def test_a_rollout_agent_needs_at_least_one_play_out(spec: str) -> None:
    with pytest.raises(AgentError, match=r"rollouts must be a whole number from 1 to 10,000 .*got"):
        make_agent(spec)
    assert make_agent("rollout(rollouts=1)").param_vector()[4] == 1.0


def test_more_tokens_than_coasters_cannot_all_be_placed() -> None:
    with pytest.raises(PinastatsError, match=r"tokens 100 .* 16 cells .* at most 16"):
        GameConfig(rules=Rules(tokens=100))
    assert GameConfig(rules=Rules(tokens=16)).rules.tokens == 16


@pytest.mark.parametrize("scores", ["25,1", "1,20"])
def test_simulate_refuses_starting_scores_that_end_games_at_once(cli: Cli, scores: str) -> None:
    """A config takes them (positions set up an ending so), and its docstring says what they do."""
    res = cli("simulate", "--agents", "ev,ev", "--games", "5", "--starting-scores", scores)
    line = res.one_error_line()
    assert f"--starting-scores {scores}: " in line
    assert "below the target score 20" in line
    assert "one round" in (GameConfig.__doc__ or "")
    assert GameConfig(starting_scores=(25, 1)).start_scores.tolist() == [25, 1]


def test_a_variant_is_checked_when_built() -> None:
    with pytest.raises(PinastatsError, match="no-such-layout"):
        Variant("odd layout", Rules(), "no-such-layout")
    with pytest.raises(PinastatsError, match=r"rules must be a Rules"):
        Variant("odd rules", {"tokens": 5})  # type: ignore[arg-type]
    with pytest.raises(PinastatsError, match=r"tokens 40"):
        Variant("too many tokens", Rules(tokens=40))
    with pytest.raises(PinastatsError, match=r"name"):
        Variant("", Rules())
    assert Variant("fine", Rules(tokens=5)).config(3).rules.tokens == 5
