"""The ``value`` agent with the networks of another weights file, beside the shipped one.

``PINASTATS_NETWORK`` (:func:`~pinastats.agents.network.weights_path`) changes
the network of every ``value`` seat of a process. To seat two networks in one
game (a new round of training against the one it was trained after),
:class:`NetworkAgent` plays ``value``'s decisions with the networks of a file
of its own. It is a Python agent: its games play turn by turn on the readable
path (a few milliseconds a turn), the other seats' decisions unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from pinastats.agents.builtin import Agent, AgentKind
from pinastats.agents.network import ValueNetworks, fits, load_networks
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.game.rules import HappyHourEffect


class NetworkAgent:
    """``value`` playing with ``networks`` (loaded networks or a weights file).

    Its decisions are the built-in ``value`` agent's (the same kernels, given
    ``networks`` through :class:`~pinastats.agents.builtin.Agent`'s ``networks``
    parameter) instead of the default networks; ``name`` defaults
    to ``value[<file stem>]``. It refuses the games ``value`` refuses and
    player counts the file has no network for.
    """

    def __init__(self, networks: ValueNetworks | str | Path, name: str | None = None) -> None:
        self.networks = networks if isinstance(networks, ValueNetworks) else load_networks(networks)
        self.path = Path(self.networks.path)
        self._name = name or f"value[{self.path.stem}]"
        self._agent = Agent(AgentKind.VALUE, networks=self.networks)

    @property
    def name(self) -> str:
        """The name in tables: ``value[<file stem>]`` unless given."""
        return self._name

    def refuses(self, config: GameConfig) -> str | None:
        """Why this agent cannot play games of ``config`` (None: it can)."""
        return fits(config, self.networks)

    def start_turn(self, game: Game) -> None:
        """Value every way the turn can end (as ``value`` does), with this file's network."""
        self._agent.start_turn(game)

    def choose_keep(
        self, game: Game, dice: Sequence[int], rolls_left: int, rng: np.random.Generator
    ) -> tuple[int, ...]:
        """``value``'s keep."""
        return self._agent.choose_keep(game, dice, rolls_left, rng)

    def choose_placement(self, game: Game, dice: Sequence[int], rng: np.random.Generator) -> int:
        """``value``'s cell."""
        return self._agent.choose_placement(game, dice, rng)

    def choose_happy_hour(
        self, game: Game, effect: HappyHourEffect, options: list[int], rng: np.random.Generator
    ) -> int:
        """``value``'s Happy Hour choice."""
        return self._agent.choose_happy_hour(game, effect, options, rng)

    def __getstate__(self) -> dict[str, Any]:
        return {"path": str(self.path), "name": self._name}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["path"], state["name"])  # type: ignore[misc]
