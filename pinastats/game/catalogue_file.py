"""Reading catalogue files: the shipped default of the 25 coasters, or any CSV file.

The format is described in ``data/README.md``. Every problem raises
:class:`CatalogueError` naming the file, line and column. The shipped default is read
once per process and shared: a :class:`~pinastats.game.catalogue.Catalogue` cannot be
changed.

>>> load_catalogue() is load_catalogue()
True
"""

from __future__ import annotations

import csv
import difflib
import functools
import re
from collections.abc import Iterable
from importlib.resources import files
from pathlib import Path

from pinastats.dice.combinations import Combination, UnknownCombinationError, parse_combination
from pinastats.errors import MissingFileError, PinastatsError
from pinastats.game.catalogue import (
    _ID_PATTERN,
    _ID_RULE,
    COLUMNS,
    Catalogue,
    Coaster,
    Colour,
    _did_you_mean,
)

_OPTIONAL_COLUMNS = frozenset({"ingredient"})


class CatalogueError(PinastatsError):
    """A catalogue file that cannot be read, located by file, line and column."""

    def __init__(self, reason: str, *, source: str, line: int, column: str | None = None) -> None:
        self.reason = reason
        self.source = source
        self.line = line
        self.column = column
        where = f"{source}, line {line}" + (f", column {column!r}" if column else "")
        super().__init__(f"{where}: {reason}")


# ---------------------------------------------------------------- loading


def default_catalogue_path() -> Path:
    """Where the shipped default catalogue (``coasters.csv``) lives."""
    return Path(str(files("pinastats.data") / "coasters.csv"))


def load_catalogue(path: str | Path | None = None) -> Catalogue:
    """Read a catalogue file (``None``: the shipped default of the 25 coasters).

    The default is read once per process and the same (immutable) object returned after;
    a file given by path is read on every call.

    Raises :class:`CatalogueError` naming the file, line and column of the first
    problem found: a missing or unknown column, an unknown combination or colour, a
    missing, non-integer or negative number, side B points in the wrong order, a
    duplicate id or combination, or a file without coasters.
    """
    if path is None:
        return _default_catalogue()
    if not isinstance(path, str | Path):
        raise PinastatsError(
            f"a catalogue is the path of a CSV file or None (the shipped one), got {path!r}"
        )
    source = Path(path)
    try:
        text = source.read_bytes().decode("utf-8-sig")
    except FileNotFoundError:
        raise MissingFileError(
            f"no catalogue file {str(source)!r} (give the path of a catalogue CSV file, "
            "or None for the shipped one)",
            str(source),
        ) from None
    except UnicodeDecodeError as error:
        raise CatalogueError(f"not UTF-8 text ({error})", source=str(source), line=1) from None
    return _parse(text.splitlines(), source)


@functools.cache
def _default_catalogue() -> Catalogue:
    """The shipped ``coasters.csv``, read once per process (a catalogue is immutable)."""
    resource = files("pinastats.data") / "coasters.csv"
    text = resource.read_bytes().decode("utf-8-sig")
    return _parse(text.splitlines(), Path(str(resource)))


def _parse(lines: Iterable[str], source: Path) -> Catalogue:
    name = str(source)
    comments: list[str] = []
    header: list[str] | None = None
    header_line = 0
    rows: list[tuple[int, list[str]]] = []
    for lineno, raw in enumerate(lines, start=1):
        stripped = raw.strip()
        if stripped.startswith("#"):
            if header is None:
                comments.append(stripped[1:].strip())
            continue
        fields = [f.strip() for f in next(csv.reader([raw]), [])]
        if not any(fields):
            continue
        if header is None:
            header, header_line = [f.lower() for f in fields], lineno
        else:
            rows.append((lineno, fields))
    if header is None:
        raise CatalogueError(
            f"empty file: expected a header row {','.join(COLUMNS)}", source=name, line=1
        )
    _check_header(header, name, header_line)
    if not rows:
        raise CatalogueError("no coasters: the header is not followed by any row", source=name,
                             line=header_line)  # fmt: skip

    coasters: list[Coaster] = []
    seen_id: dict[str, int] = {}
    seen_combination: dict[Combination, tuple[int, str]] = {}
    for lineno, fields in rows:
        if len(fields) > len(header):
            raise CatalogueError(
                f"{len(fields)} values but the header has {len(header)} columns",
                source=name,
                line=lineno,
            )
        row = dict(zip(header, fields + [""] * (len(header) - len(fields)), strict=True))
        coaster = _parse_row(row, name, lineno)
        if coaster.id in seen_id:
            raise CatalogueError(
                f"duplicate id {coaster.id!r} (already on line {seen_id[coaster.id]})",
                source=name,
                line=lineno,
                column="id",
            )
        if coaster.combination in seen_combination:
            other_line, other_id = seen_combination[coaster.combination]
            raise CatalogueError(
                f"duplicate combination {coaster.name!r} (coaster {other_id!r} "
                f"on line {other_line} already shows it)",
                source=name,
                line=lineno,
                column="combination",
            )
        seen_id[coaster.id] = lineno
        seen_combination[coaster.combination] = (lineno, coaster.id)
        coasters.append(coaster)
    return Catalogue(tuple(coasters), source=source, provenance="\n".join(comments).strip())


def _check_header(header: list[str], name: str, line: int) -> None:
    for i, column in enumerate(header):
        if column in header[:i]:
            raise CatalogueError("column appears twice in the header", source=name, line=line,
                                 column=column)  # fmt: skip
        if column not in COLUMNS:
            close = difflib.get_close_matches(column, COLUMNS, n=1, cutoff=0.6)
            raise CatalogueError(
                f"unknown column{_did_you_mean(close)} (columns: {', '.join(COLUMNS)})",
                source=name,
                line=line,
                column=column,
            )
    for column in COLUMNS:
        if column not in header and column not in _OPTIONAL_COLUMNS:
            raise CatalogueError("missing column in the header", source=name, line=line,
                                 column=column)  # fmt: skip


def _parse_row(row: dict[str, str], name: str, line: int) -> Coaster:
    def fail(column: str, reason: str) -> CatalogueError:
        return CatalogueError(reason, source=name, line=line, column=column)

    for column in COLUMNS:
        if column not in _OPTIONAL_COLUMNS and not row.get(column, ""):
            raise fail(column, "missing value")

    coaster_id = row["id"]
    if not _ID_PATTERN.fullmatch(coaster_id):
        raise fail("id", f"invalid id {coaster_id!r}: {_ID_RULE}")
    try:
        combination = parse_combination(row["combination"])
    except UnknownCombinationError as error:
        reason = f"unknown combination {row['combination']!r}{_did_you_mean(error.suggestions)}"
        raise fail("combination", reason) from None
    try:
        colour = Colour(row["colour"].lower())
    except ValueError:
        allowed = ", ".join(c.value for c in Colour)
        raise fail("colour", f"unknown colour {row['colour']!r} (expected {allowed})") from None

    def number(column: str) -> int:
        text = row[column]
        if re.fullmatch(r"\+?\d+", text):
            return int(text)
        if re.fullmatch(r"-\d+", text):
            raise fail(column, f"negative points {text!r}: points are 0 or more")
        raise fail(column, f"not a whole number: {text!r}")

    side_a, first, second = number("side_a"), number("side_b_first"), number("side_b_second")
    if first < second:
        raise fail(
            "side_b_second",
            f"side B second space ({second}) scores more than the first ({first}); "
            "the first token placed takes the higher or equal value",
        )
    ingredient = row.get("ingredient", "") or None
    return Coaster(coaster_id, combination, colour, ingredient, side_a, (first, second))
