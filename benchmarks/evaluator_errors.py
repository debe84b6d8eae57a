"""Every evaluator against the exact solution, on the choices of solved two-player boards.

    python benchmarks/evaluator_errors.py --boards 76 77 --per-board 20 --out /tmp/errors.json

For ``--per-board`` turn starts drawn (``--seed``) from each solved board's labelled
positions (``studies/perfect/labels``: games between agents from ``random`` to
``perfect``), every way the mover's turn can end is valued exactly (the board is
solved once, in memory, unless its table is kept) and by each evaluator of
:data:`pinastats.evaluation.EVALUATORS` but ``exact`` (play-outs by ``strategic``
and by ``value``, ``--playouts`` each). Per evaluator: ``chance`` (the mean
absolute error of a chance over the undecided ways to end), ``difference`` (the mean
over positions of the mean over the other ways ``j`` of
``|(E_j - E_b) - (W_j - W_b)|``, ``b`` the exact best: what choosing depends on),
``agree`` (the share of positions where its best way is exactly best) and ``loss``
(the exact chance its choice gives away, thousandths of a win), with the time it
took and the load average. These are the errors ``docs/evaluation.md`` shows.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

import numpy as np

from pinastats.coach.outcomes import outcome_positions
from pinastats.evaluation import Evaluator, exact_values, make_evaluator
from pinastats.solve import remember, solve
from pinastats.value.exact import board_of, turn_starts

LABELS = Path(__file__).resolve().parents[1] / "studies" / "perfect" / "labels"


def _evaluators(playouts: int) -> list[Evaluator]:
    return [
        make_evaluator("network"),
        make_evaluator("playouts", policy="strategic", playouts=playouts),
        make_evaluator("playouts", policy="value", playouts=playouts),
    ]


def measure(boards: list[int], per_board: int, playouts: int, seed: int) -> list[dict[str, Any]]:
    """The rows of the table (module docstring)."""
    rows = turn_starts(None, LABELS, set(boards))
    pick = np.random.default_rng(seed)
    evaluators = _evaluators(playouts)
    figures: dict[str, dict[str, list[float]]] = {
        e.label: {"chance": [], "difference": [], "loss": [], "seconds": []} for e in evaluators
    }
    for board in sorted({board_of(number) for *_, number in rows}):
        games = [game for game, _, _, number in rows if board_of(number) == board]
        take = sorted(pick.permutation(len(games))[: min(per_board, len(games))])
        remember(solve(games[0]))  # kept: a second run reads the table back
        for k in take:
            outcomes = outcome_positions(games[int(k)])
            exact = exact_values(outcomes)
            undecided = outcomes.undecided
            best = int(np.argmax(exact))
            others = np.arange(len(exact)) != best
            for e in evaluators:
                start = time.perf_counter()
                w = e.values(outcomes).w
                f = figures[e.label]
                f["seconds"].append(time.perf_counter() - start)
                if undecided.size:
                    f["chance"].append(float(np.abs(w[undecided] - exact[undecided]).mean()))
                f["loss"].append(float(exact[best] - exact[int(np.argmax(w))]))
                if others.any():
                    gap = (w[others] - w[best]) - (exact[others] - exact[best])
                    f["difference"].append(float(np.abs(gap).mean()))
    return [
        {"evaluator": label, "positions": len(f["loss"]),
         "chance": float(np.mean(f["chance"])), "difference": float(np.mean(f["difference"])),
         "agree": float(np.mean(np.array(f["loss"]) <= 1e-9)),
         "loss": 1000 * float(np.mean(f["loss"])),
         "seconds_per_decision": float(np.median(f["seconds"]))}
        for label, f in figures.items()
    ]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, nargs="+", default=[76, 77])
    parser.add_argument("--per-board", type=int, default=20)
    parser.add_argument("--playouts", type=int, default=32)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    rows = measure(args.boards, args.per_board, args.playouts, args.seed)
    for r in rows:
        print(f"{r['evaluator']:<32} chance {r['chance']:.3f}  difference {r['difference']:.3f}  "
              f"agree {r['agree']:.0%}  loss {r['loss']:.1f} milli-wins  "
              f"{1000 * r['seconds_per_decision']:.0f} ms a decision")  # fmt: skip
    out = {"command": "python benchmarks/evaluator_errors.py " + " ".join(
               f"--{k.replace('_', '-')} {' '.join(map(str, v)) if isinstance(v, list) else v}"
               for k, v in vars(args).items() if k != "out"),
           "load_start": round(load, 2), "load_end": round(os.getloadavg()[0], 2),
           "rows": rows}  # fmt: skip
    if args.out:
        args.out.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
