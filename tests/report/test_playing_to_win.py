"""The playing-to-win section: built at a tiny scale, its numbers, its pages, its errors."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from matplotlib.figure import Figure
from matplotlib.text import Text

from pinastats.cli import report as cli_report
from pinastats.coach.objectives import SITUATIONS, _sample
from pinastats.errors import PinastatsError
from pinastats.game import GameConfig
from pinastats.game.layout import load_layout
from pinastats.report import Report, build_report
from pinastats.report.pages import draw_pages, page_titles
from pinastats.report.pages.methodology import SECTION as METHODOLOGY
from pinastats.report.pages.playing_to_win import SECTION
from pinastats.report.pages.simulations import SECTION as SIMULATIONS
from pinastats.report.typeset import style
from pinastats.report.typeset.check import page_problems
from pinastats.report.win_data import (
    DEFAULT_WIN_PLAYOUTS,
    DEFAULT_WIN_POSITIONS,
    MAX_WIN_PLAYOUTS,
    MAX_WIN_POSITIONS,
    NETWORK_CALIBRATION_FACTOR,
    PlayingToWin,
    _calibration,
    run_playing_to_win,
    win_seed,
)
from tests.report.conftest import SEED, Written

POSITIONS = 4
PLAYOUTS = 4


@pytest.fixture(scope="module")
def section() -> PlayingToWin:
    """The section of a 2-player report seeded :data:`SEED`, built through ``build_report``."""
    report = build_report(2, games=20, seed=SEED, workers=2, designer_games=0,
                          win_positions=POSITIONS, win_playouts=PLAYOUTS)  # fmt: skip
    assert report.playing_to_win is not None
    return report.playing_to_win


@pytest.fixture(scope="module")
def drawn(two_players: Written, section: PlayingToWin) -> tuple[Report, dict[int, Figure]]:
    """The session's 2-player report with the section; its cover, section and methodology."""
    report = dataclasses.replace(two_players.report, playing_to_win=section)
    return report, draw_pages(report, {SECTION, METHODOLOGY})


def _text(fig: Figure) -> str:
    return " ".join(" ".join(t.get_text() for t in fig.findobj(Text)).split())


def test_the_section_sits_after_the_simulations(drawn: tuple[Report, dict[int, Figure]],
                                                two_players: Written) -> None:  # fmt: skip
    titles = page_titles(drawn[0])
    assert titles.count(SECTION) == 3
    last_simulation = len(titles) - 1 - titles[::-1].index(SIMULATIONS)
    assert titles.index(SECTION) == last_simulation + 1
    assert titles.index("Strong play") == titles.index(SECTION) + 3
    assert titles.index(METHODOLOGY) > titles.index(SECTION) + 3
    assert SECTION not in page_titles(two_players.report)  # win_positions=0: no section
    assert two_players.report.playing_to_win is None
    cover = _text(drawn[1][0])
    assert SECTION in cover


def test_the_shares_and_gains_are_consistent(section: PlayingToWin) -> None:
    assert (section.positions, section.playouts, section.policy) == (POSITIONS, PLAYOUTS,
                                                                     "strategic")  # fmt: skip
    assert section.seed == win_seed(SEED)
    parts, overall = section.situations[:-1], section.overall
    assert overall.situation == "all"
    assert [p.situation for p in parts] == [
        s for s in SITUATIONS if s in {p.situation for p in parts}
    ]
    assert sum(p.positions for p in parts) == overall.positions == POSITIONS
    assert sum(p.disagreements for p in parts) == overall.disagreements
    for row in section.situations:
        assert 0 <= row.disagreements <= row.positions
        share = row.share
        assert 0.0 <= share.low <= share.value <= share.high <= 1.0
        assert share.value == row.disagreements / row.positions
        for gain in (row.gain, row.gain_per_decision):
            if gain is not None:
                assert gain.value >= 0.0  # the coach's cell is never worse on its own play-outs
                assert gain.low <= gain.value <= gain.high
        if row.gain is not None and row.gain_per_decision is not None:
            # the mean over all decisions counts the agreeing ones as 0
            assert row.gain_per_decision.value == pytest.approx(row.share.value * row.gain.value)


def test_the_worked_example(section: PlayingToWin) -> None:
    ex = section.example
    child = np.random.SeedSequence(section.seed).spawn(ex.decision + 1)[ex.decision]
    game, dice = _sample(child, 2)  # the position it says it is
    assert tuple(dice) == ex.dice
    assert (game.scores, game.reserves, game.to_move) == (ex.scores, ex.reserves, ex.seat)
    assert sorted(c.cell for c in ex.cells) == sorted(game.legal_cells(dice))  # every legal cell
    assert len(ex.cells) >= 3
    assert len(ex.board) == game.config.layout.n_cells
    top = max(c.win_probability for c in ex.cells)
    assert ex.coach_cell.win_probability == top  # the coach's choice is the argmax of W
    assert sum(c.coach for c in ex.cells) == sum(c.points_choice for c in ex.cells) == 1
    assert ex.points_cell.points == max(c.points for c in ex.cells)
    for c in ex.cells:
        assert 0.0 <= c.win_probability <= 1.0
        assert c.win_probability_se >= 0.0
        if c.exact:  # the game is over: a win, no winner or a loss, no play-outs
            assert (c.win_probability, c.win_probability_se) in {(1.0, 0.0), (0.5, 0.0), (0.0, 0.0)}
    assert PLAYOUTS <= ex.playouts <= 4 * PLAYOUTS
    assert ex.lead >= 0.0


def test_the_calibration_of_the_coach_and_the_network(section: PlayingToWin) -> None:
    c = section.calibration
    assert c.predictors == (f"coach ({PLAYOUTS} play-outs)", "network (value)")
    assert c.network_note == ""  # the shipped game: the network was trained on it
    for name, positions in zip(c.predictors, (POSITIONS, NETWORK_CALIBRATION_FACTOR * POSITIONS),
                               strict=True):  # fmt: skip
        rows = [r for r in c.rows if r.predictor == name]
        assert rows[-1].phase == "all"
        assert rows[-1].positions == positions
        assert sum(r.positions for r in rows[:-1]) == positions  # the phases split the positions
        assert sum(d.count for d in c.deciles if d.predictor == name) == positions
        for r in rows:
            assert 0.0 <= r.brier <= 1.0
            assert r.log_loss > 0.0
            assert 0.0 <= r.ece <= 1.0


def test_a_game_the_network_does_not_fit_is_calibrated_by_the_coach_alone() -> None:
    c = _calibration(GameConfig(players=2, layout=load_layout("cross")), 3, PLAYOUTS, 1, 1, False)
    assert c.predictors == (f"coach ({PLAYOUTS} play-outs)",)
    assert c.network_note.startswith("The network was left out: the value network plays")


def test_the_same_numbers_on_any_number_of_workers(section: PlayingToWin) -> None:
    again = run_playing_to_win(GameConfig(players=2), POSITIONS, PLAYOUTS, SEED, workers=1)
    assert again == section  # the fixture ran on 2 workers


def test_the_pages_are_clean_and_show_the_numbers(drawn: tuple[Report, dict[int, Figure]]) -> None:
    report, figures = drawn
    titles = page_titles(report)
    first = titles.index(SECTION)
    example, disagree, calibrated = figures[first], figures[first + 1], figures[first + 2]
    with style():
        assert page_problems(example) == []
        assert page_problems(disagree) == []
        assert page_problems(calibrated) == []
    s = report.playing_to_win
    assert s is not None
    text = _text(example)
    for c in s.example.cells:
        assert f"cell {c.cell}" in text
    assert f"seed {s.seed}" in text
    assert f"play-out seed {s.example.seed}" in text
    text = _text(disagree)
    assert f"{POSITIONS} placement decisions" in text
    assert f"{PLAYOUTS} play-outs per outcome position" in text
    assert "biased upward" in text
    text = _text(calibrated)
    for row in s.calibration.rows:
        assert row.predictor in text
        assert f"{row.brier:.3f} ({row.brier_constant:.3f})" in text
        assert f"{row.ece:.3f} ({row.ece_floor:.3f})" in text
    method = _text(figures[titles.index(METHODOLOGY) + 1])
    assert f"seed {s.seed}" in method
    assert f"--win-positions {POSITIONS} --win-playouts {PLAYOUTS}" in method


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"win_positions": -1}, "win positions must be a whole number from 0"),
        ({"win_positions": MAX_WIN_POSITIONS + 1}, f"to {MAX_WIN_POSITIONS:,}, got"),
        ({"win_positions": 1.5}, "got 1.5"),
        ({"win_positions": True}, "got True"),
        ({"win_playouts": 1}, "win play-outs must be a whole number from 2"),
        ({"win_playouts": MAX_WIN_PLAYOUTS + 1}, f"to {MAX_WIN_PLAYOUTS:,}"),
        ({"win_playouts": "8"}, "got '8'"),
    ],
)
def test_bad_settings_are_refused(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(PinastatsError, match=message):
        build_report(2, games=10, designer_games=0, **kwargs)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--win-positions", "-1"], "--win-positions: must be at least 0"),
        (["--win-positions", "50000"], "--win-positions must be a whole number from 0"),
        (["--win-playouts", "1"], "--win-playouts must be a whole number from 2"),
        (["--win-playouts", "x"], "--win-playouts"),
    ],
)
def test_the_cli_refuses_bad_settings(cli: Callable[..., Any], tmp_path: Path, argv: list[str],
                                      words: str) -> None:  # fmt: skip
    target = tmp_path / "r.pdf"
    line = cli("report", "--players", "2", "-o", str(target), *argv).one_error_line()
    assert words in line
    assert not target.exists()


def test_the_cli_defaults_are_the_library_defaults() -> None:
    assert cli_report.DEFAULT_WIN_POSITIONS == DEFAULT_WIN_POSITIONS
    assert cli_report.DEFAULT_WIN_PLAYOUTS == DEFAULT_WIN_PLAYOUTS
