"""Every notebook runs top to bottom without an error, at a small size.

Each notebook is copied to a temporary folder and executed there by a ``python3`` kernel
(ipykernel, from the same environment as the tests) with ``PINASTATS_NOTEBOOK_SCALE``
small, so the whole set takes a minute or two; the copy in the repository is never written.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from nbclient import NotebookClient

from tests.notebooks.conftest import NOTEBOOKS, SMALL_SCALE
from tests.notebooks.strip import read

CELL_TIMEOUT = 600
"""Seconds one cell may take (the first numba compilation on a cold cache included)."""


@pytest.mark.slow
@pytest.mark.timeout(1200)  # a notebook of many cells, each allowed CELL_TIMEOUT
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PINASTATS_NOTEBOOK_SCALE", SMALL_SCALE)
    copy = tmp_path / path.name
    shutil.copyfile(path, copy)
    nb = read(copy)
    client = NotebookClient(
        nb,
        timeout=CELL_TIMEOUT,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute()  # raises CellExecutionError, with the cell and traceback, on an error

    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.execution_count is not None for c in code), "every code cell ran"
    warnings = [
        (i, out.text)
        for i, cell in enumerate(code)
        for out in cell.outputs
        if out.output_type == "stream" and out.name == "stderr" and "Warning" in out.text
    ]
    assert not warnings, f"{path.name} printed warnings: {warnings}"
    first_output = "".join(o.get("text", "") for o in code[0].outputs)
    assert "pinastats" in first_output, "the first code cell prints the versions"
