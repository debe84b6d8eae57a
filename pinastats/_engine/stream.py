"""The engine's one random draw, ``_uniform(rng)``, from a Generator or a stream (private).

Every random choice of the kernels (a die, the Happy Hour die, a random
agent's pick, the deal and the first seat) is ``floor(n u)`` of one uniform
double ``u = _uniform(rng)``, in ``[0, 1)``. What ``rng`` draws from:

* a ``numpy.random.Generator``: ``u = rng.random()``. Games (``simulate``,
  ``play_turn``, the ``rollout`` agent) draw from these;
* a *stream*: a ``(4,)`` ``uint64`` array, the state of xoshiro256** (Blackman
  and Vigna), stepped in place. A kernel can reseed it in a few nanoseconds
  (:func:`_seed_stream`, by splitmix64), so the coach's play-outs reseed it for
  every play-out inside one kernel call: play-out ``i`` from every outcome
  position draws the same numbers (common random numbers) without one Python
  call, and one Generator, per play-out.

The turn's kernels take an :class:`Rng`, which holds both and says which one
draws: they compile once for games and play-outs alike (a turn takes about
ten seconds to compile). A bare Generator is accepted too, by the small
kernels that Python calls with one.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt
from numba import types
from numba.extending import overload

from pinastats._jit import jit_flat, jit_inline

_U = np.uint64
_GOLDEN = _U(0x9E3779B97F4A7C15)
_MIX1 = _U(0xBF58476D1CE4E5B9)
_MIX2 = _U(0x94D049BB133111EB)
_TO_UNIT = 2.0**-53
"""``u = (x >> 11) 2**-53``: the top 53 bits of a 64-bit word as a double in ``[0, 1)``."""


class Rng(NamedTuple):
    """What a turn draws from: ``generator``, or ``stream`` when ``use_stream``."""

    generator: np.random.Generator
    stream: npt.NDArray[np.uint64]
    use_stream: bool


_IDLE_STREAM = np.zeros(4, dtype=np.uint64)  # never stepped: use_stream is False
_IDLE_GENERATOR = np.random.default_rng(0)  # never drawn from: use_stream is True


def new_stream() -> npt.NDArray[np.uint64]:
    """A stream's state array (seed it in a kernel with :func:`_seed_stream`)."""
    return np.zeros(4, dtype=np.uint64)


def generator_rng(generator: np.random.Generator) -> Rng:
    """The :class:`Rng` drawing from ``generator`` (``u = generator.random()``)."""
    return Rng(generator, _IDLE_STREAM, False)


def stream_rng(stream: npt.NDArray[np.uint64]) -> Rng:
    """The :class:`Rng` drawing from the xoshiro256** ``stream`` (a :func:`new_stream`)."""
    return Rng(_IDLE_GENERATOR, stream, True)


@jit_inline
def _rotl(x, k):
    """Rotate the 64-bit word ``x`` left by ``k`` bits."""
    return (x << _U(k)) | (x >> _U(64 - k))


@jit_inline
def _seed_stream(stream, seed):
    """Fill the four state words from the 64-bit ``seed`` by splitmix64 (never all zero)."""
    x = _U(seed)
    for i in range(4):
        x += _GOLDEN
        z = x
        z = (z ^ (z >> _U(30))) * _MIX1
        z = (z ^ (z >> _U(27))) * _MIX2
        stream[i] = z ^ (z >> _U(31))


@jit_inline
def _next_word(stream):
    """One xoshiro256** step: the next 64-bit output; the state advances in place."""
    s0, s1, s2, s3 = stream[0], stream[1], stream[2], stream[3]
    result = _rotl(s1 * _U(5), 7) * _U(9)
    t = s1 << _U(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    stream[0], stream[1], stream[2], stream[3] = s0, s1, s2, _rotl(s3, 45)
    return result


def _uniform(rng):  # pragma: no cover - only its numba overload runs
    """A uniform double in ``[0, 1)`` from ``rng`` (an :class:`Rng` or a Generator)."""
    raise NotImplementedError("compiled through numba only")


@jit_flat
def _stream_uniform(stream):
    """The top 53 bits of the next xoshiro256** word, as a double in ``[0, 1)``.

    A real call (compiled once), not inlined: every draw site of the turn holds
    both sources, and the Generator's is the one games run.
    """
    return float(_next_word(stream) >> _U(11)) * _TO_UNIT


@overload(_uniform, inline="always")
def _uniform_overload(rng):
    """``rng.random()`` for a bare Generator; for an :class:`Rng`, the source it names."""
    if isinstance(rng, types.NumPyRandomGeneratorType):

        def generator(rng):
            return rng.random()

        return generator

    def either(rng):
        if rng.use_stream:
            return _stream_uniform(rng.stream)
        return rng.generator.random()

    return either
