"""``pinastats cache``: what pinastats keeps in the user's cache folder, and clearing it.

Lists the folder (``$PINASTATS_CACHE``, else the platform's per-user cache
folder), each kept table of a solved board with its size, board and dates, the
cap on the tables' size, and the compiled kernels' folders. ``--clear`` removes
everything kept (``--clear tables``: the tables only; ``--clear kernels``: the
compiled kernels only; ``--clear DIGEST``: one table). Starts without numba.
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pinastats.cli._common import fail, render_table, write_json

WHATS = ("all", "tables", "kernels")
"""What ``--clear`` takes besides the start of a table's digest."""


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the ``cache`` subcommand."""
    parser = subparsers.add_parser(
        "cache",
        help="list or clear the solved tables and compiled kernels kept in the cache folder",
        description=(
            "List what pinastats keeps in the user's cache folder: the solved boards' tables "
            "(with their sizes, boards and dates) and the compiled kernels. The folder is "
            "$PINASTATS_CACHE when set, else the platform's per-user cache folder; the tables "
            "are capped at $PINASTATS_CACHE_SIZE (default 1G), the least recently used "
            "dropped first."
        ),
    )
    parser.add_argument(
        "--clear", nargs="?", const="all", default=None, metavar="WHAT",
        help="remove what is kept: all (the default), tables, kernels, or the table whose "
        "digest starts with WHAT",
    )  # fmt: skip
    parser.add_argument(
        "--folder", default=None, metavar="DIR",
        help="the cache folder to look at (default: $PINASTATS_CACHE, else the user's)",
    )  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print the listing as JSON")
    parser.set_defaults(func=run)


def _size(path: Path) -> int:
    """Bytes of the files under ``path`` (a file: its size)."""
    if path.is_file():
        return path.stat().st_size
    total = 0
    for file in path.rglob("*"):
        with contextlib.suppress(OSError):
            if file.is_file():
                total += file.stat().st_size
    return total


def _mb(size: int) -> str:
    """``size`` bytes in words: KiB, MiB or GiB."""
    for unit, power in (("GiB", 30), ("MiB", 20)):
        if size >= 1 << power:
            return f"{size / (1 << power):,.1f} {unit}"
    return f"{size / 1024:,.1f} KiB"


def _listing(folder: Path) -> dict[str, Any]:
    """What ``folder`` holds, as JSON."""
    from pinastats import _tables
    from pinastats._cache import cache_roots, legacy_roots, source_digest, user_cache_dir

    current = "numba-" + source_digest()
    tables = []
    for kept in _tables.kept_tables(folder / "tables"):
        about = (kept.header or {}).get("about") or {}
        tables.append(
            {
                "digest": kept.digest,
                "bytes": kept.bytes,
                "layout": about.get("layout"),
                "cells": about.get("cells"),
                "tokens": about.get("tokens"),
                "target": about.get("target"),
                "positions": about.get("positions"),
                "solved": (kept.header or {}).get("saved"),
                "used": datetime.fromtimestamp(kept.used, UTC).isoformat(timespec="seconds"),
                "problem": kept.problem,
            }
        )
    roots = [folder]
    if folder == user_cache_dir():  # numba's own NUMBA_CACHE_DIR may hold them instead
        roots += [r for r in cache_roots() if r != folder]
    kernels = [
        {"folder": str(p), "bytes": _size(p), "current": p.name == current}
        for root in roots
        for p in sorted(root.glob("numba-*"))
    ]
    orphans = _tables.orphans(folder / "tables", now=time.time(), age=0.0)
    legacy = [
        {"folder": str(p), "bytes": _size(p)} for r in legacy_roots() for p in r.glob("numba-*")
    ]
    return {
        "folder": str(folder),
        "tables": tables,
        "tables_bytes": sum(t["bytes"] for t in tables),
        "cap_bytes": _tables.size_cap(),
        "temporary_files": len(orphans),
        "kernels": kernels,
        "earlier_versions": legacy,
    }


def _clear(folder: Path, what: str) -> list[str]:
    """Remove ``what`` from ``folder``; the lines that say what went."""
    from pinastats import _tables

    lines: list[str] = []
    if what not in WHATS:
        if not all(c in "0123456789abcdef" for c in what.lower()) or len(what) < 4:
            fail(
                f"--clear takes {', '.join(WHATS)} or the start of a table's digest "
                f"(4 hex digits or more), got {what!r}"
            )
        (kept,) = _tables.remove_tables(folder / "tables", what)
        return [f"removed the table {kept.digest[:12]} ({_mb(kept.bytes)})"]
    if what in ("all", "tables"):
        removed = _tables.remove_tables(folder / "tables")
        freed = sum(k.bytes for k in removed)
        lines.append(f"removed {len(removed)} table(s) ({_mb(freed)})")
    if what in ("all", "kernels"):
        from pinastats._cache import cache_roots, clear_cache, user_cache_dir

        if folder == user_cache_dir() or any(folder == r for r in cache_roots()):
            folders = clear_cache()
        else:
            folders = list(folder.glob("numba-*"))
            for path in folders:
                shutil.rmtree(path, ignore_errors=True)
        lines.append(f"removed {len(folders)} compiled-kernel folder(s): they compile on next use")
    return lines


def run(args: argparse.Namespace) -> int:
    """List the cache folder, or clear it."""
    from pinastats._cache import user_cache_dir

    folder = Path(args.folder).expanduser() if args.folder else user_cache_dir()
    if folder.exists() and not folder.is_dir():
        fail(f"{folder} is a file, not a cache folder")
    if args.clear is not None:
        for line in _clear(folder, args.clear):
            print(line)
        return 0
    listing = _listing(folder)
    if args.json:
        write_json(listing)
        return 0
    print(f"Cache folder: {folder}{'' if folder.exists() else ' (empty: nothing kept yet)'}")
    tables = listing["tables"]
    cap = listing["cap_bytes"]
    print(
        f"Solved tables: {len(tables)}, {_mb(listing['tables_bytes'])} of a cap of {_mb(cap)} "
        "(PINASTATS_CACHE_SIZE; the least recently used go first)"
    )
    if tables:
        rows = [
            [
                t["digest"][:12],
                "?" if t["layout"] is None else f"{t['layout']} ({t['cells']} cells)",
                "" if t["tokens"] is None else str(t["tokens"]),
                "" if t["positions"] is None else f"{t['positions']:,}",
                _mb(t["bytes"]),
                (t["solved"] or "")[:16].replace("T", " "),
                t["used"][:16].replace("T", " "),
            ]
            + ([f"unreadable: {t['problem']}"] if t["problem"] else [])
            for t in tables
        ]
        header = ["digest", "board", "tokens", "boards", "size", "solved (UTC)", "used (UTC)"]
        if any(t["problem"] for t in tables):
            rows = [r + [""] * (len(header) + 1 - len(r)) for r in rows]
            header.append("")
        print(render_table(header, rows, "llrrrll"))
    if listing["temporary_files"]:
        print(f"Temporary files of unfinished writes: {listing['temporary_files']}")
    for k in listing["kernels"]:
        note = " (this version)" if k["current"] else ""
        where = k["folder"] if Path(k["folder"]).parent != folder else Path(k["folder"]).name
        print(f"Compiled kernels: {where}{note}, {_mb(k['bytes'])}")
    if not listing["kernels"]:
        print("Compiled kernels: none kept (they compile on first use)")
    if listing["earlier_versions"]:
        size = _mb(sum(f["bytes"] for f in listing["earlier_versions"]))
        print(
            f"Earlier versions' caches beside the code: {size} "
            "('pinastats cache --clear' removes them)"
        )
    return 0
