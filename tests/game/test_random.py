# mypy: disallow-untyped-calls=False
"""The kernels' two random streams: a Generator's ``random()``, and xoshiro256** (oracle)."""

from __future__ import annotations

import numpy as np
import pytest

from pinastats._engine.stream import _seed_stream, _uniform, generator_rng, new_stream, stream_rng
from pinastats._jit import jit

MASK = (1 << 64) - 1


def _splitmix_state(seed: int) -> list[int]:
    x, out = seed & MASK, []
    for _ in range(4):
        x = (x + 0x9E3779B97F4A7C15) & MASK
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        out.append(z ^ (z >> 31))
    return out


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & MASK


def _xoshiro_uniforms(seed: int, n: int) -> list[float]:
    """xoshiro256** as published (Blackman and Vigna), seeded by splitmix64."""
    s = _splitmix_state(seed)
    out = []
    for _ in range(n):
        result = (_rotl((s[1] * 5) & MASK, 7) * 9) & MASK
        t = (s[1] << 17) & MASK
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        out.append((result >> 11) * 2.0**-53)
    return out


@jit
def _draws(rng, n):  # type: ignore[no-untyped-def]
    out = np.empty(n)
    for i in range(n):
        out[i] = _uniform(rng)
    return out


@jit
def _seeded_draws(rng, seed, n):  # type: ignore[no-untyped-def]
    _seed_stream(rng.stream, seed)
    return _draws(rng, n)


@pytest.mark.parametrize("seed", [0, 1, 12345, 2**63 - 1])
def test_stream_is_xoshiro256_starstar(seed: int) -> None:
    got = _seeded_draws(stream_rng(new_stream()), seed, 50).tolist()
    assert got == _xoshiro_uniforms(seed, 50)
    assert all(0.0 <= u < 1.0 for u in got)


def test_reseeding_repeats_the_stream() -> None:
    rng = stream_rng(new_stream())
    first = _seeded_draws(rng, 7, 20)
    assert not np.array_equal(first, _seeded_draws(rng, 8, 20))
    assert np.array_equal(first, _seeded_draws(rng, 7, 20))


def test_a_generator_draws_its_own_random() -> None:
    """Bare, or in an ``Rng``: the Generator's own ``random()``, and its stream is left alone."""
    expected = np.random.default_rng(3).random(20).tolist()
    assert _draws(np.random.default_rng(3), 20).tolist() == expected
    rng = generator_rng(np.random.default_rng(3))
    assert _draws(rng, 20).tolist() == expected
    assert not rng.stream.any()
