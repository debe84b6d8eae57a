"""The clicks of the board, as messages: one dispatcher for the widget and the served page.

A message is a dict with ``cmd``: ``roll`` (with ``hold``, the positions 0-4 of the
dice held), ``stop``, ``place`` (``cell``), ``choose`` (``option``), ``undo``,
``export`` (the finished game's record as JSON Lines) and ``review`` (the review of
the people's decisions, :func:`pinastats.records.review.review_game`). A message
never names a file: the served page gets the record back as a download, the
notebook widget writes it to a folder fixed when the widget is made.

:func:`check_message` checks a message's command, fields, types and ranges and
raises :class:`MessageError` (one line) for a malformed one; :func:`carry_out`
carries a checked message out; :func:`act` does both and returns the text to show:
empty, a refusal that names what is allowed, or what was written.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pinastats.errors import PinastatsError
from pinastats.tabletop.session import PlaySession

COMMANDS = ("roll", "stop", "place", "choose", "undo", "export", "review")
"""The commands a message may carry."""
FIELDS: dict[str, tuple[str, ...]] = {"roll": ("hold",), "place": ("cell",),
                                      "choose": ("option",)}  # fmt: skip
"""The fields each command takes besides ``cmd`` (the others take none)."""
DICE = 5
"""The dice of a hand: ``hold`` names positions 0 to 4."""
MAX_OPTION = 2**31 - 1
"""The largest Happy Hour option a message may name (the session says which are allowed)."""


class MessageError(PinastatsError):
    """A malformed message (the served page answers 400 with this line).

    Not an object, an unknown command or field, a value of the wrong type or out of range.
    """


@dataclass(frozen=True)
class Outcome:
    """What a message did: the text to show and, for ``export`` with no folder, the download.

    ``download``: ``{"filename": "<name>.jsonl", "text": "<the record>"}`` (the served page
    hands it to the browser as a file).
    """

    text: str = ""
    download: dict[str, str] | None = None


def shown(value: object) -> str:
    """A value of a message as an error shows it: in JSON (``true``, ``"x"``), cut short."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _whole(value: object) -> bool:
    """An integer (bools and floats excluded, as JSON gives them)."""
    return type(value) is int


def _checked_hold(value: object) -> list[int]:
    if not isinstance(value, list) or not all(_whole(i) for i in value):
        raise MessageError(f"roll: hold must be a list of dice positions 0 to {DICE - 1}, "
                           f"got {shown(value)}")  # fmt: skip
    bad = [i for i in value if not 0 <= i < DICE]
    if bad:
        raise MessageError(f"roll: dice positions are 0 to {DICE - 1}, got {shown(bad)}")
    if len(set(value)) != len(value):
        raise MessageError(f"roll: hold names a die twice: {shown(value)}")
    return list(value)


def check_message(message: object, n_cells: int) -> dict[str, Any]:
    """The message, checked; else :class:`MessageError`.

    A dict with a known ``cmd`` and that command's fields only, each of its type and
    range (``cell`` below ``n_cells``).
    """
    if not isinstance(message, dict):
        raise MessageError(f"a message is a JSON object with a cmd, got {shown(message)}")
    cmd = message.get("cmd")
    if not isinstance(cmd, str) or cmd not in COMMANDS:
        raise MessageError(f"unknown command {shown(cmd)}; the commands are {', '.join(COMMANDS)}")
    allowed = FIELDS.get(cmd, ())
    extra = sorted(str(k) for k in message if k != "cmd" and k not in allowed)
    if extra:
        takes = f"takes only {', '.join(allowed)}" if allowed else "takes no field"
        why = " (the record is not written to a path of the message's)" if cmd == "export" else ""
        raise MessageError(f"{cmd} {takes}, got {shown(extra)}{why}")
    checked: dict[str, Any] = {"cmd": cmd}
    if cmd == "roll":
        checked["hold"] = _checked_hold(message.get("hold", []))
    elif cmd == "place":
        cell = message.get("cell")
        if not _whole(cell) or not 0 <= cell < n_cells:  # type: ignore[operator]
            raise MessageError(f"place: cell must be a whole number 0 to {n_cells - 1}, "
                               f"got {shown(cell)}")  # fmt: skip
        checked["cell"] = cell
    elif cmd == "choose":
        option = message.get("option")
        if not _whole(option) or not 0 <= option <= MAX_OPTION:  # type: ignore[operator]
            raise MessageError(f"choose: option must be a whole number 0 or more, "
                               f"got {shown(option)}")  # fmt: skip
        checked["option"] = option
    return checked


def review_text(session: PlaySession) -> str:
    """The review of the people's seats (every seat without a person): figures, worst moves."""
    from pinastats.records.review import review_game

    seats = list(session.humans) or None
    review = review_game(session.record, seats=seats, seed=0)
    lines = [f"seat {s}, {review.summary(s).text()}" for s in review.seats]
    worst = sorted((d for d in review.decisions if not d.forced), key=lambda d: -d.loss)[:5]
    for d in worst:
        if d.loss > 0:
            lines.append(
                f"turn {d.turn}: {d.played}{d.mark} ({100 * d.played_win:.0f}%), best "
                f"{d.best} ({100 * d.best_win:.0f}%): {1000 * d.loss:.0f} milli-wins"
            )
    return "\n".join(lines)


def record_name(session: PlaySession) -> str:
    """The file name of the session's record: ``pinastats-game-seed<seed>.jsonl``."""
    return f"pinastats-game-seed{session.seed}.jsonl"


def carry_out(session: PlaySession, message: object, *, folder: Path | None = None) -> Outcome:
    """Check and carry out one message (module docstring).

    A malformed message raises :class:`MessageError`; a move the game refuses is the
    outcome's text. ``export`` writes the record to ``folder`` when one is given (a
    folder fixed by the caller, never by the message), else returns it as a download.
    """
    checked = check_message(message, session.config.layout.n_cells)
    cmd = checked["cmd"]
    try:
        if cmd == "roll":
            session.roll(checked["hold"])
        elif cmd == "stop":
            session.stop()
        elif cmd == "place":
            session.place(checked["cell"])
        elif cmd == "choose":
            session.choose(checked["option"])
        elif cmd == "undo":
            session.undo()
        elif cmd == "export":
            record, name = session.record, record_name(session)
            if folder is None:
                text = record.to_json() + "\n"
                return Outcome(f"record saved as {name} (pinastats review {name})",
                               {"filename": name, "text": text})  # fmt: skip
            from pinastats.records import write_records

            written = write_records(folder / name, [record])
            return Outcome(f"record written to {written} (pinastats review {written})")
        else:
            return Outcome(review_text(session))
    except PinastatsError as exc:
        return Outcome(str(exc))
    return Outcome()


def act(session: PlaySession, message: object, *, folder: Path | None = None) -> str:
    """Carry out one message; the text to show the player (a malformed message's refusal too).

    ``export`` writes to ``folder`` (default: the working folder).
    """
    try:
        return carry_out(session, message, folder=Path.cwd() if folder is None else folder).text
    except MessageError as exc:
        return str(exc)
