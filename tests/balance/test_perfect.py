"""The shipped perfect-play measurements: whole, consistent, and the same wherever shown."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from pinastats.balance.perfect import (
    PerfectPlay,
    coaster_worth,
    comparisons,
    doc_tables,
    extreme_boards,
    first_player,
    perfect_play,
    starting_scores_table,
)
from pinastats.balance.strong import markdown, strong_play
from pinastats.errors import MissingFileError, PinastatsError
from pinastats.game import Game, GameConfig
from pinastats.solve.survey import board_seeds

ROOT = Path(__file__).resolve().parents[2]


def _play(chances: list[float], **parts: Any) -> PerfectPlay:
    """A made-up measurement: boards with these first-player chances, two coasters each."""
    boards = pd.DataFrame([
        {"board": i, "seed": i, "first_chance": c, "coasters": ("Five of a Kind", "Pair of 1s"),
         "openings": (c + 0.2, c - 0.1)}
        for i, c in enumerate(chances)
    ])  # fmt: skip
    empty = pd.DataFrame()
    return PerfectPlay(boards, parts.get("starting_scores", empty), empty, empty, empty, {})


def test_the_shipped_boards_are_the_seeds_boards_and_every_figure_is_whole() -> None:
    pp = perfect_play()
    about = pp.about
    assert about["boards"] == len(pp.boards) >= 20
    assert pp.boards["seed"].tolist() == board_seeds(about["seed"], len(pp.boards))
    assert pp.boards["first_chance"].between(0, 1).all()
    start = Game.new(config=GameConfig(players=2), seed=int(pp.boards["seed"].iloc[0]))
    names = tuple(start.coaster(c).name for c in range(16))
    assert pp.boards["coasters"].iloc[0] == names  # the board the seed deals
    for openings in pp.boards["openings"]:
        assert len(openings) == 16
        assert all(0 <= x <= 1 for x in openings)
    errors = pp.error_rates.set_index("agent")
    assert errors.loc["perfect", "error_rate"] == pytest.approx(0.0, abs=1e-6)
    assert (errors["games"] == about["games"] * about["studied_boards"]).all()
    for r in pp.head_to_head.to_dict("records"):
        assert r["low"] <= r["score"] <= r["high"]
        assert r["games"] == about["duels"] * about["studied_boards"]
    assert set(pp.starting_scores["board"]) <= set(pp.boards["board"])


def test_starting_scores_are_compared_on_the_same_boards() -> None:
    starts = pd.DataFrame([
        {"starting_scores": [1, 3], "board": 0, "first_chance": 0.30},
        {"starting_scores": [1, 3], "board": 1, "first_chance": 0.40},
    ])  # fmt: skip
    pp = _play([0.5, 0.6, 0.9], starting_scores=starts)  # board 2 was not solved again
    table = starting_scores_table(pp).set_index("starting_scores")
    assert table.loc["1, 2", "first_chance"] == pytest.approx(0.55)  # boards 0 and 1 only
    assert table.loc["1, 3", "change"] == pytest.approx(-0.2)
    assert table.loc["1, 3", "boards"] == 2
    assert table.loc["1, 2", "change"] == 0.0


def test_a_coasters_worth_is_its_opening_less_the_start_over_the_boards() -> None:
    worth = coaster_worth(_play([0.5, 0.6, 0.7])).set_index("coaster")
    assert worth.loc["five-of-a-kind", "worth"] == pytest.approx(0.2)
    assert worth.loc["pair-1", "worth"] == pytest.approx(-0.1)
    assert worth.loc["five-of-a-kind", "rank"] == 1
    assert worth.loc["pair-1", "boards"] == 3


def test_the_fairest_boards_are_nearest_even_and_the_least_fair_farthest() -> None:
    table = extreme_boards(_play([0.51, 0.62, 0.40, 0.499]), 1)
    assert table.set_index("kind")["board"].to_dict() == {"fairest": 3, "least fair": 1}


@pytest.mark.parametrize(
    ("chances", "verdict_strategic", "verdict_value"),
    [
        # strategic's first player is ahead, value's behind (data/strong-play.json)
        ([0.53, 0.54, 0.55, 0.56], "holds", "changes (reversed)"),
        ([0.44, 0.45, 0.46, 0.47], "changes (reversed)", "holds"),
        (
            [0.40, 0.60, 0.45, 0.55],
            "changes (even under one only)",
            "changes (even under one only)",
        ),
    ],
)
def test_the_first_players_verdict_compares_sides_of_even(
    chances: list[float], verdict_strategic: str, verdict_value: str
) -> None:
    row = comparisons(_play(chances), strong_play()).iloc[0]
    assert (row["verdict_strategic"], row["verdict_value"]) == (verdict_strategic, verdict_value)


def test_the_first_player_summary_says_what_0_3_points_would_take() -> None:
    fp = first_player(_play([0.45, 0.55, 0.5, 0.52]))
    assert fp["low"] < fp["mean"] < fp["high"]
    assert fp["boards_for_0_3_points"] > 4
    assert math.isclose(fp["mean"], 0.505)


def test_docs_show_the_shipped_numbers() -> None:
    """The docs carry each table as the data makes it (``perfect_yardstick.py --update``)."""
    pages = {
        name: (ROOT / name).read_text(encoding="utf-8")
        for name in (
            "docs/results.md",
            "docs/solved-game.md",
            "docs/strong-play.md",
            "docs/strength-ladder.md",
        )
    }
    for name, frame in doc_tables().items():
        marker = f"<!-- table: {name} -->\n"
        where = [page for page in pages.values() if marker in page]
        assert where, f"table {name!r} is in no page"
        for page in where:
            assert marker + markdown(frame) + "\n" in page, f"table {name!r} is out of date"


def test_a_missing_or_foreign_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(MissingFileError):
        perfect_play(tmp_path / "none.json")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"boards": []}), encoding="utf-8")
    with pytest.raises(PinastatsError, match=r"missing \['about'"):
        perfect_play(bad)
    bad.write_text("[]", encoding="utf-8")
    with pytest.raises(PinastatsError, match="not a perfect-play file"):
        perfect_play(bad)
