"""The game's words are written once, in the engine, and read from there.

How a game ended (table entries and clauses) comes from the engine's codes
with the rules' target score; what a combination means comes from the
combination itself.
"""

from __future__ import annotations

from pinastats import _engine as E
from pinastats.cli._summary import summary_text
from pinastats.dice.combinations import COASTER_COMBINATIONS, Combination
from pinastats.game import GameConfig
from pinastats.game.rules import EndReason, Rules
from pinastats.report.wording import end_words
from pinastats.simulation import simulate


def test_the_simulate_summary_names_the_target_score_it_was_played_to() -> None:
    config = GameConfig(players=2, rules=Rules(target_score=8))
    result = simulate(["ev", "ev"], 40, seed=3, config=config, workers=1)
    summary = result.summary()
    assert summary["target_score"] == 8
    assert summary["end_reason_games"]["score"] > 0
    text = summary_text({**summary, "first_seat": None, "out": None})
    assert "8 points reached, best score wins" in text
    assert "20 points" not in text


def test_the_report_and_the_engine_say_how_games_end_in_the_same_words() -> None:
    words = end_words(Rules(target_score=15))
    assert list(words) == [r for r in EndReason if r is not EndReason.ONGOING]
    for reason, w in words.items():
        assert w.entry == E.end_entry(reason, 15)
        assert w.clause == E.end_clause(reason, 15)
    assert E.end_entry(EndReason.SCORE) == str(EndReason.SCORE)


def test_a_cheat_sheet_defines_a_combination_by_its_own_description() -> None:
    from pinastats.report.pages import cheat_sheets

    assert not hasattr(cheat_sheets, "DEFINITIONS")
    for combination in COASTER_COMBINATIONS:
        if combination.face is None:
            assert cheat_sheets.definition(combination) == combination.description


def test_the_coasters_are_every_combination_but_the_analysis_targets() -> None:
    """Not the first 25 members: a coaster's combination added to the enum is a coaster."""
    from pinastats.dice.combinations import ANALYSIS_TARGETS

    assert Combination.PAIR in ANALYSIS_TARGETS
    assert Combination.FIVE_6 in ANALYSIS_TARGETS
    assert tuple(c for c in Combination if c not in ANALYSIS_TARGETS) == COASTER_COMBINATIONS
    assert all(c.is_coaster for c in COASTER_COMBINATIONS)
    assert len(COASTER_COMBINATIONS) == 25


def test_a_seats_result_is_the_engines_and_written_once() -> None:
    """Win 1, nobody 1/2, loss 0: the engine's ``seat_result`` / ``seat_value``, nowhere else."""
    import re
    from pathlib import Path

    import numpy as np

    import pinastats

    assert E.seat_value(0.25, 0.5) == 0.5
    assert np.array_equal(E.seat_value(np.array([1.0, 0.0]), np.array([0.0, 1.0])), [1.0, 0.5])
    state = E.empty_state(16, 3)
    state.status[0]["winner"] = -1
    assert E.seat_result(state, 1) == E.NO_WINNER_SHARE
    state.status[0]["winner"] = 2
    assert (E.seat_result(state, 2), E.seat_result(state, 0)) == (1.0, 0.0)
    package = Path(pinastats.__file__).resolve().parent
    copies = [
        str(path.relative_to(package))
        for path in sorted(package.rglob("*.py"))
        if path.parts[len(package.parts)] != "_engine"
        and re.search(r"\+ 0\.5 \*|else 0\.5 if", path.read_text(encoding="utf-8"))
    ]
    assert copies == []
