"""The games the simulator plays, pinned: a fingerprint per agent, player count and Happy Hour.

Each value is :func:`tests.oracle.fingerprints.fingerprint` of a small self-play
run (seed 1, chunks of 500): 300 games for ``random``, ``greedy``, ``ev`` and
``strategic``, 6 for ``rollout``. They were computed on the engine before its
kernels moved to ``pinastats._engine``, and every later engine must play the
very same games: a change here means the games changed (a kernel's arithmetic,
the order of the random draws, an agent's decisions, a rule).

Such a change must be deliberate. Then regenerate the values with::

    python benchmarks/game_hashes.py --games 300 --rollout-games 6

and say in the commit why the games changed. (``random`` never re-rolls, so it
never rolls the Happy Hour die: its games are the same with and without it.)
"""

from __future__ import annotations

import pytest

from tests.oracle.fingerprints import fingerprint

GAMES = {"random": 300, "greedy": 300, "ev": 300, "strategic": 300, "rollout": 6}
"""Games fingerprinted per agent."""

PINNED: dict[tuple[str, int, bool], str] = {
    ("random", 2, False): "5412975206bafb09",
    ("random", 3, False): "7a0981d0626550fc",
    ("random", 4, False): "be2a8b339745e2be",
    ("random", 2, True): "5412975206bafb09",
    ("random", 3, True): "7a0981d0626550fc",
    ("random", 4, True): "be2a8b339745e2be",
    ("greedy", 2, False): "dff5b181cb06ce0e",
    ("greedy", 3, False): "035c452e86765cce",
    ("greedy", 4, False): "0a557b0e14e31c23",
    ("greedy", 2, True): "311787cddbd5cc9e",
    ("greedy", 3, True): "bdd919e6933ba63f",
    ("greedy", 4, True): "0582b0cebce1a683",
    ("ev", 2, False): "cfc6984313ba8a62",
    ("ev", 3, False): "f0c26c92b4436a1c",
    ("ev", 4, False): "185d8fed89b1eb41",
    ("ev", 2, True): "81078a00ce46714b",
    ("ev", 3, True): "5a0851a202e5950c",
    ("ev", 4, True): "c09ae64a7a3fe02f",
    ("strategic", 2, False): "e8e4bc25ef7b7cc5",
    ("strategic", 3, False): "ca2ffdcb05a3416c",
    ("strategic", 4, False): "a06ab34c1d21845b",
    ("strategic", 2, True): "177376a4e25ff58b",
    ("strategic", 3, True): "a3e4c1fa9d76fb07",
    ("strategic", 4, True): "dbb8f4c16c0d8e9b",
    ("rollout", 2, False): "4edbc53f7f8b8e1f",
    ("rollout", 3, False): "b4fbb3f8f1e06f23",
    ("rollout", 4, False): "79a22cae83546302",
    ("rollout", 2, True): "3d05851ac4b702b8",
    ("rollout", 3, True): "d5cc3fff8a2e6ff6",
    ("rollout", 4, True): "2c3a5ca0a1718493",
}


CASES = [
    pytest.param(*case, marks=[pytest.mark.slow] if case[0] == "rollout" else []) for case in PINNED
]
"""Every pinned run; ``rollout``'s take seconds each (its play-outs)."""


@pytest.mark.parametrize(("agent", "players", "happy_hour"), CASES)
def test_same_games_as_pinned(agent: str, players: int, happy_hour: bool) -> None:
    got = fingerprint(agent, players, GAMES[agent], happy_hour)
    assert got == PINNED[agent, players, happy_hour], (
        f"{agent}, {players} players, Happy Hour {happy_hour}: the games changed"
    )
