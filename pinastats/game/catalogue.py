"""The coaster catalogue: the combination, colour, ingredient and points of each coaster.

The model is :class:`Coaster` and :class:`Catalogue`. A catalogue is data, not code: the
default is ``data/coasters.csv`` (installed as ``pinastats.data``), whose format and
provenance are described in ``data/README.md``. :func:`load_catalogue` reads it, or any
CSV file in the same format, and checks every value; a mistake raises
:class:`CatalogueError` naming the file, line and column. The shipped default is read once
per process and shared: a :class:`Catalogue` cannot be changed.

>>> catalogue = load_catalogue()
>>> len(catalogue)
25
>>> catalogue.find("fh").points(Side.B)
(4, 3)
>>> catalogue["pair-6"].combination
<Combination.PAIR_6: 'Pair of 6s'>
>>> load_catalogue() is load_catalogue()
True
"""

from __future__ import annotations

import csv
import difflib
import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from pinastats._files import written_whole
from pinastats.dice.combinations import (
    Combination,
    UnknownCombinationError,
    normalize_name,
    parse_combination,
)
from pinastats.errors import MissingFileError, PinastatsError
from pinastats.game.sides import Side

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "COLUMNS",
    "Catalogue",
    "CatalogueError",
    "Coaster",
    "Colour",
    "UnknownCoasterError",
    "default_catalogue_path",
    "load_catalogue",
]

COLUMNS: tuple[str, ...] = (
    "id",
    "combination",
    "colour",
    "ingredient",
    "side_a",
    "side_b_first",
    "side_b_second",
)
"""The columns of a catalogue file, in the order :meth:`Catalogue.to_frame` writes them."""

_ID_PATTERN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_COMBINATION_INDEX = {c: i for i, c in enumerate(Combination)}
_OPTIONAL_COLUMNS = frozenset({"ingredient"})


class Colour(StrEnum):
    """The colour of a coaster; the value is its lower-case name."""

    GREEN = "green"
    """Pairs of one value and the Double Pair."""
    BLUE = "blue"
    """Three of a kind of one value."""
    RED = "red"
    """Combinations of several dice: harder to make, worth more points."""


class CoasterError(PinastatsError):
    """A coaster or catalogue built in code that breaks the format (ids, points, repeats)."""


class CatalogueError(PinastatsError):
    """A catalogue file that cannot be read, located by file, line and column."""

    def __init__(self, reason: str, *, source: str, line: int, column: str | None = None) -> None:
        self.reason = reason
        self.source = source
        self.line = line
        self.column = column
        where = f"{source}, line {line}" + (f", column {column!r}" if column else "")
        super().__init__(f"{where}: {reason}")


class UnknownCoasterError(PinastatsError):
    """A name that matches no coaster of a catalogue; ``suggestions`` lists the closest.

    The message names the bad name and suggests the closest coasters; ``str(error)`` is
    that message as written.
    """

    def __init__(self, message: str, name: str, suggestions: list[str]) -> None:
        self.name = name
        self.suggestions = suggestions
        super().__init__(message)


@dataclass(frozen=True)
class Coaster:
    """One double-sided combination coaster.

    ``side_a`` is the points of the single space of side A; ``side_b`` the points of the
    first and second spaces of side B (first >= second: the first token takes the higher
    or equal value).
    """

    id: str
    combination: Combination
    colour: Colour
    ingredient: str | None
    side_a: int
    side_b: tuple[int, int]

    def __post_init__(self) -> None:
        if not _ID_PATTERN.fullmatch(self.id):
            raise CoasterError(f"invalid coaster id {self.id!r}: {_ID_RULE}")
        object.__setattr__(self, "combination", parse_combination(self.combination))
        points = (self.side_a, *self.side_b)
        if len(self.side_b) != 2 or any(p < 0 for p in points):
            raise CoasterError(f"coaster {self.id!r}: points must be 3 non-negative ints: {points}")
        if self.side_b[0] < self.side_b[1]:
            raise CoasterError(
                f"coaster {self.id!r}: side B first space scores less than the second"
            )

    def points(self, side: Side | str) -> tuple[int, ...]:
        """Points of each space of ``side``, in the order the tokens take them.

        >>> load_catalogue().find("Five of a Kind").points("B")
        (6, 4)
        """
        return (self.side_a,) if Side.parse(side) is Side.A else self.side_b

    def spaces(self, side: Side | str) -> int:
        """Count the token spaces on ``side`` (1 for A, 2 for B)."""
        return Side.parse(side).spaces

    @property
    def name(self) -> str:
        """The display name of the coaster's combination."""
        return self.combination.value


_ID_RULE = "use lower-case letters, digits and single hyphens (e.g. 'pair-1')"


@dataclass(frozen=True, repr=False)
class Catalogue:
    """An ordered, immutable set of coasters with distinct ids and combinations.

    ``source`` is the file it was read from (``None`` if built in code) and
    ``provenance`` the text of the file's leading ``#`` comment lines.
    """

    coasters: tuple[Coaster, ...]
    source: Path | None = None
    provenance: str = ""
    _by_id: dict[str, int] = field(init=False, compare=False)
    _by_combination: dict[Combination, int] = field(init=False, compare=False)

    def __post_init__(self) -> None:
        coasters = tuple(self.coasters)
        by_id: dict[str, int] = {}
        by_combination: dict[Combination, int] = {}
        for i, c in enumerate(coasters):
            if c.id in by_id:
                raise CoasterError(f"two coasters have the id {c.id!r}")
            if c.combination in by_combination:
                raise CoasterError(f"two coasters show {c.combination.value!r}")
            by_id[c.id] = i
            by_combination[c.combination] = i
        object.__setattr__(self, "coasters", coasters)
        object.__setattr__(self, "_by_id", by_id)
        object.__setattr__(self, "_by_combination", by_combination)

    def __repr__(self) -> str:
        where = f" from {str(self.source)!r}" if self.source is not None else ""
        return f"<Catalogue of {len(self)} coasters{where}>"

    def __len__(self) -> int:
        return len(self.coasters)

    def __iter__(self) -> Iterator[Coaster]:
        return iter(self.coasters)

    def __getitem__(self, key: str | int) -> Coaster:
        """Return the coaster with id ``key`` (or at position ``key`` if an int)."""
        if isinstance(key, int):
            return self.coasters[key]
        if key in self._by_id:
            return self.coasters[self._by_id[key]]
        suggestions = difflib.get_close_matches(key, list(self._by_id), n=3, cutoff=0.5)
        raise UnknownCoasterError(
            f"no coaster with id {key!r}{_did_you_mean(suggestions)}", key, suggestions
        )

    @property
    def ids(self) -> tuple[str, ...]:
        """The coaster ids, in catalogue order."""
        return tuple(c.id for c in self.coasters)

    @property
    def combinations(self) -> tuple[Combination, ...]:
        """The coaster combinations, in catalogue order."""
        return tuple(c.combination for c in self.coasters)

    def index(self, name: str | Combination) -> int:
        """Position in the catalogue of the coaster :meth:`find` resolves ``name`` to.

        >>> load_catalogue().index("Double Pair")
        6
        """
        return self._by_id[self.find(name).id]

    def find(self, name: str | Combination) -> Coaster:
        """Return the coaster named by an id or any alias of its combination (any case).

        >>> cat = load_catalogue()
        >>> cat.find("sum <= 9").id, cat.find("Three-6").id, cat.find("yahtzee").id
        ('sum-le-9', 'three-6', 'five-of-a-kind')
        """
        if isinstance(name, str):
            key = name.strip().lower()
            if key in self._by_id:
                return self.coasters[self._by_id[key]]
        try:
            combination = parse_combination(name)
        except UnknownCombinationError:
            combination = None
        if combination is not None and combination in self._by_combination:
            return self.coasters[self._by_combination[combination]]
        suggestions = self._closest(str(name))
        what = (
            f"the catalogue has no coaster for {combination.value!r}"
            if combination is not None
            else f"no coaster is named {str(name)!r}"
        )
        raise UnknownCoasterError(
            f"{what}{_did_you_mean(suggestions)} (ids and combination names are accepted)",
            str(name),
            suggestions,
        )

    def _closest(self, name: str) -> list[str]:
        keys: dict[str, str] = {}
        for c in self.coasters:
            keys.setdefault(normalize_name(c.id), c.id)
            keys.setdefault(normalize_name(c.name), c.name)
        close = difflib.get_close_matches(normalize_name(name), list(keys), n=6, cutoff=0.5)
        return list(dict.fromkeys(keys[k] for k in close))[:3]

    def to_frame(self) -> pd.DataFrame:
        """One row per coaster, with the columns of the file format (:data:`COLUMNS`).

        >>> frame = load_catalogue().to_frame()
        >>> list(frame.columns)
        ['id', 'combination', 'colour', 'ingredient', 'side_a', 'side_b_first', 'side_b_second']
        >>> frame.groupby("colour").size().to_dict()
        {'blue': 6, 'green': 7, 'red': 12}
        """
        import pandas as pd  # imported here: the CLI's other commands do not need it

        frame = pd.DataFrame(
            {
                "id": [c.id for c in self.coasters],
                "combination": [c.name for c in self.coasters],
                "colour": [c.colour.value for c in self.coasters],
                "ingredient": pd.Series([c.ingredient for c in self.coasters], dtype=object),
                "side_a": np.array([c.side_a for c in self.coasters], dtype=np.int64),
                "side_b_first": np.array([c.side_b[0] for c in self.coasters], dtype=np.int64),
                "side_b_second": np.array([c.side_b[1] for c in self.coasters], dtype=np.int64),
            },
            columns=list(COLUMNS),
        )
        return frame

    def to_csv(self, path: str | Path) -> None:
        """Write the catalogue in the file format, provenance first as ``#`` comments."""
        comments = "".join(f"# {line}".rstrip() + "\n" for line in self.provenance.splitlines())
        body = self.to_frame().to_csv(index=False, lineterminator="\n")
        with written_whole(path, encoding="utf-8") as file:
            file.write(comments + body)

    def combination_codes(self) -> npt.NDArray[np.int64]:
        """``(n_coasters,)``: index of each coaster's combination in ``list(Combination)``.

        These index the rows of :func:`pinastats.dice.combinations.combination_masks`.
        """
        codes = np.array([_COMBINATION_INDEX[c.combination] for c in self.coasters], np.int64)
        codes.setflags(write=False)
        return codes

    def points_table(self) -> npt.NDArray[np.int64]:
        """``(n_coasters, 2, 2)``: points of [side A/B][space 1/2]; side A space 2 is 0."""
        table = np.zeros((len(self), 2, 2), dtype=np.int64)
        for i, c in enumerate(self.coasters):
            table[i, 0, 0] = c.side_a
            table[i, 1] = c.side_b
        table.setflags(write=False)
        return table


def _did_you_mean(suggestions: list[str]) -> str:
    return f"; did you mean {', '.join(repr(s) for s in suggestions)}?" if suggestions else ""


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
