"""Positions labelled by perfect play: a survey's graded games, and a network against them."""

from __future__ import annotations

import gzip
import json
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

import numpy as np
import pytest

from pinastats.agents.network import load_networks, save_networks
from pinastats.errors import PinastatsError
from pinastats.game import GameConfig, Rules, parse_position
from pinastats.records.yardstick import LABEL_AGENTS, label_board, label_file, perfect_survey
from pinastats.solve import solve
from pinastats.solve.survey import read_survey, survey
from pinastats.value.exact import (
    BOARD_GAMES,
    DECISION_BOARDS,
    LABELLED_GAMES,
    TEST_BOARDS,
    VALID_BOARDS,
    board_of,
    decision_accuracy,
    exact_accuracy,
    exact_positions,
    game_number,
    on_boards,
)

SMALL = GameConfig(rules=Rules(tokens=3))


@pytest.fixture(scope="module")
def survey_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    log = tmp_path_factory.mktemp("survey") / "boards.jsonl"
    perfect_survey(2, agents=["random", "strategic"], games=2, seed=8, config=SMALL, log=log)
    return log


def test_each_position_carries_its_exact_chance_and_its_board(survey_log: Path) -> None:
    positions = exact_positions(survey_log, boards=[1])
    assert len(positions) > 10
    assert set(board_of(positions.game)) == {1}
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


def test_a_game_number_names_its_board_and_the_test_boards_stay_apart() -> None:
    assert game_number(7, 12) == 7_000_012
    assert game_number(0, BOARD_GAMES - 1) == 999_999
    assert board_of(7_000_012) == 7
    assert list(board_of(np.array([16_000_000, 79_499_999, 80_500_003]))) == [16, 79, 80]
    with pytest.raises(PinastatsError, match="from 0 to 999999, got 1000000"):
        game_number(3, BOARD_GAMES)
    assert set(DECISION_BOARDS) <= set(TEST_BOARDS)
    assert not set(VALID_BOARDS) & set(TEST_BOARDS)


def test_a_networks_error_calibration_and_bias_are_consistent(survey_log: Path) -> None:
    figures = exact_accuracy(exact_positions(survey_log))
    assert figures["positions"] > 20
    assert 0 <= figures["ece"] <= figures["mae"] <= figures["rmse"]
    assert abs(figures["bias"]) <= figures["mae"]


def test_boards_without_graded_games_are_refused(survey_log: Path) -> None:
    with pytest.raises(PinastatsError, match="no graded positions"):
        exact_positions(survey_log, boards=[7])


@pytest.fixture(scope="module")
def label_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("labels")
    survey(2, seed=8, config=SMALL, study=partial(label_board, games=6, folder=folder, seed=8))
    return folder


def test_labelled_boards_carry_exact_chances_of_mixed_agents(label_folder: Path) -> None:
    assert sorted(p.name for p in label_folder.iterdir()) == ["board-000.json.gz",
                                                              "board-001.json.gz"]  # fmt: skip
    data = json.loads(gzip.decompress(label_file(label_folder, 1).read_bytes()))
    assert data["games"] == 6
    assert data["board"] == 1
    line, chance, agent, number = data["positions"][3]
    assert agent in LABEL_AGENTS
    assert 0 <= number < 6
    game = parse_position(line, config=SMALL)
    assert solve(game, store=False).chances(game)[game.to_move] == pytest.approx(chance, abs=1e-8)
    positions = exact_positions(None, boards=[1], labels=label_folder)
    assert len(positions) == len(data["positions"])
    assert set(board_of(positions.game)) == {1}
    assert set(positions.game % BOARD_GAMES - LABELLED_GAMES) == {g for *_, g in data["positions"]}
    assert positions.labels[3, 0] == pytest.approx(chance)


def test_labels_are_the_same_whoever_labels_them(label_folder: Path, tmp_path: Path) -> None:
    with ThreadPoolExecutor(2) as pool:
        survey(2, seed=8, config=SMALL, executor=pool,
               study=partial(label_board, games=6, folder=tmp_path, seed=8))  # fmt: skip
    for board in (0, 1):
        assert (
            label_file(tmp_path, board).read_bytes() == label_file(label_folder, board).read_bytes()
        )


def test_survey_and_labels_join_and_a_missing_folder_is_named(
    survey_log: Path, label_folder: Path
) -> None:
    both = exact_positions(survey_log, labels=label_folder)
    assert len(both) == len(exact_positions(survey_log)) + len(
        exact_positions(None, labels=label_folder)
    )
    with pytest.raises(PinastatsError, match="no folder of labelled boards at '/nowhere'"):
        exact_positions(None, labels="/nowhere")


def test_decision_accuracy_values_each_way_a_turn_can_end(
    label_folder: Path, tmp_path: Path
) -> None:
    nets = load_networks()
    two = nets.for_players(2)
    w, b = two.layers[-1]
    flat = type(two)(2, (*two.layers[:-1], (0 * w, b)), two.mean, two.scale)  # one value for all
    save_networks(tmp_path / "flat.npz", {2: flat}, {"command": "test"})
    table = decision_accuracy(None, [0, 1], labels=label_folder, per_board=5, seed=1,
                              paths=[None, tmp_path / "flat.npz"])  # fmt: skip
    shipped, same = table.to_dict("records")
    assert shipped["network"] == "in use"
    assert shipped["positions"] == same["positions"] == 10
    assert 0 < shipped["difference"] < same["difference"]  # a flat network sees no difference
    assert 0 <= shipped["agree"] <= 1
    assert shipped["loss"] >= 0
    assert (shipped["loss"] == 0) == (shipped["agree"] == 1)
    again = decision_accuracy(None, [0, 1], labels=label_folder, per_board=5, seed=1)
    assert again.iloc[0].to_dict() == shipped
    every = decision_accuracy(None, [1], labels=label_folder, per_board=10**6)
    assert every["positions"].iloc[0] == len(exact_positions(None, boards=[1], labels=label_folder))


def test_a_network_fits_exact_labels_with_whole_boards_held_out(label_folder: Path) -> None:
    pytest.importorskip("torch")
    from pinastats.value.train import TrainError, fit

    train = exact_positions(None, boards=[0], labels=label_folder)
    valid = exact_positions(None, boards=[1], labels=label_folder)
    result = fit([train], validation=[valid], hidden=(8,), epochs=3, stream=None)
    assert result.metrics["train_positions"] == len(train)
    assert result.metrics["held_out_positions"] == len(valid)
    assert 1 <= result.best_epoch <= 3
    other = GameConfig(players=3)
    three = type(valid)(other, valid.states, np.c_[valid.labels, np.zeros(len(valid))],
                        valid.source, valid.game)  # fmt: skip
    with pytest.raises(TrainError, match=r"validation positions of \[3\] players"):
        fit([train], validation=[three], hidden=(8,), epochs=1, stream=None)


def test_positions_of_some_boards_are_those_read_for_them_alone(
    survey_log: Path, label_folder: Path
) -> None:
    everything = exact_positions(survey_log, labels=label_folder)
    for boards in ([0], [1], [0, 1]):
        alone = exact_positions(survey_log, boards, labels=label_folder)
        taken = on_boards(everything, boards)
        assert taken.digest() == alone.digest()
        np.testing.assert_array_equal(taken.game, alone.game)
        assert taken.provenance["boards"] == boards
