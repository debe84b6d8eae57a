"""Writing the report as a PDF: deterministic bytes, written atomically.

The PDF has no creation or modification date, so the same report gives the
same bytes. It is written whole or not at all
(:func:`~pinastats._files.written_whole`): a failure leaves no partial PDF behind,
and a failure of the disk is an :class:`~pinastats.errors.OutputError` naming the path.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure

from pinastats import __version__
from pinastats._files import written_whole
from pinastats.errors import PinastatsError
from pinastats.report.data import Report
from pinastats.report.pages import render
from pinastats.report.typeset import style


def check_pdf_path(path: str | Path) -> Path:
    """The output path as a ``Path``; a :class:`PinastatsError` unless it names a ``.pdf`` file."""
    path = Path(path)
    if path.suffix.lower() != ".pdf":
        raise PinastatsError(
            f"the report is a PDF: give a file name ending in .pdf, got {str(path)!r}"
        )
    if path.is_dir():
        raise PinastatsError(f"{str(path)!r} is a directory; give a file name ending in .pdf")
    return path


def metadata(report: Report) -> dict[str, str | None]:
    """The PDF's document information: no dates, so the bytes depend on the report only."""
    variant = ", Happy Hour" if report.happy_hour else ""
    return {
        "Title": f"Piña Coladice strategy report, {report.players} players{variant}",
        "Author": "pinastats",
        "Subject": "Coaster values, hold cheat-sheets and simulated games",
        "Creator": f"pinastats {__version__}",
        "CreationDate": None,
        "ModDate": None,
    }


def write_pdf(report: Report, path: str | Path, *, figures: Sequence[Figure] | None = None) -> Path:
    """Write ``report`` as a multi-page A4 PDF at ``path`` (its folder is created if missing).

    ``figures`` are the report's pages if they are drawn already (by
    :func:`~pinastats.report.pages.render`); by default they are drawn here.
    Returns the path written. Nothing is left at ``path`` (or next to it) if
    anything fails; a failure of the disk is an :class:`~pinastats.errors.OutputError`.
    """
    path = check_pdf_path(path)
    with written_whole(path) as file, style(), PdfPages(file, metadata=metadata(report)) as pdf:
        for figure in render(report) if figures is None else figures:
            pdf.savefig(figure)
    return path
