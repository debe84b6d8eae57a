"""Shared test configuration.

* ``tests/dice`` goes on ``sys.path`` so test modules can ``import oracle`` (the
  brute-force model of the turn) under pytest's ``--import-mode=importlib``.
* Hypothesis runs without deadlines: the first call of a numba kernel loads its
  cache, which would make a timing-based failure depend on the machine.
"""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent / "dice"))

settings.register_profile("pinastats", deadline=None, print_blob=True)
settings.load_profile("pinastats")
