"""The reports of the tests, each built, drawn and written once for the whole session."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from matplotlib.figure import Figure

from pinastats.report import Report, build_report, render, write_pdf

GAMES = 300
SEED = 5


@dataclass(frozen=True)
class Written:
    """A report, its drawn pages and the PDF written from them."""

    report: Report
    figures: list[Figure]  # each page, drawn once
    path: Path
    pages: list[str]  # the text of each page in the PDF


def write(report: Report, path: Path) -> Written:
    """Draw ``report`` once, write it at ``path`` and read its text back."""
    from pypdf import PdfReader

    figures = render(report)
    write_pdf(report, path, figures=figures)
    pages = [page.extract_text() for page in PdfReader(path).pages]
    return Written(report, figures, path, pages)


@pytest.fixture(scope="session")
def two_players(tmp_path_factory: pytest.TempPathFactory) -> Written:
    """Two players, the shipped catalogue, :data:`GAMES` games per run, on 2 workers.

    No designer's notes and no playing-to-win section (their own tests add them).
    """
    report = build_report(2, games=GAMES, seed=SEED, workers=2, designer_games=0,
                          win_positions=0)  # fmt: skip
    return write(report, tmp_path_factory.mktemp("report") / "strategy-2p.pdf")


@pytest.fixture(scope="session")
def four_players(tmp_path_factory: pytest.TempPathFactory) -> Written:
    """Four players, Happy Hour, a catalogue file of our own: Five of a Kind pays 9, 20 / 4."""
    from pinastats.game import load_catalogue

    folder = tmp_path_factory.mktemp("report-4p")
    rows = load_catalogue().to_frame()
    rows.loc[rows["id"] == "five-of-a-kind", ["side_a", "side_b_first"]] = [9, 20]
    csv = folder / "my coasters.csv"
    csv.write_text("# my own points\n" + rows.to_csv(index=False), encoding="utf-8")
    report = build_report(
        4, happy_hour=True, games=60, seed=1, catalogue=csv, workers=1, designer_games=0,
        win_positions=0,
    )  # fmt: skip
    return write(report, folder / "strategy-4p-happy-hour.pdf")
