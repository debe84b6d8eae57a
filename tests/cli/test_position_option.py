"""``--position`` beside ``--state``: one helper, the same game, the line printed back."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from pinastats.game import notation_of, parse_position
from pinastats.game.position import position_of
from tests.conftest import CliResult

Cli = Callable[..., CliResult]
EXAMPLE = Path(__file__).parents[2] / "examples" / "state.json"
LINE = "pc1 OD,T3,T4,T5/5K,S21+1,S26,T6+1/SS+2,P3,P2,FH+2/T1,P5+2,AD+1,P4+2 1"
DICE = ["--dice", "5", "5", "5", "3", "3", "--rolls-left", "0"]


def test_the_example_file_and_its_line_give_the_same_advice(cli: Cli) -> None:
    by_file = cli("advise", "--state", str(EXAMPLE), *DICE, "--format", "json")
    by_line = cli("advise", "--position", LINE, *DICE, "--format", "json")
    assert by_file.code == by_line.code == 0
    assert by_file.out == by_line.out
    assert json.loads(by_line.out)["position"] == LINE


def test_advise_prints_the_line_first(cli: Cli) -> None:
    result = cli("advise", "--position", LINE + " turns=12", *DICE)
    assert result.code == 0
    assert result.out.splitlines()[0] == f"Position: {LINE} turns=12"


def test_one_of_state_and_position_and_not_both(cli: Cli) -> None:
    both = cli("advise", "--state", str(EXAMPLE), "--position", LINE, *DICE)
    assert both.code == 2
    assert "not allowed with argument" in both.err
    neither = cli("advise", *DICE)
    assert neither.code == 2
    assert "one of the arguments --state --position is required" in neither.err


def test_a_bad_line_is_one_error_naming_the_option(cli: Cli) -> None:
    result = cli("advise", "--position", LINE.replace("OD", "QQ"), *DICE)
    assert result.code == 2
    assert result.out == ""
    assert result.err.startswith("pinastats: error: --position: position notation, board cell 1:")
    assert result.err.count("\n") == 1


def test_a_state_file_without_scores_and_with_its_rules(cli: Cli, tmp_path: Path) -> None:
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    del data["scores"]
    path = tmp_path / "noscores.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = cli("advise", "--state", str(path), *DICE, "--format", "json")
    assert result.code == 0
    assert json.loads(result.out)["position"] == LINE
    game = parse_position(LINE + " scores=7,11 hh")
    path.write_text(json.dumps(position_of(game)), encoding="utf-8")
    result = cli("advise", "--state", str(path), *DICE, "--format", "json")
    assert result.code == 0
    assert json.loads(result.out)["position"] == notation_of(game)


def test_happy_hour_by_the_option_needs_the_free_scores(cli: Cli) -> None:
    refused = cli("advise", "--position", LINE, "--happy-hour", *DICE)
    assert refused.code == 2
    assert "scores is needed: with Happy Hour" in refused.err
    given = cli("advise", "--position", LINE + " scores=7,11", "--happy-hour", *DICE)
    assert given.code == 0
    assert given.out.splitlines()[0] == f"Position: {LINE} scores=7,11 hh"
