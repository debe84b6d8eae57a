"""The engine's surface is the only way into the engine and its kernels.

The work types the kernels read (the dice tables, an agent's workspace, the
memo) are the engine's, and the dice layer's private kernels are reached
through the engine's surface by every package above it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pinastats
from pinastats import _engine as E

PACKAGE = Path(pinastats.__file__).resolve().parent


def _imports(path: Path) -> set[str]:
    """The modules ``path`` imports from (absolute ``from`` and plain imports)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def test_the_work_types_are_the_engines() -> None:
    for name in ("TurnTables", "TurnMemo", "Workspace", "turn_tables", "turn_memo"):
        assert getattr(E, name).__module__.startswith("pinastats._engine."), name
    import pinastats.agents.tables as tables

    for name in ("TurnTables", "TurnMemo", "Workspace", "turn_tables", "turn_memo"):
        assert name not in vars(tables), f"agents.tables still defines {name}"


def test_only_the_dice_layer_and_the_engine_import_the_dice_kernels() -> None:
    outside = [
        str(path.relative_to(PACKAGE))
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.parts[len(PACKAGE.parts)] not in ("dice", "_engine")
        and "pinastats.dice._kernels" in _imports(path)
    ]
    assert outside == []
