"""The kernel cache of ``pinastats._jit`` never serves code compiled from other sources.

The runs happen in a copy of the package (``tmp/pinastats``) holding a small
throwaway kernel subpackage ``probe``, so each compile takes a second:

* ``probe/steps.py``: a plain module constant ``STEP`` (no kernel),
* ``probe/bonus.py``: ``bonus(x) = x + BONUS`` (inlined) and ``plain(x) = STEP x``,
* ``probe/total.py``: ``total(x) = bonus(x) + plain(x)`` from the other module,

so ``total(x) = x + BONUS + STEP x``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from pinastats._jit import _prune, kernel_sources, source_digest

ROOT = Path(__file__).resolve().parents[1]

PROBE = {
    "__init__.py": "",
    "steps.py": "STEP = 3\n",
    "bonus.py": """
        from pinastats._jit import jit, jit_inline
        from pinastats.probe.steps import STEP

        BONUS = 10

        @jit_inline
        def bonus(x):
            return x + BONUS

        @jit
        def plain(x):
            return STEP * x
        """,
    "total.py": """
        from pinastats._jit import jit
        from pinastats.probe.bonus import bonus, plain

        @jit
        def total(x):
            return bonus(x) + plain(x)
        """,
}

RUN = """
import json
from pinastats.probe.total import total
value = int(total(5))
stats = total.stats
print(json.dumps({
    "total": value,
    "hits": sum(stats.cache_hits.values()),
    "misses": sum(stats.cache_misses.values()),
    "path": stats.cache_path,
}))
"""


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A copy of the package and its data, with the probe kernels, without caches."""
    skip = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "pinastats", tmp_path / "pinastats", ignore=skip)
    shutil.copytree(ROOT / "data", tmp_path / "data", ignore=skip)
    probe = tmp_path / "pinastats" / "probe"
    probe.mkdir()
    for name, text in PROBE.items():
        (probe / name).write_text(textwrap.dedent(text))
    return tmp_path


def run(copy: Path, script: str = RUN, **env: str) -> Any:
    """The JSON that ``script`` prints, run by a fresh interpreter importing ``copy``'s package."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    environ |= {"PYTHONPATH": str(copy), "XDG_CACHE_HOME": str(copy / "user-cache"), **env}
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=copy,
        env=environ,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file below ``folder`` with its size and modification time."""
    return {
        str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
        for p in folder.rglob("*")
        if p.is_file()
    }


@pytest.mark.slow
def test_edits_of_other_modules_reach_the_cached_kernel(copy: Path) -> None:
    probe = copy / "pinastats" / "probe"
    first = run(copy)
    assert first["total"] == 5 + 10 + 3 * 5
    assert (first["hits"], first["misses"]) == (0, 1)
    folder = Path(first["path"]).parent
    assert folder.parent == copy / "pinastats" / "__pycache__"
    assert folder.name == f"numba-{source_digest(copy / 'pinastats')}"

    # the inlined kernel of another module changes: total's cached code must not be used
    edit(probe / "bonus.py", "BONUS = 10", "BONUS = 20")
    second = run(copy)
    assert second["total"] == 5 + 20 + 3 * 5
    assert (second["hits"], second["misses"]) == (0, 1)
    assert Path(second["path"]).parent != folder

    # no edit: loaded from the cache, nothing written
    before = snapshot(Path(second["path"]).parent)
    third = run(copy)
    assert third["total"] == second["total"]
    assert (third["hits"], third["misses"]) == (1, 0)
    assert snapshot(Path(third["path"]).parent) == before

    # a module constant that a kernel module imports (not itself a kernel module)
    edit(probe / "steps.py", "STEP = 3", "STEP = 4")
    fourth = run(copy)
    assert fourth["total"] == 5 + 20 + 4 * 5
    assert (fourth["hits"], fourth["misses"]) == (0, 1)

    # clear_cache removes the digest folders and numba's own per-file cache files
    legacy = copy / "pinastats" / "game" / "__pycache__" / "_kernels._deal-1.py311.nbi"
    legacy.parent.mkdir(exist_ok=True)
    legacy.write_bytes(b"")
    run(copy, "import json, pinastats._jit as j; print(json.dumps(len(j.clear_cache())))")
    assert not list((copy / "pinastats" / "__pycache__").glob("numba-*"))
    assert not legacy.exists()


def test_numba_cache_dir_is_respected(copy: Path) -> None:
    user_dir = copy / "numba-cache-dir"
    script = "import json, pinastats.probe.total as t; print(json.dumps(t.total.stats.cache_path))"
    path = run(copy, script, NUMBA_CACHE_DIR=str(user_dir))
    digest = source_digest(copy / "pinastats")
    assert Path(path) == user_dir / "pinastats" / f"numba-{digest}" / "probe"


def test_nowhere_to_write_compiles_without_cache(copy: Path) -> None:
    (copy / "pinastats" / "__pycache__").write_text("a file, not a folder")
    (copy / "user-cache").write_text("a file, not a folder")
    result = run(copy)
    assert result["total"] == 5 + 10 + 3 * 5
    assert result["path"] is None  # numba's NullCache: nothing read, nothing written


def test_digest_follows_the_kernel_sources_only(copy: Path) -> None:
    package = copy / "pinastats"
    digest = source_digest(package)
    assert digest == source_digest(package)

    def changed_by(path: Path, text: str) -> bool:
        """Whether appending ``text`` to ``path`` (a new file if absent) changes the digest."""
        nonlocal digest
        with path.open("a") as file:
            file.write(text)
        new = source_digest(package)
        changed, digest = new != digest, new
        return changed

    assert changed_by(package / "game" / "_kernels.py", "# edited\n")
    assert changed_by(package / "probe" / "bonus.py", "# edited\n")
    assert changed_by(package / "probe" / "steps.py", "# edited\n")  # a kernel's constants
    assert changed_by(package / "_jit.py", "# edited\n")
    assert not changed_by(package / "cli" / "main.py", "# edited\n")
    assert changed_by(package / "probe" / "new.py", "from .._jit import jit\n")  # a new kernel
    assert not changed_by(package / "probe" / "other.py", "X = 1\n")  # a new plain module


def test_kernel_sources_of_the_package(copy: Path) -> None:
    package = copy / "pinastats"
    found = {p.relative_to(package).as_posix() for p in kernel_sources(package)}
    kernel_modules = {
        p.relative_to(package).as_posix()
        for p in package.rglob("*.py")
        if "from pinastats._jit import" in p.read_text()
    }
    assert {"game/_kernels.py", "probe/bonus.py", "probe/total.py"} <= kernel_modules
    assert found >= kernel_modules | {"_jit.py", "probe/steps.py"}
    assert "probe/__init__.py" not in found  # imported by no kernel module
    assert not any(name.startswith(("cli/", "report/")) for name in found)


def test_prune_keeps_the_newest_folders(tmp_path: Path) -> None:
    folders = [tmp_path / f"numba-{i}" for i in range(6)]
    for age, folder in enumerate(folders):
        folder.mkdir()
        os.utime(folder, (1_000_000 - age, 1_000_000 - age))  # numba-0 newest
    (tmp_path / "unrelated").mkdir()
    current = folders[-1]  # the oldest on disk, but in use
    _prune(tmp_path, current, keep=3)
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == ["numba-0", "numba-1", "numba-5", "unrelated"]
