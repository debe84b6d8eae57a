"""Perfect play as the yardstick: exact error rates and games against perfect play."""

from __future__ import annotations

import pytest

from pinastats.game import GameConfig, Rules
from pinastats.records.yardstick import error_rates, head_to_head

SMALL = GameConfig(rules=Rules(tokens=3))


def test_perfect_loses_nothing_and_random_loses_most() -> None:
    table = error_rates(["random", "ev", "perfect"], boards=2, games=2, config=SMALL, seed=3)
    loss = dict(zip(table["agent"], table["loss"].astype(float), strict=True))
    rate = dict(zip(table["agent"], table["error_rate"].astype(float), strict=True))
    assert loss["perfect"] == pytest.approx(0.0, abs=1e-3)
    assert rate["perfect"] == pytest.approx(0.0, abs=1e-3)
    assert loss["random"] > loss["ev"] > loss["perfect"]
    assert (table["games"] == 4).all()
    assert (table["loss_low"] <= table["loss"]).all()


def test_head_to_head_scores_perfect_against_an_agent() -> None:
    result = head_to_head("random", boards=1, games=6, config=SMALL, seed=2)
    assert result.games == 6
    assert result.low <= result.score <= result.high
    assert 0.0 < result.perfect_vs_perfect < 1.0
