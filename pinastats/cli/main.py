"""Entry point of the ``pinastats`` console script.

Each subcommand lives in its own module exposing ``register(subparsers)``,
which adds its parser and sets ``func`` (the handler) with ``set_defaults``.
Adding a subcommand is one line in :data:`SUBCOMMANDS`.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence

from pinastats import __version__
from pinastats.cli._common import PROG, ArgumentParser, run_command

SUBCOMMANDS: tuple[str, ...] = (
    "pinastats.cli.optimal_hold",
    "pinastats.cli.targets",
    "pinastats.cli.advise",
    "pinastats.cli.simulate",
    "pinastats.cli.report",
    "pinastats.cli.review",
    "pinastats.cli.balance",
    "pinastats.cli.warm_up",
)
"""Modules of the subcommands, in the order ``--help`` lists them."""


def build_parser() -> ArgumentParser:
    """Build the ``pinastats`` parser with every subcommand registered."""
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
    """Parse ``argv`` (default: the process arguments), run the command, return its status."""
    args = build_parser().parse_args(argv)
    return run_command(args)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
