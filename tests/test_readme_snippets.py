"""The Python snippets of README.md run as written (each ```python block, top to bottom)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```", README.read_text(encoding="utf-8"), re.S | re.M)


def test_the_readme_has_python_snippets() -> None:
    assert BLOCKS, "README.md has no ```python block"


@pytest.mark.slow
@pytest.mark.parametrize("number", range(len(BLOCKS)))
def test_a_readme_snippet_runs(
    number: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a snippet that writes files writes them here
    code = compile(BLOCKS[number], f"README.md python block {number + 1}", "exec")
    exec(code, {"__name__": "readme"})  # the project's own documentation
