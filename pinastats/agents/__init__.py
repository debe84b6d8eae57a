"""Agents: the built-in strategies, from random to playing to win."""

from pinastats.agents.builtin import (
    ROLLOUT_DEFAULTS,
    STRATEGIC_DEFAULTS,
    Agent,
    AgentKind,
    agent_names,
    make_agent,
)

__all__ = [
    "ROLLOUT_DEFAULTS",
    "STRATEGIC_DEFAULTS",
    "Agent",
    "AgentKind",
    "agent_names",
    "make_agent",
]
