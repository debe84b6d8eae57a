"""The board as a JupyterLab widget (anywidget: no front-end build, the ``[play]`` extra)."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path
from typing import Any

from pinastats.errors import PinastatsError
from pinastats.tabletop.commands import MessageError, Session, carry_out
from pinastats.tabletop.session import PlaySession
from pinastats.tabletop.table import resume
from pinastats.tabletop.view import board_view

STATIC = files("pinastats.tabletop") / "static"
"""The board's script and style, shared with the served page."""


def _anywidget() -> Any:
    try:
        import anywidget
        import traitlets
    except ImportError:
        raise PinastatsError(
            "the board needs anywidget: pip install 'pinastats[play]' (or pip install anywidget)"
        ) from None
    return anywidget, traitlets


def board_widget(session: Session, *, coach: bool = True,
                 folder: str | Path | None = None) -> Any:  # fmt: skip
    """A widget showing ``session``: click to hold dice, roll, stop and place; the coach beside.

    **Export record** writes the record into ``folder`` (default: the working folder when
    the widget is made); a message from the page never names a file.
    """
    anywidget, traitlets = _anywidget()
    where = Path.cwd() if folder is None else Path(folder)

    class PinaColadiceBoard(anywidget.AnyWidget):  # type: ignore[misc,name-defined]
        _esm = (STATIC / "app.js").read_text(encoding="utf-8")
        _css = (STATIC / "app.css").read_text(encoding="utf-8")
        view = traitlets.Dict().tag(sync=True)
        coach = traitlets.Bool(True).tag(sync=True)
        message = traitlets.Unicode("").tag(sync=True)
        review = traitlets.Dict().tag(sync=True)

    widget = PinaColadiceBoard(coach=coach)
    widget.session = session

    def refresh(*_: Any) -> None:
        widget.view = board_view(widget.session, coach=widget.coach)

    def on_msg(_: Any, content: Any, buffers: Any) -> None:
        try:
            outcome = carry_out(widget.session, content, folder=where)
        except MessageError as exc:
            widget.message = str(exc)
        else:
            widget.message, widget.review = outcome.text, outcome.review or {}
            if outcome.session is not None:
                widget.session.close()
                widget.session = outcome.session
        refresh()

    widget.on_msg(on_msg)
    widget.observe(refresh, names="coach")
    refresh()
    return widget


def play(seats: Any = ("human", "coach"), *, seed: int | None = None, happy_hour: bool = False,
         coach: bool = True, position: Any = None, table: bool = False) -> Any:  # fmt: skip
    """Play Piña Coladice in the notebook: a board widget for a new game.

    ``seats``: 2-4 seats, ``"human"`` (or ``"human:NAME"``) for a person, else any agent
    name (``strategic``, ``coach``, ``value``, ``FILE.py:Class``), as a list or a
    comma-separated string. ``seed``: the same seed deals the same board and dice (none: a
    random seed, shown under the board). ``table``: "My table", a game at a real table
    (set the coasters up, enter the dice rolled, the coach beside; the game at the table is
    saved as it goes and resumed, as ``play --serve --table`` does).
    ``coach``: show the coach's advice before each of a person's decisions.
    ``position``: start from a position (a line of ``docs/notation.md`` or a ``Game``)
    instead of a deal.
    """
    if isinstance(seats, str):
        seats = [s.strip() for s in seats.split(",")]
    if not isinstance(coach, bool):
        raise PinastatsError(f"coach must be True or False, got {coach!r}")
    _anywidget()  # the extra is missing: say so before a game starts
    session = PlaySession(seats, seed=seed, happy_hour=happy_hour, position=position)
    if table:
        session.close()
        kept, _ = resume(back=session.again, happy_hour=happy_hour)  # the game kept, if any
        return board_widget(kept, coach=coach)
    return board_widget(session, coach=coach)
