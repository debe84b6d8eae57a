"""The designer's notes: built at a small scale, their pages, their seeds, their errors."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from matplotlib.figure import Figure
from matplotlib.text import Text

from pinastats.balance import variants
from pinastats.errors import PinastatsError
from pinastats.report import Report, build_report, render
from pinastats.report.designer_data import SEARCH_BUDGET_FACTOR, designer_seed
from pinastats.report.pages import page_titles
from pinastats.report.pages.designer import SECTION
from pinastats.report.pages.methodology import SECTION as METHODOLOGY
from pinastats.report.sims import run_seed
from pinastats.report.typeset import style
from pinastats.report.typeset.check import page_problems
from tests.report.conftest import Written

DESIGNER_GAMES = 60


@pytest.fixture(scope="module")
def designed() -> tuple[Report, list[Figure]]:
    """A 2-player report with small designer's notes, and its drawn pages."""
    report = build_report(2, games=40, seed=3, workers=2, designer_games=DESIGNER_GAMES,
                          win_positions=0)  # fmt: skip
    return report, render(report)


def _texts(fig: Figure) -> str:
    """The page's words, one space apart (a table heading may wrap)."""
    return " ".join(" ".join(t.get_text() for t in fig.findobj(Text)).split())


def _pages(designed: tuple[Report, list[Figure]]) -> list[Figure]:
    report, figures = designed
    titles = page_titles(report)
    return [fig for fig, title in zip(figures, titles, strict=True) if title == SECTION]


def test_the_section_sits_before_the_methodology(designed: tuple[Report, list[Figure]]) -> None:
    titles = page_titles(designed[0])
    assert titles.count(SECTION) == 3
    start = titles.index(SECTION)
    assert titles[start : start + 3] == [SECTION] * 3
    assert titles.index(METHODOLOGY) > start + 2


def test_no_designer_games_no_section(two_players: Written) -> None:
    assert two_players.report.designer is None
    assert SECTION not in page_titles(two_players.report)


def test_the_pages_are_clean(designed: tuple[Report, list[Figure]]) -> None:
    with style():
        for fig in _pages(designed):
            assert page_problems(fig) == []


def test_the_starting_scores(designed: tuple[Report, list[Figure]]) -> None:
    report, _ = designed
    d = report.designer
    assert d is not None
    assert d.rulebook.scores == (1, 2)  # the rulebook's 1, ..., n
    assert d.fairest.scores[0] == 1
    assert d.fairest.scores[1] >= 1
    assert d.search_games <= d.search_budget == SEARCH_BUDGET_FACTOR * DESIGNER_GAMES
    for vector in (d.rulebook, d.fairest):
        assert sum(s.value for s in vector.seats) <= 1 + 1e-12  # a game has at most one winner
        for s in (*vector.seats, vector.deviation):
            assert s.low <= s.value <= s.high
        worst = max(abs(s.value - 1 / 2) for s in vector.seats)
        assert vector.deviation.value == pytest.approx(worst)
    text = _texts(_pages(designed)[0])
    assert f"{d.fairest.scores[0]}, {d.fairest.scores[1]}" in text
    assert f"{100 * d.fairest.deviation.value:.1f}" in text
    assert "strategic" in text


def test_a_row_for_every_variant(designed: tuple[Report, list[Figure]]) -> None:
    d = designed[0].designer
    assert d is not None
    names = [v.name for v in variants()]
    assert [v.name for v in d.variants] == names
    text = _texts(_pages(designed)[1])
    for name in names:
        assert name in text
    for v in d.variants:
        assert v.games == DESIGNER_GAMES
        assert v.mean_rounds.low <= v.mean_rounds.value <= v.mean_rounds.high
        assert -1 / 2 <= v.first_player_edge.value <= 1 / 2  # a rate minus 1/2
        assert [(s, w) for s, w, _ in v.skill] == list(d.skill_pairs)
        assert f"{v.mean_rounds.value:.2f}" in text
    for strong, weak in d.skill_pairs:
        assert f"{strong} vs {weak}" in text


def test_a_row_for_every_coaster(designed: tuple[Report, list[Figure]]) -> None:
    report, _ = designed
    d = report.designer
    assert d is not None
    assert [c.coaster for c in d.coasters] == [c.id for c in report.coasters]
    text = _texts(_pages(designed)[2])
    for row in report.coasters:
        assert row.name in text
    assert "first-order estimate" in text
    for c in d.coasters:
        # every space of a coaster moves by the same shift, unless it stops at 0
        shifts = {new - old for new, old in zip(c.suggested, c.printed, strict=True) if new > 0}
        assert len(shifts) <= 1
        assert all(new >= 0 for new in c.suggested)
        if c.taken:
            assert c.effect.low <= c.effect.value <= c.effect.high


def test_the_seeds_are_the_reports_own(designed: tuple[Report, list[Figure]]) -> None:
    report, figures = designed
    d = report.designer
    assert d is not None
    assert d.seeds == tuple(designer_seed(3, k) for k in range(3))
    assert len(set(d.seeds)) == 3
    assert not set(d.seeds) & {run_seed(3, i) for i in range(16)}
    assert designer_seed(4, 0) != d.seeds[0]
    method = figures[page_titles(report).index(METHODOLOGY) + 1]
    text = _texts(method)
    assert all(str(s) in text for s in d.seeds)
    assert f"--designer-games {DESIGNER_GAMES}" in text


@pytest.mark.parametrize("bad", [-1, 1.5, True, "10"])
def test_bad_designer_games(bad: Any) -> None:
    with pytest.raises(PinastatsError, match=f"designer games must be .*got {bad!r}"):
        build_report(2, games=10, designer_games=bad)


def test_the_cli_refuses_negative_designer_games(cli: Callable[..., Any], tmp_path: Any) -> None:
    line = cli("report", "--players", "2", "-o", str(tmp_path / "r.pdf"),
               "--designer-games", "-3").one_error_line()  # fmt: skip
    assert "--designer-games" in line
    assert "-3" in line
    assert not (tmp_path / "r.pdf").exists()
