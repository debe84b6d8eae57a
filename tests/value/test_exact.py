"""Positions labelled by perfect play: a survey's graded games, and a network against them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pinastats.errors import PinastatsError
from pinastats.game import GameConfig, Rules, parse_position
from pinastats.records.yardstick import perfect_survey
from pinastats.solve import solve
from pinastats.solve.survey import read_survey
from pinastats.value.exact import exact_accuracy, exact_positions

SMALL = GameConfig(rules=Rules(tokens=3))


@pytest.fixture(scope="module")
def survey_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    log = tmp_path_factory.mktemp("survey") / "boards.jsonl"
    perfect_survey(2, agents=["random", "strategic"], games=2, seed=8, config=SMALL, log=log)
    return log


def test_each_position_carries_its_exact_chance_and_its_board(survey_log: Path) -> None:
    positions = exact_positions(survey_log, boards=[1])
    assert len(positions) > 10
    assert set(positions.game // 10**6) == {1}
    assert set(positions.source) == {"random", "strategic"}
    np.testing.assert_allclose(positions.labels.sum(axis=1), 1.0)
    assert (positions.labels[:, 2] == 0).all()
    # a position, read back from its line and solved again, has the label's chance
    line, chance = read_survey(survey_log)["study"][1]["errors"]["random"][0]["positions"][2]
    game = parse_position(line, config=SMALL)
    assert solve(game, store=False).chances(game)[game.to_move] == pytest.approx(chance, abs=1e-8)
    assert positions.labels[2, 0] == pytest.approx(chance)
    both = exact_positions(survey_log)
    assert len(both) > len(positions)


def test_a_networks_error_calibration_and_bias_are_consistent(survey_log: Path) -> None:
    figures = exact_accuracy(exact_positions(survey_log))
    assert figures["positions"] > 20
    assert 0 <= figures["ece"] <= figures["mae"] <= figures["rmse"]
    assert abs(figures["bias"]) <= figures["mae"]


def test_boards_without_graded_games_are_refused(survey_log: Path) -> None:
    with pytest.raises(PinastatsError, match="no graded positions"):
        exact_positions(survey_log, boards=[7])
