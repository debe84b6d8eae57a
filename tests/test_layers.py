"""The package's imports run one way: the layers contract holds and no modules import in a circle.

The layers are the import-linter contract of ``pyproject.toml`` (``lint-imports`` checks
it). The circles are found on the import graph of every ``pinastats`` module (``grimp``,
with the imports inside functions and under ``TYPE_CHECKING``): two modules that import
each other, and more generally every strongly connected component of more than one module.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
Graph = dict[str, set[str]]


def test_layers_contract_holds() -> None:
    lint_imports = Path(sys.executable).with_name("lint-imports")
    assert lint_imports.is_file(), f"{lint_imports} is missing: install the dev extra"
    command = [str(lint_imports), "--no-cache", str(ROOT / "pyproject.toml")]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.fixture(scope="module")
def imports() -> Graph:
    """Each ``pinastats`` module -> the ``pinastats`` modules it imports directly."""
    graph = grimp.build_graph("pinastats", cache_dir=None)
    return {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}


def cycles(imports: Graph) -> list[list[str]]:
    """The strongly connected components of more than one module, each sorted (Tarjan).

    Iterative: a stack of ``(module, its imports not yet visited)`` replaces the recursion.
    A module's ``low`` is the smallest visiting order reachable from it through modules
    still on the component stack; a module whose ``low`` is its own order closes a
    component.
    """
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    for start in sorted(imports):
        if start in order:
            continue
        order[start] = low[start] = len(order)
        stack.append(start)
        on_stack.add(start)
        path = [(start, iter(sorted(imports[start])))]
        while path:
            module, pending = path[-1]
            following = next(pending, None)
            if following is None:
                path.pop()
                if path:
                    parent = path[-1][0]
                    low[parent] = min(low[parent], low[module])
                if low[module] == order[module]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == module:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
            elif following not in order:
                order[following] = low[following] = len(order)
                stack.append(following)
                on_stack.add(following)
                path.append((following, iter(sorted(imports.get(following, ())))))
            elif following in on_stack:
                low[module] = min(low[module], order[following])
    return sorted(found)


def test_no_two_modules_import_each_other(imports: Graph) -> None:
    pairs = sorted(
        (a, b) for a, targets in imports.items() for b in targets if a < b and a in imports[b]
    )
    assert not pairs, "\n".join(f"{a} <-> {b}" for a, b in pairs)


def test_no_import_cycles(imports: Graph) -> None:
    found = cycles(imports)
    assert not found, "\n".join(", ".join(c) for c in found)


def test_cycles_finds_a_circle_and_nothing_else() -> None:
    graph = {"a": {"b"}, "b": {"c", "d"}, "c": {"a"}, "d": {"e"}, "e": {"d"}, "f": {"a"}}
    assert cycles(graph) == [["a", "b", "c"], ["d", "e"]]
    assert cycles({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []
