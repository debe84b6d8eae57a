"""Compile the engine ahead of use, saying what is compiling.

The kernels compile once per machine (then load from the digest-keyed cache of
the kernel compiler, see ``pinastats/_jit.py``); on a cold cache that takes
under a minute of one core (``benchmarks/bench_compile.py`` measures it).
The kernels come in groups, each compiled by one small call of its public
entry point:

* ``dice``: the exact turn solvers (``optimal-hold``, ``advise``, ``report``);
* ``agents``: the agents' decisions on a single position (``advise``);
* ``games``: the game loop with every agent (``simulate``, ``report``);
* ``balance``: the designer's lab game loop with its placement log
  (``balance --coasters``).

:func:`ensure_warm` is what the commands call before their heavy work: silent
when the groups they need are cached, otherwise a line saying the engine is
compiling and one line per group. :func:`warm_up` compiles the groups it is
given and reports the time (``pinastats warm-up``).

This module imports the kernel modules only inside functions: its source is
then not one of those keying the cache (an edit here keeps the cache warm).
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO


def _dice_kernels() -> list[Any]:
    from pinastats.dice import _kernels

    return [_kernels._solve_free, _kernels._solve_sticky]


def _dice_compile() -> None:
    from pinastats.dice import Combination, solve_turn

    target = next(iter(Combination))
    for sticky in (False, True):
        solve_turn(target, rolls=3, sticky=sticky)


def _agents_kernels() -> list[Any]:
    from pinastats.agents import _kernels
    from pinastats.game import _kernels as game_kernels

    return [_kernels._final_values, game_kernels._deal]


def _agents_compile() -> None:
    from pinastats.agents.advice import advise
    from pinastats.game.game import Game

    advise(Game.new(2, seed=0), [1, 2, 3, 4, 5], 2)


def _games_kernels() -> list[Any]:
    from pinastats.simulation import _kernels

    return [_kernels._play_games]


def _games_compile() -> None:
    from pinastats.simulation.chunk import warm_up as warm_chunk

    warm_chunk()


def _balance_kernels() -> list[Any]:
    from pinastats.balance import _kernels

    return [_kernels._play_logged]


def _balance_compile() -> None:
    from pinastats.balance.trace import play_traced

    play_traced(["random", "random"], 1)


@dataclass(frozen=True)
class KernelGroup:
    """Kernels compiled together: ``kernels`` tell whether they are cached, ``compile`` does it."""

    name: str
    label: str
    kernels: Callable[[], list[Any]]
    compile: Callable[[], None]
    seconds: float  # typical compile time on one free core

    def is_warm(self) -> bool:
        """Whether the group's entry kernels have machine code in the cache (compiles nothing)."""
        from pinastats import _jit

        return _jit.cache_is_warm(self.kernels())


GROUPS: dict[str, KernelGroup] = {
    g.name: g
    for g in (
        KernelGroup("dice", "the dice solvers", _dice_kernels, _dice_compile, 5),
        KernelGroup("agents", "the agents' decisions", _agents_kernels, _agents_compile, 10),
        KernelGroup("games", "the game loop and every agent", _games_kernels, _games_compile, 40),
        KernelGroup(
            "balance", "the game loop with a placement log", _balance_kernels, _balance_compile, 10
        ),
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
        return list(GROUPS.values())
    from pinastats.errors import PinastatsError

    unknown = [n for n in names if n not in GROUPS]
    if unknown:
        raise PinastatsError(
            f"unknown kernel group {unknown[0]!r}: choose from {', '.join(GROUPS)}"
        )
    return [GROUPS[n] for n in GROUPS if n in names]


def cold_groups(names: Sequence[str] | None = None) -> list[str]:
    """The groups among ``names`` (default: all) whose kernels are not cached yet."""
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


def warm_up(names: Sequence[str] | None = None, *, stream: TextIO | None = None) -> WarmUp:
    """Compile (or load from the cache) the kernel groups ``names`` (default: all), in order.

    With ``stream``, one line per group (``[i/m] label… done in s``) is written
    to it, redrawn every second on a terminal.
    """
    from pinastats import _jit

    groups = _groups(names)
    start = time.perf_counter()
    for i, group in enumerate(groups, 1):
        if stream is None:
            group.compile()
            continue
        with _Ticker(stream, f"  [{i}/{len(groups)}] compiling {group.label}"):
            group.compile()
    return WarmUp(tuple(g.name for g in groups), time.perf_counter() - start, _jit.cache_dir())


def _about(names: Sequence[str]) -> str:
    """The typical compile time of the groups ``names``, in words."""
    minutes = sum(GROUPS[n].seconds for n in names) / 60
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
