"""The network evaluator: the learned evaluator's chances, instant, with a measured error.

``W(o)`` is the network's chance that the mover wins from ``o`` plus half its
chance that nobody does (:func:`pinastats.coach.outcomes.network_values`). The
networks are a value (:class:`~pinastats.agents.network.ValueNetworks`) given to
the evaluator; a surface that honours ``PINASTATS_NETWORK`` loads them and passes
them down.

Its errors were measured on positions it never saw (``docs/value.md``,
``docs/evaluation.md``): :data:`NETWORK_CHANCE_ERROR` on a chance and
:data:`NETWORK_DIFFERENCE_ERROR` on the lead of one option over another of one
decision, each the larger of two measures (the exact values of solved two-player
boards; the position benchmark of 2-4 players against ``strategic`` play-outs).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from pinastats import _engine as E
from pinastats.agents.network import ValueNetworks, evaluate_states, fits, networks_of
from pinastats.coach.advice import WinAdvice, valued_advice
from pinastats.coach.outcomes import OutcomeSet, network_values, outcome_positions
from pinastats.evaluation.base import Evaluator, Valuation
from pinastats.game.config import GameConfig
from pinastats.game.game import Game

NETWORK_CHANCE_ERROR = 0.052
"""The network's mean absolute error on a chance to win, on positions it never saw: 0.052
against 5,000 ``strategic`` play-outs on the position benchmark (2-4 players), 0.035 against
the exact chances of solved two-player boards (``docs/value.md``). The larger is stated."""
NETWORK_DIFFERENCE_ERROR = 0.043
"""The network's error on the difference between two options of one decision, against the
exact values of the eight test boards of ``benchmarks/exact_labels.py`` (0.043; the position
benchmark against ``strategic`` play-outs gives 0.026, ``docs/value.md``): a lead within it
is too close to call. The larger is stated."""


@dataclass(frozen=True)
class NetworkEvaluator:
    """The learned evaluator (:mod:`pinastats.value`) with ``networks``.

    Default: the default networks (:func:`~pinastats.agents.network.default_networks`).
    """

    networks: ValueNetworks | None = field(default=None, repr=False, compare=False)
    name: str = "network"
    label: str = "the learned network"
    strength: int = 10
    chance_error: float = NETWORK_CHANCE_ERROR
    difference_error: float = NETWORK_DIFFERENCE_ERROR
    instant: bool = True

    def covers(self, config: GameConfig) -> str | None:
        """None where the networks fit the game (16 cells, a network for its player count)."""
        return fits(config, self.networks)

    def values(self, outcomes: OutcomeSet) -> Valuation:
        """The network's ``W`` (no sampling: zero covariance)."""
        m = outcomes.size
        return Valuation(network_values(outcomes, self.networks), np.zeros((m, m)))

    def advise(self, game: Game, dice: tuple[int, ...], rolls_left: int) -> WinAdvice:
        """The turn DP on the network's ``W``; leads within the difference error are close."""
        return estimated_advice(self, game, dice, rolls_left, "the network's value")

    def chances(self, game: Game) -> tuple[float, ...]:
        """Each seat's chance by the network (exact once the game is over)."""
        n = game.players
        if game.is_over:
            return tuple(float(E.seat_result(game.state, s)) for s in range(n))
        p = evaluate_states(game.config, E.stack_states([game.state]), networks_of(self.networks))
        return tuple(float(E.seat_value(p[0, (s - game.to_move) % n], p[0, n])) for s in range(n))


def estimated_advice(evaluator: Evaluator, game: Game, dice: tuple[int, ...], rolls_left: int,
                     whose: str) -> WinAdvice:  # fmt: skip
    """The turn DP on an estimating evaluator's ``W`` (no sampling), with its stated errors.

    Leads within its error on a difference are too close to call; every estimated chance
    carries its error on a chance (:func:`with_error`). ``whose``: the value's words.
    """
    outcomes = outcome_positions(game)
    advice = valued_advice(game, dice, rolls_left, outcomes, evaluator.values(outcomes).w,
                           resolution=evaluator.difference_error, evaluator=evaluator.name,
                           check=f"{whose} of the chosen option")  # fmt: skip
    return with_error(advice, evaluator.chance_error)


def with_error(advice: WinAdvice, error: float) -> WinAdvice:
    """``advice`` with each estimated chance's standard error set to a measured ``error``.

    Never 0 for an estimate; chances decided by the rules keep 0. A keep's chance mixes
    many outcome positions: it gets ``error`` unless every outcome
    is decided.
    """
    decided = {o.outcome.cell for o in advice.outcomes if o.exact and o.outcome.kind == "place"}
    estimate = not all(o.exact for o in advice.outcomes)
    keep_error = error if estimate else 0.0
    top = advice.placements[0] if advice.rolls_left == 0 and advice.placements else None
    top_error = 0.0 if top is not None and top.cell in decided else keep_error
    return dataclasses.replace(
        advice,
        win_probability_se=top_error,
        placements=tuple(
            dataclasses.replace(p, win_probability_se=0.0 if p.cell in decided else error)
            for p in advice.placements
        ),
        keeps=tuple(dataclasses.replace(k, win_probability_se=keep_error) for k in advice.keeps),
        outcomes=tuple(o if o.exact else dataclasses.replace(o, win_probability_se=error)
                       for o in advice.outcomes),
    )  # fmt: skip
