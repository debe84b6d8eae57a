"""The numbers the agent kernels know the agents and their parameters by (private).

A built-in agent is a kind (``K_*``) and a float parameter vector whose slots are
the ``PARAM_*`` (see :data:`pinastats.agents.builtin.PARAMETER_NAMES`).
"""

from __future__ import annotations

K_RANDOM, K_GREEDY, K_EV, K_STRATEGIC, K_ROLLOUT, K_VALUE = 0, 1, 2, 3, 4, 5
PARAM_LINE, PARAM_BLOCK, PARAM_RACE, PARAM_WIN, PARAM_ROLLOUTS, PARAM_POLICY = 0, 1, 2, 3, 4, 5
N_PARAMS = PARAM_POLICY + 1
