"""Ctrl-C at random moments of ``pinastats simulate``: how many runs hang or exit wrongly.

    python benchmarks/interrupts.py                  # 100 runs, one SIGINT each
    python benchmarks/interrupts.py --runs 20 --signal TERM --parallel 2

Each run plays far more games than it can in the time (``--games``, default
2,000,000 of ``random`` against ``random``), so it is always stopped by the
signal. The moment is drawn uniformly between the start of the process and
``--span`` seconds after the run's first progress line (timed once before), so
the signals land in the interpreter's start, the imports, the engine's
loading, the warm-up and the play. A run then has ``--timeout`` seconds to
exit. Counted: hangs (still running after the timeout: killed), wrong exit
status (anything but 130 for SIGINT, 143 for SIGTERM; a status below 0 is an
exit by the signal itself), a last stderr line that is not ``pinastats:
interrupted ...``, and a traceback or "Exception ignored" on stderr. Nothing is
asserted; the counts and a line per failure are printed.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass


def command(games: int) -> list[str]:
    """The run: long, on two threads, a progress line every 0.2 s."""
    return [sys.executable, "-m", "pinastats.cli.main", "simulate", "--agents", "random,random",
            "--games", str(games), "--chunk-size", "200", "--workers", "2",
            "--progress-every", "0.2"]  # fmt: skip


def first_progress(games: int, timeout: float) -> float:
    """Seconds from the start of a run to its first progress line (the run is then killed)."""
    start = time.monotonic()
    proc = subprocess.Popen(command(games), stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            text=True)  # fmt: skip
    assert proc.stderr is not None
    try:
        for line in proc.stderr:  # the run prints a line every 0.2 s until killed
            if "games," in line:
                return time.monotonic() - start
            if time.monotonic() - start > timeout:
                break
        raise SystemExit("the run printed no progress line")
    finally:
        proc.kill()
        proc.wait()


@dataclass
class Outcome:
    """One interrupted run: when the signal went, the exit status (None: hung) and stderr."""

    after: float
    status: int | None
    err: str


def one(games: int, after: float, signum: int, timeout: float) -> Outcome:
    """Start a run, send ``signum`` ``after`` seconds later, wait ``timeout`` s for the end."""
    proc = subprocess.Popen(command(games), stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            text=True)  # fmt: skip
    time.sleep(after)
    if proc.poll() is None:
        proc.send_signal(signum)
    try:
        _, err = proc.communicate(timeout=timeout)
        return Outcome(after, proc.returncode, err)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
        return Outcome(after, None, err)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--games", type=int, default=2_000_000)
    parser.add_argument("--signal", choices=("INT", "TERM"), default="INT")
    parser.add_argument(
        "--span",
        type=float,
        default=1.0,
        help="seconds after the first progress line the moments reach",
    )
    parser.add_argument(
        "--timeout", type=float, default=60.0, help="seconds a run has to exit after its signal"
    )
    parser.add_argument("--parallel", type=int, default=1, help="runs at once")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--show",
        type=int,
        default=0,
        metavar="N",
        help="print the last N stderr lines of each failed run",
    )
    args = parser.parse_args()
    # the runs get Ctrl-C's default action, as from a terminal, even where this script was
    # started with it ignored (in the background by a shell script: they would inherit that)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signum = getattr(signal, "SIG" + args.signal)
    expected = 128 + signum
    before = os.getloadavg()[0]
    reach = first_progress(args.games, 600.0) + args.span
    draw = random.Random(args.seed)
    moments = [draw.uniform(0.0, reach) for _ in range(args.runs)]
    print(f"{args.runs} runs, SIG{args.signal} at 0-{reach:.2f} s after the start "
          f"(first progress line + {args.span:g} s), {args.timeout:g} s to exit; "
          f"load average {before:.2f}", flush=True)  # fmt: skip
    with ThreadPoolExecutor(args.parallel) as pool:
        outcomes = list(pool.map(lambda t: one(args.games, t, signum, args.timeout), moments))
    hangs = wrong = words = noise = 0
    for o in outcomes:
        lines = o.err.strip().splitlines()
        last = lines[-1] if lines else ""
        bad = []
        if o.status is None:
            hangs += 1
            bad.append("hung")
        elif o.status != expected:
            wrong += 1
            bad.append(f"exit status {o.status}")
        if o.status is not None and not last.startswith("pinastats: interrupted"):
            words += 1
            bad.append(f"last line {last[:80]!r}")
        if "Traceback" in o.err or "Exception ignored" in o.err:
            noise += 1
            bad.append("a traceback on stderr")
        if bad:
            print(f"  signal at {o.after:.2f} s: {', '.join(bad)}", flush=True)
            if args.show:
                print("    | " + "\n    | ".join(lines[-args.show :]), flush=True)
    print(f"hangs {hangs}, wrong exit status {wrong}, wrong last line {words}, "
          f"tracebacks {noise} (of {args.runs}); load average {before:.2f} before, "
          f"{os.getloadavg()[0]:.2f} after")  # fmt: skip


if __name__ == "__main__":
    main()
