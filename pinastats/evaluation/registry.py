"""The registry of evaluators: a name, a factory, the settings it takes.

Adding an evaluator is one module (a class meeting
:class:`~pinastats.evaluation.base.Evaluator`) and one line of :data:`EVALUATORS`;
every surface offers the names listed here (``--evaluator``), and
``tests/evaluation/test_registry.py`` checks that each surface offers them all.
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Callable
from typing import Any

from pinastats.evaluation.base import EvaluationError, Evaluator
from pinastats.evaluation.exact import ExactEvaluator
from pinastats.evaluation.network import NetworkEvaluator
from pinastats.evaluation.playouts import PlayoutEvaluator
from pinastats.evaluation.search import SearchEvaluator

EVALUATORS: dict[str, Callable[..., Evaluator]] = {
    "exact": ExactEvaluator,
    "search": SearchEvaluator,
    "network": NetworkEvaluator,
    "playouts": PlayoutEvaluator,
}
"""Every evaluator by name, strongest kind first."""


def evaluator_names() -> tuple[str, ...]:
    """The names of :data:`EVALUATORS`."""
    return tuple(EVALUATORS)


def make_evaluator(name: str, *, strict: bool = True, **settings: Any) -> Evaluator:
    """The evaluator ``name`` with ``settings`` (None values are ignored).

    A setting it does not take is refused, or with ``strict=False`` left out.

    >>> make_evaluator("playouts", playouts=50, policy="value").label
    '50 play-outs by value'
    """
    if name not in EVALUATORS:
        close = difflib.get_close_matches(str(name), EVALUATORS, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise EvaluationError(
            f"evaluator must be one of {', '.join(EVALUATORS)}, got {name!r}{hint}"
        )
    factory = EVALUATORS[name]
    takes: set[str] = set()
    if dataclasses.is_dataclass(factory):
        takes = {f.name for f in dataclasses.fields(factory) if f.init}
    given = {k: v for k, v in settings.items() if v is not None}
    unknown = sorted(set(given) - (takes - {"name", "label", "strength", "chance_error",
                                            "difference_error", "instant"}))  # fmt: skip
    if unknown and not strict:
        given = {k: v for k, v in given.items() if k not in unknown}
    elif unknown:
        raise EvaluationError(f"the {name} evaluator takes no {', '.join(unknown)}")
    return factory(**given)
