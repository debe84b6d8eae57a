"""``pinastats advise --objective win``: output, reproducibility and bad input."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.game.scenarios import cell, position

Cli = Callable[..., Any]  # the ``cli`` fixture of tests/conftest.py

MID_GAME = position(tokens={cell(0, 0): [0], cell(1, 1): [1], cell(2, 2): [0], cell(0, 3): [1]})
# seat 0 (15 points) has triggered the end with its last token; seat 1 (12) plays the last
# turn of the final round: a placement of 3 points or more ties at 15 and wins on the latest
# placement (the scores are those the tokens explain)
SEAT_0 = [cell(0, 0), cell(1, 0), cell(1, 3), cell(2, 0), cell(2, 1), cell(2, 2)]
SEAT_1 = [cell(0, 3), cell(1, 1), cell(3, 0), cell(3, 1), cell(3, 3)]
LAST_TURN = position(
    tokens={**{c: [0] for c in SEAT_0}, **{c: [1] for c in SEAT_1}},
    to_move=1, first_player=0, end_trigger="tokens", last_placed=[10, 9],
)  # fmt: skip


def _state(tmp_path: Path, data: dict[str, Any]) -> str:
    path = tmp_path / "state.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def _advise(cli: Cli, state: str, dice: str, rolls_left: int, *extra: str) -> Any:
    return cli("advise", "--state", state, "--dice", *dice.split(), "--rolls-left",
               str(rolls_left), *extra)  # fmt: skip


def test_json_items_gain_win_probabilities(tmp_path: Path, cli: Cli) -> None:
    state = _state(tmp_path, MID_GAME)
    argv = ("--objective", "win", "--playouts", "40", "--seed", "5", "--format", "json")
    result = _advise(cli, state, "1 2 3 4 6", 2, *argv)
    assert (result.code, result.err) == (0, "")
    data = json.loads(result.out)
    assert data["objective"] == "win"
    assert (data["seed"], data["policy"]) == (5, "strategic")
    assert 1 <= data["playouts"] <= 40
    keeps = data["keeps"]
    assert len(keeps) == 32  # the distinct keeps of five different dice
    for k in keeps:
        assert 0 <= k["win_probability"] <= 1
        assert k["win_probability_se"] >= 0
        assert {"keep", "expected_points", "fraction", "best", "stop"} <= set(k)
    chances = [k["win_probability"] for k in keeps]
    assert chances == sorted(chances, reverse=True)
    # the best keep's chance measured again on fresh play-outs, not those that chose it
    assert data["evaluator"] == "playouts"
    assert "fresh play-outs" in data["win_probability_check"]
    assert abs(data["win_probability"] - keeps[0]["win_probability"]) < 4 * max(
        data["win_probability_se"], 0.05
    )
    assert keeps[0]["best"]
    assert isinstance(data["too_close_to_call"], bool)
    for p in data["placements"]:
        assert {
            "cell",
            "coaster",
            "side",
            "points",
            "win_probability",
            "win_probability_se",
        } <= set(p)
    again = _advise(cli, state, "1 2 3 4 6", 2, *argv)
    assert again.out == result.out  # the same seed gives the same answer


def test_points_json_names_its_objective(tmp_path: Path, cli: Cli) -> None:
    result = _advise(cli, _state(tmp_path, MID_GAME), "1 2 3 4 6", 1, "--objective", "points",
                     "--format", "json")  # fmt: skip
    data = json.loads(result.out)
    assert data["objective"] == "points"
    assert "win_probability" not in data["keeps"][0]


def test_a_decided_last_turn_needs_no_playouts(tmp_path: Path, cli: Cli) -> None:
    state = _state(tmp_path, LAST_TURN)
    net = ("--evaluator", "network")  # the exact evaluator would solve the whole board first
    result = _advise(cli, state, "2 2 3 3 5", 0, "--objective", "win", *net, "--format", "json")
    data = json.loads(result.out)
    assert data["playouts"] == 0
    assert {p["win_probability"] for p in data["placements"]} == {0.0, 1.0}
    for p in data["placements"]:
        assert p["win_probability"] == (1.0 if p["points"] >= 3 else 0.0)
        assert p["win_probability_se"] == 0.0
    table = _advise(cli, state, "2 2 3 3 5", 0, "--objective", "win", *net)
    assert "every outcome is decided, no play-out needed" in table.out
    assert "Best: place on row" in table.out


def test_table(tmp_path: Path, cli: Cli) -> None:
    state = _state(tmp_path, MID_GAME)
    result = _advise(cli, state, "1 2 3 4 6", 1, "--objective", "win", "--playouts", "30",
                     "--seed", "2", "--top", "3")  # fmt: skip
    assert result.code == 0
    assert "Objective: the chance to win (" in result.out
    assert "Keeps by the chance to win (best 3 of 32; --all for every keep):" in result.out
    assert "Best: keep" in result.out or "Best: stop" in result.out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--objective", "wim"), "unknown objective 'wim'; did you mean 'win'?"),
        (("--objective", "win", "--playouts", "0"), "argument --playouts: must be at least 1"),
        (("--objective", "win", "--playouts", "-5"), "argument --playouts: must be at least 1"),
        (
            ("--objective", "points", "--playouts", "10"),
            "--playouts applies to --objective win only",
        ),
        (("--objective", "points", "--seed", "1"), "--seed applies to --objective win only"),
        (
            ("--evaluator", "network", "--seed", "1"),
            "--playouts and --seed go with --evaluator playouts, not network",
        ),
    ],
)
def test_bad_input_is_one_line(
    tmp_path: Path, cli: Cli, argv: tuple[str, ...], message: str
) -> None:
    result = _advise(cli, _state(tmp_path, MID_GAME), "1 2 3 4 6", 1, *argv)
    assert result.code == 2
    assert result.out == ""
    assert result.err.count("\n") == 1
    assert result.err.startswith("pinastats: error: ")
    assert message in result.err


def test_the_network_advises_when_asked(tmp_path: Path, cli: Cli) -> None:
    state = _state(tmp_path, MID_GAME)
    net = ("--evaluator", "network")
    result = _advise(cli, state, "1 2 3 4 6", 2, "--objective", "win", *net, "--format", "json")
    assert (result.code, result.err) == (0, "")
    data = json.loads(result.out)
    assert (data["evaluator"], data["playouts"]) == ("network", 0)
    keeps = data["keeps"]
    assert data["win_probability"] == keeps[0]["win_probability"]
    assert all(0 <= k["win_probability"] <= 1 for k in keeps)
    table = _advise(cli, state, "1 2 3 4 6", 2, "--objective", "win", *net)
    assert "the learned network's chances, typical error ±5.2 points" in table.out
    assert data["win_probability_se"] == data["chance_error"] > 0  # never 0.0 for an estimate
    assert data["evaluator_label"] == "the learned network"


def test_an_unsolved_two_player_board_answers_at_once_and_says_how_to_be_exact(
    tmp_path: Path, cli: Cli
) -> None:
    """The default for a two-player base board whose table is not kept: the network at once
    (no solve), named, with the way to the exact answer in the text and in the JSON."""
    state = _state(tmp_path, MID_GAME)
    result = _advise(cli, state, "1 2 3 4 6", 2, "--format", "json")
    assert (result.code, result.err) == (0, "")  # no solve announced, no progress
    data = json.loads(result.out)
    assert (data["objective"], data["evaluator"]) == ("win", "search")  # the strongest instant
    assert "pinastats solve --position" in data["exact_available"]
    text = _advise(cli, state, "1 2 3 4 6", 2)
    assert "Exact advice is available for this board" in text.out
