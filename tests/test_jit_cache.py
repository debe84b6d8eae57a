"""The kernel cache of ``pinastats._jit``: in the user's cache folder, never stale, never beside
the code.

The runs happen in a copy of the package (``tmp/pinastats``) holding three
small throwaway kernel modules in ``_engine``, so each compile takes a second:

* ``probe_steps.py``: a plain module constant ``STEP`` (no kernel),
* ``probe_bonus.py``: ``bonus(x) = x + BONUS`` (inlined) and ``plain(x) = STEP x``,
* ``probe_total.py``: ``total(x) = bonus(x) + plain(x)`` from the other module,

so ``total(x) = x + BONUS + STEP x``.

A read-only install is faked for every user, root too (who may write in a folder
without write permission): the package copy loses its write permissions and an
audit hook refuses, as a read-only file system would, every write, creation,
rename or removal under it (:data:`READ_ONLY`).
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from pinastats._cache import KERNEL_SOURCES, STALE_AFTER, _prune, kernel_sources, source_digest

ROOT = Path(__file__).resolve().parents[1]

PROBE = {
    "probe_steps.py": "STEP = 3\n",
    "probe_bonus.py": """
        from pinastats._engine.probe_steps import STEP
        from pinastats._jit import jit, jit_inline

        BONUS = 10

        @jit_inline
        def bonus(x):
            return x + BONUS

        @jit
        def plain(x):
            return STEP * x
        """,
    "probe_total.py": """
        from pinastats._engine.probe_bonus import bonus, plain
        from pinastats._jit import jit

        @jit
        def total(x):
            return bonus(x) + plain(x)
        """,
}

RUN = """
import json
from pinastats._engine.probe_total import total
value = int(total(5))
stats = total.stats
print(json.dumps({
    "total": value,
    "hits": sum(stats.cache_hits.values()),
    "misses": sum(stats.cache_misses.values()),
    "path": stats.cache_path,
}))
"""


READ_ONLY = """
import os, sys

_PACKAGE = os.path.realpath({package!r})
_WRITES = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_CHANGES = ("os.mkdir", "os.rename", "os.remove", "os.rmdir", "os.chmod", "os.link",
            "os.symlink", "os.truncate", "os.utime", "shutil.rmtree", "shutil.move")


def _inside(path):
    if isinstance(path, int) or path is None:
        return False
    real = os.path.realpath(os.fsdecode(path))
    return real == _PACKAGE or real.startswith(_PACKAGE + os.sep)


def _read_only(event, args):
    if event == "open":
        path, mode, flags = args
        writes = any(c in (mode or "") for c in "wax+") or (flags or 0) & _WRITES
        if writes and _inside(path):
            raise PermissionError(30, "Read-only file system", path)
    elif event in _CHANGES and any(_inside(a) for a in args[:2] if isinstance(a, str | bytes)):
        raise PermissionError(30, "Read-only file system", args[0])


sys.addaudithook(_read_only)
"""
"""Prepended to a script: every write under the package ``{package}`` fails as on a read-only
file system (``EROFS``)."""


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A copy of the package and its data, with the probe kernels, without caches."""
    skip = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "pinastats", tmp_path / "pinastats", ignore=skip)
    shutil.copytree(ROOT / "data", tmp_path / "data", ignore=skip)
    for name, text in PROBE.items():
        (tmp_path / "pinastats" / "_engine" / name).write_text(textwrap.dedent(text))
    return tmp_path


def run(copy: Path, script: str = RUN, **env: str) -> Any:
    """The JSON that ``script`` prints, run by a fresh interpreter importing ``copy``'s package."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "PINASTATS_"))}
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
@pytest.mark.timeout(900)  # compiles from an empty cache, twice
def test_edits_of_other_modules_reach_the_cached_kernel(copy: Path) -> None:
    probe = copy / "pinastats" / "_engine"
    first = run(copy)
    assert first["total"] == 5 + 10 + 3 * 5
    assert (first["hits"], first["misses"]) == (0, 1)
    folder = Path(first["path"]).parent
    assert folder.parent == copy / "user-cache" / "pinastats"  # $XDG_CACHE_HOME/pinastats
    assert folder.name == f"numba-{source_digest(copy / 'pinastats')}"

    # the inlined kernel of another module changes: total's cached code must not be used
    edit(probe / "probe_bonus.py", "BONUS = 10", "BONUS = 20")
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
    edit(probe / "probe_steps.py", "STEP = 3", "STEP = 4")
    fourth = run(copy)
    assert fourth["total"] == 5 + 20 + 4 * 5
    assert (fourth["hits"], fourth["misses"]) == (0, 1)

    # clear_cache removes the digest folders: one per version of the sources above
    cleared = run(copy, "import pinastats._cache as c; print(len(c.clear_cache()))")
    assert cleared == 3
    assert not list((copy / "user-cache" / "pinastats").glob("numba-*"))


def test_numba_cache_dir_is_respected(copy: Path) -> None:
    user_dir = copy / "numba-cache-dir"
    script = (
        "import json, pinastats._engine.probe_total as t; "
        "print(json.dumps(t.total.stats.cache_path))"
    )
    path = run(copy, script, NUMBA_CACHE_DIR=str(user_dir))
    digest = source_digest(copy / "pinastats")
    assert Path(path).parent == user_dir / "pinastats" / f"numba-{digest}"


def test_pinastats_cache_names_the_folder(copy: Path) -> None:
    script = (
        "import json, pinastats._engine.probe_total as t; "
        "print(json.dumps(t.total.stats.cache_path))"
    )
    mine = copy / "my-cache"
    path = run(copy, script, PINASTATS_CACHE=str(mine))
    assert Path(path).parent == mine / f"numba-{source_digest(copy / 'pinastats')}"
    numba_dir = copy / "numba"  # numba's own setting, when given, has the kernels
    path = run(copy, script, PINASTATS_CACHE=str(mine), NUMBA_CACHE_DIR=str(numba_dir))
    assert (
        Path(path).parent == numba_dir / "pinastats" / f"numba-{source_digest(copy / 'pinastats')}"
    )


def _read_only(package: Path) -> None:
    """Take the write permissions off ``package`` and everything in it."""
    for path in [package, *package.rglob("*")]:
        path.chmod(path.stat().st_mode & ~0o222)


def _writable(package: Path) -> None:
    for path in [package, *package.rglob("*")]:
        path.chmod(path.stat().st_mode | 0o200)


def test_a_read_only_package_compiles_once_for_every_process(copy: Path) -> None:
    package = copy / "pinastats"
    before = snapshot(package)
    _read_only(package)
    try:
        script = READ_ONLY.format(package=str(package)) + RUN
        probe = "open(os.path.join(_PACKAGE, 'probe'), 'w')"
        refused = run(copy, READ_ONLY.format(package=str(package)) +
                      f"import json\ntry:\n    {probe}\nexcept OSError as e:\n"
                      "    print(json.dumps(e.errno))")  # fmt: skip
        assert refused == 30  # the fake is in force
        first = run(copy, script)
        second = run(copy, script)
    finally:
        _writable(package)
    assert first["total"] == second["total"] == 5 + 10 + 3 * 5
    assert (first["hits"], first["misses"]) == (0, 1)
    assert (second["hits"], second["misses"]) == (1, 0)  # the second process compiles nothing
    assert Path(second["path"]).is_relative_to(copy / "user-cache" / "pinastats")
    assert snapshot(package) == before  # nothing written beside the code


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

    def changed_by(name: str, text: str = "# edited\n") -> bool:
        """Whether appending ``text`` to file ``name`` (new if absent) changes the digest."""
        nonlocal digest
        with (package / name).open("a") as file:
            file.write(text)
        new = source_digest(package)
        changed, digest = new != digest, new
        return changed

    for name in ("_engine/rules.py", "_engine/probe_steps.py", "dice/_kernels.py", "_jit.py"):
        assert changed_by(name), name
    assert changed_by("dice/hands.py")  # the kernels' constants
    assert changed_by("_engine/new.py", "X = 1\n")  # a new engine module
    for name in ("cli/main.py", "dice/solver.py", "dice/ranking.py", "game/game.py", "_warmup.py"):
        assert not changed_by(name), name


def _imports(path: Path) -> list[tuple[str, list[str]]]:
    """The pinastats modules that module ``path`` imports from, each with the names it takes."""
    found: list[tuple[str, list[str]]] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}: a relative import"
            found.append((node.module or "", [alias.name for alias in node.names]))
        elif isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names]
    return [(module, names) for module, names in found if module.split(".")[0] == "pinastats"]


def _defined(path: Path) -> set[str]:
    """The names that module ``path`` assigns or defines at its top level (not imported)."""
    names: set[str] = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return names


def test_the_kernel_sources_hold_every_kernel_module_and_what_it_imports() -> None:
    """What a kernel module (one using a decorator of ``_jit``) imports from pinastats is in
    KERNEL_SOURCES, and defined there."""
    sources = set(kernel_sources())
    decorators = {"jit", "jit_flat", "jit_inline"}
    kernel_modules = [
        path
        for path in sorted((ROOT / "pinastats").rglob("*.py"))
        if any(m == "pinastats._jit" and decorators & set(n) for m, n in _imports(path))
    ]
    assert len(kernel_modules) > 10
    for path in kernel_modules:
        assert path in sources, f"{path.name} compiles kernels: name it in {KERNEL_SOURCES}"
        for module, names in _imports(path):
            found = ROOT / module.replace(".", "/")
            found = found / "__init__.py" if found.is_dir() else found.with_suffix(".py")
            assert found in sources, f"{path.name} imports {module}: name it in {KERNEL_SOURCES}"
            elsewhere = set(names) - _defined(found)
            assert not elsewhere, f"{path.name} takes {elsewhere} from {module}, defined elsewhere"


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


def test_prune_leaves_folders_used_lately(tmp_path: Path) -> None:
    """Two installs sharing the cache folder do not remove each other's kernels."""
    now = 10 * STALE_AFTER
    ages = {
        "numba-a": 1,
        "numba-b": 2,
        "numba-c": 3,
        "numba-lately": 4,
        "numba-old": STALE_AFTER + 5,
    }
    for name, age in ages.items():
        (tmp_path / name).mkdir()
        os.utime(tmp_path / name, (now - age, now - age))
    _prune(tmp_path, tmp_path / "numba-a", keep=2, now=now)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(set(ages) - {"numba-old"})


def _commands(position: str) -> list[list[str]]:
    """Command lines a read-only install runs, cheap ones of every kind (after ``warm-up``,
    which compiles what every command needs)."""
    return [
        ["warm-up", "--quiet"],
        ["targets", "--format", "json"],
        ["optimal-hold", "--target", "full house"],
        ["solve", "--position", position, "--json"],
        ["advise", "--position", position, "--dice", "1", "2", "2", "4", "5", "--rolls-left", "1",
         "--objective", "win", "--format", "json"],
        ["simulate", "--agents", "random,ev", "--games", "4", "--seed", "1", "--workers", "1",
         "--no-progress"],
        ["cache", "--json"],
    ]  # fmt: skip


@pytest.mark.slow
def test_a_read_only_install_runs_every_command_and_compiles_once(copy: Path) -> None:
    """The package folder read-only: each command works, in its own process; a second round of
    processes compiles nothing and solves nothing; nothing is written beside the code."""
    from pinastats.game import Game, GameConfig, Rules
    from pinastats.game.notation import notation_of

    package, cache = copy / "pinastats", copy / "user-cache" / "pinastats"
    position = notation_of(Game.new(config=GameConfig(rules=Rules(tokens=3)), seed=4))
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "PINASTATS_"))}
    environ |= {"PYTHONPATH": str(copy), "XDG_CACHE_HOME": str(copy / "user-cache"),
                "PYTHONDONTWRITEBYTECODE": "1", "OPENBLAS_NUM_THREADS": "1"}  # fmt: skip
    script = READ_ONLY.format(package=str(package)) + (
        "from pinastats.cli.main import main\nsys.exit(main(sys.argv[1:]))\n"
    )
    before = snapshot(package)
    _read_only(package)
    rounds: list[list[subprocess.CompletedProcess[str]]] = []
    kernels: list[dict[str, tuple[int, int]]] = []
    try:
        for _ in range(2):
            ran = [
                subprocess.run(
                    [sys.executable, "-c", script, *argv],
                    cwd=copy,
                    env=environ,
                    capture_output=True,
                    text=True,
                    check=False,
                    timeout=900,
                )
                for argv in _commands(position)
            ]
            rounds.append(ran)
            kernels.append(snapshot(cache))
    finally:
        _writable(package)
    for done in rounds[0] + rounds[1]:
        assert done.returncode == 0, f"{done.args[3:]}: {done.stderr}"
    for done in rounds[1]:
        assert "compiling" not in done.stderr, f"{done.args[3:]}: {done.stderr}"
    compiled = [{k: v for k, v in s.items() if not k.startswith("tables/")} for s in kernels]
    assert compiled[1] == compiled[0]  # the second round compiled nothing
    tables = [{k: v[0] for k, v in s.items() if k.startswith("tables/")} for s in kernels]
    assert len(tables[1]) == 1
    assert tables[1] == tables[0]  # nor solved again (reading marks a table used: its time)
    assert json.loads(rounds[0][3].stdout)["solved_now"] is True
    assert json.loads(rounds[1][3].stdout)["solved_now"] is False
    assert "compiled" in rounds[0][0].stdout  # the first round compiled the engine
    assert "loaded" in rounds[1][0].stdout
    assert snapshot(package) == before
