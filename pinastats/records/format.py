"""The game record: one finished game as plain data, one JSON object per line of a file.

A record holds what is needed to set the game up again (rules, layout and
catalogue digests, the dealt board, the first seat, the starting scores), every
turn (the dice of each roll, the keep before each re-roll, the placement or the
pass, the Happy Hour die and choice, every seat's score after it, and the state
of the game's generator before each draw) and the result. ``docs/records.md``
describes every field; :func:`read_records` and :func:`write_records` read and
write files of records (JSON Lines, one game a line).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pinastats._files import check_output, written_whole
from pinastats.errors import PinastatsError, expect_instance
from pinastats.game.catalogue import Catalogue
from pinastats.game.layout import Layout

FORMAT = "pinastats-game-record"
"""The value of every record's ``format`` field."""
VERSION = 1
"""The version of the record format this code reads and writes."""

Dice = tuple[int, ...]


class RecordError(PinastatsError):
    """A record that cannot be read or does not replay; the message names game, turn and field."""


def layout_digest(layout: Layout) -> str:
    """First 16 hex digits of the SHA-256 of the layout's cells, lines and sides."""
    sides = {str(p): [str(s) for s in layout.sides_for(p)] for p in layout.players}
    data = [layout.cells, layout.line_cells(), sides]
    return _digest(data)


def catalogue_digest(catalogue: Catalogue) -> str:
    """First 16 hex digits of the SHA-256 of the coasters (id, combination, points)."""
    data = [(c.id, c.combination.value, c.side_a, c.side_b) for c in catalogue]
    return _digest(data)


def _digest(data: Any) -> str:
    text = json.dumps(data, separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class HappyHour:
    """The Happy Hour die of a turn: its face, effect name and the option taken (None: none)."""

    die: int
    effect: str
    option: int | None


@dataclass(frozen=True)
class RecordedTurn:
    """One turn of a recorded game.

    ``rolls[i]`` is the sorted dice after roll ``i + 1``, ``keeps[i]`` the dice
    kept before roll ``i + 2`` (a turn that stopped early has one keep fewer
    than rolls left to play: its last decision kept all five). ``draws[i]`` is
    the generator's state before roll ``i + 1`` (see :mod:`pinastats.records.draws`).
    ``cell`` is None for a turn without placement.
    """

    seat: int
    rolls: tuple[Dice, ...]
    keeps: tuple[Dice, ...]
    draws: tuple[str, ...]
    cell: int | None
    coaster: str | None
    side: str | None
    points: int
    happy_hour: HappyHour | None
    scores: tuple[int, ...]


@dataclass(frozen=True)
class GameRecord:
    """One recorded game (see ``docs/records.md`` for every field)."""

    seed: int | None
    game: int
    agents: tuple[str, ...]
    rules: Mapping[str, Any]
    layout: str
    layout_digest: str
    catalogue_digest: str
    coasters: tuple[str, ...]
    sides: str
    start_scores: tuple[int, ...]
    first: int
    rng: Mapping[str, str]
    turns: tuple[RecordedTurn, ...]
    winner: int | None
    reason: str
    trigger: str
    scores: tuple[int, ...]
    chunk_size: int | None = None
    start: str | None = None
    """The position the game began from, in the position notation (None: the deal)."""

    @property
    def players(self) -> int:
        """Number of seats."""
        return len(self.agents)

    def to_dict(self) -> dict[str, Any]:
        """The record as the JSON object of one line (``format`` and ``version`` first)."""
        body = asdict(self)
        turns = body.pop("turns")
        for t in turns:
            if t["happy_hour"] is None:
                del t["happy_hour"]
        if body["start"] is None:  # a dealt game, as every record before the field
            del body["start"]
        return {"format": FORMAT, "version": VERSION, **body, "turns": turns}

    def to_json(self) -> str:
        """The record as one line of JSON (no newline)."""
        return json.dumps(self.to_dict(), separators=(",", ":"))


# ---------------------------------------------------------------- reading


def _need(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in data:
        raise RecordError(f"{where}: field {key!r} is missing")
    value = data[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise RecordError(f"{where}: field {key!r} has a bad value {value!r}")
    return value


def _ints(value: Any, where: str, key: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(
        isinstance(x, int) and not isinstance(x, bool) for x in value
    ):
        raise RecordError(f"{where}: field {key!r} must be a list of whole numbers, got {value!r}")
    return tuple(value)


def _turn(data: Any, where: str) -> RecordedTurn:
    if not isinstance(data, dict):
        raise RecordError(f"{where}: a turn must be a JSON object, got {data!r}")
    rolls = tuple(_ints(r, where, "rolls") for r in _need(data, "rolls", list, where))
    keeps = tuple(_ints(k, where, "keeps") for k in _need(data, "keeps", list, where))
    draws = _need(data, "draws", list, where)
    if not all(isinstance(d, str) for d in draws):
        raise RecordError(f"{where}: field 'draws' must be a list of strings")
    hh = data.get("happy_hour")
    happy = None
    if hh is not None:
        if not isinstance(hh, dict):
            raise RecordError(f"{where}: field 'happy_hour' must be an object, got {hh!r}")
        option = hh.get("option")
        if option is not None and (not isinstance(option, int) or isinstance(option, bool)):
            raise RecordError(f"{where}: field 'happy_hour.option' has a bad value {option!r}")
        happy = HappyHour(_need(hh, "die", int, where), _need(hh, "effect", str, where), option)
    cell = data.get("cell")
    if cell is not None and (not isinstance(cell, int) or isinstance(cell, bool)):
        raise RecordError(f"{where}: field 'cell' has a bad value {cell!r}")
    return RecordedTurn(
        seat=_need(data, "seat", int, where),
        rolls=rolls,
        keeps=keeps,
        draws=tuple(draws),
        cell=cell,
        coaster=data.get("coaster"),
        side=data.get("side"),
        points=_need(data, "points", int, where),
        happy_hour=happy,
        scores=_ints(_need(data, "scores", list, where), where, "scores"),
    )


def record_from_dict(data: Any, where: str = "record") -> GameRecord:
    """A :class:`GameRecord` from the JSON object of one line, checked field by field."""
    if not isinstance(data, dict):
        raise RecordError(f"{where}: a record must be a JSON object, got {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise RecordError(
            f"{where}: not a game record (format {data.get('format')!r}, expected {FORMAT!r})"
        )
    if data.get("version") != VERSION:
        raise RecordError(
            f"{where}: record format version {data.get('version')!r}; this pinastats reads "
            f"version {VERSION}"
        )
    game = _need(data, "game", int, where)
    where = f"{where} (game {game})"
    winner = data.get("winner")
    if winner is not None and (not isinstance(winner, int) or isinstance(winner, bool)):
        raise RecordError(f"{where}: field 'winner' has a bad value {winner!r}")
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RecordError(f"{where}: field 'seed' has a bad value {seed!r}")
    turns = _need(data, "turns", list, where)
    rng = _need(data, "rng", dict, where)
    start = data.get("start")
    if start is not None and not isinstance(start, str):
        raise RecordError(f"{where}: field 'start' must be a position line, got {start!r}")
    return GameRecord(
        seed=seed,
        game=game,
        agents=tuple(str(a) for a in _need(data, "agents", list, where)),
        rules=_need(data, "rules", dict, where),
        layout=_need(data, "layout", str, where),
        layout_digest=_need(data, "layout_digest", str, where),
        catalogue_digest=_need(data, "catalogue_digest", str, where),
        coasters=tuple(str(c) for c in _need(data, "coasters", list, where)),
        sides=_need(data, "sides", str, where),
        start_scores=_ints(_need(data, "start_scores", list, where), where, "start_scores"),
        first=_need(data, "first", int, where),
        rng={str(k): str(v) for k, v in rng.items()},
        turns=tuple(_turn(t, f"{where}, turn {i + 1}") for i, t in enumerate(turns)),
        winner=winner,
        reason=_need(data, "reason", str, where),
        trigger=_need(data, "trigger", str, where),
        scores=_ints(_need(data, "scores", list, where), where, "scores"),
        chunk_size=data.get("chunk_size"),
        start=start,
    )


def parse_records(text: str, source: str = "records") -> list[GameRecord]:
    """The records of a JSON Lines text (blank lines skipped); a clear error on a bad line."""
    records = []
    lines = text.split("\n")
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{source}, line {number}"
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            last = number == len(lines) or not any(x.strip() for x in lines[number:])
            cut = " (the file looks truncated: its last line is cut short)" if last else ""
            raise RecordError(
                f"{where}: not valid JSON ({exc.msg}, column {exc.colno}){cut}"
            ) from None
        records.append(record_from_dict(data, where))
    if not records:
        raise RecordError(f"{source}: no game record in it (an empty file?)")
    return records


def read_records(path: str | Path) -> list[GameRecord]:
    """Read a file of game records (JSON Lines); :class:`RecordError` names the bad line."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise RecordError(f"{path}: is a directory, not a file of game records") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path}: not a text file of game records (not UTF-8)") from None
    return parse_records(text, str(path))


def write_records(path: str | Path, records: Iterable[GameRecord]) -> Path:
    """Write records to ``path``, one JSON line each; return the path.

    Every record and the path (:func:`~pinastats._files.check_output`) are checked
    before the file is opened; it is written whole or not at all (:func:`write_lines`).
    """
    records = list(records)
    for r in records:
        expect_instance(r, GameRecord, "every record", "read_records() or record_games()")
    check_output(path)
    return write_lines(path, (r.to_json() for r in records))


def write_lines(path: str | Path, lines: Iterable[str]) -> Path:
    """Write JSON lines of records to ``path``, whole or not at all; return the path.

    Through :func:`~pinastats._files.written_whole`: a failure leaves nothing at
    ``path`` (nor next to it) and a failure of the disk is an
    :class:`~pinastats.errors.OutputError` naming ``path``.
    """
    path = Path(path)
    with written_whole(path, encoding="utf-8") as out:
        for line in lines:
            out.write(line + "\n")
    return path


def dice_list(values: Sequence[Sequence[int]]) -> tuple[Dice, ...]:
    """Dice as tuples of plain ints."""
    return tuple(tuple(int(d) for d in v) for v in values)
