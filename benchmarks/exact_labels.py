"""The learned evaluator against perfect play: today's network, and one taught by exact labels.

    python benchmarks/exact_labels.py --log data/perfect/boards.jsonl --test 16,17,18,19 \
        --out data/exact-labels.json

Reads the graded games of a yardstick survey (``benchmarks/perfect_yardstick.py``:
every turn start of every agent's games on solved boards, with the mover's exact
chance; :func:`pinastats.value.exact.exact_positions`). Measures the shipped
network on the ``--test`` boards (never used to train it: they are dealt from the
survey's seed), then fits a network of the same shape to the exact labels of the
other boards (``pinastats train``'s :func:`~pinastats.value.train.train_files`,
its held-out games chosen among those boards) and measures it on the same test
boards: mean absolute error, bias, RMSE and calibration error against the exact
chances. The new weights go to ``--net`` (not installed); the figures, with the
command, seed and data digests, to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from pinastats.solve.survey import read_survey
from pinastats.value.data import write_positions
from pinastats.value.exact import exact_accuracy, exact_positions
from pinastats.value.train import train_files


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--log", required=True, type=Path, help="a yardstick survey's log")
    parser.add_argument("--test", default="16,17,18,19", help="test boards (never trained on)")
    parser.add_argument("--seed", type=int, default=37)
    parser.add_argument("--hidden", default="96,48")
    parser.add_argument("--net", type=Path, default=Path(tempfile.gettempdir()) / "exact-net.npz")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    started = time.perf_counter()
    frame = read_survey(args.log)
    boards = [int(b) for b in frame["board"]]
    test = [int(b) for b in args.test.split(",") if b]
    train = [b for b in boards if b not in test]
    training, held = exact_positions(frame, train), exact_positions(frame, test)
    print(f"{len(training):,} positions of boards {train}; {len(held):,} of test boards {test}")
    shipped = exact_accuracy(held)
    print(f"shipped network on the test boards: {json.dumps(shipped)}  [load "
          f"{os.getloadavg()[0]:.2f}]")  # fmt: skip
    hidden = [int(h) for h in args.hidden.split(",")]
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder) / "positions-2p-exact.parquet"
        training.provenance["digest"] = training.digest()
        write_positions(data, training)
        command = "python benchmarks/exact_labels.py " + " ".join(sys.argv[1:])
        results = train_files({2: [data]}, args.net, hidden=hidden, seed=args.seed,
                              command=command)  # fmt: skip
    taught = exact_accuracy(held, args.net)
    print(f"network taught by exact labels on the test boards: {json.dumps(taught)}  [load "
          f"{os.getloadavg()[0]:.2f}]")  # fmt: skip
    seconds = time.perf_counter() - started
    if args.out:
        report = {
            "command": "python benchmarks/exact_labels.py " + " ".join(sys.argv[1:]),
            "seed": args.seed, "hidden": hidden, "train_boards": train, "test_boards": test,
            "training_positions": len(training), "training_digest": training.digest(),
            "test_positions": len(held), "test_digest": held.digest(),
            "shipped": shipped, "exact_labels": taught,
            "fit": results[2].metrics, "seconds": round(seconds),
            "load": round(os.getloadavg()[0], 2),
        }  # fmt: skip
        args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
