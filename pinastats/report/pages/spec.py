"""One page of the report's plan: its section and how to draw it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pinastats.report.typeset import Page


@dataclass(frozen=True)
class PageSpec:
    """One page of the plan: its section (running header) and how to draw it.

    ``compact`` are more compact versions, tried in order when the content does
    not fit.
    """

    section: str
    draw: Callable[[Page], None]
    compact: tuple[Callable[[Page], None], ...] = ()
