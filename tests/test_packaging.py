"""A plain (not editable) install carries every package and the shipped data files."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _setuptools() -> dict[str, object]:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        table: dict[str, object] = tomllib.load(handle)["tool"]["setuptools"]
    return table


def test_every_package_is_listed() -> None:
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "pinastats").rglob("__init__.py")
        if "__pycache__" not in init.parts
    }
    listed = set(_setuptools()["packages"])  # type: ignore[call-overload]
    assert found - listed == set(), "packages a plain install would leave out"
    assert listed - found == {"pinastats.data"}  # data/, installed under that name


def test_every_shipped_data_file_is_installed() -> None:
    import fnmatch

    patterns = _setuptools()["package-data"]["pinastats.data"]  # type: ignore[index]
    data = ROOT / "data"
    for path in data.rglob("*"):
        if path.is_file() and path.name != "__init__.py" and "__pycache__" not in path.parts:
            name = path.relative_to(data).as_posix()
            assert any(fnmatch.fnmatch(name, p) for p in patterns), name


def _data_entries() -> list[str]:
    return sorted(
        p.name for p in (ROOT / "data").iterdir() if p.name not in ("__init__.py", "__pycache__")
    )


def test_the_installed_data_holds_only_what_the_package_reads() -> None:
    """Each file of data/ is named in the package's code (studies live in studies/)."""
    code = "\n".join(
        p.read_text(encoding="utf-8")
        for p in (ROOT / "pinastats").rglob("*.py")
        if "__pycache__" not in p.parts
    )
    unread = [name for name in _data_entries() if name != "README.md" and f'"{name}"' not in code]
    assert unread == [], "data the package never reads: move it to studies/"


def test_the_data_readme_lists_every_entry() -> None:
    text = (ROOT / "data" / "README.md").read_text(encoding="utf-8")
    table = text.split("| entry | what | provenance | read by |", 1)[1].split("\n\n", 1)[0]
    for name in _data_entries():
        shown = f"`{name}/" if (ROOT / "data" / name).is_dir() else f"`{name}`"
        assert shown in table, f"data/README.md does not list {name}"
    studies = (ROOT / "studies" / "README.md").read_text(encoding="utf-8")
    for path in (ROOT / "studies").iterdir():
        if path.name != "README.md":
            assert f"`{path.name}" in studies, f"studies/README.md does not list {path.name}"
