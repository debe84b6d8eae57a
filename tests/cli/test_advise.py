"""``pinastats advise``: output formats, the example state file, and every user error."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from pinastats.agents.advice import advise, placement_values
from pinastats.dice.solver import solve_turn
from pinastats.game.position import game_from_position
from tests.game.scenarios import cell, position

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "state.json"
DOC = ROOT / "docs" / "state-format.md"

# Rulebook scoring example: 4 players (side B), the first Full House space taken
# by player 1, player 0 with 3 tokens around it: 3 + 3 = 6 points.
# All side B: each token is on the first space, the second is free (null); the
# scores are those the tokens explain.
RULEBOOK = position(
    players=4, tokens={c: [seat, None] for c, seat in
                       {cell(2, 2): 1, cell(1, 1): 0, cell(1, 2): 0, cell(2, 1): 0}.items()}
)  # fmt: skip


def write_state(tmp_path: Path, data: Any, name: str = "state.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


Cli = Callable[..., Any]  # the ``cli`` fixture of tests/conftest.py


def run(cli: Cli, *argv: str) -> tuple[int, str, str]:
    """Run ``pinastats advise ARGV...`` (by this turn's points unless ARGV names an objective
    or an evaluator); return the exit code, stdout and stderr."""
    win = {"--objective", "--playouts", "--evaluator", "--seed"} & set(argv)
    result = cli("advise", *argv, *(() if win else ("--objective", "points")))
    return result.code, result.out, result.err


def advise_args(state: Path, dice: str = "5 5 5 3 3", rolls_left: str = "0") -> list[str]:
    return ["--state", str(state), "--dice", *dice.split(), "--rolls-left", rolls_left]


# ---------------------------------------------------------------- output


def test_table_lists_placements_best_first(tmp_path: Path, cli: Cli) -> None:
    status, out, err = run(cli, *advise_args(write_state(tmp_path, RULEBOOK)))
    assert (status, err) == (0, "")
    assert "Player 1 to move with 3 3 5 5 5, no rolls left." in out
    rows = out.split("Placements (best first):\n")[1].splitlines()[2:]
    assert rows[0].split()[:7] == ["2", "2", "full-house", "Full", "House", "B", "6"]
    assert "builds a row: 2 of 4; 6 points (3 from neighbours)" in rows[0]  # why, in words
    points = [int(re.split(r"\s{2,}", r.strip())[5]) for r in rows]
    assert points == sorted(points, reverse=True)


def test_table_with_rolls_left_recommends_a_keep(tmp_path: Path, cli: Cli) -> None:
    state = write_state(tmp_path, RULEBOOK)
    status, out, _ = run(cli, *advise_args(state, "1 2 2 4 6", "1"))
    assert status == 0
    assert "Best: keep 2 2 → 3.722 points expected (67/18); stopping now scores 3." in out
    assert "Keeps (best 5 of 24; --all for every keep):" in out
    assert "If you stop now, place (best first):" in out
    _, out_all, _ = run(cli, *advise_args(state, "1 2 2 4 6", "1"), "--all")
    assert "Keeps (every keep):" in out_all
    _, out_top, _ = run(cli, *advise_args(state, "1 2 2 4 6", "1"), "--top", "2")
    keeps = out_top.split("Keeps (best 2 of 24; --all for every keep):\n")[1].split("\n\n")[0]
    assert len(keeps.splitlines()) == 2 + 2


def test_json_placements(tmp_path: Path, cli: Cli) -> None:
    status, out, _ = run(cli, *advise_args(write_state(tmp_path, RULEBOOK)), "--format", "json")
    assert status == 0
    data = json.loads(out)
    assert (data["player"], data["rolls_left"], data["dice"]) == (0, 0, [5, 5, 5, 3, 3])
    assert data["keeps"] == []
    assert data["placements"][0] == {
        "cell": 10,
        "row": 2,
        "col": 2,
        "coaster": "full-house",
        "combination": "Full House",
        "side": "B",
        "points": 6,
        "why": "builds a row: 2 of 4; 6 points (3 from neighbours); 12 coasters stay open to you",
    }
    assert data["stop_points"] == data["expected_points"] == 6


@pytest.mark.parametrize("rolls_left", [1, 2])
def test_json_keeps_match_the_turn_dp(tmp_path: Path, cli: Cli, rolls_left: int) -> None:
    state = write_state(tmp_path, RULEBOOK)
    argv = advise_args(state, "1 2 2 4 6", str(rolls_left))
    _, out, _ = run(cli, *argv, "--format", "json", "--top", "1")
    data = json.loads(out)
    game = game_from_position(RULEBOOK)
    value = solve_turn(placement_values(game)).hand_value([1, 2, 2, 4, 6], rolls_left)
    keeps = data["keeps"]
    assert len(keeps) == 24  # JSON always lists every keep
    assert set(keeps[0]) == {"keep", "expected_points", "fraction", "best", "stop"}
    assert keeps[0]["expected_points"] == pytest.approx(value, rel=1e-12)
    assert data["expected_points"] == keeps[0]["expected_points"]
    assert data["fraction"] == keeps[0]["fraction"]
    fractions = [Fraction(k["fraction"]) for k in keeps]
    assert fractions == sorted(fractions, reverse=True)
    assert all(k["expected_points"] == pytest.approx(float(Fraction(k["fraction"]))) for k in keeps)
    assert [k["best"] for k in keeps] == [f == fractions[0] for f in fractions]
    (stop,) = [k for k in keeps if k["stop"]]
    assert stop["keep"] == [1, 2, 2, 4, 6]
    assert Fraction(stop["fraction"]) == data["stop_points"] == data["placements"][0]["points"]


def test_no_placement_says_so(tmp_path: Path, cli: Cli) -> None:
    state = write_state(tmp_path, RULEBOOK)
    _, out, _ = run(cli, *advise_args(state, "1 2 4 5 6"))
    assert "No placement: 1 2 4 5 6 matches no coaster open to player 1; the turn ends: pass" in out
    _, out, _ = run(cli, *advise_args(state, "1 2 4 5 6"), "--happy-hour")
    assert out.rstrip().endswith("the turn ends: roll the Happy Hour die.")
    _, out, _ = run(cli, *advise_args(state, "1 2 4 5 6", "1"))
    assert "If you stop now: 1 2 4 5 6 matches no coaster" in out


def test_user_catalogue(tmp_path: Path, cli: Cli) -> None:
    from pinastats.game.catalogue import load_catalogue

    frame = load_catalogue().to_frame()
    frame.loc[frame["id"] == "full-house", "side_b_second"] = 1
    frame.loc[frame["id"] == "full-house", "side_b_first"] = 9
    csv = tmp_path / "coasters.csv"
    frame.to_csv(csv, index=False)
    scores = [10, 2 + 9, 3, 4]  # seat 1's token on the first space scored 9 with this catalogue
    state = write_state(tmp_path, {**RULEBOOK, "scores": scores})
    _, out, _ = run(cli, *advise_args(state), "--coasters", str(csv), "--format", "json")
    assert json.loads(out)["placements"][0]["points"] == 1 + 3


def test_layout_file_is_found_next_to_the_state_file(tmp_path: Path, cli: Cli) -> None:
    (tmp_path / "sub").mkdir()
    shipped = ROOT / "data" / "layouts" / "standard.json"
    (tmp_path / "sub" / "grid.json").write_bytes(shipped.read_bytes())
    state = write_state(tmp_path / "sub", {**RULEBOOK, "layout": "grid.json"})
    status, out, err = run(cli, *advise_args(state))
    assert (status, err) == (0, "")
    assert "full-house" in out


# ---------------------------------------------------------------- the example and its doc


def test_example_state_file_is_a_valid_mid_game_position() -> None:
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    game = game_from_position(data)
    assert game.players == 2
    assert not game.is_over
    assert 0 < sum(game.reserves) < 12  # tokens on the board, some still to place
    advice = advise(game, [5, 5, 5, 3, 3], 2)
    assert advice.placements
    assert advice.keeps


def test_doc_shows_the_example_file_and_a_working_command(
    cli: Cli,
) -> None:
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```json\n(.*?)```", text, re.DOTALL)
    assert json.loads(EXAMPLE.read_text(encoding="utf-8")) in [json.loads(b) for b in blocks]
    examples = re.findall(
        r"```console\n\$ pinastats (advise --state examples/state\.json .*?)\n(.*?)```",
        text,
        re.DOTALL,
    )
    assert len(examples) == 2
    for command, shown in examples:
        argv = command.removeprefix("advise ").replace("examples/state.json", str(EXAMPLE))
        status, out, err = run(cli, *argv.split())
        assert (status, err) == (0, "")
        assert out == shown  # the doc shows what its command prints


def test_doc_side_b_example_has_a_free_first_space() -> None:
    from pinastats.game.position import PositionError
    from pinastats.game.rules import Rules

    text = DOC.read_text(encoding="utf-8")
    blocks = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", text, re.DOTALL)]
    (four,) = [b for b in blocks if b["players"] == 4]
    game = game_from_position(four, rules=Rules(happy_hour=True))
    full_house = cell(2, 3)
    assert game.coaster(full_house).id == "full-house"
    assert game.state.spaces[full_house].tolist() == [-1, 2]
    points = {p.cell: p.points for p in game.legal_placements([5, 5, 5, 3, 3])}
    assert points[full_house] == game.coaster(full_house).side_b[0] == 4
    with pytest.raises(PositionError, match="only Happy Hour takes a token off a coaster"):
        game_from_position(four)  # without Happy Hour no space is ever freed


# ---------------------------------------------------------------- errors


SIX = [cell(0, 0), cell(0, 1), cell(0, 2), cell(1, 0), cell(3, 0), cell(2, 1)]  # 13 points
FOUR = [cell(0, 3), cell(2, 2), cell(3, 2), cell(3, 3)]  # 12 points (2 players, side A)
FIVE = [cell(1, 2), cell(2, 2), cell(3, 1), cell(3, 2), cell(3, 3)]  # 18 points


def _with(**changes: Any) -> dict[str, Any]:
    data = {**RULEBOOK, **changes}
    return {k: v for k, v in data.items() if v is not None}


def _tokens(seats: list[int]) -> Any:
    """The tokens field with ``seats`` on the Full House (cell 10, side B)."""
    return position(players=4, tokens={cell(2, 2): seats}, scores=[1, 2, 3, 4])["tokens"]


BAD_STATES: list[tuple[str, Any, str]] = [
    ("not json", '{"players": 4,\n  "board": [', r"not valid JSON: .* \(line 2, column \d+\)"),
    ("a list", "[1, 2]", "a position is a JSON object, got list"),
    (
        "wrong shape",
        _with(board=[["odds"]]),
        r"board must describe 16 cells \(4 rows of 4\), got 1",
    ),
    (
        "unknown coaster",
        _with(board=[["ful house", *RULEBOOK["board"][0][1:]], *RULEBOOK["board"][1:]]),
        "no coaster is named 'ful house'; did you mean 'full-house'",
    ),
    (
        "two tokens of a player",
        _with(tokens=_tokens([0, 0])),
        "a player has two tokens on one coaster",
    ),
    ("more tokens than spaces", _with(tokens=_tokens([0, 1, 2])), "has 2 space"),
    ("scores of the wrong length", _with(scores=[1, 2]), "scores must list 4 whole numbers"),
    ("to_move out of range", _with(to_move=4), "to_move must be a seat from 0 to 3, got 4"),
    ("missing field", _with(to_move=None), r"missing field\(s\): to_move"),
    ("unknown field", _with(colour="red"), r"unknown field\(s\): colour"),
    ("repeated field", '{"players": 4, "players": 2}', "'players' appears twice"),
    ("unknown layout", _with(layout="standrd"), "unknown layout 'standrd'; did you mean"),
    ("not UTF-8", b"\xff\xfe{", "not UTF-8 text"),
    ("negative score", _with(scores=[1, -1, 3, 4]), "seat 1 has -1; a score goes below 0 only"),
    (
        "tie without recency",
        position(tokens={**{c: [0] for c in SIX}, **{c: [1] for c in FOUR}}),
        r"last_placed is needed: seats \[0, 1\] tie at 14",
    ),
    ("bad end trigger", _with(end_trigger="won"), 'end_trigger must be "score", "tokens" or null'),
    ("score of 10**30", _with(scores=[10**30, 6, 3, 4]),
     r"seat 0 has 10{30}, more than this position allows \(\d+ at most\)"),
    ("score of 2**63-1", _with(scores=[10, 6, 3, 2**63 - 1]),
     "seat 3 has 9223372036854775807, more than this position allows"),
    ("last_placed of 10**30", _with(last_placed=[10**30, 1, 0, 0]),
     r"last_placed must list 4 whole numbers from 0 to 1,000,000,000,000 .* got \[10{30}, 1"),
    ("200,000 brackets", "[" * 200_000 + "]" * 200_000, "lists or objects nest too deeply"),
    ("brackets in a field", _with(to_move=json.loads("[" * 50 + "]" * 50)),
     r"to_move\[0\]\[0\]\[0\] nests too deeply"),
    ("5,000 digits", '{"players": ' + "9" * 5000 + "}", "Exceeds the limit .* integer"),
    ("score the tokens do not explain", _with(scores=[15, 6, 3, 4]),
     r"seat 0 has 15, but its tokens explain exactly 10 \(its starting score 1"),
    ("score past the end", position(tokens={c: [1] for c in FIVE}, to_move=1),
     r"seat 1 has 20, more than this position allows \(19 at most\)"),
    ("empty reserve of a seat yet to play", position(tokens={c: [1] for c in SIX}, to_move=1),
     "seat 1 has all its 6 tokens on the board but has yet to play in this round"),
    ("flipped coaster", _with(sides=["AAAA", "BBBB", "BBBB", "BBBB"]),
     r"cell 0 \(pair-1\) shows side A, but 4 players set it up on side B"),
    ("last_placed without tokens", _with(last_placed=[2, 1, 3, 0]),
     "last_placed: seat 2 gives 3 but has no token on the board"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("content", "message"), [b[1:] for b in BAD_STATES], ids=[b[0] for b in BAD_STATES]
)
def test_bad_state_file_is_one_line_naming_the_file(
    tmp_path: Path, cli: Cli, content: Any, message: str
) -> None:
    path = tmp_path / "bad.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        write_state(tmp_path, content, "bad.json")
    status, out, err = run(cli, *advise_args(path))
    assert (status, out) == (2, "")
    assert err.count("\n") == 1
    assert "Traceback" not in err
    assert err.startswith(f"pinastats: error: {path}: ")
    assert re.search(message, err), err


def test_one_token_on_side_b_must_name_its_space_with_happy_hour(tmp_path: Path, cli: Cli) -> None:
    one = _with(tokens=_tokens([1]), scores=[1, 2 + 4, 3, 4])  # the first space scored 4
    path = write_state(tmp_path, one, "bad.json")
    status, out, err = run(cli, *advise_args(path), "--happy-hour")
    assert (status, out) == (2, "")
    assert err == (
        f"pinastats: error: {path}: tokens of cell 10 (full-house, side B): [1] does not say "
        "which space the token is on, and with Happy Hour a token may have left the first "
        "space; write [1, null] for the first space or [null, 1] for the second\n"
    )
    status, _, _ = run(cli, *advise_args(path))  # without Happy Hour: the first space
    assert status == 0


def test_a_saved_game_keeps_a_freed_first_space(tmp_path: Path, cli: Cli) -> None:
    from pinastats.game.position import position_of
    from pinastats.game.rules import HappyHourEffect, Rules

    # seats 1 and 2 on the Full House; seat 0's Happy Hour moves seat 1 off the first space
    start = position(players=4, tokens={cell(2, 2): [1, 2]})
    game = game_from_position(start, rules=Rules(happy_hour=True))
    move = HappyHourEffect.MOVE_OTHER_TOKEN
    (option,) = [
        o
        for o in game.happy_hour_options(move)
        if game.decode_happy_hour(move, o) == {"from_cell": 10, "owner": 1, "to_cell": 0}
    ]
    game.end_turn_without_placement([1, 2, 4, 5, 6], happy_hour=int(move), option=option)
    state = write_state(tmp_path, position_of(game))
    _, out, _ = run(cli, *advise_args(state), "--happy-hour", "--format", "json")
    (full_house,) = [p for p in json.loads(out)["placements"] if p["cell"] == 10]
    assert full_house["points"] == 4  # the first space's value: seat 1 has no neighbour there


def test_a_catalogue_too_small_for_the_layout_is_blamed(tmp_path: Path, cli: Cli) -> None:
    from pinastats.game.catalogue import load_catalogue

    csv = tmp_path / "coasters.csv"
    load_catalogue().to_frame().head(10).to_csv(csv, index=False)
    state = write_state(tmp_path, RULEBOOK)
    status, _, err = run(cli, *advise_args(state), "--coasters", str(csv))
    assert status == 2
    assert f"the coaster catalogue ({csv}) has 10 coasters, fewer than the 16 cells" in err


def test_missing_state_file(tmp_path: Path, cli: Cli) -> None:
    path = tmp_path / "nowhere.json"
    status, _, err = run(cli, *advise_args(path))
    assert status == 2
    assert err == f"pinastats: error: {path}: no such file\n"


def test_missing_catalogue_file(tmp_path: Path, cli: Cli) -> None:
    state = write_state(tmp_path, RULEBOOK)
    status, _, err = run(cli, *advise_args(state), "--coasters", str(tmp_path / "no.csv"))
    assert status == 2
    assert err.startswith(f"pinastats: error: {tmp_path / 'no.csv'}: ")
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("dice", "rolls_left", "message"),
    [
        ("5 5 5 3", "0", "dice must be exactly 5 values"),
        ("5 5 5 3 3 3", "0", "dice must be exactly 5 values"),
        ("5 5 5 3 7", "0", "dice must be values from 1 to 6"),
        ("5 5 5 3 x", "0", "dice are whole numbers 1-6"),
        ("5 5 5 3 3", "3", "rolls left must be 0, 1 or 2"),
        ("5 5 5 3 3", "-1", "rolls left must be 0, 1 or 2"),
        ("5 5 5 3 3", "one", "--rolls-left: invalid int value"),
    ],
)
def test_bad_dice_or_rolls_left(
    tmp_path: Path, cli: Cli, dice: str, rolls_left: str, message: str
) -> None:
    state = write_state(tmp_path, RULEBOOK)
    status, out, err = run(cli, *advise_args(state, dice, rolls_left))
    assert (status, out) == (2, "")
    assert err.startswith("pinastats: error: ")
    assert err.count("\n") == 1
    assert message in err


def test_console_script_error_has_no_traceback(tmp_path: Path) -> None:
    path = write_state(tmp_path, _with(to_move=7))
    argv = [sys.executable, "-m", "pinastats.cli.main", "advise", *advise_args(path)]
    proc = subprocess.run(argv, capture_output=True, text=True, check=False)
    assert proc.returncode == 2
    assert proc.stderr == f"pinastats: error: {path}: to_move must be a seat from 0 to 3, got 7\n"


def test_stopping_before_the_last_roll_rolls_no_happy_hour_die(tmp_path: Path, cli: Cli) -> None:
    """Happy Hour comes only after every roll of the turn: stopping early with nothing passes."""
    state = write_state(tmp_path, RULEBOOK)
    _, out, _ = run(cli, *advise_args(state, "1 2 4 5 6", "1"), "--happy-hour")
    (line,) = [x for x in out.splitlines() if x.startswith("If you stop now:")]
    assert "Happy Hour" not in line
    assert line.endswith("the turn ends: pass.")
    _, out, _ = run(cli, *advise_args(state, "1 2 4 5 6"), "--happy-hour")
    assert out.rstrip().endswith("the turn ends: roll the Happy Hour die.")
