"""Confidence intervals for simulated frequencies: :mod:`pinastats._stats`'s, by their old name."""

from __future__ import annotations

from pinastats._stats import Z95 as Z95
from pinastats._stats import mean_interval as mean_interval
from pinastats._stats import wilson_interval as wilson_interval
