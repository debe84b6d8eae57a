"""The notebooks as committed: stripped of outputs, and following the shared conventions.

Conventions (see ``notebooks/README.md``): an introduction in markdown first; a first code
cell that prints the versions and reads ``PINASTATS_NOTEBOOK_SCALE``; conclusions at the
end; only public names of pinastats.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from tests.notebooks.conftest import NOTEBOOK_DIR, NOTEBOOKS
from tests.notebooks.strip import STRIP_COMMAND, problems, read

PRIVATE_IMPORT = re.compile(
    r"^\s*(?:from\s+pinastats[\w.]*\s+import\s+[^#\n]*\b_(?!_)\w+"  # from pinastats.x import _y
    r"|from\s+pinastats[\w.]*\._(?!_)\w+"  # from pinastats.x._y import ...
    r"|import\s+pinastats[\w.]*\._(?!_)\w+)",  # import pinastats.x._y
    re.MULTILINE,
)
PRIVATE_ATTRIBUTE = re.compile(r"\bpinastats(?:\.\w+)*\._(?!_)\w+")  # dunders are public
VERSIONED = ("python", "pinastats", "numpy", "pandas", "numba", "matplotlib")


def ids(paths: list[Path]) -> list[str]:
    return [p.stem for p in paths]


def test_the_notebooks_exist() -> None:
    assert NOTEBOOKS, f"no notebook found in {NOTEBOOK_DIR}"
    assert (NOTEBOOK_DIR / "README.md").is_file()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids(NOTEBOOKS))
def test_notebook_is_stored_stripped(path: Path) -> None:
    found = problems(read(path))
    assert not found, (
        f"{path.name} is not stripped ({'; '.join(found)}). Notebooks are committed without "
        f"outputs, execution counts or extra metadata; strip them with: {STRIP_COMMAND}"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids(NOTEBOOKS))
def test_notebook_is_valid(path: Path) -> None:
    nbformat.validate(read(path))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids(NOTEBOOKS))
def test_notebook_follows_the_conventions(path: Path) -> None:
    nb = read(path)
    cells = nb.cells
    assert cells[0].cell_type == "markdown", "a notebook opens with an introduction in markdown"
    code = [c.source for c in cells if c.cell_type == "code"]
    first = code[0]
    assert "PINASTATS_NOTEBOOK_SCALE" in first, "the first code cell reads the size parameter"
    assert "print" in first
    for name in VERSIONED:
        assert name in first, f"the first code cell prints the version of {name}"
    headings = [c.source for c in cells if c.cell_type == "markdown"]
    assert any(re.search(r"^#+\s*Conclusions?\b", h, re.MULTILINE) for h in headings), (
        "a notebook ends with a 'Conclusions' section"
    )
    for i, source in enumerate(code):
        private = PRIVATE_IMPORT.search(source) or PRIVATE_ATTRIBUTE.search(source)
        assert private is None, f"code cell {i} uses a private name: {private.group(0)!r}"
