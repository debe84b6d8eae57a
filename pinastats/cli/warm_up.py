"""``pinastats warm-up``: compile every kernel now, so that later commands start at once.

The engine's kernels compile on first use (from under a minute on two free cores
to several minutes on a busy machine)
and are cached per machine, keyed by the kernel sources and the versions of
Python, numba and NumPy. This command compiles those every command needs
(``--all``: also the ``rollout`` agent's game loop) with progress on stderr,
then prints the time taken and the cache folder.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the ``warm-up`` subcommand."""
    parser = subparsers.add_parser(
        "warm-up",
        help="compile the engine ahead of time (first run only)",
        description=(
            "Compile the engine's kernels now (under a minute on two free cores, longer on a "
            "busy machine; once per machine and version) so that simulate, report, advise, "
            "review and optimal-hold start at once. Already cached kernels load in seconds. "
            "The rollout agent's game loop compiles the first time a rollout agent plays, "
            "or now with --all."
        ),
    )
    parser.add_argument(
        "--quiet", action="store_true", help="no progress on stderr, only the summary line"
    )
    parser.add_argument("--all", action="store_true", help="also the rollout agent's game loop")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Compile (or load) every kernel group and say how long it took and where it is cached."""
    from pinastats._warmup import GROUPS, cold_groups, warm_up

    names = list(GROUPS) if args.all else [g.name for g in GROUPS.values() if g.default]
    cold = cold_groups(names)
    if not args.quiet:
        state = (
            "already cached, loading"
            if not cold
            else f"{len(cold)} of {len(names)} kernel groups to compile"
        )
        print(f"pinastats: warming up the engine ({state})…", file=sys.stderr, flush=True)
    done = warm_up(names, stream=None if args.quiet else sys.stderr)
    where = "nowhere (no writable cache folder)" if done.folder is None else str(done.folder)
    verb = "compiled" if cold else "loaded"
    print(
        f"engine ready: {len(done.groups)} kernel groups {verb} in {done.seconds:.1f} s; "
        f"cache: {where}"
    )
    return 0
