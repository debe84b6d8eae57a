"""One small report, built and written once for the whole package of tests."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from pinastats.report import Report, build_report, write_pdf

GAMES = 300
SEED = 5


@dataclass(frozen=True)
class Written:
    """A report and the PDF written from it."""

    report: Report
    path: Path
    pages: list[str]  # the text of each page


@pytest.fixture(scope="session")
def two_players(tmp_path_factory: pytest.TempPathFactory) -> Written:
    from pypdf import PdfReader

    report = build_report(2, games=GAMES, seed=SEED, workers=2)
    path = write_pdf(report, tmp_path_factory.mktemp("report") / "strategy-2p.pdf")
    pages = [page.extract_text() for page in PdfReader(path).pages]
    return Written(report, path, pages)
