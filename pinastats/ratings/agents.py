"""The ladder's agent names: pinastats' own, and OpenSpiel's MCTS.

``mcts100``, ``mcts1000`` (``mcts<K>``: ``K`` simulations a decision) and
``mcts(simulations=K)`` or ``mcts(simulations=K,uct_c=C)`` name OpenSpiel's
``MCTSBot`` with random roll-outs
(:func:`~pinastats.integrations.openspiel_bots.mcts_bot`), played through
:class:`~pinastats.integrations.openspiel_bots.OpenSpielAgent`; they need the
``[openspiel]`` extra. Any other name goes to
:func:`~pinastats.agents.loading.resolve_agent` (``ev``, ``coach(depth=2)``,
``FILE.py:Class``, ...).
"""

from __future__ import annotations

import re
from functools import partial

from pinastats.agents.loading import resolve_agent
from pinastats.agents.protocol import AgentProtocol
from pinastats.ratings.bradley_terry import RatingError

_SHORT = re.compile(r"^mcts(\d+)$")
_LONG = re.compile(r"^mcts\((.*)\)$")
DEFAULT_UCT = 2.0


def is_mcts(spec: object) -> bool:
    """Whether ``spec`` names OpenSpiel's MCTS (``mcts100``, ``mcts(simulations=50)``, ...)."""
    if not isinstance(spec, str):
        return False
    text = spec.strip().lower().replace(" ", "")
    return bool(_SHORT.match(text) or _LONG.match(text)) or text == "mcts"


def mcts_parameters(spec: str) -> tuple[int, float]:
    """``(simulations, uct_c)`` of an MCTS name; a :class:`RatingError` says what is allowed."""
    text = spec.strip().lower().replace(" ", "")
    allowed = "mcts<K> (e.g. mcts100) or mcts(simulations=K) or mcts(simulations=K,uct_c=C)"
    short = _SHORT.match(text)
    if short:
        simulations, uct = int(short.group(1)), DEFAULT_UCT
    else:
        long = _LONG.match(text)
        if long is None:
            raise RatingError(f"agent {spec!r}: OpenSpiel's MCTS is named {allowed}")
        params: dict[str, str] = {}
        for item in filter(None, long.group(1).split(",")):
            key, eq, value = item.partition("=")
            if not eq or key not in ("simulations", "uct_c") or key in params:
                raise RatingError(f"agent {spec!r}: parameter {item!r}; expected {allowed}")
            params[key] = value
        if "simulations" not in params:
            raise RatingError(f"agent {spec!r}: give the simulations, {allowed}")
        try:
            simulations = int(params["simulations"])
            uct = float(params.get("uct_c", DEFAULT_UCT))
        except ValueError:
            raise RatingError(
                f"agent {spec!r}: simulations is a whole number, uct_c a number; {allowed}"
            ) from None
        if not uct > 0 or uct == float("inf"):
            raise RatingError(f"agent {spec!r}: uct_c must be a number > 0, got {uct}")
    if simulations < 1:
        raise RatingError(f"agent {spec!r}: simulations must be at least 1, got {simulations}")
    return simulations, uct


def mcts_agent(spec: str) -> AgentProtocol:
    """OpenSpiel's MCTS named by ``spec`` as a pinastats agent (module docstring)."""
    simulations, uct = mcts_parameters(spec)
    try:
        from pinastats.integrations.openspiel_bots import OpenSpielAgent, mcts_bot
    except ImportError:
        raise RatingError(
            f"agent {spec!r} is OpenSpiel's MCTS, which needs OpenSpiel: "
            "pip install 'pinastats[openspiel]'"
        ) from None
    name = (
        f"mcts{simulations}"
        if uct == DEFAULT_UCT
        else f"mcts(simulations={simulations},uct_c={uct:g})"
    )
    return OpenSpielAgent(partial(mcts_bot, simulations=simulations, uct_c=uct), name=name)


def ladder_agent(spec: str | AgentProtocol) -> AgentProtocol:
    """The agent ``spec`` names.

    An MCTS name (module docstring), or anything
    :func:`~pinastats.agents.loading.resolve_agent` takes.
    """
    if isinstance(spec, str) and is_mcts(spec):
        return mcts_agent(spec)
    return resolve_agent(spec)
