"""The written PDF: pages, headings, names, page numbers, metadata, and atomic writes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from pinastats.report import pages, pdf, write_pdf
from pinastats.report.typeset import page_problems, style
from pinastats.report.wording import end_words
from tests.report.conftest import Written


def test_page_count_follows_the_plan(two_players: Written) -> None:
    report = two_players.report
    plan = pages.plan(report)
    # cover, tier table, chart, 13 cheat-sheets + the one-value page, probabilities,
    # 5 simulation pages, 3 strong-play pages, 2 perfect-play pages, 3 methodology pages
    assert len(plan) == 1 + 2 + 14 + 1 + 5 + 3 + 2 + 3 == len(two_players.pages)
    assert len(report.holds) == 13


def test_headings_are_on_their_pages(two_players: Written) -> None:
    text = two_players.pages
    assert "Piña Coladice" in text[0]
    assert "Strategy report for 2 players" in text[0]
    assert "Headline findings" in text[0]
    assert "Contents" in text[0]
    assert "Coaster tier list: points against difficulty" in text[1]
    assert "Points against the chance of scoring them" in text[2]
    for i, sheet in enumerate(two_players.report.holds, start=3):
        assert "HOLD CHEAT-SHEETS" in text[i]
        assert text[i].lstrip().split("\n")[1] == sheet.name  # the title, under the header
        assert "use the first that fits" in text[i]
        if len(sheet.sections) == 2:
            assert "After roll 1 (2 rolls left)" in text[i]
            assert "After roll 2 (1 roll left)" in text[i]
        else:
            assert "After roll 1 and after roll 2 (the same list)" in text[i]
    assert "Coasters of one value" in text[16]
    assert "Chance of each combination in 1, 2 and 3 rolls" in text[17]
    titles = [
        "Agents at the table: who wins",
        "Match-ups at a glance",
        "First-player advantage",
        "How games end and how long they last",
        "Coasters in strategic self-play",
    ]
    for i, title in enumerate(titles, start=18):
        assert "SIMULATIONS" in text[i]
        assert title in text[i]
    strong = [
        "Do the findings hold on strong play?",
        "Coasters and rule variants on strong play",
        "The strength ladder",
    ]
    for i, title in enumerate(strong, start=23):
        assert "STRONG PLAY" in text[i]
        assert title in text[i]
    perfect = ["Perfect play (two players)", "Perfect play: the coasters and the agents"]
    for i, title in enumerate(perfect, start=26):
        assert "PERFECT PLAY" in text[i]
        assert title in text[i]
    assert "Methodology and assumptions" in text[28]
    assert "Methodology and assumptions (continued)" in text[29]
    assert "Methodology: the cheat-sheets" in text[30]
    for sheet in two_players.report.holds:
        assert sheet.name in text[30]


def test_contents_point_at_the_sections(two_players: Written) -> None:
    text = two_players.pages
    sections = pages.page_titles(two_players.report)
    for name in ("Coaster tier list", "Hold cheat-sheets", "Probabilities", "Simulations",
                 "Methodology and assumptions"):  # fmt: skip
        number = int(re.search(rf"{name}\s.*?(\d+)\n", text[0]).group(1))  # type: ignore[union-attr]
        assert sections[number - 1] == name
        assert name.upper() in text[number - 1]
        assert sections[number - 2] != name  # the first page of the section


def test_every_coaster_is_named(two_players: Written) -> None:
    tier_page, chart_page, probabilities = (two_players.pages[i] for i in (1, 2, 17))
    for coaster in two_players.report.coasters:
        assert coaster.name in tier_page
        assert coaster.name in probabilities
    for name in ("Sum ≤ 9", "Sum ≥ 26", "All Different", "Piña", "5≠"):
        assert name in "".join(two_players.pages)
    assert "Pair of 1s–6s" in chart_page


def test_every_page_is_numbered(two_players: Written) -> None:
    n = len(two_players.pages)
    for i, text in enumerate(two_players.pages, start=1):
        assert f"page {i} of {n}" in text
        assert "Piña Coladice strategy report · 2 players" in text


def test_findings_quote_the_simulations(two_players: Written) -> None:
    first = two_players.report.simulations.self_play.positions[0]
    cover = " ".join(two_players.pages[0].split())
    assert f"the first player wins {100 * first.value:.1f}%" in cover
    assert "PIÑA COLADICE" in cover


def test_metadata_has_no_dates(two_players: Written) -> None:
    info = PdfReader(two_players.path).metadata
    assert info is not None
    assert "/CreationDate" not in info
    assert "/ModDate" not in info
    assert info.title == "Piña Coladice strategy report, 2 players"
    page = PdfReader(two_players.path).pages[0]
    assert [round(float(v)) for v in page.mediabox[2:]] == [595, 842]  # A4 in points


@pytest.mark.parametrize("name", ["two_players", "four_players"])
def test_pages_have_no_overlapping_or_clipped_text(
    name: str, request: pytest.FixtureRequest
) -> None:
    written: Written = request.getfixturevalue(name)
    with style():
        for number, figure in enumerate(written.figures, start=1):
            assert page_problems(figure) == [], f"page {number}"


def test_a_failure_leaves_no_file(
    two_players: Written, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "old.pdf"
    target.write_bytes(b"the previous report")

    def broken(report: object) -> list[object]:
        raise RuntimeError("drawing failed")

    monkeypatch.setattr(pdf, "render", broken)
    with pytest.raises(RuntimeError, match="drawing failed"):
        write_pdf(two_players.report, target)
    assert target.read_bytes() == b"the previous report"
    assert [p.name for p in tmp_path.iterdir()] == ["old.pdf"]
    with pytest.raises(RuntimeError):
        write_pdf(two_players.report, tmp_path / "new" / "fresh.pdf")
    assert list((tmp_path / "new").iterdir()) == []


@pytest.mark.parametrize("name", ["report.txt", "report", "report.pdf.tmp"])
def test_only_pdf_files(two_players: Written, tmp_path: Path, name: str) -> None:
    with pytest.raises(ValueError, match=r"ending in \.pdf"):
        write_pdf(two_players.report, tmp_path / name)
    assert list(tmp_path.iterdir()) == []


def test_four_players_with_a_custom_catalogue(four_players: Written) -> None:
    report = four_players.report
    five = next(r for r in report.coasters if r.id == "five-of-a-kind")
    assert (five.side_a, five.side_b, five.tier) == (9, (20, 4), "C")  # 0.92 of 2.31
    assert report.b_share == 1.0
    assert report.catalogue_name == "my coasters.csv"
    assert report.catalogue_provenance == "my own points"
    assert [r.label for r in report.simulations.matchups] == ["random vs greedy vs ev vs strategic"]
    # one table of four: the match-up chart joins the agents page
    assert len(pages.plan(report)) == len(four_players.figures) == len(four_players.pages) == 25
    for text in four_players.pages:
        assert "Piña Coladice strategy report · 4 players · Happy Hour variant" in text
    # every coaster shows side B: the chart of side A is left out, and the page says so
    chart = " ".join(four_players.pages[2].split())
    assert "With 4 players no coaster shows side A" in chart
    assert "Side A (one space)" not in chart


def test_methodology_states_the_rules_played(two_players: Written, four_players: Written) -> None:
    for written, played in ((two_players, "not played"), (four_players, "played")):
        method = " ".join(" ".join(written.pages[-3:-1]).split())
        assert "Rules as modelled (the project's docs/rules.md)" in method
        assert f"Happy Hour (variant, {played} in these simulations)" in method
        assert "RULES.md" not in "".join(written.pages)


def test_game_ends_in_the_players_words(two_players: Written) -> None:
    ending = " ".join(two_players.pages[21].split())
    assert "How games end and how long they last" in ending
    sims = two_players.report.simulations
    for reason, words in end_words(two_players.report.rules).items():
        seen = sims.self_play.end_share(reason).count + sims.mixed.end_share(reason).count
        assert (words.entry in ending) == (seen > 0), reason


def test_every_section_is_described_in_the_contents() -> None:
    from pinastats.report.pages import SECTION_MODULES
    from pinastats.report.pages.cover import SECTIONS

    names = [module.SECTION for module in SECTION_MODULES]
    assert len(names) == len(set(names)) == len(SECTION_MODULES)
    assert sorted(SECTIONS) == sorted(names)
    assert all(SECTIONS[name] for name in names)
