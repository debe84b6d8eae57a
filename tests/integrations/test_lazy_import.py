"""The package works without OpenSpiel: importing pinastats never imports pyspiel."""

from __future__ import annotations

import subprocess
import sys


def test_importing_pinastats_does_not_import_pyspiel() -> None:
    code = (
        "import sys, pinastats, pinastats.agents, pinastats.simulation, pinastats.game, "
        "pinastats.integrations\n"
        "assert 'pyspiel' not in sys.modules and 'open_spiel' not in sys.modules, 'imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
