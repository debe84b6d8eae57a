"""Progress of a run on stderr: games played, rate, time elapsed and time left.

On a terminal a bar is redrawn in place; elsewhere (a log, a pipe) a line is
written every :data:`LINE_EVERY` seconds. The time left is the games left over
the rate so far. :class:`Interrupted` is what a run raises on Ctrl-C.
"""

from __future__ import annotations

import signal
import sys
import time
from typing import Literal

import numpy as np

ProgressMode = Literal["bar", "lines", "off"]
LINE_EVERY = 5.0
"""Seconds between two progress lines when stderr is not a terminal."""


def _clock(seconds: float) -> str:
    """A duration as ``m:ss``, ``h:mm:ss`` or ``d days h:mm:ss``."""
    if not np.isfinite(seconds):
        return "?"
    if seconds > 1e3 * 365 * 86_400:
        return "over 1,000 years"
    whole = int(seconds)
    days, rest = divmod(whole, 86_400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    text = f"{hours}:{minutes:02d}:{secs:02d}" if hours or days else f"{minutes}:{secs:02d}"
    return f"{days:,} days {text}" if days else text


class Stopped(KeyboardInterrupt):
    """Work stopped by Ctrl-C (or SIGTERM, ``signum``); the message says what was done."""

    def __init__(self, message: str, signum: int = signal.SIGINT) -> None:
        super().__init__(message)
        self.signum = signum


def stop_signal(exc: BaseException) -> int:
    """The signal that stopped the work: ``exc``'s ``signum`` (SIGTERM), else SIGINT (Ctrl-C)."""
    signum = getattr(exc, "signum", signal.SIGINT)
    return signum if isinstance(signum, int) else signal.SIGINT


class Interrupted(Stopped):
    """A run stopped by Ctrl-C (or SIGTERM, ``signum``) after ``done`` of ``total`` games.

    ``then``: what else there is to say (what was written, what was not).
    """

    def __init__(self, done: int, total: int, signum: int = signal.SIGINT, then: str = "") -> None:
        how = "" if signum == signal.SIGINT else " (terminated)"
        text = f"interrupted{how} after {done:,} of {total:,} games" + (f"; {then}" if then else "")
        super().__init__(text, signum)
        self.done, self.total = done, total


class _Progress:
    """Progress on stderr: a bar (``"bar"``), a line every ``every`` s (``"lines"``) or none.

    Shows the games played, the rate, the time elapsed and the time left
    (ETA = games left / rate so far).
    """

    def __init__(self, total: int, mode: ProgressMode, every: float | None = None) -> None:
        self.total, self.done, self.mode = total, 0, mode
        self.every = LINE_EVERY if every is None else every
        self.start = time.perf_counter()
        self.last = self.start
        self.drawn = False  # a bar is on screen without its line end

    def begin(self) -> None:
        """Start the clock: the games are about to be played (setup is done)."""
        self.start = self.last = time.perf_counter()

    def _status(self, now: float) -> str:
        elapsed = now - self.start
        rate = self.done / max(elapsed, 1e-9)
        left = (self.total - self.done) / rate if self.done else float("inf")
        return (
            f"{self.done:,}/{self.total:,} games, {rate:,.0f}/s, {_clock(elapsed)} elapsed, "
            f"ETA {_clock(left)}"
        )

    def update(self, games: int) -> None:
        """Count ``games`` more games played and redraw."""
        self.done += games
        now = time.perf_counter()
        if self.mode == "bar":
            filled = int(30 * self.done / self.total)
            bar = "#" * filled + "." * (30 - filled)
            sys.stderr.write(f"\r[{bar}] {self._status(now)} ")
            self.drawn = True
            if self.done >= self.total:
                self.close()
            sys.stderr.flush()
        elif self.mode == "lines" and (now - self.last >= self.every or self.done >= self.total):
            if now - self.start >= self.every:  # short runs stay silent
                print(f"pinastats: {self._status(now)}", file=sys.stderr, flush=True)
            self.last = now

    def close(self) -> None:
        """End a half-drawn bar's line (before a message, an error, or at the end)."""
        if self.drawn:
            sys.stderr.write("\n")
            sys.stderr.flush()
            self.drawn = False
