"""``pinastats optimal-hold``: output formats, the guide's content, errors."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from pinastats.dice import (
    dice_tables,
    parse_combination,
    points_values,
    solve_turn,
    success_probability,
)
from pinastats.holds.guide import hand_advice
from tests.dice import oracle

Cli = Callable[..., Any]
FH = ("optimal-hold", "--target", "full house")


def _json(cli: Cli, *argv: str) -> Any:
    result = cli(*argv, "--format", "json")
    assert result.code == 0, result.err
    return json.loads(result.out)


# ---------------------------------------------------------------- the guide


def test_table_shows_the_probability_and_a_guide(cli: Cli) -> None:
    result = cli(*FH)
    assert result.code == 0
    assert result.err == ""
    out = result.out
    assert "Full House in 3 rolls, free holds" in out
    assert "36.61%" in out
    assert "461237/1259712" in out
    assert "After roll 1 (2 rolls left)" in out
    assert "After roll 2 (1 roll left)" in out
    for rule in ("keep both pairs", "keep the three of a kind", "keep the pair"):
        assert rule in out
    assert "two pairs (2+2+1)" in out
    assert len(out.splitlines()) < 40  # one screen


def test_json_header_matches_the_engine(cli: Cli) -> None:
    data = _json(cli, *FH)
    solution = solve_turn("full house")
    assert data["target"] == "Full House"
    assert data["rolls"] == 3
    assert data["sticky"] is False
    assert data["probability"] == solution.value
    assert Fraction(data["fraction"]) == solution.fraction == Fraction(461237, 1259712)
    assert {row["after_roll"] for row in data["guide"]} == {1, 2}


@pytest.mark.parametrize("target", ["full house", "sum 12-14", "large straight", "three 5s"])
def test_guide_covers_every_hand_once_with_an_optimal_keep(cli: Cli, target: str) -> None:
    data = _json(cli, "optimal-hold", "--target", target)
    solution = solve_turn(target)
    t = dice_tables()
    for rolls_left in (2, 1):
        rows = [r for r in data["guide"] if r["rolls_left"] == rolls_left]
        hands = [tuple(h["hand"]) for r in rows for h in r["hands"]]
        assert sorted(hands) == sorted(tuple(int(d) for d in h) for h in t.hand_dice)
        assert sum(r["share"] for r in rows) == pytest.approx(1.0)
        for r in rows:
            assert r["probability_min"] <= r["probability_max"]
            for h in r["hands"]:
                best = solution.keep_fraction(h["keep"], rolls_left)
                options = [solution.keep_fraction(k, rolls_left) for k in _sub_keeps(h["hand"])]
                assert best == max(o for o in options if o is not None)


def _sub_keeps(hand: list[int]) -> set[tuple[int, ...]]:
    import itertools

    return {c for n in range(6) for c in itertools.combinations(sorted(hand), n)}


def test_following_the_guide_achieves_the_optimum(cli: Cli) -> None:
    """Sum over the groups of (how often) x (success): the turn's probability, each roll."""
    data = _json(cli, *FH)
    for rolls_left in (2, 1):
        rows = [r for r in data["guide"] if r["rolls_left"] == rolls_left]
        assert all(r["probability_min"] == r["probability_max"] for r in rows)
        total = sum(r["share"] * r["probability_min"] for r in rows)
        assert total == pytest.approx(data["probability"], rel=1e-12)


def test_made_hands_stop_and_first_roll_shares_are_roll_odds(cli: Cli) -> None:
    data = _json(cli, *FH)
    made = next(r for r in data["guide"] if r["rolls_left"] == 2 and r["keep"] == "stop")
    assert made["hand"] == "already made"
    assert made["share"] == pytest.approx(float(success_probability("full house", rolls=1)))
    assert all(h["keep"] == h["hand"] for h in made["hands"])


def test_face_target_guide_uses_face_rules(cli: Cli) -> None:
    result = cli("optimal-hold", "--target", "three 5s")
    assert result.code == 0
    assert "keep every 5" in result.out
    assert "stop (Three 5s already made)" in result.out


def test_all_lists_every_hand(cli: Cli) -> None:
    result = cli(*FH, "--all")
    assert result.code == 0
    lines = result.out.splitlines()
    assert sum(1 for line in lines if line.strip().startswith(("2 ", "1 "))) == 2 * 252
    assert any("1 1 2 3 4" in line and " 1 1 " in line for line in lines)


def test_csv_has_one_row_per_hand_and_decision(cli: Cli) -> None:
    result = cli(*FH, "--format", "csv")
    assert result.code == 0
    rows = list(csv.DictReader(io.StringIO(result.out)))
    assert list(rows[0]) == [
        "rolls_left",
        "hand",
        "keep",
        "probability",
        "fraction",
        "alternatives",
    ]
    assert len(rows) == 2 * 252
    by_key = {(r["rolls_left"], r["hand"]): r for r in rows}
    assert by_key["2", "1 1 2 3 4"]["keep"] == "1 1"
    assert by_key["2", "1 1 1 2 2"]["keep"] == "stop"
    solution = solve_turn("full house")
    for r in rows:
        assert float(r["probability"]) == pytest.approx(float(Fraction(r["fraction"])))
        hand = [int(d) for d in r["hand"].split()]
        assert float(r["probability"]) == pytest.approx(
            solution.hand_value(hand, int(r["rolls_left"]))
        )


def test_json_all_adds_the_hands(cli: Cli) -> None:
    data = _json(cli, *FH, "--all")
    assert len(data["hands"]) == 2 * 252
    first_roll = [h for h in data["hands"] if h["rolls_left"] == 2]
    weight = dice_tables().hand_weight
    total = sum(
        Fraction(h["fraction"]) * int(weight[dice_tables().hand_index(h["hand"])])
        for h in first_roll
    )
    assert total / 7776 == Fraction(data["fraction"])


# ---------------------------------------------------------------- one hand


def test_dice_ranks_every_keep_best_first(cli: Cli) -> None:
    data = _json(cli, *FH, "--dice", "2", "2", "5", "4", "1", "--rolls-left", "2")
    keeps = data["keeps"]
    assert keeps[0]["keep"] == [2, 2]
    assert keeps[0]["best"] is True
    assert Fraction(keeps[0]["fraction"]) == Fraction(89, 324)
    assert [k["best"] for k in keeps].count(True) == 1
    assert [k["probability"] for k in keeps] == sorted(
        (k["probability"] for k in keeps), reverse=True
    )
    assert len({tuple(k["keep"]) for k in keeps}) == len(keeps) == 24
    stop = [k for k in keeps if k["stop"]]
    assert [s["keep"] for s in stop] == [[1, 2, 2, 4, 5]]
    assert data["hand"]["dice"] == [2, 2, 5, 4, 1]
    assert data["hand"]["rolls_left"] == 2
    assert data["probability"] == solve_turn("full house").value


def test_dice_table_marks_ties_and_stop(cli: Cli) -> None:
    result = cli(*FH, "--dice", "2", "2", "5", "4", "1", "--rolls-left", "2")
    assert result.code == 0
    assert "Best: keep 2 2" in result.out
    lines = result.out.splitlines()
    assert any(line.split()[:3] == ["1", "2", "2"] and "best" in line for line in lines)
    assert sum(1 for line in lines if line.strip().startswith("2=")) == 3
    assert any("stop" in line for line in lines)


def test_dice_csv(cli: Cli) -> None:
    result = cli(*FH, "--dice", "1", "2", "3", "4", "6", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(result.out)))
    assert list(rows[0]) == ["rank", "keep", "probability", "fraction", "best"]
    best = [r for r in rows if r["best"] == "True"]
    assert {r["keep"] for r in best} == {"re-roll all", "1", "2", "3", "4", "6"}
    assert all(r["rank"] == "1=" for r in best)


def test_rolls_left_defaults_to_after_the_first_roll(cli: Cli) -> None:
    data = _json(cli, *FH, "--dice", "6", "6", "6", "2", "3")
    assert data["hand"]["rolls_left"] == 2
    best = [k["keep"] for k in data["keeps"] if k["best"]]
    assert [6, 6, 6] in best


def test_made_hand_is_best_stopped(cli: Cli) -> None:
    result = cli(*FH, "--dice", "3", "3", "6", "6", "6", "--rolls-left", "1")
    assert "Best: stop" in result.out


# ---------------------------------------------------------------- sticky and rolls


def test_sticky_five_of_a_kind(cli: Cli) -> None:
    data = _json(cli, "optimal-hold", "--target", "yahtzee", "--sticky")
    assert data["sticky"] is True
    assert Fraction(data["fraction"]) == Fraction(690169, 15116544)
    assert {row["rolls_left"] for row in data["guide"]} == {2}


def test_sticky_locked_dice_stay_kept(cli: Cli) -> None:
    argv = ("optimal-hold", "--target", "five of a kind", "--sticky")
    data = _json(cli, *argv, "--dice", "1", "1", "6", "6", "6", "--rolls-left", "1",
                 "--locked", "1", "1")  # fmt: skip
    assert data["hand"]["locked"] == [1, 1]
    assert all(k["keep"][:2] == [1, 1] for k in data["keeps"])
    free = _json(cli, "optimal-hold", "--target", "five of a kind", "--dice", "1", "1", "6",
                 "6", "6", "--rolls-left", "1")  # fmt: skip
    assert free["keeps"][0]["keep"] == [6, 6, 6]


def test_other_numbers_of_rolls(cli: Cli) -> None:
    data = _json(cli, *FH, "--rolls", "2")
    assert Fraction(data["fraction"]) == success_probability("full house", rolls=2)
    assert {row["rolls_left"] for row in data["guide"]} == {1}
    one = cli(*FH, "--rolls", "1")
    assert one.code == 0
    assert "nothing to keep" in one.out


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--target", "ful hose"), "did you mean 'Full House'"),
        (("--target", "fh", "--dice", "1", "2", "3", "4"), "exactly 5"),
        (("--target", "fh", "--dice", "1", "2", "3", "4", "7"), "from 1 to 6"),
        (("--target", "fh", "--dice", "1", "2", "3", "4", "x"), "whole numbers"),
        (("--target", "fh", "--dice", "1", "2", "3", "4", "5", "--rolls-left", "3"), "1 to 2"),
        (("--target", "fh", "--dice", "1", "2", "3", "4", "5", "--rolls-left", "0"), "1 to 2"),
        (("--target", "fh", "--rolls", "0"), "at least 1"),
        (("--target", "fh", "--rolls", "many"), "whole number"),
        (("--target", "fh", "--rolls", "1", "--dice", "1", "2", "3", "4", "5"), "nothing to keep"),
        (("--target", "fh", "--rolls-left", "1"), "--dice"),
        (("--target", "fh", "--dice", "1", "2", "3", "4", "5", "--locked", "1"), "sticky"),
        (("--target", "fh", "--all", "--dice", "1", "2", "3", "4", "5"), "--all"),
        (("--target", "fh", "--format", "xml"), "invalid choice"),
        ((), "required"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(cli: Cli, argv: tuple[str, ...], message: str) -> None:
    result = cli("optimal-hold", *argv)
    assert result.code == 2
    assert result.out == ""
    lines = result.err.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("pinastats: error: ")
    assert message in lines[0]


def test_errors_from_a_real_process_have_no_traceback() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pinastats.cli.main", "optimal-hold", "--target", "nope"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stderr.count("\n") == 1
    assert proc.stderr.startswith("pinastats: error: unknown combination 'nope'")


def test_version_and_help_stay_light() -> None:
    """``--help`` must not import the engine (numba, pandas) nor matplotlib."""
    code = (
        "import sys, contextlib, io\n"
        "from pinastats.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "    try: main(['--help'])\n"
        "    except SystemExit: pass\n"
        "heavy = ('numba', 'pandas', 'matplotlib', 'pinastats.dice')\n"
        "heavy = [m for m in heavy if m in sys.modules]\n"
        "print(heavy, 'optimal-hold' in out.getvalue())\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "[] True"
    version = subprocess.run(
        [sys.executable, "-m", "pinastats.cli.main", "--version"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert version.stdout.startswith("pinastats ")


def test_long_turns_stay_exact_and_keep_ties(cli: Cli) -> None:
    """Five rolls exceed int64 arithmetic; Python integers keep the values exact."""
    data = _json(cli, "optimal-hold", "--target", "pair", "--rolls", "5")
    assert Fraction(data["fraction"]) == 1 - Fraction(5, 54) ** 5  # no pair five times
    result = cli(*FH, "--rolls", "5", "--dice", "1", "1", "2", "3", "4", "--rolls-left", "4")
    best = [line.split() for line in result.out.splitlines() if line.endswith("best")]
    assert [row[0] for row in best] == ["1=", "1=", "1="]
    assert sorted(row[1:4] for row in best) == [["1", "1", "2"], ["1", "1", "3"], ["1", "1", "4"]]


@pytest.mark.parametrize(("rolls", "shown"), [("21", "got 21"), ("80", "got 80")])
def test_rolls_beyond_the_limit_are_one_error_line(cli: Cli, rolls: str, shown: str) -> None:
    result = cli(*FH, "--rolls", rolls)
    assert result.code == 2
    assert result.out == ""
    assert result.err.splitlines() == [
        f"pinastats: error: rolls must be a whole number from 1 to 20, {shown}"
    ]


def test_twenty_rolls_work(cli: Cli) -> None:
    data = _json(cli, "optimal-hold", "--target", "pair", "--rolls", "20")
    assert Fraction(data["fraction"]) == 1 - Fraction(5, 54) ** 20


@pytest.mark.parametrize(("target", "sticky"), [("full house", False), ("sum 12-14", True)])
def test_hand_advice_gives_the_oracle_ties(target: str, sticky: bool) -> None:
    """The guide's optimal keeps of every hand: exactly the oracle's best keeps."""
    comb = parse_combination(target)
    model = oracle.sticky_turn(comb) if sticky else oracle.free_turn(comb)
    solution = solve_turn(target, sticky=sticky)
    for rolls_left in [2] if sticky else [2, 1]:
        advice = hand_advice(solution, rolls_left)
        assert [a.hand for a in advice] == oracle.all_hands()
        for a in advice:
            values = {k: model.keep(k, rolls_left) for k in oracle.sub_keeps(a.hand)}
            top = max(values.values())
            assert set(a.keeps) == {k for k, v in values.items() if v == top}
            assert a.fraction == top


@pytest.mark.parametrize(
    ("target", "sticky", "dice", "rolls_left", "locked"),
    [
        ("full house", False, (2, 2, 5, 4, 1), 2, ()),
        ("five of a kind", False, (1, 2, 3, 4, 6), 1, ()),
        ("five of a kind", True, (1, 1, 6, 6, 6), 1, (1, 1)),
        ("sum 12-14", True, (1, 2, 3, 5, 6), 2, ()),
        ("small straight", False, (1, 2, 3, 3, 6), 2, ()),
    ],
)
def test_ranked_keeps_match_the_oracle(
    target: str, sticky: bool, dice: tuple[int, ...], rolls_left: int, locked: tuple[int, ...]
) -> None:
    """Values, order, ranks and ties of every keep against the brute-force oracle."""
    comb = parse_combination(target)
    solution = solve_turn(target, sticky=sticky)
    ours = solution.ranked_keeps(dice, rolls_left, locked)
    hand = tuple(sorted(dice))
    choices = {oracle.merge(locked, e) for e in oracle.sub_keeps(oracle.minus(hand, locked))}
    model = oracle.sticky_turn(comb) if sticky else oracle.free_turn(comb)
    expected = {k: model.keep(k, rolls_left) for k in choices}
    assert sorted(o.keep for o in ours) == sorted(expected)
    for o in ours:
        assert o.fraction == expected[o.keep]
        assert o.value == float(expected[o.keep])
        better = sum(v > expected[o.keep] for v in expected.values())
        assert o.rank == better + 1  # competition rank: 1 + keeps strictly better
        assert o.best is (better == 0)
    assert [o.rank for o in ours] == sorted(o.rank for o in ours)
    tied = [o for o in ours if o.best]
    assert len(tied[0].keep) == max(len(o.keep) for o in tied)  # the rule plays most dice


def test_float_values_rank_by_the_tolerance() -> None:
    """Non-integer points: float DP; keeps equal in the oracle share a rank."""
    points = {"full house": 2.5, "pair": 0.5, "three of a kind": 1.25}
    solution = solve_turn(points_values(points))
    assert solution.keep_numerator is None

    def final(hand: tuple[int, ...]) -> Fraction:
        shown = [Fraction(p) for c, p in points.items() if oracle.holds(parse_combination(c), hand)]
        return max(shown, default=Fraction(0))

    model = oracle.FreeTurn(final)
    for dice in [(1, 2, 3, 4, 6), (2, 2, 5, 5, 6), (3, 3, 3, 1, 2)]:
        ours = solution.ranked_keeps(dice, 2)
        expected = {k: model.keep(k, 2) for k in oracle.sub_keeps(dice)}
        for o in ours:
            assert o.value == pytest.approx(float(expected[o.keep]), abs=1e-13)
            assert o.rank == 1 + sum(v > expected[o.keep] for v in expected.values())
