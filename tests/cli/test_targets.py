"""``pinastats targets``: every combination with exact chances; the catalogue hook."""

from __future__ import annotations

import csv
import io
import json
import sys
import types
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from pinastats.cli import targets
from pinastats.dice import COASTER_COMBINATIONS, Combination, success_probability

Cli = Callable[..., Any]


@pytest.fixture
def no_catalogue(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(targets, "_catalogue_module", lambda: None)


@pytest.mark.usefixtures("no_catalogue")
def test_table_lists_every_combination(cli: Cli) -> None:
    result = cli("targets")
    assert result.code == 0
    for comb in Combination:
        assert comb.value in result.out
    assert "Coasters:" in result.out
    assert "Other targets (analysis only):" in result.out
    assert "side A" not in result.out
    full_house = next(line for line in result.out.splitlines() if "Full House" in line)
    assert full_house.split()[2:5] == ["3.94%", "36.61%", "36.61%"]


@pytest.mark.usefixtures("no_catalogue")
def test_json_fractions_are_exact(cli: Cli) -> None:
    result = cli("targets", "--format", "json")
    data = json.loads(result.out)
    assert data["rolls"] == 3
    records = data["targets"]
    assert [r["combination"] for r in records] == [c.value for c in Combination]
    for r in records:
        comb = Combination[r["key"]]
        assert r["coaster"] is comb.is_coaster
        assert Fraction(r["one_roll_fraction"]) == success_probability(comb, rolls=1)
        assert Fraction(r["fraction"]) == success_probability(comb)
        assert Fraction(r["sticky_fraction"]) == success_probability(comb, sticky=True)
        assert r["sticky_probability"] <= r["probability"]
        assert "side_a" not in r
    five = next(r for r in records if r["key"] == "FIVE_OF_A_KIND")
    assert five["fraction"] == "347897/7558272"
    assert five["sticky_fraction"] == "690169/15116544"


@pytest.mark.usefixtures("no_catalogue")
def test_csv_and_options(cli: Cli) -> None:
    result = cli("targets", "--format", "csv", "--coasters", "--rolls", "2")
    rows = list(csv.DictReader(io.StringIO(result.out)))
    assert len(rows) == len(COASTER_COMBINATIONS) == 25
    assert list(rows[0]) == list(targets.COLUMNS)
    for r in rows:
        comb = Combination[r["key"]]
        assert Fraction(r["fraction"]) == success_probability(comb, rolls=2)


def test_points_columns_when_a_catalogue_exists(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    coaster = types.SimpleNamespace
    fake = types.ModuleType(targets.CATALOGUE_MODULE)
    fake.load_catalogue = lambda: [  # type: ignore[attr-defined]
        coaster(combination=Combination.FULL_HOUSE, side_a=3, side_b=(4, 3)),
        coaster(combination=Combination.PAIR_6, side_a=1, side_b=(1, 1)),
    ]
    monkeypatch.setitem(sys.modules, targets.CATALOGUE_MODULE, fake)
    data = json.loads(cli("targets", "--format", "json").out)
    by_key = {r["key"]: r for r in data["targets"]}
    assert (by_key["FULL_HOUSE"]["side_a"], by_key["FULL_HOUSE"]["side_b"]) == (3, [4, 3])
    assert by_key["PAIR"]["side_a"] is None
    table = cli("targets").out
    assert "side A" in table
    line = next(x for x in table.splitlines() if x.strip().startswith("Full House"))
    assert line.split()[-2:] == ["3", "4/3"]
    rows = list(csv.DictReader(io.StringIO(cli("targets", "--format", "csv").out)))
    assert next(r for r in rows if r["key"] == "FULL_HOUSE")["side_b"] == "4/3"


def test_bad_rolls(cli: Cli) -> None:
    result = cli("targets", "--rolls", "0")
    assert result.code == 2
    assert result.err.startswith("pinastats: error: ")
    assert len(result.err.splitlines()) == 1
