"""The README is a newcomer's page and its Python snippets run as written.

Each ```python block of README.md and of docs/command-line.md (the commands in detail) runs,
top to bottom; the README stays short, opens with the two commands CI runs, and leaves every
table and measured figure to docs/ (docs/results.md).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PAGES = (README, ROOT / "docs" / "command-line.md")
BLOCKS = [
    (page.relative_to(ROOT).as_posix(), k, block)
    for page in PAGES
    for k, block in enumerate(
        re.findall(r"^```python\n(.*?)^```", page.read_text(encoding="utf-8"), re.S | re.M)
    )
]


def test_the_readme_has_python_snippets() -> None:
    assert any(name == "README.md" for name, _, _ in BLOCKS), "README.md has no ```python block"


def test_the_readme_is_short_and_opens_with_the_two_commands() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    first, second = re.findall(r"^```bash\n(.*?)^```", text, re.S | re.M)[:2]
    assert first.strip().endswith(
        'pip install -e . && pinastats optimal-hold --target "full house"'
    )
    assert second.strip().endswith('pip install -e ".[dev]" && python -m pytest')
    assert text.index(first) < text.index("## ")  # before any section
    assert not re.search(r"^\|[-:| ]+\|$", text, re.M), "a table: it belongs in docs/"
    assert "docs/results.md" in text


@pytest.mark.slow
@pytest.mark.parametrize("number", range(len(BLOCKS)), ids=[f"{n}-{k + 1}" for n, k, _ in BLOCKS])
def test_a_readme_snippet_runs(
    number: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a snippet that writes files writes them here
    name, k, block = BLOCKS[number]
    code = compile(block, f"{name} python block {k + 1}", "exec")
    exec(code, {"__name__": "readme"})  # the project's own documentation
