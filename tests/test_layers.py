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


def _layer_of(module: str, layers: list[list[str]]) -> int:
    """The index of ``module``'s layer (0 the highest), by its first name under ``pinastats``."""
    first = module.split(".")[1] if module.count(".") else ""
    if first == "data":  # the installed data files: read by every layer, import nothing
        return len(layers)
    for k, names in enumerate(layers):
        if first in names:
            return k
    raise AssertionError(f"{module} has no layer in the contract")


def test_no_module_names_a_higher_layer_to_import_at_run_time() -> None:
    """Imports by name (``importlib.import_module("pinastats.x")``, ``"pinastats.x:factory"``
    targets) escape the import graph: none names a module of a higher layer."""
    import ast
    import re
    import tomllib

    contract = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    spec = contract["tool"]["importlinter"]["contracts"][0]["layers"]
    layers = [[n.strip() for n in layer.split("|")] for layer in spec]
    named = r"pinastats(\.[a-z_][a-z0-9_]*)+(:[a-z_][a-z0-9_]*)?"
    upward = []
    for path in sorted((ROOT / "pinastats").rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        if module.count(".") == 0 or module.split(".")[1] in ("cli",):
            continue  # the top layer names its subcommands: nothing is above it
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and re.fullmatch(named, node.value)
            ):
                target = node.value.partition(":")[0]
                if _layer_of(target, layers) < _layer_of(module, layers):
                    upward.append(f"{module} names {node.value}")
    assert upward == []


def test_the_agents_of_the_entry_points_are_found_by_name() -> None:
    """pinastats' own Python agents come through the entry-point group, as a user's would."""
    from pinastats.agents.builtin import AGENT_GROUP, agent_names, python_agents

    found = python_agents()
    assert {"coach", "perfect"} <= set(found)
    assert all(ep.group == AGENT_GROUP for ep in found.values())
    assert {"coach", "perfect"} <= set(agent_names())
