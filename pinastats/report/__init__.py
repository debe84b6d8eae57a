"""Strategy reports: coaster values, hold cheat-sheets and simulated games, as a PDF.

Usage (the simulations take a few seconds per 10,000 games)::

    from pinastats.report import build_report, write_pdf

    report = build_report(2, games=20_000, seed=0)
    write_pdf(report, "reports/strategy-2p.pdf")

:func:`build_report` computes (:mod:`~pinastats.report.data`), :func:`write_pdf`
lays out (:mod:`~pinastats.report.pages` on :mod:`~pinastats.report.typeset`).
"""

from pinastats.report.data import DEFAULT_GAMES, Report, build_report
from pinastats.report.pages import render
from pinastats.report.pdf import write_pdf

__all__ = ["DEFAULT_GAMES", "Report", "build_report", "render", "write_pdf"]
