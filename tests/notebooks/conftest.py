"""Shared helpers of the notebook tests: where the notebooks are, and which ones exist."""

from __future__ import annotations

from pathlib import Path

NOTEBOOK_DIR = Path(__file__).resolve().parents[2] / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
SMALL_SCALE = "0.02"
"""``PINASTATS_NOTEBOOK_SCALE`` for the tests: every notebook then runs in seconds."""
