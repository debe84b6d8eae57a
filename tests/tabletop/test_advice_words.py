"""The coach's words on the board: errors for a comparison, the verdict, the evaluator named."""

from __future__ import annotations

from typing import Any

import pytest

from pinastats.evaluation import ExactEvaluator, NetworkEvaluator, SearchEvaluator
from pinastats.evaluation.network import NETWORK_DIFFERENCE_ERROR
from pinastats.game.notation import parse_position
from pinastats.tabletop import view
from pinastats.tabletop.view import advice_view, keep_difference_error

LINE = "pc1 P1,P2+2,P3+1,P4/P5+2,P6+1,T1+2,T2/T3+1,T4+2,T5,T6+1/FH+2,SS,LS,OD 1"


def test_the_error_of_a_keep_comparison_is_where_the_keeps_differ() -> None:
    assert keep_difference_error((1, 2, 3, 4), (1, 2, 3, 4)) == 0.0
    stop_or_four = keep_difference_error((1, 2, 3, 4, 6), (1, 2, 3, 4))
    assert stop_or_four == pytest.approx(NETWORK_DIFFERENCE_ERROR * 5 / 6)
    assert keep_difference_error((), (6, 6, 6, 6)) < NETWORK_DIFFERENCE_ERROR


def test_the_verdict_and_the_rows_in_words() -> None:
    game = parse_position(LINE)
    keeps = advice_view(game, (1, 2, 4, 4, 6), 2, ("Ana", "Ben"))
    assert keeps is not None
    assert (
        keeps["source"]
        == "search over the network, 2 turns deep, typical error ±2.7 percentage points"
    )
    assert [k["best"] for k in keeps["keeps"]].count(True) == 1
    assert "stop: take Pair of 4s" in [k["label"] for k in keeps["keeps"]]
    assert keeps["lit"] == [3]
    places = advice_view(game, (1, 2, 3, 4, 4), 0, ("Ana", "Ben"))
    assert places is not None
    assert sorted(p["coaster"] for p in places["placements"]) == ["Pair of 4s", "Small Straight"]
    wins = [p["win"] for p in places["placements"]]
    assert wins == sorted(wins, reverse=True)  # best first
    lead = places["placements"][0]["win"] - places["placements"][1]["win"]
    assert places["close"] == (lead <= SearchEvaluator().difference_error)
    assert places["verdict"].startswith("too close to call" if places["close"] else "chance")


def test_a_kept_exact_solution_advises_and_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    game = parse_position(LINE)
    assert view._evaluator(game)[0].name == "search"
    monkeypatch.setattr(ExactEvaluator, "is_kept", lambda self, g: True)
    assert view._evaluator(game)[0].name == "exact"

    asked: list[str] = []

    def fake(self: ExactEvaluator, game: Any, dice: Any, rolls_left: int) -> Any:
        asked.append(self.name)
        return NetworkEvaluator().advise(game, dice, rolls_left)

    monkeypatch.setattr(ExactEvaluator, "advise", fake)
    advice = advice_view(game, (1, 2, 3, 4, 4), 0)
    assert advice is not None
    assert asked == ["exact"]
    assert advice["source"] == "exact solution of this board"
    assert not advice["close"]  # no error to be within
