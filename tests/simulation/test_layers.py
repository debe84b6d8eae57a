"""The simulation package imports nothing above it: records, coach, balance, reports, the CLI."""

from __future__ import annotations

import ast
from pathlib import Path

import pinastats.simulation

ABOVE = ("pinastats.records", "pinastats.coach", "pinastats.balance", "pinastats.report",
         "pinastats.cli", "pinastats.integrations")  # fmt: skip


def imported(path: Path) -> set[str]:
    """The modules ``path`` imports, at its top or inside its functions."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            names.add(node.module)
    return names


def test_no_module_of_the_simulation_package_imports_a_package_above_it() -> None:
    folder = Path(pinastats.simulation.__file__).parent
    modules = sorted(folder.glob("*.py"))
    assert {"runner.py", "chunk.py", "plan.py"} <= {m.name for m in modules}
    found = [
        f"{module.name} imports {name}"
        for module in modules
        for name in sorted(imported(module))
        if name.startswith(ABOVE)
    ]
    assert not found, found
