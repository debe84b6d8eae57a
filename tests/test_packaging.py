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
