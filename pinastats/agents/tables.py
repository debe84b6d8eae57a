"""An agent's workspace for games of a config (an engine :class:`~pinastats._engine.Workspace`).

The work types (``TurnTables``, ``TurnMemo``, ``Workspace``) and their
builders are the engine's (:mod:`pinastats._engine`); this module only fills
in a config's sizes and the network that fits it.
"""

from __future__ import annotations

from pinastats import _engine as E
from pinastats.agents.network import network_for
from pinastats.game.config import GameConfig


def workspace(config: GameConfig, *, memo: bool = False, net: E.Net | None = None) -> E.Workspace:
    """A fresh :class:`~pinastats._engine.Workspace` for games of ``config`` (per agent, thread).

    With ``memo`` it keeps :data:`~pinastats._engine.MEMO_SLOTS` prepared turns
    for reuse: for the play-outs of the ``rollout`` agent and the coach, which
    replay the same positions; games played once gain nothing from it.
    ``net``: the network of its ``value`` decisions (default: the one that
    fits ``config``, :func:`~pinastats.agents.network.network_for`).
    """
    return E.new_workspace(
        n_cells=config.layout.n_cells,
        players=config.players,
        n_lines=len(config.layout.lines),
        n_coasters=len(config.catalogue),
        rolls=config.rules.rolls,
        net=network_for(config) if net is None else net,
        memo_slots=E.MEMO_SLOTS if memo else 0,
    )
