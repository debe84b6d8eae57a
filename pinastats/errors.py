"""The errors pinastats raises for bad input.

Every error caused by what a user gave (dice, hands, keeps, cells, seats,
rolls, names, files) is a :class:`PinastatsError`, itself a ``ValueError``, and
its message names the bad value and what is allowed. One's own agent raising
while it decides is an :class:`AgentFailedError` (its code, not pinastats').
Anything else escaping the API is a bug: the command line prints its traceback
instead of one tidy line.
"""

from __future__ import annotations

import errno
import os
from typing import Any


def expect_instance(value: Any, kind: type, what: str, made_by: str) -> None:
    """Raise :class:`PinastatsError` unless ``value`` is a ``kind``.

    The message names the value, its type and where a ``kind`` comes from:
    ``game must be a Game, got 3 (type int); get one from Game.new()``.
    """
    if not isinstance(value, kind):
        raise PinastatsError(
            f"{what} must be a {kind.__name__}, got {value!r} (type {type(value).__name__}); "
            f"get one from {made_by}"
        )


PLAYER_COUNTS: tuple[int, ...] = (2, 3, 4)
"""The player counts a game is played with (every layout gives its sides for each), named
once: the validators below and every loop over player counts read it (re-exported by
:mod:`pinastats.game.rules`; kept here, where the light command-line modules reach it)."""


def players_text() -> str:
    """The supported player counts in words: ``2, 3 or 4``."""
    *rest, last = (str(n) for n in PLAYER_COUNTS)
    return f"{', '.join(rest)} or {last}"


def check_players(players: object, error: type[PinastatsError] | None = None) -> int:
    """``players`` if it is one of :data:`PLAYER_COUNTS`, else ``error`` naming it and them."""
    if isinstance(players, bool) or players not in PLAYER_COUNTS:
        raise (error or PinastatsError)(f"players must be {players_text()}, got {players!r}")
    return int(players)


class PinastatsError(ValueError):
    """Bad input to pinastats; the message names the bad value and what is allowed."""


class MissingFileError(PinastatsError, FileNotFoundError):
    """A file named by the user that does not exist: a :class:`PinastatsError` and an ``OSError``.

    ``str()`` is the message (naming the path and what it should be); ``strerror``
    and ``filename`` are those of an ``OSError``, for callers that report one.
    """

    def __init__(self, message: str, path: str) -> None:
        super().__init__(message)
        self.errno, self.strerror, self.filename = errno.ENOENT, "No such file or directory", path

    def __str__(self) -> str:
        return str(self.args[0])


class OutputError(PinastatsError, OSError):
    """A file to write that cannot be written: a :class:`PinastatsError` and an ``OSError``.

    ``str()`` is the message, naming the path as the user gave it (never a
    temporary file's name) and why; ``path`` is that path, ``errno`` and
    ``strerror`` those of the failure (``ENOSPC``, "No space left on device").
    """

    def __init__(self, message: str, path: str, code: int) -> None:
        super().__init__(message)
        self.path, self.errno, self.strerror = path, code, os.strerror(code)

    def __str__(self) -> str:
        return str(self.args[0])


class AgentFailedError(Exception):
    """One's own agent raised while deciding: neither bad input nor a bug in pinastats.

    ``str()`` names the agent, the decision (its method), where it was asked (game,
    turn, seat) and what it raised; :attr:`details` is the agent's traceback as
    text, so that the error reads the same when it comes back from a process or
    Dask worker (a pickled exception loses its traceback).
    """

    def __init__(self, agent: str, decision: str, where: str, raised: str, details: str) -> None:
        super().__init__(agent, decision, where, raised, details)
        self.agent, self.decision, self.where = agent, decision, where
        self.raised, self.details = raised, details

    def __str__(self) -> str:
        return f"agent {self.agent!r} raised {self.raised} in {self.decision} ({self.where})"

    def in_game(self, number: int) -> AgentFailedError:
        """The same failure, placed in game ``number`` (1-based) of a run."""
        where = f"game {number}, {self.where}"
        return AgentFailedError(self.agent, self.decision, where, self.raised, self.details)
