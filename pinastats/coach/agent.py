"""The ``coach`` agent: plays every decision of its turn to maximise the chance to win.

At the start of a turn it estimates the win probability ``W`` of each outcome
position of the turn (:mod:`pinastats.coach.outcomes`, ``playouts`` play-outs
each by ``policy``); each keep is then the turn DP's best on ``W``
(:mod:`pinastats.coach.solve`) and the placement the legal cell of highest
``W``. A turn costs ``M x playouts`` play-outs (``M`` outcome positions) and one
small DP per keep. The play-outs' seed is made from the agent's ``seed`` and
the position, so the same position always gets the same estimates. Happy Hour
choices are those of ``strategic`` (as in the outcome positions).

With ``leaf="value"`` each play-out stops after ``depth`` turns and the learned
evaluator values the position reached (a truncated play-out: fewer turns
played, and the network's estimate instead of one game's 0, 1/2 or 1).
"""

from __future__ import annotations

import difflib
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from pinastats.agents.builtin import AgentError, make_agent
from pinastats.coach.outcomes import (
    CoachError,
    OutcomeSet,
    Playouts,
    check_playouts,
    check_policy,
    check_workers,
    outcome_positions,
)
from pinastats.coach.solve import solve_win_turn
from pinastats.dice.errors import at_least
from pinastats.dice.hands import check_dice, dice_tables
from pinastats.errors import PinastatsError
from pinastats.game.game import Game, IllegalMoveError
from pinastats.game.rules import HappyHourEffect
from pinastats.game.turn import check_rerolls_left

COACH_PLAYOUTS = 200
"""Default play-outs per outcome position of the ``coach`` agent."""

LEAVES = ("end", "value")
"""Where a coach's play-out stops: at the end of the game, or at the learned evaluator."""
LEAF_DEPTH = 2
"""Turns a play-out plays before the evaluator values it (``leaf="value"``)."""

_STRATEGIC = make_agent("strategic")


def _position_key(game: Game) -> bytes:
    """The bytes of everything the turn's decisions read, to tell positions apart."""
    return b"".join(a.tobytes() for a in game.state)


@dataclass
class Coach:
    """The win-probability agent (see the module docstring).

    Attributes:
        playouts: play-outs from each outcome position per turn.
        policy: the built-in agent that plays every seat in the play-outs.
        seed: mixed with the position into the play-outs' seed.
        workers: threads for the play-outs (the results do not depend on it).
    """

    playouts: int = COACH_PLAYOUTS
    policy: str = "strategic"
    seed: int = 0
    workers: int | None = 1
    leaf: str = "end"
    depth: int = LEAF_DEPTH
    _key: bytes = field(default=b"", init=False, repr=False, compare=False)
    _outcomes: OutcomeSet | None = field(default=None, init=False, repr=False, compare=False)
    _w: npt.NDArray[np.float64] = field(
        default_factory=lambda: np.zeros(0), init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        self.playouts = check_playouts(self.playouts)
        self.policy = check_policy(self.policy)
        self.seed = at_least(self.seed, "coach: seed", 0)
        self.workers = check_workers(self.workers)
        if self.leaf not in LEAVES:
            raise CoachError(f"leaf must be one of {', '.join(LEAVES)}, got {self.leaf!r}")
        self.depth = at_least(self.depth, "coach: depth", 1)

    @property
    def name(self) -> str:
        """``coach``, with the settings that differ from the defaults."""
        custom = []
        if self.playouts != COACH_PLAYOUTS:
            custom.append(f"playouts={self.playouts}")
        if self.policy != "strategic":
            custom.append(f"policy={self.policy}")
        if self.seed:
            custom.append(f"seed={self.seed}")
        if self.leaf != "end":
            custom.append(f"leaf={self.leaf}")
            if self.depth != LEAF_DEPTH:
                custom.append(f"depth={self.depth}")
        return f"coach({','.join(custom)})" if custom else "coach"

    def __getstate__(self) -> dict[str, Any]:
        """The settings only: the estimates of the last position are not shipped."""
        return {"playouts": self.playouts, "policy": self.policy, "seed": self.seed,
                "workers": self.workers, "leaf": self.leaf, "depth": self.depth}  # fmt: skip

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(**state)  # type: ignore[misc]

    def _estimate(self, game: Game) -> OutcomeSet:
        """The outcome positions of this turn and their ``W`` (computed once per position)."""
        if game.is_over:
            raise IllegalMoveError(f"the game is over ({game.end_reason.name}); no decision")
        key = _position_key(game)
        if key != self._key or self._outcomes is None:
            outcomes = outcome_positions(game)
            digest = int.from_bytes(hashlib.sha256(key).digest()[:8], "little")
            depth = self.depth if self.leaf == "value" else 0
            seed = (self.seed << 64) | digest
            runner = Playouts(outcomes, self.policy, seed, self.workers, depth=depth)
            runner.extend(self.playouts)
            self._key, self._outcomes, self._w = key, outcomes, runner.mean()
        return self._outcomes

    def turn_win_probability(self, game: Game) -> float:
        """The mover's chance to win before the first roll: ``K_R`` of the empty keep on ``W``."""
        o = self._estimate(game)
        rolls = game.config.rules.rolls
        turn = solve_win_turn(self._w, o.shows, o.pass_column, o.happy_columns, rolls, rolls)
        return float(turn.keep_value[rolls - 1, 0])

    def start_turn(self, game: Game) -> None:
        """Estimate the win probability of every outcome position of the turn."""
        self._estimate(game)

    def choose_keep(
        self, game: Game, dice: Sequence[int], rolls_left: int, rng: np.random.Generator
    ) -> tuple[int, ...]:
        """The dice to keep (all five = stop) with ``rolls_left`` re-rolls still allowed."""
        hand = dice_tables().hand_index(check_dice(dice))
        rolls_left = check_rerolls_left(game, rolls_left)
        o = self._estimate(game)
        turn = solve_win_turn(
            self._w,
            o.shows,
            o.pass_column,
            o.happy_columns,
            int(rolls_left),
            game.config.rules.rolls,
        )
        return dice_tables().keep_of(turn.keep_of(hand, int(rolls_left)))

    def choose_placement(self, game: Game, dice: Sequence[int], rng: np.random.Generator) -> int:
        """The legal cell of highest win probability; raises if the dice can place nothing."""
        placements = game.legal_placements(dice)
        if not placements:
            raise IllegalMoveError(
                f"the dice {sorted(dice)} match no coaster open to seat {game.to_move}: "
                "there is no placement to choose"
            )
        o = self._estimate(game)
        column = {int(c): j for j, c in enumerate(o.cells)}
        best = max(placements, key=lambda p: (self._w[column[p.cell]], p.points, -p.cell))
        return best.cell

    def choose_happy_hour(
        self, game: Game, effect: HappyHourEffect, options: list[int], rng: np.random.Generator
    ) -> int:
        """One of the Happy Hour ``options``: the ``strategic`` agent's choice."""
        return _STRATEGIC.choose_happy_hour(game, effect, options, rng)


COACH_PARAMETERS = ("playouts", "policy", "seed", "leaf", "depth")
"""The parameters of ``coach(...)`` in an agent name."""


def coach_agent(spec: str, items: list[tuple[str, str]]) -> Coach:
    """The coach of an agent name such as ``coach(playouts=200,policy=ev)``.

    ``items`` are the ``(name, value)`` texts; an unknown name, a value that is
    not a whole number, ``playouts <= 0`` or an unknown policy raise
    :class:`~pinastats.agents.builtin.AgentError` naming the value and what is allowed.
    """
    settings: dict[str, Any] = {}
    for key, val in items:
        if key not in COACH_PARAMETERS:
            close = difflib.get_close_matches(key, COACH_PARAMETERS, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise AgentError(
                f"agent {spec!r}: unknown parameter {key!r}{hint} "
                f"(parameters of coach: {', '.join(COACH_PARAMETERS)})"
            )
        if key in ("policy", "leaf"):
            settings[key] = val
            continue
        try:
            settings[key] = int(val)
        except ValueError:
            raise AgentError(f"agent {spec!r}: {key} must be a whole number, got {val!r}") from None
    try:
        return Coach(**settings)
    except PinastatsError as exc:
        raise AgentError(f"agent {spec!r}: {exc}") from None
