"""The Perfect play pages: the shipped measurements on solved boards, only for the solved game."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure
from matplotlib.text import Text

from pinastats.balance.perfect import (
    PERFECT,
    coaster_worth,
    comparisons,
    data_path,
    first_player,
    perfect_play,
    starting_scores_table,
)
from pinastats.balance.strong import BASELINE, STRONG
from pinastats.report import perfect_figures
from pinastats.report.data import Report, solved_game
from pinastats.report.findings import headlines
from pinastats.report.pages import draw_pages, page_titles
from pinastats.report.pages.methodology import SECTION as METHODOLOGY
from pinastats.report.pages.perfect_play import SECTION
from pinastats.report.pages.strong_play import SECTION as STRONG_PLAY
from pinastats.report.perfect_text import ranking, site_table, site_text
from pinastats.report.text import percent, percent_range
from pinastats.report.typeset import style
from pinastats.report.typeset.check import page_problems
from tests.report.conftest import Written


def _text(fig: Figure) -> str:
    return " ".join(" ".join(t.get_text() for t in fig.findobj(Text)).split())


def _pages(report: Report) -> list[Figure]:
    """The report's perfect-play pages, drawn."""
    figures = draw_pages(report, sections={SECTION})
    titles = page_titles(report)
    return [figures[i] for i in sorted(figures) if titles[i] == SECTION]


def _perfect(headlines: list[str]) -> list[str]:
    return [h for h in headlines if h.startswith("Under perfect play")]


def _check_numbers(report: Report, first: str, second: str) -> None:
    """Every number of the pages is the file's, with what stands behind it."""
    pp = report.perfect_play
    assert pp is not None
    fp = first_player(pp)
    assert f"exact chance to win is {percent(fp['mean'])} on average over" in first
    assert f"95% interval {percent_range(fp['low'], fp['high'])}" in first
    assert f"{pp.about['boards']} boards dealt from seed {pp.about['seed']}" in first
    for r in starting_scores_table(pp).to_dict("records"):
        assert f"({r['starting_scores']})" in first
        assert percent(r["first_chance"]) in first
    table = comparisons(pp, report.strong_play)
    for r in table.to_dict("records"):
        for column in (BASELINE, STRONG, PERFECT, f"verdict_{BASELINE}", f"verdict_{STRONG}"):
            assert str(r[column]) in first, (r["finding"], column)
    assert f"{BASELINE} self-play" in first
    assert f"{STRONG} self-play" in first
    for name in coaster_worth(pp)["name"]:
        assert name in second
    rank = ranking(pp)
    for r in rank.to_dict("records"):
        assert r["agent"] in second
        assert f"{r['loss']:.1f}" in second  # the bar's label
    assert "thousandths of a win" in second
    assert f"{pp.about['games']} self-play games of each agent on each of" in second
    for h in pp.head_to_head.to_dict("records"):
        assert f"{h['opponent']} {h['games']} {percent(h['score'])}" in second
        assert percent_range(h["low"], h["high"]) in second
    assert "95% Wilson interval" in second


def test_the_solved_game_shows_its_pages_with_the_files_numbers(two_players: Written) -> None:
    report = two_players.report
    assert report.perfect_play is not None
    titles = page_titles(report)
    # the first player, starting scores and verdicts; the coasters and the agents
    assert titles.count(SECTION) == 2
    assert titles.index(SECTION) == titles.index(STRONG_PLAY) + 3
    assert titles.index(METHODOLOGY) == titles.index(SECTION) + 2
    pages = [f for f, t in zip(two_players.figures, titles, strict=True) if t == SECTION]
    with style():
        for fig in pages:
            assert page_problems(fig) == []
    first, second = (_text(fig) for fig in pages)
    assert "Perfect play (two players)" in first
    _check_numbers(report, first, second)
    # in the written PDF too
    index = titles.index(SECTION)
    assert "PERFECT PLAY" in two_players.pages[index]
    assert "Perfect play (two players)" in two_players.pages[index]
    # the cover's headline names perfect play, its boards and its number
    perfect = _perfect(headlines(report))
    assert len(perfect) == 1
    fp = first_player(report.perfect_play)
    assert f"seed {report.perfect_play.about['seed']}" in perfect[0]
    assert percent(fp["mean"]) in perfect[0]
    assert "Under perfect play" in " ".join(two_players.pages[0].split())


def _another_file(folder: Path) -> Path:
    """The shipped file with other numbers: other chances, seed, sizes and the rulebook's tokens."""
    data = json.loads(data_path().read_text(encoding="utf-8"))
    rng = np.random.default_rng(3)
    for board in data["boards"]:
        board["first_chance"] = float(rng.uniform(0.53, 0.58))
        board["openings"] = [float(x) for x in rng.uniform(0.3, 0.8, len(board["openings"]))]
    for row in data["starting_scores"]:
        row["first_chance"] = float(rng.uniform(0.45, 0.5))
    for row in data["error_rates"]:
        row["loss"] = row["loss"] + 0.25
    for row in data["head_to_head"]:
        row["score"], row["low"], row["high"] = 0.625, 0.3, 0.85
    data["about"].update(seed=4242, tokens=6, games=7, boards=len(data["boards"]))
    path = folder / "perfect-play.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_the_pages_follow_their_file(two_players: Written, tmp_path: Path) -> None:
    """No number is written down: another file gives other numbers, words and verdicts."""
    other = perfect_play(_another_file(tmp_path))
    report = dataclasses.replace(two_players.report, perfect_play=other)
    pages = _pages(report)
    with style():
        for fig in pages:
            assert page_problems(fig) == []
    first, second = (_text(fig) for fig in pages)
    _check_numbers(report, first, second)
    assert "seed 4242 (6 tokens a player)" in first
    assert "not the rulebook" not in first
    assert "an advantage to the first player" in first
    perfect = _perfect(headlines(report))
    assert len(perfect) == 1
    assert "seed 4242, 6 tokens a player)" in perfect[0]
    assert "an advantage to the first player" in perfect[0]
    # the site's words and table too
    assert report.strong_play is not None
    text = site_text(other, report.strong_play)
    table = site_table(ranking(other))
    assert f"{percent(first_player(other)['mean'])} on average" in text
    assert "seed 4242" in text
    assert "../docs/solved-game.md" in text
    for r in ranking(other).to_dict("records"):
        assert f"`{r['agent']}` | {r['loss']:.1f} [" in table
    assert f"`{PERFECT}` |" not in table  # it loses nothing: not ranked


def test_the_provisional_file_says_its_tokens_differ(two_players: Written) -> None:
    pp = two_players.report.perfect_play
    assert pp is not None
    text = " ".join(_text(f) for f in _pages(two_players.report))
    if pp.about["tokens"] != 6:
        assert f"{pp.about['tokens']} tokens a player, not the rulebook's 6" in text
        assert "the self-play runs play the rulebook's game" in text
    else:
        assert "not the rulebook's" not in text


def test_another_game_has_no_perfect_play(four_players: Written) -> None:
    assert four_players.report.perfect_play is None
    assert SECTION not in page_titles(four_players.report)
    assert not _perfect(headlines(four_players.report))


def test_only_the_solved_game_reads_the_file() -> None:
    """The shipped game, two players, no Happy Hour: what the solver solves."""
    assert solved_game(2, happy_hour=False, shipped=True) is not None
    assert solved_game(2, happy_hour=True, shipped=True) is None
    assert solved_game(3, happy_hour=False, shipped=True) is None
    assert solved_game(2, happy_hour=False, shipped=False) is None


def test_the_charts_draw_what_the_file_holds(tmp_path: Path) -> None:
    pp = perfect_play()
    with style():
        fig = Figure(figsize=(7, 9))
        top, middle, bottom = fig.subplots(3)
        perfect_figures.first_player_chart(top, pp)
        perfect_figures.coaster_chart(middle, pp)
        perfect_figures.loss_chart(bottom, pp)
    # the histogram counts every board; the fair 50% and the mean are marked
    assert sum(bar.get_height() for bar in top.containers[0]) == len(pp.boards)
    lines = {round(line.get_xdata()[0], 6) for line in top.get_lines()}
    assert 50 in lines
    assert round(100 * first_player(pp)["mean"], 6) in lines
    # one row per coaster, the most worth on top; one bar per graded agent, the best on top
    worth = coaster_worth(pp)
    labels = [t.get_text() for t in middle.get_yticklabels()]
    assert len(labels) == len(worth)
    assert labels[-1].startswith(str(worth["name"].iloc[0]))
    agents = [t.get_text() for t in bottom.get_yticklabels()]
    assert agents[::-1] == list(ranking(pp)["agent"])
    assert PERFECT not in agents
    written = perfect_figures.write_figures(pp, tmp_path)
    assert [p.name for p in written] == list(perfect_figures.FIGURES)
    for path in written:
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_ranking_never_shows_a_negative_loss() -> None:
    rank = ranking(perfect_play())
    assert (rank["loss_low"] >= 0).all()
    assert list(rank["loss"]) == sorted(rank["loss"])
    assert PERFECT not in set(rank["agent"])


def test_the_cover_holds_the_headline_and_every_section(two_players: Written) -> None:
    """Every section in the contents (guests too) and the perfect-play headline fit the cover."""
    from pinastats.report.pages import cover
    from pinastats.report.typeset import Page, TypesetError

    contents = [(name, number) for number, name in enumerate(cover.SECTIONS, start=2)]
    spec = cover.spec(two_players.report, contents)
    drawn = None
    with style():
        for draw in (spec.draw, *spec.compact):
            page = Page("")
            try:
                draw(page)
            except TypesetError:
                continue
            drawn = page
            break
        assert drawn is not None, "the cover does not fit even in its most compact form"
        assert page_problems(drawn.fig) == []
    text = _text(drawn.fig)
    assert "Under perfect play" in text
    assert "Perfect play exact chances on solved boards" in text
