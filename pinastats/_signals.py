"""Ctrl-C and SIGTERM held until a safe point: a flag the work looks at, not an exception anywhere.

Python raises ``KeyboardInterrupt`` wherever the main thread is when the
signal lands. Inside a callback whose exceptions Python drops (importlib's
module-lock weakref callback, llvmlite's object-cache hooks while numba loads a
kernel) it is printed as "Exception ignored" and lost, and the work goes on as
if nothing was asked. Within :func:`held`, SIGINT and SIGTERM only note the
signal; the work calls :func:`check` where stopping is safe (between chunks,
while waiting for one), which raises :class:`Signalled`, a
``KeyboardInterrupt`` carrying the signal's number, so every cleanup written
for Ctrl-C runs. A signal still noted when the block ends is raised there.
A second signal while one is noted raises at once: the way out of a step that
has no safe point for a while (compiling the engine on a cold cache).

Only the main thread can set handlers: elsewhere :func:`held` does nothing. A signal
ignored when the block starts (``SIG_IGN``: a command started in the background by a
shell script) stays ignored.
"""

from __future__ import annotations

import functools
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import ParamSpec, TypeVar

SIGNALS = (signal.SIGINT, signal.SIGTERM)
"""The signals :func:`held` notes: Ctrl-C and ``kill``."""

_noted: list[int] = []
"""The signals noted in the current :func:`held` block, first first."""
_depth = 0
"""How many :func:`held` blocks are open (the outermost set the handlers)."""

P = ParamSpec("P")
R = TypeVar("R")


class Signalled(KeyboardInterrupt):
    """Ctrl-C (``signum`` SIGINT) or SIGTERM, raised at a safe point."""

    def __init__(self, signum: int) -> None:
        super().__init__("interrupted" if signum == signal.SIGINT else "interrupted (terminated)")
        self.signum = signum


def _note(signum: int, frame: FrameType | None) -> None:
    """The handler: note the signal; a second one while the first waits is raised at once."""
    _noted.append(signum)
    if len(_noted) > 1:
        raise Signalled(_noted[0])


def pending() -> int | None:
    """The signal noted and not yet raised (None: none)."""
    return _noted[0] if _noted else None


def check() -> None:
    """Raise :class:`Signalled` if a signal was noted; a safe point of the work.

    Any thread may call it: a chunk's thread raises it into its future, which the
    main thread then raises when it gathers the chunk.
    """
    if _noted:
        raise Signalled(_noted[0])


@contextmanager
def held() -> Iterator[None]:
    """In the block, SIGINT and SIGTERM are noted, raised by :func:`check` or at the block's end.

    Blocks nest (the inner ones share the outer one's note). The handlers there
    were before are put back at the end; a signal noted and not raised is
    raised then, unless the block already ends with an exception.
    """
    global _depth
    if threading.current_thread() is not threading.main_thread() or _depth:
        yield
        return
    # an ignored signal stays ignored (a run started in the background by a shell script)
    before = {s: signal.getsignal(s) for s in SIGNALS}
    before = {s: signal.signal(s, _note) for s, h in before.items() if h != signal.SIG_IGN}
    _depth, ended = 1, False
    try:
        yield
        ended = True
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)
        _depth = 0
        noted = list(_noted)
        _noted.clear()
        if noted and ended:
            raise Signalled(noted[0])


def holding(function: Callable[P, R]) -> Callable[P, R]:
    """``function`` run in a :func:`held` block (a command's handler, from its first line)."""

    @functools.wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with held():
            return function(*args, **kwargs)

    return wrapper
