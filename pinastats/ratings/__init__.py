"""A strength ladder: a round-robin between agents rated on one Bradley–Terry (Elo) scale.

* :func:`round_robin` plays every pair of agents (the first move alternating,
  reproducible from a seed, a ``schedule`` giving expensive agents fewer games);
* :func:`fit_bradley_terry` fits the strengths by maximum likelihood with 95%
  Wald intervals from the Fisher information (:mod:`pinastats.ratings.bradley_terry`);
* :func:`ladder_agent` resolves the ladder's names, OpenSpiel's MCTS
  (``mcts100``, ``mcts1000``) among them.

``pinastats ladder`` runs it from the command line.
"""

from pinastats.ratings.agents import ladder_agent
from pinastats.ratings.bradley_terry import (
    ELO_PER_NAT,
    BradleyTerryFit,
    RatingError,
    fit_bradley_terry,
)
from pinastats.ratings.round_robin import (
    PairResult,
    RoundRobin,
    block_size,
    pair_games,
    round_robin,
)

__all__ = [
    "ELO_PER_NAT",
    "BradleyTerryFit",
    "PairResult",
    "RatingError",
    "RoundRobin",
    "block_size",
    "fit_bradley_terry",
    "ladder_agent",
    "pair_games",
    "round_robin",
]
