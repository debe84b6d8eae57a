"""The Strong play pages: the shipped strong-play measurements, only for the shipped game."""

from __future__ import annotations

from matplotlib.figure import Figure
from matplotlib.text import Text

from pinastats.balance.strong import comparisons
from pinastats.report.findings import headlines
from pinastats.report.pages import page_titles
from pinastats.report.pages.methodology import SECTION as METHODOLOGY
from pinastats.report.pages.strong_play import SECTION
from pinastats.report.typeset import style
from pinastats.report.typeset.check import page_problems
from tests.report.conftest import Written


def _text(fig: Figure) -> str:
    return " ".join(" ".join(t.get_text() for t in fig.findobj(Text)).split())


def _pages(written: Written) -> list[Figure]:
    titles = page_titles(written.report)
    return [f for f, t in zip(written.figures, titles, strict=True) if t == SECTION]


def test_the_shipped_game_shows_its_verdicts_and_names_both_agents(two_players: Written) -> None:
    titles = page_titles(two_players.report)
    assert titles.count(SECTION) == 2  # turn order and starting scores; coasters and rules
    assert titles.index(METHODOLOGY) == titles.index(SECTION) + 2
    pages = _pages(two_players)
    with style():
        for fig in pages:
            assert page_problems(fig) == []
    first, second = (_text(fig) for fig in pages)
    table = comparisons(two_players.report.strong_play)
    mine = table[table["finding"].str.startswith("2 players")]
    for r in mine.itertuples():
        page = second if r.topic == "coasters" else first
        assert str(r.strong_play) in page, r.finding
        assert str(r.strategic) in page or r.strategic == "-", r.finding
    assert "strategic self-play" in first
    assert "value self-play (strong)" in first
    assert "value plays the 4×4 grid only" in second
    # the cover's headline names the strong agent and its number
    strong = [h for h in headlines(two_players.report) if h.startswith("On strong play")]
    assert len(strong) == 1
    assert "value self-play, 40,000 games" in strong[0]


def test_another_catalogue_has_no_strong_play(four_players: Written) -> None:
    assert four_players.report.strong_play is None
    assert SECTION not in page_titles(four_players.report)
    assert not [h for h in headlines(four_players.report) if h.startswith("On strong play")]
