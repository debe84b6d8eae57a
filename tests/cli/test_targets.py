"""``pinastats targets``: the real table, with the shipped coaster catalogue.

Chances are checked against the brute-force oracle of ``tests/dice/oracle.py``
and the side A / side B points against the coaster table of ``RULES.md``.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from pinastats.cli import targets
from pinastats.dice import COASTER_COMBINATIONS, Combination
from tests.dice import oracle

Cli = Callable[..., Any]

# RULES.md, "The 25 coasters": combination -> (side A, side B 1st / 2nd)
RULES_POINTS: dict[str, tuple[int, list[int]]] = {
    **{f"PAIR_{v}": (1, [1, 1]) for v in range(1, 7)},
    **{f"THREE_{v}": (1, [2, 1]) for v in range(1, 7)},
    "DOUBLE_PAIR": (2, [3, 2]),
    "ODDS": (2, [3, 2]),
    "EVENS": (2, [3, 2]),
    "SUM_LE_9": (3, [4, 3]),
    "SUM_12_14": (2, [3, 2]),
    "SUM_21_23": (2, [3, 2]),
    "SUM_GE_26": (3, [4, 3]),
    "SMALL_STRAIGHT": (2, [3, 2]),
    "LARGE_STRAIGHT": (3, [4, 3]),
    "FOUR_OF_A_KIND": (3, [3, 3]),
    "FULL_HOUSE": (3, [4, 3]),
    "ALL_DIFFERENT": (3, [3, 3]),
    "FIVE_OF_A_KIND": (4, [6, 4]),
}


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    from pinastats.cli.main import main

    out = io.StringIO()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("sys.stdout", out)
        assert main(["targets", "--format", "json"]) == 0
    data = json.loads(out.getvalue())
    assert data["rolls"] == 3
    result: list[dict[str, Any]] = data["targets"]
    return result


def test_every_combination_once_coasters_first(records: list[dict[str, Any]]) -> None:
    assert [r["key"] for r in records] == [c.name for c in Combination]
    assert [r["coaster"] for r in records] == [True] * 25 + [False] * (len(Combination) - 25)


def test_points_are_those_of_the_rules(records: list[dict[str, Any]]) -> None:
    for r in records:
        if r["coaster"]:
            assert (r["side_a"], r["side_b"]) == RULES_POINTS[r["key"]], r["key"]
        else:
            assert (r["side_a"], r["side_b"]) == (None, None)


@pytest.mark.parametrize(
    "key", ["FULL_HOUSE", "SUM_LE_9", "LARGE_STRAIGHT", "PAIR_6", "THREE_OF_A_KIND", "FIVE_3"]
)
def test_chances_match_the_oracle(records: list[dict[str, Any]], key: str) -> None:
    comb = Combination[key]
    r = next(x for x in records if x["key"] == key)
    assert Fraction(r["one_roll_fraction"]) == oracle.one_roll(comb)
    assert Fraction(r["fraction"]) == oracle.free_turn(comb).turn(3)
    assert Fraction(r["sticky_fraction"]) == oracle.sticky_turn(comb).turn(3)
    assert r["probability"] == float(Fraction(r["fraction"]))


def test_published_figures(records: list[dict[str, Any]]) -> None:
    five = next(r for r in records if r["key"] == "FIVE_OF_A_KIND")
    assert five["fraction"] == "347897/7558272"  # the Yahtzee-in-three-rolls figure
    assert five["sticky_fraction"] == "690169/15116544"
    pair = next(r for r in records if r["key"] == "PAIR")
    assert Fraction(pair["fraction"]) == 1 - Fraction(5, 54) ** 3  # no pair three times


def test_table(cli: Cli) -> None:
    result = cli("targets")
    assert result.code == 0
    out = result.out
    assert "Coasters:" in out
    assert "Other targets (analysis only):" in out
    full_house = next(line for line in out.splitlines() if line.strip().startswith("Full House"))
    # 300 + 6 of 7776 in one roll = 3.94%, 461237/1259712 in three rolls = 36.61%
    assert full_house.split()[2:] == ["3.94%", "36.61%", "36.61%", "3", "4/3"]
    strict = next(line for line in out.splitlines() if "Strict Full House" in line)
    assert strict.split()[3] == f"{300 / 7776:.2%}"  # no points columns for analysis targets
    assert len(strict.split()) == 6


def test_csv_coasters_and_rolls(cli: Cli) -> None:
    result = cli("targets", "--format", "csv", "--coasters", "--rolls", "2")
    rows = list(csv.DictReader(io.StringIO(result.out)))
    assert len(rows) == len(COASTER_COMBINATIONS) == 25
    assert list(rows[0]) == [*targets.COLUMNS, "side_a", "side_b"]
    for r in rows:
        comb = Combination[r["key"]]
        side_a, side_b = RULES_POINTS[r["key"]]
        assert (int(r["side_a"]), r["side_b"]) == (side_a, "/".join(map(str, side_b)))
        if comb in (Combination.PAIR_1, Combination.SUM_12_14, Combination.FULL_HOUSE):
            assert Fraction(r["fraction"]) == oracle.free_turn(comb).turn(2)


@pytest.mark.parametrize(
    ("rolls", "message"),
    [
        ("0", "at least 1"),
        ("x", "whole number"),
        ("21", "from 1 to 20, got 21"),
        ("99999999", "from 1 to 20, got 99999999"),
    ],
)
def test_bad_rolls(cli: Cli, rolls: str, message: str) -> None:
    result = cli("targets", "--rolls", rolls)
    assert result.code == 2
    assert result.out == ""
    assert len(result.err.splitlines()) == 1
    assert result.err.startswith("pinastats: error: ")
    assert message in result.err


def test_twenty_rolls_is_allowed(cli: Cli) -> None:
    result = cli("targets", "--rolls", "20", "--coasters", "--format", "json")
    assert result.code == 0
    data = json.loads(result.out)["targets"]
    pair_6 = next(r for r in data if r["key"] == "PAIR_6")
    assert 0.999 < pair_6["probability"] <= 1
