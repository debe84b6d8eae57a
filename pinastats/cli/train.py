"""``pinastats value-data`` and ``pinastats train``: the learned evaluator's data and training.

``value-data`` plays the games of a round of :mod:`pinastats.value.recipe`
and labels their positions by play-outs, one Parquet file per part (a part
already written is kept). ``train`` fits one network per player count on
those files (PyTorch: the ``[train]`` extra) with progress on stderr, early
stopping on held-out games, and writes the weights file and the learning
curves.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import Any

from pinastats.cli._common import fail, positive_int
from pinastats.errors import PLAYER_COUNTS, players_text


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the ``value-data`` and ``train`` subcommands."""
    data = subparsers.add_parser(
        "value-data",
        help="make the value network's training positions (self-play + play-outs)",
        description=(
            "Play the games of a round of training data and label every kept position with "
            "the share of strategic play-outs each seat wins, one Parquet file per part of "
            "the round (a file already there is kept). Same round, same files."
        ),
    )
    data.add_argument("--players", type=int, choices=PLAYER_COUNTS, required=True)
    data.add_argument("--round", type=int, default=1, help="the round of data (1 or 2)")
    data.add_argument("--out", required=True, help="the folder of the Parquet files")
    data.add_argument("--workers", type=positive_int, default=None, help="threads (default: cores)")
    data.add_argument("--quiet", action="store_true", help="no progress on stderr")
    data.set_defaults(func=run_data)

    train = subparsers.add_parser(
        "train",
        help="train the value networks on value-data's files (needs the [train] extra)",
        description=(
            "Fit one network per player count on the Parquet files of value-data "
            "(positions-<n>p-*.parquet in --data), with early stopping on held-out games; "
            "write the weights file (default: the one pinastats ships) and the learning curves."
        ),
    )
    train.add_argument("--data", required=True, help="the folder of value-data's files")
    train.add_argument("--players", default="2,3,4", help="player counts to train (default 2,3,4)")
    train.add_argument("--out", default=None, help="the weights file (default: the shipped one)")
    train.add_argument("--seed", type=int, default=0, help="seed of the split and the fit")
    train.add_argument("--hidden", default="96,48", help="hidden layer widths (default 96,48)")
    train.add_argument("--figure", default=None, help="write the learning curves here (.png/.pdf)")
    train.add_argument("--patience", type=positive_int, default=8,
                       help="epochs without a better held-out loss before stopping")  # fmt: skip
    train.add_argument("--quiet", action="store_true", help="no progress on stderr")
    train.set_defaults(func=run_train)


def _ints(text: str, what: str) -> list[int]:
    try:
        values = [int(t) for t in text.split(",") if t.strip()]
    except ValueError:
        fail(f"{what} must be whole numbers separated by commas, got {text!r}")
    if not values:
        fail(f"{what}: give at least one number, got {text!r}")
    return values


def run_data(args: argparse.Namespace) -> int:
    """Make the files of a round of training data."""
    from pinastats.value.recipe import make_round

    folder = Path(args.out)
    if folder.exists() and not folder.is_dir():
        fail(f"--out {args.out!r} is a file; give a folder")
    files = make_round(args.players, args.round, folder, workers=args.workers,
                       progress=not args.quiet)  # fmt: skip
    for path in files:
        print(path)
    return 0


def run_train(args: argparse.Namespace) -> int:
    """Train the networks and write the weights file."""
    from pinastats.agents.network import network_path
    from pinastats.value.train import train_files

    players = _ints(args.players, "--players")
    bad = [n for n in players if n not in PLAYER_COUNTS]
    if bad:
        fail(f"--players: player counts are {players_text()}, got {bad[0]}")
    hidden = _ints(args.hidden, "--hidden")
    if any(h < 1 for h in hidden):
        fail(f"--hidden: widths must be at least 1, got {args.hidden!r}")
    folder = Path(args.data)
    if not folder.is_dir():
        fail(f"--data {args.data!r} is not a folder (make one with pinastats value-data)")
    files = {n: sorted(folder.glob(f"positions-{n}p-*.parquet")) for n in players}
    missing = [n for n, f in files.items() if not f]
    if missing:
        fail(f"no positions-{missing[0]}p-*.parquet in {args.data!r} (pinastats value-data "
             f"--players {missing[0]} --out {args.data})")  # fmt: skip
    out = network_path() if args.out is None else Path(args.out)
    command = "pinastats train " + " ".join(shlex.quote(a) for a in sys.argv[2:])
    train_files(files, out, hidden=hidden, seed=args.seed, command=command.strip(),
                figure=args.figure, stream=None if args.quiet else sys.stderr,
                patience=args.patience)  # fmt: skip
    print(f"weights written to {out}")
    return 0
