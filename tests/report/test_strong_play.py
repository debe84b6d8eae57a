"""The Strong play pages: the shipped strong-play measurements, only for the shipped game."""

from __future__ import annotations

from pathlib import Path

import pytest
from matplotlib.figure import Figure
from matplotlib.text import Text

from pinastats.balance.strong import comparisons
from pinastats.report.findings import headlines
from pinastats.report.pages import page_titles
from pinastats.report.pages.perfect_play import SECTION as PERFECT_PLAY
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
    # turn order and starting scores; coasters and rules; the strength ladder
    assert titles.count(SECTION) == 3
    assert titles.index(PERFECT_PLAY) == titles.index(SECTION) + 3
    pages = _pages(two_players)
    with style():
        for fig in pages:
            assert page_problems(fig) == []
    first, second, _ = (_text(fig) for fig in pages)
    table = comparisons(two_players.report.strong_play)
    mine = table[table["finding"].str.startswith("2 players")]
    for r in mine.itertuples():
        page = second if r.topic == "coasters" else first
        assert str(r.strong_play) in page, r.finding
        assert str(r.strategic) in page or r.strategic == "-", r.finding
    assert "strategic self-play" in first
    assert "value self-play (strong)" in first
    assert "value agent plays the 4×4 grid only" in second
    # the cover's headline names the strong agent and its number
    strong = [h for h in headlines(two_players.report) if h.startswith("On strong play")]
    assert len(strong) == 1
    assert "value self-play, 40,000 games" in strong[0]


def test_another_catalogue_has_no_strong_play(four_players: Written) -> None:
    assert four_players.report.strong_play is None
    assert SECTION not in page_titles(four_players.report)
    assert not [h for h in headlines(four_players.report) if h.startswith("On strong play")]


def test_the_ladder_page_shows_the_shipped_ladder(two_players: Written) -> None:
    import json

    from pinastats.ratings.document import data_path as ladder_path

    ladder = two_players.report.ladder
    assert ladder is not None
    doc = json.loads(ladder_path().read_text(encoding="utf-8"))
    assert [r.agent for r in ladder.rows] == [r["agent"] for r in doc["ratings"]]
    assert ladder.games == sum(p["games"] for p in doc["pairs"])
    for r in ladder.rows:
        assert r.low <= r.elo <= r.high
    page = _text(_pages(two_players)[-1])
    assert "The strength ladder" in page
    for r in ladder.rows:
        assert f"{r.low:.0f} to {r.high:.0f}" in page


def test_a_bad_ladder_file_is_refused(tmp_path: Path) -> None:
    from pinastats.errors import MissingFileError, PinastatsError
    from pinastats.report.ladder_data import shipped_ladder

    with pytest.raises(MissingFileError, match="no strength-ladder file"):
        shipped_ladder(tmp_path / "none.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"ratings": []}', encoding="utf-8")
    with pytest.raises(PinastatsError, match="not a strength-ladder file"):
        shipped_ladder(bad)


def test_the_results_pages_ladder_is_the_shipped_one() -> None:
    """docs/results.md's ladder table shows data/strength-ladder.json's ratings, in its order."""
    import re

    from pinastats.report.ladder_data import shipped_ladder

    page = Path(__file__).resolve().parents[2] / "docs" / "results.md"
    section = page.read_text(encoding="utf-8").split("## Strength ladder", 1)[1].split("\n## ")[0]
    shown = re.findall(r"^\| `([^`]+)` \| ([+-]\d+) \| ([^|]+) \| ([\d,]+) \|$", section, re.M)
    ladder = shipped_ladder()
    assert [row[0] for row in shown] == [r.agent for r in ladder.rows]
    for (agent, elo, interval, games), r in zip(shown, ladder.rows, strict=True):
        assert elo == f"{r.elo:+.0f}", agent
        assert interval.strip() in (f"{r.low:+.0f} to {r.high:+.0f}", "—"), agent
        assert games == f"{r.games:,}", agent
