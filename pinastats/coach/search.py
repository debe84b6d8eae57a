"""The search evaluator: each seat's chance after each way a turn can end, by plies of turns.

:func:`search_values` is to :func:`~pinastats.coach.outcomes.network_values`
what the ``search`` agent is to ``value``: an outcome position of the mover's
turn is valued by the ``depth - 1`` whole turns that follow it (the next
seats', each solved exactly, every roll enumerated), down to the learned
evaluator; exact where the game is over. ``depth=1`` gives the network's own
values. The variants and their tie rules are those of
:mod:`pinastats._engine.search`; ``paranoid`` and ``best-reply`` guard the mover
of the turn whose outcomes are valued.

Measured error (``benchmarks/bench_search.py accuracy --boards 76,77 --depths 2 3``;
two of the test boards of ``docs/value.md``'s exact-label runs, 100 labelled turn
starts on each, every way each turn can end valued exactly): :data:`SEARCH_ERROR`
for a chance and :data:`SEARCH_DIFFERENCE_ERROR` for the difference between two
ways of one turn, beside the network's on the same positions.
"""

from __future__ import annotations

import numpy as np

from pinastats._arrays import FloatArray
from pinastats._engine import stack_states
from pinastats.agents.network import NetworkError, PlayerNetwork, ValueNetworks
from pinastats.agents.search import (
    SEARCH_DEPTH,
    Searcher,
    SearchError,
    check_depth,
    check_variant,
)
from pinastats.coach.outcomes import CoachError, OutcomeSet

SEARCH_ERROR = 0.027
"""Mean absolute error of :func:`search_values` (depth 2) on a chance to win, against the exact
chances of two-player solved boards: 2,287 outcome positions of 200 turns on boards 76 and 77
(the network's on the same positions: 0.032; depth 3: 0.019)."""
SEARCH_DIFFERENCE_ERROR = 0.030
"""Its mean error on the difference from the exactly best way of ending one turn, on the same 200
turns (the network's: 0.042; depth 3: 0.019)."""


def search_values(
    outcomes: OutcomeSet,
    depth: int = SEARCH_DEPTH,
    variant: str = "max-n",
    networks: ValueNetworks | PlayerNetwork | None = None,
) -> FloatArray:
    """``(M, n)``: each seat's chance to win after each outcome position of the turn.

    Row ``j`` is outcome ``j`` of ``outcomes``, column ``s`` seat ``s``'s chance
    (a game nobody wins counts 1/2): exact where the game is over there, else
    by ``depth - 1`` plies of search (:mod:`pinastats._engine.search`) over the
    network for the game's player count in ``networks`` (default: the shipped
    one). Column ``outcomes.seat`` is what the mover's decisions read; with
    ``depth=1`` it is :func:`~pinastats.coach.outcomes.network_values`.
    Raises :class:`~pinastats.coach.outcomes.CoachError` on a bad depth or
    variant, or a network that does not fit the game.
    """
    config = outcomes.game.config
    try:
        depth, variant = check_depth(depth), check_variant(variant)
        network = (
            networks.for_players(config.players)
            if isinstance(networks, ValueNetworks)
            else networks
        )
        searcher = Searcher(config, depth, variant, network)
    except (SearchError, NetworkError) as exc:
        raise CoachError(str(exc)) from None
    states = stack_states(list(outcomes.states))
    values = searcher.positions(states, depth - 1, outcomes.seat)
    decided = ~np.isnan(outcomes.exact)
    seat = outcomes.seat
    for j in np.flatnonzero(decided):  # the kernel's exact results, checked against the set's
        if abs(values[j, seat] - outcomes.exact[j]) > 1e-12:
            raise CoachError(f"outcome {j}: the search and the outcome set disagree on the result")
    return values
