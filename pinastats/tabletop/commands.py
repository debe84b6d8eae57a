"""The clicks of the board, as messages: one dispatcher for the widget and the served page.

A message is a dict with ``cmd``: ``roll`` (with ``hold``, the positions of the dice
held), ``stop``, ``place`` (``cell``), ``choose`` (``option``), ``undo``, ``export``
(the finished game's record as JSON Lines, to ``path`` or a file named after the
seed) and ``review`` (the review of the people's decisions,
:func:`pinastats.records.review.review_game`). :func:`act` carries it out and returns
the text to show: empty, a refusal that names what is allowed, or what was written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pinastats.errors import PinastatsError
from pinastats.tabletop.session import PlaySession

COMMANDS = ("roll", "stop", "place", "choose", "undo", "export", "review")
"""The commands a message may carry."""


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


def act(session: PlaySession, message: dict[str, Any]) -> str:
    """Carry out one message (module docstring); the text to show the player."""
    if not isinstance(message, dict) or message.get("cmd") not in COMMANDS:
        got = message.get("cmd") if isinstance(message, dict) else message
        return f"unknown command {got!r}; the commands are {', '.join(COMMANDS)}"
    cmd = message["cmd"]
    try:
        if cmd == "roll":
            session.roll(list(message.get("hold") or []))
        elif cmd == "stop":
            session.stop()
        elif cmd == "place":
            session.place(message.get("cell"))  # type: ignore[arg-type]
        elif cmd == "choose":
            session.choose(message.get("option"))  # type: ignore[arg-type]
        elif cmd == "undo":
            session.undo()
        elif cmd == "export":
            from pinastats.records import write_records

            path = Path(message.get("path") or f"pinastats-game-seed{session.seed}.jsonl")
            written = write_records(path, [session.record])
            return f"record written to {written} (pinastats review {written})"
        else:
            return review_text(session)
    except PinastatsError as exc:
        return str(exc)
    return ""
