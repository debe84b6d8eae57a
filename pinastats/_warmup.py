"""Compile the engine ahead of use, saying what is compiling.

The kernels compile once per machine (then load from the cache, see
:mod:`pinastats._cache`); on a cold cache that takes from under a minute on two
free cores to several minutes on a busy machine (``benchmarks/bench_compile.py``
measures it). They come in groups, each
compiled by one small call of its public entry point (:data:`GROUPS`):

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
compiling, one line per group with what it compiles and the seconds it took (a
group of the second lane: its own seconds there), and the total. :func:`warm_up`
compiles the groups it is given and reports the time (``pinastats warm-up``). The kernel modules are
imported inside functions only: importing this module compiles nothing.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol


class Stream(Protocol):
    """Where the progress goes: a text stream (stderr, or the board server's page)."""

    def write(self, text: str, /) -> int:
        """Write ``text``."""

    def flush(self) -> None:
        """Flush what was written."""

    def isatty(self) -> bool:
        """Whether it is a terminal (a line is then redrawn every second)."""


def _dice() -> None:
    from pinastats.dice import Combination, solve_turn

    target = next(iter(Combination))
    for sticky in (False, True):
        solve_turn(target, rolls=3, sticky=sticky)


def _agents() -> None:
    import numpy as np

    from pinastats.agents.advice import advise
    from pinastats.agents.builtin import make_agent
    from pinastats.game.game import Game
    from pinastats.game.rules import HappyHourEffect

    game = Game.new(2, seed=0)
    advise(game, [1, 2, 3, 4, 5], 2)
    rng = np.random.default_rng(0)
    agent = make_agent("strategic")  # the decisions of the readable turn (every kind: one kernel)
    agent.choose_keep(game, [1, 1, 2, 3, 4], 1, rng)
    agent.choose_placement(game, [1, 1, 1, 1, 1], rng)
    effect = HappyHourEffect.FLIP_COASTER
    agent.choose_happy_hour(game, effect, game.happy_hour_options(effect), rng)


class _FirstChoice:
    """A placeholder agent for the warm-up: keeps nothing, takes the first option."""

    name = "first choice"

    def start_turn(self, game: Any) -> None:
        """Nothing to prepare."""

    def choose_keep(self, game: Any, dice: Any, rolls_left: int, rng: Any) -> tuple[int, ...]:
        """Keep nothing (every roll is used, so Happy Hour can come)."""
        return ()

    def choose_placement(self, game: Any, dice: Any, rng: Any) -> int:
        """The first legal cell."""
        return int(game.legal_cells(dice)[0])

    def choose_happy_hour(self, game: Any, effect: Any, options: list[int], rng: Any) -> int:
        """The first option."""
        return options[0]


def _rules() -> None:
    from pinastats.game.config import GameConfig
    from pinastats.game.game import Game
    from pinastats.game.rules import Rules
    from pinastats.simulation.play import play_game

    # the rules' kernels that the readable turn calls one by one, Happy Hour included
    config = GameConfig(players=2, rules=Rules(happy_hour=True))
    for seed in range(2):
        play_game(Game.new(config=config, seed=seed), [_FirstChoice()] * 2, seed=seed)


def _turn() -> None:
    from pinastats.game.config import GameConfig
    from pinastats.game.game import Game
    from pinastats.game.rules import Rules
    from pinastats.simulation.play import play_game

    config = GameConfig(players=2, rules=Rules(happy_hour=True))
    play_game(Game.new(config=config, seed=0), ["ev", "strategic"], seed=0, fast=True)


def _games(rollout: bool = False) -> None:
    from pinastats.simulation.chunk import warm_up as warm_chunk

    warm_chunk(rollout=rollout)


def _coach() -> None:
    from pinastats.coach.advice import win_advice
    from pinastats.game.game import Game

    win_advice(Game.new(2, seed=0), [1, 2, 3, 4, 5], 2, playouts=1)


def _value() -> None:
    from pinastats.agents.network import fits
    from pinastats.evaluation.network import NetworkEvaluator
    from pinastats.evaluation.search import SearchEvaluator
    from pinastats.game.game import Game

    game = Game.new(2, seed=0)
    if fits(game.config) is None:  # a checkout without trained weights skips it
        NetworkEvaluator().advise(game, (1, 2, 3, 4, 5), 2)
        SearchEvaluator().advise(game, (1, 2, 3, 4, 5), 2)  # the board's and advise's default


@dataclass(frozen=True)
class KernelGroup:
    """Kernels compiled together by ``compile``; ``kernels`` tell whether they are cached."""

    name: str
    label: str
    compile: Callable[[], None]
    kernels: tuple[
        str, ...
    ]  # its entry kernels, as ``module.name`` in pinastats (the engine's: its surface)
    seconds: float  # typical compile time on one free core
    lane: int = 0  # groups of lane 1 compile in a second process beside lane 0
    default: bool = True  # compiled by a warm-up of every group (else only when named)

    def is_warm(self) -> bool:
        """Whether the group's entry kernels have machine code in the cache (compiles nothing)."""
        from pinastats._jit import cache_is_warm

        paths = (f"pinastats.{k}".rpartition(".") for k in self.kernels)
        return cache_is_warm(getattr(importlib.import_module(m), n) for m, _, n in paths)


GROUPS: dict[str, KernelGroup] = {
    g.name: g
    for g in (
        KernelGroup("dice", "the dice solvers", _dice,
                    ("dice._kernels._solve_free", "dice._kernels._solve_sticky"), 3, lane=1),
        KernelGroup("agents", "the agents' decisions", _agents,
                    ("_engine.final_values", "_engine.choose_keep", "_engine.choose_happy_hour"),
                    10),
        KernelGroup("rules", "the rules of the readable turn", _rules,
                    ("_engine.finish_turn", "_engine.deal"), 6, lane=1),
        KernelGroup("turn", "a turn in one kernel call", _turn,
                    ("_engine.policy_turn",), 10),
        KernelGroup("games", "the game loop", _games, ("_engine.play_games",), 20, lane=1),
        KernelGroup("rollout", "the rollout agent's game loop", lambda: _games(rollout=True),
                    ("_engine.rollout_cell",), 20, lane=1, default=False),
        KernelGroup("coach", "the coach's play-outs", _coach,
                    ("_engine.play_outs", "_engine.best_keeps"), 5),
        KernelGroup("value", "the learned evaluator", _value, ("_engine.evaluate",), 5),
    )
}  # fmt: skip
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


def _write(stream: Stream, text: str) -> None:
    stream.write(text)
    stream.flush()


@contextlib.contextmanager
def _ticking(stream: Stream, text: str) -> Iterator[None]:
    """``text…``, then ``text: done in N s``; on a terminal, redrawn every second meanwhile."""
    start, stop, live = time.perf_counter(), threading.Event(), stream.isatty()

    def tick() -> None:
        while not stop.wait(1.0):
            _write(stream, f"\r{text}… {time.perf_counter() - start:.0f} s")

    thread = threading.Thread(target=tick, daemon=True)
    _write(stream, f"{text}…" + ("" if live else "\n"))
    if live:
        thread.start()
    status = "stopped"
    try:
        yield
        status = "done"
    finally:
        stop.set()
        if live:
            thread.join()
        seconds = time.perf_counter() - start
        _write(stream, ("\r" if live else "") + f"{text}: {status} in {seconds:.1f} s\n")


def _lanes() -> int:
    """How many processes compile at once: 2 with two or more CPUs to use, else 1."""
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return 2 if (usable or 1) >= 2 else 1


def _start_lane(names: Sequence[str]) -> subprocess.Popen[bytes]:
    """A process compiling the groups ``names`` (``python -m pinastats._warmup NAME ...``)."""
    env = dict(os.environ)  # the same package and cache folder as this process
    root = str(Path(__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    return subprocess.Popen(
        [sys.executable, "-m", "pinastats._warmup", *names],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )  # fmt: skip


def _lane_times(output: bytes) -> dict[str, float]:
    """The seconds of each group, from a second lane's lines ``NAME SECONDS``."""
    times: dict[str, float] = {}
    for line in output.decode("ascii", "replace").splitlines():
        name, _, seconds = line.partition(" ")
        with contextlib.suppress(ValueError):
            times[name] = float(seconds)
    return times


def warm_up(
    names: Sequence[str] | None = None, *, stream: Stream | None = None, lanes: int | None = None
) -> WarmUp:
    """Compile (or load from the cache) the kernel groups ``names`` (default: the default ones).

    With ``stream``, one line per group (``[i/m] label… done in s``) is written
    to it, redrawn every second on a terminal. With ``lanes`` = 2 (the default
    on two or more CPUs) the cold groups of lane 1 compile in a second process
    at the same time (announced first, done last); should it fail, they compile
    here after the others.
    """
    from pinastats._cache import cache_dir

    groups = _groups(names)
    start = time.perf_counter()
    aside = [g for g in groups if g.lane == 1 and not g.is_warm()]
    if (_lanes() if lanes is None else lanes) < 2 or len(aside) == len(groups):
        aside = []
    process = _start_lane([g.name for g in aside]) if aside else None
    texts = {g.name: f"  [{i}/{len(groups)}] compiling {g.label}" for i, g in enumerate(groups, 1)}

    def compile_here(group: KernelGroup, note: str = "") -> None:
        if stream is None:
            group.compile()
            return
        with _ticking(stream, texts[group.name] + note):
            group.compile()

    def say(line: str) -> None:
        if stream is not None:
            _write(stream, line + "\n")

    try:
        for group in aside:
            say(f"{texts[group.name]}… (alongside)")
        for group in groups:
            if group not in aside:
                compile_here(group)
        if process is not None:
            output, _ = process.communicate()
            times = _lane_times(output)
            for group in aside:
                if process.returncode == 0:
                    took = times.get(group.name, time.perf_counter() - start)
                    say(f"{texts[group.name]}: done in {took:.1f} s (alongside)")
                else:
                    compile_here(group, " (here: the second process failed)")
    finally:
        if process is not None and process.poll() is None:
            process.kill()
            process.wait()
    return WarmUp(tuple(g.name for g in groups), time.perf_counter() - start, cache_dir())


def _about(names: Sequence[str]) -> str:
    """The typical compile time of the groups ``names``, in words (two lanes: the longer one)."""
    lanes = [sum(GROUPS[n].seconds for n in names if GROUPS[n].lane == k) for k in (0, 1)]
    return _about_minutes((max(lanes) if _lanes() > 1 else sum(lanes)) / 60)


def _about_minutes(minutes: float) -> str:
    """``minutes`` in words, on free cores: under a minute, about a minute, about N minutes.

    The groups' :attr:`KernelGroup.seconds` are those of free cores: a busy machine
    takes several times longer, and the words say so.
    """
    if minutes < 0.75:
        typical = "under a minute"
    elif minutes < 1.5:
        typical = "about a minute"
    else:
        typical = f"about {round(minutes)} minutes"
    return f"{typical} on free cores, longer on a busy machine"


def ensure_warm(
    names: Sequence[str], *, stream: Stream | None = None, quiet: bool = False
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
    _write(out, f"pinastats: compiling the engine, first run only — {_about(cold)} "
                "('pinastats warm-up' does it ahead of time)…\n")  # fmt: skip
    done = warm_up(cold, stream=out)
    _write(out, f"pinastats: engine compiled in {done.seconds:.1f} s\n")
    return done


if __name__ == "__main__":  # a second compile lane (see warm_up): "NAME SECONDS" a group
    for _group in _groups(sys.argv[1:]):
        _start = time.perf_counter()
        _group.compile()
        print(_group.name, f"{time.perf_counter() - _start:.3f}", flush=True)
