from __future__ import annotations

import copy
import dataclasses
import pickle
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pinastats.dice.combinations import COASTER_COMBINATIONS, Combination
from pinastats.errors import PinastatsError
from pinastats.game.catalogue import (
    COLUMNS,
    Catalogue,
    CatalogueError,
    Coaster,
    Colour,
    UnknownCoasterError,
    default_catalogue_path,
    load_catalogue,
)
from pinastats.game.sides import Side

HEADER = ",".join(COLUMNS)

# RULES.md, "The 25 coasters (default catalogue)": combination -> (colour, A, B1, B2)
RULES_TABLE: dict[Combination, tuple[str, int, int, int]] = {
    **{Combination[f"PAIR_{v}"]: ("green", 1, 1, 1) for v in range(1, 7)},
    Combination.DOUBLE_PAIR: ("green", 2, 3, 2),
    **{Combination[f"THREE_{v}"]: ("blue", 1, 2, 1) for v in range(1, 7)},
    Combination.ODDS: ("red", 2, 3, 2),
    Combination.EVENS: ("red", 2, 3, 2),
    Combination.SUM_LE_9: ("red", 3, 4, 3),
    Combination.SUM_12_14: ("red", 2, 3, 2),
    Combination.SUM_21_23: ("red", 2, 3, 2),
    Combination.SUM_GE_26: ("red", 3, 4, 3),
    Combination.SMALL_STRAIGHT: ("red", 2, 3, 2),
    Combination.LARGE_STRAIGHT: ("red", 3, 4, 3),
    Combination.FOUR_OF_A_KIND: ("red", 3, 3, 3),
    Combination.FULL_HOUSE: ("red", 3, 4, 3),
    Combination.ALL_DIFFERENT: ("red", 3, 3, 3),
    Combination.FIVE_OF_A_KIND: ("red", 4, 6, 4),
}


@pytest.fixture(scope="module")
def default() -> Catalogue:
    return load_catalogue()


# ---------------------------------------------------------------- the default catalogue


def test_default_has_the_25_coasters(default: Catalogue) -> None:
    assert len(default) == 25
    assert set(default.combinations) == set(COASTER_COMBINATIONS)
    assert all(c.combination in COASTER_COMBINATIONS for c in default)
    assert default.combinations == COASTER_COMBINATIONS  # same order as the enum
    assert len(set(default.ids)) == 25


def test_default_matches_the_rules_table(default: Catalogue) -> None:
    for coaster in default:
        colour, a, b1, b2 = RULES_TABLE[coaster.combination]
        assert (coaster.colour, coaster.side_a, coaster.side_b) == (colour, a, (b1, b2))


def test_colour_groups_7_6_12(default: Catalogue) -> None:
    assert Counter(c.colour for c in default) == {Colour.GREEN: 7, Colour.BLUE: 6, Colour.RED: 12}


def test_full_house_side_b_is_4_then_3(default: Catalogue) -> None:
    full_house = default.find("Full House")
    assert full_house.points(Side.B) == (4, 3)
    assert full_house.points("A") == (3,)
    assert full_house.spaces(Side.A) == 1
    assert full_house.spaces(Side.B) == 2


def test_default_ingredients_are_blank_and_provenance_given(default: Catalogue) -> None:
    assert all(c.ingredient is None for c in default)
    assert "Board Game Arena" in default.provenance
    assert default.source == default_catalogue_path()
    assert default.source.is_file()


def test_side_b_first_is_higher_or_equal(default: Catalogue) -> None:
    assert all(c.side_b[0] >= c.side_b[1] for c in default)


# ---------------------------------------------------------------- look-ups


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("full-house", "full-house"),
        ("FULL-HOUSE", "full-house"),
        ("fh", "full-house"),
        ("Full House", "full-house"),
        ("pair of sixes", "pair-6"),
        ("66", "pair-6"),
        ("Sum ≤ 9", "sum-le-9"),
        ("sum <= 9", "sum-le-9"),
        ("sum 12, 13 or 14", "sum-12-14"),
        ("5≠", "all-different"),
        ("yahtzee", "five-of-a-kind"),
        (Combination.THREE_4, "three-4"),
    ],
)
def test_find_by_id_or_alias(default: Catalogue, name: str | Combination, expected: str) -> None:
    assert default.find(name).id == expected


def test_find_unknown_suggests_closest(default: Catalogue) -> None:
    with pytest.raises(UnknownCoasterError, match="full-house") as info:
        default.find("ful hose")
    assert "full-house" in info.value.suggestions


def test_find_generic_target_is_not_a_coaster(default: Catalogue) -> None:
    with pytest.raises(UnknownCoasterError, match="no coaster for 'Pair'"):
        default.find("any pair")


def test_getitem_by_id_and_position(default: Catalogue) -> None:
    assert default["double-pair"].combination is Combination.DOUBLE_PAIR
    assert default[0].id == "pair-1"
    assert default.index("double pair") == 6
    with pytest.raises(UnknownCoasterError, match="did you mean 'pair-6'"):
        default["pair6"]


def test_arrays_for_the_kernels(default: Catalogue) -> None:
    codes = default.combination_codes()
    assert codes.tolist() == list(range(25))
    table = default.points_table()
    assert table.shape == (25, 2, 2)
    fh = default.index("full house")
    assert table[fh].tolist() == [[3, 0], [4, 3]]
    assert not table.flags.writeable


# ---------------------------------------------------------------- frame and round trips


def test_to_frame(default: Catalogue) -> None:
    frame = default.to_frame()
    assert list(frame.columns) == list(COLUMNS)
    assert len(frame) == 25
    assert frame["side_a"].dtype == np.int64
    assert frame.set_index("id").loc["five-of-a-kind", "side_b_first"] == 6
    assert frame["combination"].tolist() == [c.value for c in COASTER_COMBINATIONS]


def test_frame_round_trip_through_csv(default: Catalogue, tmp_path: Path) -> None:
    path = tmp_path / "copy.csv"
    default.to_frame().to_csv(path, index=False)
    again = load_catalogue(path)
    assert again.coasters == default.coasters
    pd.testing.assert_frame_equal(again.to_frame(), default.to_frame())


def test_to_csv_keeps_provenance(default: Catalogue, tmp_path: Path) -> None:
    path = tmp_path / "copy.csv"
    default.to_csv(path)
    again = load_catalogue(path)
    assert again.coasters == default.coasters
    assert again.provenance == default.provenance


def test_user_catalogue_may_be_smaller_and_use_ingredients(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "id,combination,colour,side_a,side_b_first,side_b_second,ingredient\n"
        "fh,fh,RED,3,4,3,Coconut\n"
        "any-pair,pair,green,1,1,1,\n",
    )
    catalogue = load_catalogue(str(path))
    assert len(catalogue) == 2
    assert catalogue["fh"].ingredient == "Coconut"
    assert catalogue.find("Pair").id == "any-pair"
    assert catalogue.provenance == ""


def test_catalogue_rejects_duplicates_built_in_code() -> None:
    a = Coaster("a", Combination.ODDS, Colour.RED, None, 2, (3, 2))
    with pytest.raises(ValueError, match="id"):
        Catalogue((a, Coaster("a", Combination.EVENS, Colour.RED, None, 2, (3, 2))))
    with pytest.raises(ValueError, match="Odds"):
        Catalogue((a, Coaster("b", Combination.ODDS, Colour.RED, None, 2, (3, 2))))
    with pytest.raises(ValueError, match="first space"):
        Coaster("c", Combination.ODDS, Colour.RED, None, 2, (2, 3))


# ---------------------------------------------------------------- errors


def write(tmp_path: Path, text: str, name: str = "cat.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


GOOD_ROW = "odds,Odds,red,,2,3,2"


@pytest.mark.parametrize(
    ("body", "line", "column", "reason"),
    [
        (f"{HEADER}\nodds,Odd Numbers,red,,2,3,2\n", 2, "combination", "unknown combination"),
        (f"{HEADER}\nfh,full hose,red,,3,4,3\n", 2, "combination", "did you mean 'Full House'"),
        (
            "id,combination,colour,side_a,side_b_first\n" + "odds,Odds,red,2,3\n",
            1,
            "side_b_second",
            "missing column",
        ),
        (f"{HEADER},notes\n{GOOD_ROW},x\n", 1, "notes", "unknown column"),
        (f"{HEADER}\n{GOOD_ROW}\nevens,Evens,red,,2,3.5,2\n", 3, "side_b_first", "whole number"),
        (f"{HEADER}\nevens,Evens,red,,two,3,2\n", 2, "side_a", "whole number"),
        (f"{HEADER}\nevens,Evens,red,,-1,3,2\n", 2, "side_a", "negative"),
        (f"{HEADER}\nevens,Evens,red,,2,,2\n", 2, "side_b_first", "missing value"),
        (f"{HEADER}\nevens,Evens,red,,2,2,3\n", 2, "side_b_second", "higher or equal"),
        (f"{HEADER}\n{GOOD_ROW}\nodds,Evens,red,,2,3,2\n", 3, "id", "duplicate id"),
        (f"{HEADER}\n{GOOD_ROW}\nodd,all odd,red,,2,3,2\n", 3, "combination", "duplicate comb"),
        (f"{HEADER}\nevens,Evens,purple,,2,3,2\n", 2, "colour", "unknown colour"),
        (f"{HEADER}\nEvens Coaster,Evens,red,,2,3,2\n", 2, "id", "invalid id"),
        (
            f"# comment\n\n{HEADER}\n\n{GOOD_ROW}\nevens,Evens,red,,2,3\n",
            6,
            "side_b_second",
            "missing value",
        ),
    ],
)
def test_errors_name_file_line_and_column(
    tmp_path: Path, body: str, line: int, column: str, reason: str
) -> None:
    path = write(tmp_path, body)
    with pytest.raises(CatalogueError, match=reason) as info:
        load_catalogue(path)
    error = info.value
    assert (error.source, error.line, error.column) == (str(path), line, column)
    assert str(error).startswith(f"{path}, line {line}, column {column!r}: ")


@pytest.mark.parametrize(
    ("body", "line", "reason"),
    [
        ("", 1, "empty file"),
        ("# only a comment\n\n", 1, "empty file"),
        (f"# provenance\n{HEADER}\n", 2, "no coasters"),
        (f"{HEADER}\n{GOOD_ROW},extra\n", 2, "8 values but the header has 7"),
    ],
)
def test_errors_without_a_column(tmp_path: Path, body: str, line: int, reason: str) -> None:
    path = write(tmp_path, body)
    with pytest.raises(CatalogueError, match=reason) as info:
        load_catalogue(path)
    assert (info.value.line, info.value.column) == (line, None)
    assert str(info.value).startswith(f"{path}, line {line}: ")


def test_utf8_bom_and_spaces_are_tolerated(tmp_path: Path) -> None:
    path = tmp_path / "bom.csv"
    path.write_bytes(("\ufeff" + HEADER + "\n odds , Odds , Red ,, 2 , 3 , 2 \n").encode())
    coaster = load_catalogue(path)["odds"]
    assert (coaster.colour, coaster.side_b) == (Colour.RED, (3, 2))


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.csv"
    path.write_bytes((HEADER + "\nodds,Odds,red,Açaí,2,3,2\n").encode("latin-1"))
    with pytest.raises(CatalogueError, match="UTF-8"):
        load_catalogue(path)


def test_catalogue_error_is_a_pinastats_error(tmp_path: Path) -> None:
    with pytest.raises(PinastatsError, match="empty file"):
        load_catalogue(write(tmp_path, ""))


# ---------------------------------------------------------------- unknown coasters


def test_unknown_coaster_is_a_value_error_with_a_plain_message(default: Catalogue) -> None:
    with pytest.raises(ValueError, match="full-house") as info:
        default.find("ful hose")
    error = info.value
    assert isinstance(error, UnknownCoasterError)
    assert isinstance(error, PinastatsError)
    assert not isinstance(error, KeyError)
    assert error.name == "ful hose"
    # the message as written: it names the bad name, without the quotes a KeyError adds
    assert str(error) == error.args[0]
    assert str(error).startswith("no coaster is named 'ful hose'; did you mean 'full-house'")


def test_unknown_id_names_it_and_suggests_the_closest(default: Catalogue) -> None:
    with pytest.raises(UnknownCoasterError) as info:
        default["three6"]
    assert str(info.value).startswith("no coaster with id 'three6'; did you mean 'three-6'")
    assert info.value.suggestions[0] == "three-6"


# ---------------------------------------------------------------- sharing and pickling


def test_default_is_read_once_and_cannot_be_changed(default: Catalogue) -> None:
    assert load_catalogue() is default
    again = load_catalogue(default_catalogue_path())  # a path is read again
    assert again is not default
    assert again == default
    with pytest.raises(dataclasses.FrozenInstanceError):
        default.provenance = "changed"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        default[0].side_a = 9  # type: ignore[misc]
    assert isinstance(default.coasters, tuple)
    table = default.points_table()
    assert not table.flags.writeable
    assert default.points_table() is not table  # a new array per call


@pytest.mark.parametrize("clone", [lambda c: pickle.loads(pickle.dumps(c)), copy.deepcopy])
def test_pickle_and_deepcopy_round_trip(
    tmp_path: Path, default: Catalogue, clone: Callable[[Catalogue], Catalogue]
) -> None:
    own = load_catalogue(write(tmp_path, f"# mine\n{HEADER}\nfh,Full House,red,Coconut,3,4,3\n"))
    for catalogue in (default, own):
        copied = clone(catalogue)
        assert copied is not catalogue
        assert copied == catalogue
        assert (copied.source, copied.provenance) == (catalogue.source, catalogue.provenance)
        assert copied.ids == catalogue.ids
        assert copied.find("Full House") == catalogue.find("full-house")
        assert copied.index("Full House") == catalogue.index("fh")
        assert (copied.points_table() == catalogue.points_table()).all()
