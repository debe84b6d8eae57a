"""What an agent is: the decision points of a turn, as a protocol any Python object can meet.

A turn asks its agent, in this order (see :func:`pinastats.simulation.play.play_turn`):

1. ``start_turn(game)`` before the first roll;
2. ``choose_keep(game, dice, rolls_left, rng)`` after each roll while re-rolls
   are left: the dice to keep, all five to stop;
3. ``choose_placement(game, dice, rng)`` with the final dice when some cell is
   legal (``game.legal_cells(dice)``): the cell;
4. ``choose_happy_hour(game, effect, options, rng)`` when the Happy Hour die
   was rolled and its effect has a choice: one of ``options``.

``rng`` is the game's own generator: an agent that draws its random choices
from it plays the same games from the same seed. The built-in
:class:`~pinastats.agents.builtin.Agent` meets the protocol; :class:`PythonAgent`
is a base class with plain defaults for writing one's own. An agent played in
:func:`~pinastats.simulation.simulate` on several processes must pickle.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, TypeGuard, runtime_checkable

import numpy as np

from pinastats.game.rules import HappyHourEffect

if TYPE_CHECKING:
    from pinastats.game.game import Game


@runtime_checkable
class AgentProtocol(Protocol):
    """The decisions of a turn (see the module text for when each is asked)."""

    @property
    def name(self) -> str:
        """A short name for tables and reports."""
        ...

    def start_turn(self, game: Game) -> None:
        """Prepare the mover's turn (called before its first roll)."""
        ...

    def choose_keep(
        self, game: Game, dice: Sequence[int], rolls_left: int, rng: np.random.Generator
    ) -> Sequence[int]:
        """The dice to keep (part of ``dice``; all five = stop), ``rolls_left`` >= 1."""
        ...

    def choose_placement(self, game: Game, dice: Sequence[int], rng: np.random.Generator) -> int:
        """The cell to place on: one of ``game.legal_cells(dice)``."""
        ...

    def choose_happy_hour(
        self, game: Game, effect: HappyHourEffect, options: list[int], rng: np.random.Generator
    ) -> int:
        """One of the Happy Hour ``options`` (see ``Game.decode_happy_hour``)."""
        ...


class PythonAgent:
    """A base for agents written in Python: override the decisions that matter.

    The defaults stop at the first roll, place on the first legal cell and take
    the first Happy Hour option; :attr:`name` is the class name.
    """

    @property
    def name(self) -> str:
        """The class name, unless a subclass says otherwise."""
        return type(self).__name__

    def start_turn(self, game: Game) -> None:
        """Nothing to prepare."""

    def choose_keep(
        self, game: Game, dice: Sequence[int], rolls_left: int, rng: np.random.Generator
    ) -> Sequence[int]:
        """Keep all five dice: stop."""
        return tuple(dice)

    def choose_placement(self, game: Game, dice: Sequence[int], rng: np.random.Generator) -> int:
        """The first legal cell."""
        return game.legal_cells(dice)[0]

    def choose_happy_hour(
        self, game: Game, effect: HappyHourEffect, options: list[int], rng: np.random.Generator
    ) -> int:
        """The first option."""
        return options[0]

    def __repr__(self) -> str:
        return f"<agent {self.name}>"


def is_agent(obj: object) -> TypeGuard[AgentProtocol]:
    """Whether ``obj`` has every decision of :class:`AgentProtocol` (methods callable)."""
    return isinstance(obj, AgentProtocol) and all(
        callable(getattr(obj, m, None))
        for m in ("start_turn", "choose_keep", "choose_placement", "choose_happy_hour")
    )
