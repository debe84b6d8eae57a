"""The clicks of the board, as messages: one dispatcher for the widget and the served page.

A message is a dict with ``cmd``: ``roll`` (with ``hold``, the positions 0-4 of the
dice held), ``stop``, ``place`` (``cell``), ``choose`` (``option``), ``undo``,
``export`` (the finished game's record as JSON Lines) and ``review`` (the review of
the people's decisions, :mod:`pinastats.tabletop.review`); ``new`` (a new game: the
same seats with a new random seed, or a new table to set up), ``table`` ("My table":
set up a game played with real dice, :class:`~pinastats.tabletop.table.TableSession`)
and ``play`` (back to a game against the agents). At the table: ``setup``
(``position``, a line of the position notation, or ``coasters``, ``tokens``,
``first``, ``to_move``, with ``names`` and ``happy_hour``), ``dice`` (the five dice rolled
and, optionally, ``kept``: the dice kept from the roll before),
``place`` (``cell``), ``pass`` and ``happy`` (``face`` and, where it asks, ``option``).
``lang`` sets the language of the board's words (``en``, ``fr``, ``nl``, ``de``). After each
step at a real table the game is saved (:func:`pinastats.tabletop.table.save`), when the
session keeps one. A message never names a file: the served page gets the record back as a download,
the notebook widget writes it to a folder fixed when the widget is made.

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
from pinastats.tabletop.table import TableSession, save
from pinastats.tabletop.words import LANGUAGES

COMMANDS = ("roll", "stop", "place", "choose", "undo", "export", "review", "new", "table",
            "play", "setup", "dice", "pass", "happy", "lang")  # fmt: skip
"""The commands a message may carry."""
FIELDS: dict[str, tuple[str, ...]] = {
    "roll": ("hold",), "place": ("cell",), "choose": ("option",), "dice": ("dice", "kept"),
    "happy": ("face", "option"), "lang": ("lang",),
    "setup": ("position", "coasters", "tokens", "to_move", "names", "happy_hour", "first"),
}  # fmt: skip
"""The fields each command takes besides ``cmd`` (the others take none)."""
DICE = 5
"""The dice of a hand: ``hold`` names positions 0 to 4."""
MAX_OPTION = 2**31 - 1
"""The largest Happy Hour option a message may name (the session says which are allowed)."""
MAX_TEXT = 400
"""The longest position line or coaster name a ``setup`` may carry (characters)."""
MAX_SEATS = 4
"""The most seats at a table."""


class MessageError(PinastatsError):
    """A malformed message (the served page answers 400 with this line).

    Not an object, an unknown command or field, a value of the wrong type or out of range.
    """


Session = PlaySession | TableSession
"""What the board shows: a game against the agents, or a game at a real table."""


@dataclass(frozen=True)
class Outcome:
    """What a message did: the text to show and, for ``export`` with no folder, the download.

    ``download``: ``{"filename": "<name>.jsonl", "text": "<the record>"}`` (the served page
    hands it to the browser as a file). ``session``: the session that replaces this one
    (``new``, ``table``, ``play``); ``review``: the review for people, to draw.
    """

    text: str = ""
    download: dict[str, str] | None = None
    session: Session | None = None
    review: dict[str, Any] | None = None


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
        checked["option"] = _checked_option(cmd, message.get("option"))
    elif cmd == "dice":
        dice = message.get("dice")
        if (not isinstance(dice, list) or len(dice) != DICE
                or not all(_whole(d) and 1 <= d <= 6 for d in dice)):  # fmt: skip
            raise MessageError(f"dice: dice must be a list of {DICE} faces 1 to 6, "
                               f"got {shown(dice)}")  # fmt: skip
        checked["dice"] = list(dice)
        if "kept" in message:
            kept = message["kept"]
            if (not isinstance(kept, list) or len(kept) >= DICE
                    or not all(_whole(d) and 1 <= d <= 6 for d in kept)):  # fmt: skip
                raise MessageError(f"dice: kept must be a list of at most {DICE - 1} faces 1 to "
                                   f"6, got {shown(kept)}")  # fmt: skip
            checked["kept"] = list(kept)
    elif cmd == "lang":
        lang = message.get("lang")
        if not isinstance(lang, str) or lang not in LANGUAGES:
            raise MessageError(f"lang: lang must be one of {', '.join(LANGUAGES)}, "
                               f"got {shown(lang)}")  # fmt: skip
        checked["lang"] = lang
    elif cmd == "happy":
        face = message.get("face")
        if not _whole(face) or not 1 <= face <= 6:  # type: ignore[operator]
            raise MessageError(f"happy: face must be a whole number 1 to 6, got {shown(face)}")
        checked["face"] = face
        if "option" in message:
            checked["option"] = _checked_option(cmd, message["option"])
    elif cmd == "setup":
        checked.update(_checked_setup(message, n_cells))
    return checked


def _checked_option(cmd: str, option: object) -> int:
    if not _whole(option) or not 0 <= option <= MAX_OPTION:  # type: ignore[operator]
        raise MessageError(f"{cmd}: option must be a whole number 0 or more, got {shown(option)}")
    checked: int = option  # type: ignore[assignment]
    return checked


def _text(value: object, what: str) -> str:
    if not isinstance(value, str) or len(value) > MAX_TEXT or "\x00" in value:
        raise MessageError(f"setup: {what} must be text of at most {MAX_TEXT} characters, "
                           f"got {shown(value)}")  # fmt: skip
    return value


def _checked_setup(message: dict[str, Any], n_cells: int) -> dict[str, Any]:
    """The fields of a ``setup``: a position line, or the coasters and tokens."""
    out: dict[str, Any] = {}
    if "position" in message:
        out["position"] = _text(message["position"], "position")
    elif "coasters" not in message:
        raise MessageError("setup needs a position (a line of the notation) or the coasters")
    if "coasters" in message:
        coasters = message["coasters"]
        if not isinstance(coasters, list) or len(coasters) != n_cells:
            raise MessageError(f"setup: coasters must be a list of {n_cells} names, "
                               f"got {shown(coasters)}")  # fmt: skip
        out["coasters"] = [_text(c, "a coaster's name") for c in coasters]
    if "tokens" in message:
        tokens = message["tokens"]
        if (not isinstance(tokens, list) or len(tokens) != n_cells
                or not all(isinstance(t, list) and len(t) <= 2
                           and all(_whole(x) and 0 <= x < MAX_SEATS for x in t)
                           for t in tokens)):  # fmt: skip
            raise MessageError(f"setup: tokens must be a list of {n_cells} lists of seats 0 "
                               f"to {MAX_SEATS - 1} (at most 2 each), "
                               f"got {shown(tokens)}")  # fmt: skip
        out["tokens"] = [list(t) for t in tokens]
    if "first" in message:
        first = message["first"]
        if not _whole(first) or not 0 <= first < MAX_SEATS:
            raise MessageError(f"setup: first must be a seat 0 to {MAX_SEATS - 1}, "
                               f"got {shown(first)}")  # fmt: skip
        out["first"] = first
    if "to_move" in message:
        to_move = message["to_move"]
        if not _whole(to_move) or not 0 <= to_move < MAX_SEATS:
            raise MessageError(f"setup: to_move must be a seat 0 to {MAX_SEATS - 1}, "
                               f"got {shown(to_move)}")  # fmt: skip
        out["to_move"] = to_move
    if "names" in message:
        names = message["names"]
        if (not isinstance(names, list) or not 2 <= len(names) <= MAX_SEATS
                or not all(isinstance(n, str) and len(n) <= 40 for n in names)):  # fmt: skip
            raise MessageError(f"setup: names must be a list of 2 to {MAX_SEATS} names of at "
                               f"most 40 characters, got {shown(names)}")  # fmt: skip
        out["names"] = list(names)
    if "happy_hour" in message:
        if not isinstance(message["happy_hour"], bool):
            raise MessageError(f"setup: happy_hour must be true or false, "
                               f"got {shown(message['happy_hour'])}")  # fmt: skip
        out["happy_hour"] = message["happy_hour"]
    return out


def review_text(session: PlaySession) -> str:
    """The review of the people's seats in plain sentences (:mod:`pinastats.tabletop.review`)."""
    from pinastats.tabletop.review import review_play

    return str(review_play(session)["text"])


def record_name(session: PlaySession) -> str:
    """The file name of the session's record: ``pinastats-game-seed<seed>.jsonl``."""
    return f"pinastats-game-seed{session.seed}.jsonl"


def carry_out(session: Session, message: object, *, folder: Path | None = None) -> Outcome:
    """Check and carry out one message (module docstring).

    A malformed message raises :class:`MessageError`; a move the game refuses is the
    outcome's text. ``export`` writes the record to ``folder`` when one is given (a
    folder fixed by the caller, never by the message), else returns it as a download.
    ``new``, ``table`` and ``play`` give the session that replaces this one
    (``Outcome.session``).
    """
    checked = check_message(message, session.config.layout.n_cells)
    cmd = checked["cmd"]
    try:
        if cmd == "lang":
            session.lang = checked["lang"]
            if isinstance(session, TableSession):
                save(session)
            return Outcome()
        if cmd == "table":
            return Outcome(
                "My table: choose the 16 coasters (or paste a position line), "
                "put the tokens, name the seats.",
                session=_new_table(session),
            )
        if cmd == "play":
            back = session.again if isinstance(session, PlaySession) else session.back
            if back is None:
                return Outcome("no game against the agents to go back to")
            return Outcome("A new game against the agents.", session=back())
        if cmd == "new":
            if isinstance(session, PlaySession):
                fresh = session.again()
                return Outcome(f"A new game (seed {fresh.seed}).", session=fresh)
            return Outcome("A new table: choose the coasters.", session=_new_table(session))
        if isinstance(session, TableSession):
            return _at_table(session, checked, folder)
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
        elif cmd == "review":
            from pinastats.tabletop.review import review_play

            review = review_play(session)
            return Outcome(str(review["text"]), review=review)
        else:
            return Outcome(f"{cmd}: that is for a game at a real table (My table); here the "
                           "board rolls the dice")  # fmt: skip
    except PinastatsError as exc:
        return Outcome(str(exc))
    return Outcome()


def _new_table(session: Session) -> TableSession:
    """A table to set up, in the session's language (kept where the old table was kept).

    From a game against the agents: the table game kept on disk, resumed, if there is one.
    """
    if isinstance(session, TableSession):
        fresh = TableSession(back=session.back, happy_hour=session.happy_hour,
                             autosave=session.autosave, lang=session.lang)  # fmt: skip
        save(fresh)
        return fresh
    from pinastats.tabletop.table import resume

    table, _ = resume(back=session.again)  # the game kept at the table, if there is one
    table.lang = getattr(session, "lang", table.lang)
    return table


def _at_table(session: TableSession, checked: dict[str, Any], folder: Path | None) -> Outcome:
    """A message of a game at a real table; the game saved after a step that changes it."""
    outcome = _table_step(session, checked, folder)
    if checked["cmd"] in ("setup", "dice", "place", "pass", "happy", "undo"):
        save(session)
    return outcome


def _table_step(session: TableSession, checked: dict[str, Any], folder: Path | None) -> Outcome:
    """Carry out a message of a game at a real table."""
    cmd = checked["cmd"]
    if cmd == "setup":
        fields = {k: v for k, v in checked.items() if k != "cmd"}
        session.setup(**fields)
    elif cmd == "dice":
        session.enter_dice(checked["dice"], checked.get("kept"))
    elif cmd == "place":
        session.place(checked["cell"])
    elif cmd == "pass":
        session.pass_turn()
    elif cmd == "happy":
        session.happy(checked["face"], checked.get("option"))
    elif cmd == "undo":
        session.undo()
    elif cmd == "export":
        if session.state is None:
            return Outcome("nothing to export yet: set the table up first")
        record = session.record()
        name = f"pinastats-table-turn{session.game.turn + 1}.jsonl"
        if folder is None:
            return Outcome(f"record saved as {name} (pinastats review {name})",
                           {"filename": name, "text": record.to_json() + "\n"})  # fmt: skip
        from pinastats.records import write_records

        written = write_records(folder / name, [record])
        return Outcome(f"record written to {written} (pinastats review {written})")
    elif cmd == "review":
        from pinastats.tabletop.review import review_table

        review = review_table(session)
        return Outcome(str(review["text"]), review=review)
    else:
        return Outcome(f"{cmd}: at a real table, enter the dice rolled (tap the faces), then "
                       "place, pass or roll the Happy Hour die")  # fmt: skip
    return Outcome()


def act(session: Session, message: object, *, folder: Path | None = None) -> str:
    """Carry out one message; the text to show the player (a malformed message's refusal too).

    ``export`` writes to ``folder`` (default: the working folder). A session that would
    replace this one (``new``, ``table``, ``play``) is closed: only a board holding the
    session (the served page, the widget) can swap it.
    """
    try:
        outcome = carry_out(session, message, folder=Path.cwd() if folder is None else folder)
    except MessageError as exc:
        return str(exc)
    if outcome.session is not None:
        outcome.session.close()
    return outcome.text
