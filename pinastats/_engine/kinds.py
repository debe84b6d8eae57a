"""The numbers the agent kernels know the agents and their parameters by (private).

A built-in agent is a kind (``K_*``) and a float parameter vector whose slots are
the ``PARAM_*`` (see :data:`pinastats.agents.builtin.PARAMETER_NAMES`).
"""

from __future__ import annotations

K_RANDOM, K_GREEDY, K_EV, K_STRATEGIC, K_ROLLOUT, K_VALUE = 0, 1, 2, 3, 4, 5

KINDS: dict[str, int] = {
    "random": K_RANDOM,
    "greedy": K_GREEDY,
    "ev": K_EV,
    "strategic": K_STRATEGIC,
    "rollout": K_ROLLOUT,
    "value": K_VALUE,
}
"""Every kernel agent, its name to its kind: the one list (``AgentKind`` is checked against it).

Adding a kernel agent: its ``K_*`` and entry here; its decisions in
:mod:`~pinastats._engine.decide` (each decision names the kinds it handles and
refuses any other, so a kind without a branch fails loudly instead of playing
as another); its :class:`~pinastats.agents.builtin.AgentKind` member.
"""
PARAM_LINE, PARAM_BLOCK, PARAM_RACE, PARAM_WIN, PARAM_ROLLOUTS, PARAM_POLICY = 0, 1, 2, 3, 4, 5
N_PARAMS = PARAM_POLICY + 1
