"""pinastats: exact probabilities, optimal holds and simulations for Piña Coladice.

The main names are available from the top level, imported on first use so
that ``import pinastats`` stays light:

>>> import pinastats
>>> pinastats.success_probability("five of a kind")
Fraction(347897, 7558272)
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_LAZY = {
    "Combination": "pinastats.dice",
    "parse_combination": "pinastats.dice",
    "solve_turn": "pinastats.dice",
    "success_probability": "pinastats.dice",
    "points_values": "pinastats.dice",
    "Game": "pinastats.game",
    "GameConfig": "pinastats.game",
    "Rules": "pinastats.game",
    "load_catalogue": "pinastats.game",
    "load_layout": "pinastats.game",
    "make_agent": "pinastats.agents",
    "simulate": "pinastats.simulation",
    "play_game": "pinastats.simulation",
    "play": "pinastats.tabletop.widget",
}

__all__ = ["__version__", *sorted(_LAZY)]


def _version() -> str:
    """The installed package's version, looked up on first use.

    importlib.metadata takes most of the time of importing pinastats, and a command
    holds Ctrl-C only from its first line (:mod:`pinastats._signals`).
    """
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pinastats")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0.0.0"


def __getattr__(name: str) -> Any:
    if name == "__version__":
        globals()["__version__"] = found = _version()
        return found
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'pinastats' has no attribute {name!r}")


def __dir__() -> list[str]:
    return __all__
