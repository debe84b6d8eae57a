"""Compile the engine ahead of use, saying what is compiling.

The kernels compile once per machine (then load from the digest-keyed cache of
the kernel compiler, see ``pinastats/_jit.py``); on a cold cache that takes
about half a minute on two cores (``benchmarks/bench_compile.py`` measures it).
The kernels come in groups, each compiled by one small call of its public
entry point:

* ``dice``: the exact turn solvers (``optimal-hold``, ``advise``, ``report``);
* ``agents``: the agents' decisions on a single position (``advise``, the
  readable turn);
* ``rules``: the rules' kernels that the readable turn and the ``Game`` API
  call one by one (``play_turn``, records, Python agents);
* ``turn``: a turn in one kernel call (``play_turn_fast``), which the
  play-outs call too;
* ``games``: the game loop of the one-turn agents, ``random`` to
  ``strategic``, with its placement log (``simulate``, ``report``, ``balance``);
* ``rollout``: the game loop with the ``rollout`` agent too, and its
  play-outs; not a default group: it compiles (about half a minute) the
  first time a ``rollout`` agent plays in ``simulate``, or with
  ``pinastats warm-up --all``;
* ``coach``: the play-outs of the coach (``advise --objective win``, the
  ``coach`` agent, ``review``).

With two or more CPUs the groups of lane 1 compile in a second process while
this one compiles those of lane 0: the cache is shared, and a kernel both
need at the same moment is compiled by each (the same code, written twice).
The lanes are ordered so that this happens little: lane 0 compiles the
decisions, then the turn and the coach that call them; lane 1 the dice, the
rules and the game loop.

:func:`ensure_warm` is what the commands call before their heavy work: silent
when the groups they need are cached, otherwise a line saying the engine is
compiling and one line per group. :func:`warm_up` compiles the groups it is
given and reports the time (``pinastats warm-up``).

This module imports the kernel modules only inside functions: its source is
then not one of those keying the cache (an edit here keeps the cache warm).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from pinastats import _groups as G


@dataclass(frozen=True)
class KernelGroup:
    """Kernels compiled together: ``kernels`` tell whether they are cached, ``compile`` does it."""

    name: str
    label: str
    kernels: Callable[[], list[Any]]
    compile: Callable[[], None]
    seconds: float  # typical compile time on one free core
    lane: int = 0  # groups of lane 1 compile in a second process beside lane 0
    default: bool = True  # compiled by a warm-up of every group (else only when named)

    def is_warm(self) -> bool:
        """Whether the group's entry kernels have machine code in the cache (compiles nothing)."""
        from pinastats import _jit

        return _jit.cache_is_warm(self.kernels())


GROUPS: dict[str, KernelGroup] = {
    g.name: g
    for g in (
        KernelGroup("dice", "the dice solvers", G.dice_kernels, G.dice_compile, 3, lane=1),
        KernelGroup("agents", "the agents' decisions", G.agents_kernels, G.agents_compile, 10),
        KernelGroup(
            "rules", "the rules of the readable turn", G.rules_kernels, G.rules_compile, 6, lane=1
        ),
        KernelGroup("turn", "a turn in one kernel call", G.turn_kernels, G.turn_compile, 10),
        KernelGroup("games", "the game loop", G.games_kernels, G.games_compile, 20, lane=1),
        KernelGroup(
            "rollout",
            "the rollout agent's game loop",
            G.rollout_kernels,
            G.rollout_compile,
            20,
            lane=1,
            default=False,
        ),
        KernelGroup("coach", "the coach's play-outs", G.coach_kernels, G.coach_compile, 5),
    )
}
"""The kernel groups by name, in the order :func:`warm_up` compiles them."""


@dataclass(frozen=True)
class WarmUp:
    """What :func:`warm_up` did: the groups compiled (or loaded), the seconds, the cache folder."""

    groups: tuple[str, ...]
    seconds: float
    folder: Path | None


def _groups(names: Sequence[str] | None) -> list[KernelGroup]:
    if names is None:
        return [g for g in GROUPS.values() if g.default]
    from pinastats.errors import PinastatsError

    unknown = [n for n in names if n not in GROUPS]
    if unknown:
        raise PinastatsError(
            f"unknown kernel group {unknown[0]!r}: choose from {', '.join(GROUPS)}"
        )
    return [GROUPS[n] for n in GROUPS if n in names]


def cold_groups(names: Sequence[str] | None = None) -> list[str]:
    """The groups among ``names`` (default: the default groups) whose kernels are not cached yet."""
    return [g.name for g in _groups(names) if not g.is_warm()]


class _Ticker:
    """On a terminal, redraws ``[i/m] label… N s`` every second while a group compiles."""

    def __init__(self, stream: TextIO, text: str) -> None:
        self.stream, self.text = stream, text
        self.start = time.perf_counter()
        self.stop = threading.Event()
        self.live = stream.isatty()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self.stop.wait(1.0):
            seconds = time.perf_counter() - self.start
            self.stream.write(f"\r{self.text}… {seconds:.0f} s")
            self.stream.flush()

    def __enter__(self) -> _Ticker:
        self.stream.write(f"{self.text}…" + ("" if self.live else "\n"))
        self.stream.flush()
        if self.live:
            self.thread.start()
        return self

    def __exit__(self, kind: object, *rest: object) -> None:
        self.stop.set()
        if self.live:
            self.thread.join()
        seconds = time.perf_counter() - self.start
        status = "done" if kind is None else "stopped"
        self.stream.write(
            ("\r" if self.live else "") + f"{self.text}: {status} in {seconds:.1f} s\n"
        )
        self.stream.flush()


def _lanes() -> int:
    """How many processes compile at once: 2 with two or more CPUs to use, else 1."""
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return 2 if (usable or 1) >= 2 else 1


def _start_lane(names: Sequence[str]) -> subprocess.Popen[bytes]:
    """A process compiling the groups ``names`` (``python -m pinastats._warmup NAME ...``)."""
    from pinastats import _jit

    env = dict(os.environ)  # the same package and cache folder as this process
    root = str(_jit.PACKAGE_DIR.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    return subprocess.Popen(
        [sys.executable, "-m", "pinastats._warmup", *names],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


def warm_up(
    names: Sequence[str] | None = None, *, stream: TextIO | None = None, lanes: int | None = None
) -> WarmUp:
    """Compile (or load from the cache) the kernel groups ``names`` (default: the default ones).

    With ``stream``, one line per group (``[i/m] label… done in s``) is written
    to it, redrawn every second on a terminal. With ``lanes`` = 2 (the default
    on two or more CPUs) the cold groups of lane 1 compile in a second process
    at the same time (announced first, done last); should it fail, they compile
    here after the others.
    """
    from pinastats import _jit

    groups = _groups(names)
    number = {g.name: i for i, g in enumerate(groups, 1)}
    start = time.perf_counter()
    aside = [g for g in groups if g.lane == 1 and not g.is_warm()]
    if (_lanes() if lanes is None else lanes) < 2 or len(aside) == len(groups):
        aside = []
    here = [g for g in groups if g not in aside]
    process = _start_lane([g.name for g in aside]) if aside else None

    def text(group: KernelGroup) -> str:
        return f"  [{number[group.name]}/{len(groups)}] compiling {group.label}"

    def say(line: str) -> None:
        if stream is not None:
            stream.write(line + "\n")
            stream.flush()

    def compile_here(group: KernelGroup, note: str = "") -> None:
        if stream is None:
            group.compile()
            return
        with _Ticker(stream, text(group) + note):
            group.compile()

    try:
        for group in aside:
            say(f"{text(group)}… (alongside)")
        for group in here:
            compile_here(group)
        if process is not None:
            process.wait()
            for group in aside:
                if process.returncode == 0:
                    say(f"{text(group)}: done in {time.perf_counter() - start:.1f} s")
                else:
                    compile_here(group, " (here: the second process failed)")
    finally:
        if process is not None and process.poll() is None:
            process.kill()
            process.wait()
    return WarmUp(tuple(g.name for g in groups), time.perf_counter() - start, _jit.cache_dir())


def _about(names: Sequence[str]) -> str:
    """The typical compile time of the groups ``names``, in words (two lanes: the longer one)."""
    lanes = [sum(GROUPS[n].seconds for n in names if GROUPS[n].lane == k) for k in (0, 1)]
    return _about_minutes((max(lanes) if _lanes() > 1 else sum(lanes)) / 60)


def _about_minutes(minutes: float) -> str:
    """``minutes`` in words: under a minute, about a minute, about N minutes."""
    if minutes < 0.75:
        return "under a minute"
    if minutes < 1.5:
        return "about a minute"
    return f"about {round(minutes)} minutes"


def ensure_warm(
    names: Sequence[str], *, stream: TextIO | None = None, quiet: bool = False
) -> WarmUp | None:
    """Compile the groups ``names`` a command needs if the cache lacks them, saying so.

    Returns None when they were all cached (nothing is written), else what
    :func:`warm_up` did. ``quiet`` compiles without a word; ``stream`` defaults
    to stderr.
    """
    cold = cold_groups(names)
    if not cold:
        return None
    if quiet:
        return warm_up(cold)
    out = sys.stderr if stream is None else stream
    out.write(
        f"pinastats: compiling the engine, first run only — {_about(cold)} "
        "('pinastats warm-up' does it ahead of time)…\n"
    )
    out.flush()
    return warm_up(cold, stream=out)


if __name__ == "__main__":  # a second compile lane (see warm_up)
    warm_up(sys.argv[1:], lanes=1)
