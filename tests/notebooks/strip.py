"""Bring notebooks to the form they are stored in: no outputs, no execution counts.

The notebooks under ``notebooks/`` are committed *stripped*: every code cell has no
outputs and ``execution_count`` null, cells carry no metadata, and the notebook's
metadata is only the kernel (``python3``) and the language name. Run

    python tests/notebooks/strip.py notebooks/*.ipynb

to strip notebooks in place (it rewrites only those that change), or add ``--check``
to list the problems without writing.
"""

from __future__ import annotations

import argparse
import copy
import sys
from pathlib import Path
from typing import Any

import nbformat

KERNELSPEC = {"display_name": "Python 3", "language": "python", "name": "python3"}
LANGUAGE_INFO = {"name": "python"}
STRIP_COMMAND = "python tests/notebooks/strip.py notebooks/*.ipynb"


def read(path: Path) -> Any:
    """Read a notebook (nbformat 4)."""
    return nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]


def write(nb: Any, path: Path) -> None:
    """Write a notebook."""
    nbformat.write(nb, path)  # type: ignore[no-untyped-call]


def node(**fields: Any) -> Any:
    """A notebook mapping (attribute access like the rest of a notebook)."""
    return nbformat.NotebookNode(**fields)  # type: ignore[no-untyped-call]


def problems(nb: Any) -> list[str]:
    """What keeps a notebook from being stripped (empty if it is).

    >>> nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 + 1")])
    >>> nb.cells[0].execution_count = 3
    >>> problems(nb)
    ['cell 0: execution_count is 3', 'notebook metadata: kernelspec is None, not python3']
    >>> problems(stripped(nb))
    []
    """
    found = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            if cell.get("outputs"):
                found.append(f"cell {i}: {len(cell.outputs)} output(s)")
            if cell.get("execution_count") is not None:
                found.append(f"cell {i}: execution_count is {cell.execution_count}")
        if cell.get("metadata"):
            found.append(f"cell {i}: metadata {sorted(cell.metadata)}")
        if cell.get("attachments"):
            found.append(f"cell {i}: attachments")
    meta = nb.metadata
    extra = sorted(set(meta) - {"kernelspec", "language_info"})
    if extra:
        found.append(f"notebook metadata: extra keys {extra}")
    kernel = meta.get("kernelspec", {}).get("name")
    if kernel != "python3":
        found.append(f"notebook metadata: kernelspec is {kernel!r}, not python3")
    if dict(meta.get("language_info", LANGUAGE_INFO)) != LANGUAGE_INFO:
        found.append("notebook metadata: language_info has more than the language name")
    return found


def stripped(nb: Any) -> Any:
    """A copy of the notebook in its stored form (outputs, counts and metadata removed)."""
    nb = copy.deepcopy(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
        cell.metadata = node()
        cell.pop("attachments", None)
    nb.metadata = node(kernelspec=node(**KERNELSPEC), language_info=node(**LANGUAGE_INFO))
    return nb


def main(argv: list[str] | None = None) -> int:
    """Strip the notebooks named on the command line (or, with --check, report them)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="+", type=Path)
    parser.add_argument("--check", action="store_true", help="report, do not write")
    args = parser.parse_args(argv)
    status = 0
    for path in args.notebooks:
        nb = read(path)
        found = problems(nb)
        if not found:
            continue
        if args.check:
            status = 1
            print(f"{path}: " + "; ".join(found))
        else:
            write(stripped(nb), path)
            print(f"stripped {path}")
    return status


if __name__ == "__main__":
    sys.exit(main())
