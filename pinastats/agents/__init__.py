"""Agents: the built-in strategies, from random to playing to win, and the agent protocol."""

from pinastats.agents.builtin import (
    ROLLOUT_DEFAULTS,
    STRATEGIC_DEFAULTS,
    Agent,
    AgentKind,
    agent_names,
    make_agent,
)
from pinastats.agents.protocol import AgentProtocol, PythonAgent, is_agent

__all__ = [
    "ROLLOUT_DEFAULTS",
    "STRATEGIC_DEFAULTS",
    "Agent",
    "AgentKind",
    "AgentProtocol",
    "PythonAgent",
    "agent_names",
    "is_agent",
    "make_agent",
]
