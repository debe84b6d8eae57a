"""Entry point of the ``pinastats`` console script.

Each subcommand lives in its own module exposing ``register(subparsers)``,
which adds its parser and sets ``func`` (the handler) with ``set_defaults``.
Adding a subcommand is one line in :data:`SUBCOMMANDS`.
"""

from __future__ import annotations

import gc
import importlib
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

# only what Ctrl-C needs, before it is held: everything else is imported in the held block
from pinastats._signals import held

if TYPE_CHECKING:
    from pinastats.cli._common import ArgumentParser

SUBCOMMANDS: tuple[str, ...] = (
    "pinastats.cli.optimal_hold",
    "pinastats.cli.targets",
    "pinastats.cli.advise",
    "pinastats.cli.table",
    "pinastats.cli.solve",
    "pinastats.cli.simulate",
    "pinastats.cli.report",
    "pinastats.cli.review",
    "pinastats.cli.play",
    "pinastats.cli.balance",
    "pinastats.cli.ladder",
    "pinastats.cli.train",
    "pinastats.cli.warm_up",
    "pinastats.cli.cache",
)
"""Modules of the subcommands, in the order ``--help`` lists them."""


def build_parser() -> ArgumentParser:
    """Build the ``pinastats`` parser with every subcommand registered."""
    from pinastats import __version__
    from pinastats.cli._common import PROG, ArgumentParser

    parser = ArgumentParser(
        prog=PROG,
        description="Exact probabilities and optimal holds for the dice game Piña Coladice.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in SUBCOMMANDS:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` (default: the process arguments), run the command, return its status.

    A Ctrl-C while the subcommands are imported is held until they are
    (:func:`pinastats._signals.held`: none is lost in an import's callback), then
    stops the command as any Ctrl-C does: one line, exit status 130.
    """
    try:
        with held():
            from pinastats.cli._common import run_command

            args = build_parser().parse_args(argv)
    except KeyboardInterrupt as exc:
        return _interrupted(exc)
    return run_command(args)


def _interrupted(exc: KeyboardInterrupt) -> int:
    from pinastats.cli._common import interrupted

    return interrupted(exc)


def run() -> NoReturn:
    """The ``pinastats`` console script: :func:`main` on the process arguments, then exit.

    Before exiting it freezes the garbage collector's objects: the interpreter's
    last collection at exit would otherwise walk every object numba's compiler
    left (about 0.3 s of a warm command's 2 s), only to free memory the exit
    frees anyway. Files are closed and ``atexit`` handlers run as before.
    """
    try:
        status = main()
    except KeyboardInterrupt as exc:  # one landing outside any command's own handling
        status = _interrupted(exc)
    sys.stdout.flush()
    gc.freeze()
    sys.exit(status)


if __name__ == "__main__":  # pragma: no cover
    run()
