"""The two sides of a combination coaster."""

from __future__ import annotations

from enum import StrEnum

from pinastats.errors import PinastatsError


class Side(StrEnum):
    """The side of a coaster that is face up; the value is its letter.

    >>> Side.A.spaces, Side.B.spaces
    (1, 2)
    >>> Side.parse("b")
    <Side.B: 'B'>
    """

    A = "A"
    """Front (1-space side): one token space."""
    B = "B"
    """Back (2-space side): two token spaces; the first token placed takes the first
    (higher or equal) value, the second token the second."""

    @property
    def spaces(self) -> int:
        """Number of token spaces on this side (1 or 2)."""
        return 1 if self is Side.A else 2

    @property
    def code(self) -> int:
        """0 for side A, 1 for side B (the encoding of the game arrays)."""
        return 0 if self is Side.A else 1

    @property
    def other(self) -> Side:
        """The side that is face up after the coaster is flipped."""
        return Side.B if self is Side.A else Side.A

    @classmethod
    def parse(cls, letter: str | Side) -> Side:
        """Return the side named by ``letter`` ("A"/"B", case-insensitive)."""
        if isinstance(letter, Side):
            return letter
        key = letter.strip().upper() if isinstance(letter, str) else None
        if key not in ("A", "B"):
            raise PinastatsError(f"unknown coaster side {letter!r}; expected 'A' or 'B'")
        return cls(key)
