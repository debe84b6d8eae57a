"""Benchmark the engine's cold compile: per warm-up group, in total, and the warm start.

    python benchmarks/bench_compile.py                  # this checkout
    python benchmarks/bench_compile.py --kernels        # also the compile time per kernel
    python benchmarks/bench_compile.py --baseline PATH  # also another checkout, the same way

Each engine is measured in fresh interpreters with an empty ``NUMBA_CACHE_DIR``
(a temporary folder, which ``pinastats/_cache.py`` honours):

* the cold run compiles the warm-up groups of ``pinastats._warmup`` in order, in
  one process (``dice``, ``agents``, ``rules``, ``turn``, ``games``, ``coach``,
  then ``rollout``, the one compiled on demand) and reports the wall and CPU
  seconds of each (CPU: ``resource.getrusage`` of the child itself), then the
  whole process's wall time and CPU seconds (``RUSAGE_CHILDREN`` in this
  process: imports included);
* the warm run does the same again in a second process on the cache the cold
  run filled (it should only load);
* ``pinastats warm-up`` on another empty cache folder: the groups every
  command needs, as a user's first run compiles them, in two processes at
  once on a machine with two CPUs; its wall time is the figure a user waits,
  and the one held against the 45 s target. Then ``pinastats warm-up --all``
  (also the ``rollout`` agent's game loop) the same way.

A checkout without ``pinastats/_warmup.py`` (the previous engine) is timed on
what its first ``optimal-hold``-like solve and its first ``simulate`` compile.
The machine may be shared: the 1-minute load average is printed beside each
figure, and the CPU seconds are the figure that survives load. With
``--kernels`` the child records numba's compile events and prints, per compiled
kernel, the CPU seconds spent in it excluding the kernels it compiles
in turn (the inlined ones are part of their callers). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TARGET = 45.0


def load() -> float:
    """The 1-minute load average now."""
    return os.getloadavg()[0]


def _cpu_self() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _cpu_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


# ---------------------------------------------------------------- child process


def _old_groups() -> dict[str, Any]:
    """The first calls of an engine without a warm-up module (the previous engine)."""

    def dice() -> None:
        from pinastats.dice import Combination, solve_turn

        for sticky in (False, True):
            solve_turn(next(iter(Combination)), rolls=3, sticky=sticky)

    def games() -> None:
        from pinastats.simulation import simulate

        simulate(["random", "random"], 1, workers=1)

    return {"dice": dice, "games": games}


class _Compiles:
    """numba's compile events: CPU seconds per kernel and per compiler pass, nested ones excluded.

    A kernel's seconds exclude the kernels compiled while it compiles; a pass's
    seconds exclude the passes run inside it (those of a kernel compiled while
    typing a call). LLVM's optimisation and code generation run in ``NativeLowering``.
    """

    def __init__(self) -> None:
        from numba.core import event

        self.seconds: dict[str, float] = defaultdict(float)
        self.signatures: dict[str, list[str]] = defaultdict(list)
        self.passes: dict[str, float] = defaultdict(float)
        outer = self

        class _Nested(event.Listener):
            """Exclusive thread CPU seconds of nested events, by a key of each event."""

            def __init__(self, key: Any, into: dict[str, float]) -> None:
                self.key, self.into = key, into
                self.stack: list[list[Any]] = []

            def on_start(self, ev: Any) -> None:
                self.stack.append([self.key(ev), time.thread_time(), 0.0])

            def on_end(self, ev: Any) -> None:
                name, start, nested = self.stack.pop()
                spent = time.thread_time() - start
                self.into[name] += spent - nested
                if self.stack:
                    self.stack[-1][2] += spent

        def kernel(ev: Any) -> str:
            disp = ev.data["dispatcher"]
            name = f"{disp.py_func.__module__}.{disp.py_func.__qualname__}"
            outer.signatures[name].append(str(ev.data["args"]))
            return name

        register: Callable[[str, Any], None] = event.register
        register("numba:compile", _Nested(kernel, self.seconds))
        register("numba:run_pass", _Nested(lambda ev: ev.data["name"].split()[0], self.passes))


def child(groups: list[str], kernels: bool) -> dict[str, Any]:
    """Compile ``groups`` in order in this process (a fresh one); the seconds of each."""
    start_wall, start_cpu = time.perf_counter(), _cpu_self()
    compiles = _Compiles() if kernels else None
    try:
        from pinastats import _warmup

        if not Path(_warmup.__file__).resolve().is_relative_to(Path.cwd().resolve()):
            raise ImportError("no warm-up module in this checkout")  # the installed copy
        calls = {name: g.compile for name, g in _warmup.GROUPS.items()}
    except ImportError:
        calls = _old_groups()
    import_wall, import_cpu = time.perf_counter() - start_wall, _cpu_self() - start_cpu
    out: dict[str, Any] = {"import": {"wall": import_wall, "cpu": import_cpu}}
    for name in groups:
        if name not in calls:
            continue
        wall, cpu = time.perf_counter(), _cpu_self()
        calls[name]()
        out[name] = {"wall": time.perf_counter() - wall, "cpu": _cpu_self() - cpu, "load": load()}
    if compiles is not None:
        out["kernels"] = {
            name: [seconds, compiles.signatures[name]] for name, seconds in compiles.seconds.items()
        }
        out["passes"] = dict(compiles.passes)
    return out


# ---------------------------------------------------------------- this process


def run(path: Path, cache: str, groups: list[str], kernels: bool) -> dict[str, Any]:
    """:func:`child` in a fresh interpreter on ``path`` with ``NUMBA_CACHE_DIR=cache``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env |= {"PYTHONPATH": str(path), "NUMBA_CACHE_DIR": cache}
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", ",".join(groups)]
    if kernels:
        cmd.append("--kernels")
    before, wall = _cpu_children(), time.perf_counter()
    done = subprocess.run(cmd, env=env, cwd=path, capture_output=True, text=True, check=False)
    wall, cpu = time.perf_counter() - wall, _cpu_children() - before
    if done.returncode != 0:
        raise SystemExit(f"child on {path} failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    result["process"] = {"wall": wall, "cpu": cpu, "load": load()}
    return result


def warm_up_command(path: Path, every: bool = False) -> dict[str, float] | None:
    """Wall and CPU seconds of a cold ``pinastats warm-up --quiet`` (None: no such command).

    ``every`` adds ``--all`` (None when the checkout's command has no such option).
    """
    command = path / "pinastats" / "cli" / "warm_up.py"
    if not command.exists() or (every and '"--all"' not in command.read_text()):
        return None
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    with tempfile.TemporaryDirectory(prefix="bench-compile-") as cache:
        env |= {"PYTHONPATH": str(path), "NUMBA_CACHE_DIR": cache}
        cmd = [sys.executable, "-m", "pinastats.cli.main", "warm-up", "--quiet"]
        cmd += ["--all"] if every else []
        start_load, before, wall = load(), _cpu_children(), time.perf_counter()
        done = subprocess.run(cmd, env=env, cwd=path, capture_output=True, text=True, check=False)
        wall, cpu = time.perf_counter() - wall, _cpu_children() - before
    if done.returncode != 0:
        raise SystemExit(f"warm-up on {path} failed:\n{done.stderr}")
    return {"wall": wall, "cpu": cpu, "load_start": start_load, "load_end": load()}


def measure(path: Path, groups: list[str], kernels: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    """The cold run and the warm run of the engine at ``path``, on one fresh cache folder."""
    with tempfile.TemporaryDirectory(prefix="bench-compile-") as cache:
        cold = run(path, cache, groups, kernels)
        warm = run(path, cache, groups, False)
    return cold, warm


def report(label: str, cold: dict[str, Any], warm: dict[str, Any], groups: list[str]) -> None:
    """Print one engine's figures."""
    print(f"\n{label}")
    print(f"  {'step':22} {'cold wall s':>11} {'cold CPU s':>10} {'load':>5} "
          f"{'warm wall s':>11} {'warm CPU s':>10}")  # fmt: skip
    for name in ["import", *groups, "process"]:
        if name not in cold:
            continue
        c, w = cold[name], warm.get(name, {"wall": 0.0, "cpu": 0.0})
        step = "whole process" if name == "process" else name
        print(f"  {step:22} {c['wall']:11.1f} {c['cpu']:10.1f} {c.get('load', load()):5.2f} "
              f"{w['wall']:11.2f} {w['cpu']:10.2f}")  # fmt: skip
    cpu = cold["process"]["cpu"]
    print(f"  cold CPU seconds, one process, the groups above in turn: {cpu:.1f} "
          f"(the {TARGET:.0f} s target is held against the warm-up's wall time below)")  # fmt: skip


def _differences(signatures: list[str]) -> list[str]:
    """The signatures shortened to the arguments in which they differ (``#i: type``)."""
    split = [_arguments(s) for s in signatures]
    if len({len(a) for a in split}) > 1:
        return [s[:200] for s in signatures]
    differ = [i for i in range(len(split[0])) if len({a[i] for a in split}) > 1]
    return [", ".join(f"#{i}: {a[i][:80]}" for i in differ) or "(same)" for a in split]


def _arguments(signature: str) -> list[str]:
    """The top-level arguments of a printed numba signature ``(a, b(c, d), e)``."""
    parts, depth, start = [], 0, 1
    for i, char in enumerate(signature):
        depth += char in "(["
        depth -= char in ")]"
        if char == "," and depth == 1:
            parts.append(signature[start:i].strip())
            start = i + 1
    parts.append(signature[start:-1].strip())
    return parts


def report_kernels(cold: dict[str, Any], top: int, signatures: bool) -> None:
    """The kernels that took longest to compile (seconds excluding nested compiles)."""
    rows = sorted(cold.get("kernels", {}).items(), key=lambda kv: -kv[1][0])
    total = sum(seconds for _, (seconds, _sigs) in rows)
    print(f"  compiled kernels: {len(rows)}, {sum(len(s) for _, (_t, s) in rows)} signatures, "
          f"{total:.1f} CPU s in compiles (each excluding the compiles it starts)")  # fmt: skip
    for name, (seconds, sigs) in rows[:top]:
        print(f"    {seconds:7.2f} s  {len(sigs):2d} sig  {name}")
        if signatures and len(sigs) > 1:
            for differ in _differences(sigs):
                print(f"{'':22}{differ}")
    passes = sorted(cold.get("passes", {}).items(), key=lambda kv: -kv[1])
    print("  compiler passes (CPU s, all kernels): " + ", ".join(
        f"{name} {seconds:.1f}" for name, seconds in passes[:8]))  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--groups",
        default="dice,agents,rules,turn,games,coach,rollout",
        help="warm-up groups, in order",
    )
    parser.add_argument("--kernels", action="store_true", help="compile seconds per kernel")
    parser.add_argument("--top", type=int, default=25, help="kernels listed with --kernels")
    parser.add_argument("--signatures", action="store_true", help="with --kernels: list them")
    parser.add_argument("--engine", type=Path, default=HERE.parent, help="checkout to measure")
    parser.add_argument("--baseline", type=Path, help="another checkout, measured the same way")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    groups = args.groups.split(",")
    if args.child is not None:
        print(json.dumps(child(args.child.split(","), args.kernels)))
        return
    print(f"cold compile, {os.cpu_count()} CPUs; load at start {load():.2f}")
    engines = [("this engine", args.engine)]
    if args.baseline is not None:
        engines.append(("baseline", args.baseline))
    results = {}
    for label, path in engines:
        cold, warm = measure(path.resolve(), groups, args.kernels)
        results[label] = cold
        report(f"{label} ({path})", cold, warm, groups)
        if args.kernels:
            report_kernels(cold, args.top, args.signatures)
        for every, what in ((False, "the groups every command needs"), (True, "--all")):
            command = warm_up_command(path.resolve(), every)
            if command is None:
                continue
            verdict = "within" if command["wall"] <= TARGET else "above"
            print(f"  pinastats warm-up{' --all' if every else ''}, cold ({what}): "
                  f"{command['wall']:.1f} s wall, {command['cpu']:.1f} CPU s (load "
                  f"{command['load_start']:.2f} -> {command['load_end']:.2f}): {verdict} "
                  f"the {TARGET:.0f} s target")  # fmt: skip
    if len(results) == 2:
        ours, base = (results[label]["process"]["cpu"] for label, _ in engines)
        print(f"\ncold CPU seconds, baseline / this engine: {base / ours:.2f}x")


if __name__ == "__main__":
    main()
