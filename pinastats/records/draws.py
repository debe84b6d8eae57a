"""The game's generator state as text, so a replay can draw the same dice again.

The engine draws from a ``numpy`` ``PCG64`` generator. Its state is a 128-bit
``state`` and a 128-bit ``inc`` (the stream, fixed for a generator); a record
stores ``inc`` once and ``state`` before each draw, as 32 hex digits (followed
by ``+`` and 8 hex digits when a 32-bit value is buffered, which only agents
drawing 32-bit numbers cause). Restoring the state and rolling the kept dice
again gives the recorded roll: a changed die is caught.
"""

from __future__ import annotations

import numpy as np

from pinastats.errors import PinastatsError


def state_text(rng: np.random.Generator) -> str:
    """The generator's ``state`` as hex (``+`` the buffered 32-bit value, if any)."""
    state = rng.bit_generator.state
    if state.get("bit_generator") != "PCG64":
        raise PinastatsError(
            f"records need the PCG64 generator of numpy.random.default_rng, got "
            f"{state.get('bit_generator')!r}"
        )
    text = f"{state['state']['state']:032x}"
    if state["has_uint32"]:
        text += f"+{state['uinteger']:08x}"
    return text


def stream_text(rng: np.random.Generator) -> str:
    """The generator's ``inc`` (its stream) as hex."""
    return f"{rng.bit_generator.state['state']['inc']:032x}"


def generator_at(text: str, stream: str) -> np.random.Generator:
    """A ``PCG64`` generator in the state ``text`` on the stream ``stream`` (see above).

    Raises :class:`PinastatsError` when either is not hex of the right form.
    """
    head, _, buffered = text.partition("+")
    try:
        state, inc = int(head, 16), int(stream, 16)
        uinteger = int(buffered, 16) if buffered else 0
    except ValueError:
        raise PinastatsError(
            f"a generator state must be hex digits, got {text!r} (stream {stream!r})"
        ) from None
    if not (0 <= state < 2**128 and 0 <= inc < 2**128 and 0 <= uinteger < 2**32):
        raise PinastatsError(f"a generator state out of range: {text!r} (stream {stream!r})")
    rng = np.random.Generator(np.random.PCG64())
    rng.bit_generator.state = {
        "bit_generator": "PCG64",
        "state": {"state": state, "inc": inc},
        "has_uint32": int(bool(buffered)),
        "uinteger": uinteger,
    }
    return rng
