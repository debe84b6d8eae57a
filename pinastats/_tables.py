"""Solved boards' tables on disk: 16-bit fixed point, byte-shuffled, compressed, checksummed.

No numba here, so that ``pinastats cache`` lists and clears them at once. One
table is one file, ``<board digest>.table`` in :func:`pinastats._cache.tables_dir`::

    MAGIC | header length (4 bytes, little-endian) | header (JSON) | checksum (32 bytes)
          | zstd frame of the payload

Each chance ``v`` in [0, 1] is stored as the code ``q = round(v · SCALE)``,
``SCALE = 65534`` (``NAN_CODE = 65535`` for a position no game reaches), and read
back as ``q / SCALE`` in float32. Rounding to the code costs at most
``1 / (2 · SCALE)``, the float32 quotient at most ``2⁻²⁵`` more::

    |read − v| ≤ 1 / 131068 + 2⁻²⁵ < 7.66·10⁻⁶ = ERROR_BOUND

The payload is the codes column by column (a table of ``(boards, 2)``: every
first-player value, then every second-player one), byte-shuffled (every low
byte, then every high byte: neighbouring chances share their high byte, which
compresses to little), then the extra arrays as they are (the last turn's
float64 table). For the 4×4 grid that is 30 MB instead of 74 MB of float32
(measured in docs/solved-game.md).

The header names the board's digest, the solver's, every array's shape and
type and the payload's length; the checksum is the BLAKE2b-256 digest of the
header's bytes and of the (uncompressed) payload. :func:`load_table` checks all
of it and refuses anything else (:class:`TableError`): a truncated, altered,
wrong-board or wrong-shape file is never read as values.

The folder keeps at most :func:`size_cap` bytes of tables (default
:data:`DEFAULT_CAP`, ``PINASTATS_CACHE_SIZE`` to change it): :func:`prune`
drops the least recently used, and the temporary files a killed write left.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import struct
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import zstandard

from pinastats._files import written_whole
from pinastats.errors import PinastatsError

MAGIC = b"pinastats table\n"
"""The first bytes of every table file."""

FORMAT = 1
"""The table format's version (in the header)."""

SUFFIX = ".table"
"""A table file's suffix: ``<board digest>.table``."""

SCALE = 65534
"""A chance ``v`` is stored as the 16-bit code ``round(v · SCALE)``."""

NAN_CODE = 65535
"""The code of a position no game reaches (NaN in the solve)."""

ERROR_BOUND = 0.5 / SCALE + 2.0**-25
"""Most a chance read back differs from the float64 solve: 7.66·10⁻⁶."""

LEVEL = 3
"""The zstd compression level (higher ones gained under 1% on a 4×4 table, at 5 to 100 times
the time)."""

DEFAULT_CAP = 1 << 30
"""Bytes of tables a cache folder keeps by default (1 GiB: about 40 tables of the 4×4 grid)."""

CAP_ENV = "PINASTATS_CACHE_SIZE"
"""The environment variable setting the cap (``2G``, ``500M``, bytes)."""

ORPHAN_AGE = 3600.0
"""Seconds after which a temporary file in the folder is a killed write's orphan."""

STORED = "by column, byte-shuffled"
"""How the codes are laid out in the payload (:func:`_payload`)."""

_BLOCK = 1 << 20
"""Codes encoded or decoded at a time (bounds the temporary memory)."""

_MAX_HEADER = 1 << 20


class TableError(PinastatsError):
    """A kept table that cannot be used: truncated, altered, another board's, another shape."""


@dataclass(frozen=True)
class Loaded:
    """A table read back whole and checked.

    Attributes:
        values: the chances, float32, NaN where no game reaches.
        extra: the extra arrays, by name.
        header: the file's header.
    """

    values: npt.NDArray[np.float32]
    extra: dict[str, np.ndarray]
    header: dict[str, Any]


def encode(values: np.ndarray) -> npt.NDArray[np.uint16]:
    """The 16-bit codes of the chances ``values`` (any shape): ``round(v · SCALE)``, NaN coded.

    A value outside [0, 1] by more than 10⁻⁹ is an error (not a chance); closer
    ones are clipped.
    """
    flat = np.asarray(values).reshape(-1)
    codes = np.empty(flat.size, dtype=np.uint16)
    for lo in range(0, flat.size, _BLOCK):
        block = np.asarray(flat[lo : lo + _BLOCK], dtype=np.float64)
        nan = np.isnan(block)
        bad = ~nan & ((block < -1e-9) | (block > 1 + 1e-9))
        if bad.any():
            raise ValueError(f"a chance must lie in [0, 1], got {block[bad][0]!r}")
        scaled = np.rint(np.clip(np.where(nan, 0.0, block), 0.0, 1.0) * SCALE)
        codes[lo : lo + _BLOCK] = np.where(nan, NAN_CODE, scaled).astype(np.uint16)
    return codes.reshape(np.shape(values))


def _decoded(block: npt.NDArray[np.uint16]) -> npt.NDArray[np.float32]:
    """The chances of the codes ``block``: ``q / SCALE`` in float32, NaN for :data:`NAN_CODE`.

    One rounding (a correctly rounded quotient of two exact numbers): within 2⁻²⁵.
    """
    part = block.astype(np.float32) / np.float32(SCALE)
    part[block == NAN_CODE] = np.nan
    return part


def decode(codes: npt.NDArray[np.uint16]) -> npt.NDArray[np.float32]:
    """The chances of the 16-bit ``codes`` (any shape), in float32 (:func:`_decoded`)."""
    flat = codes.reshape(-1)
    out = np.empty(flat.size, dtype=np.float32)
    for lo in range(0, flat.size, _BLOCK):
        out[lo : lo + _BLOCK] = _decoded(flat[lo : lo + _BLOCK])
    return out.reshape(codes.shape)


def _as_columns(shape: tuple[int, ...]) -> tuple[int, int]:
    """``(rows, columns)`` of a table of ``shape`` (a flat array: one column)."""
    rows = shape[0] if shape else 1
    return rows, int(np.prod(shape)) // max(rows, 1)


def _payload(codes: npt.NDArray[np.uint16], extras: Mapping[str, np.ndarray]) -> np.ndarray:
    """The bytes stored: the codes column by column, low bytes then high bytes; the extras."""
    n = codes.size
    rows, columns = _as_columns(codes.shape)
    table = codes.reshape(rows, columns)
    arrays = [
        a.astype(a.dtype.newbyteorder("<")).reshape(-1).view(np.uint8) for a in extras.values()
    ]
    payload = np.empty(2 * n + sum(a.size for a in arrays), dtype=np.uint8)
    for j in range(columns):
        for lo in range(0, rows, _BLOCK):
            block = table[lo : lo + _BLOCK, j]
            at = j * rows + lo
            payload[at : at + block.size] = block & 0xFF
            payload[n + at : n + at + block.size] = block >> 8
    at = 2 * n
    for a in arrays:
        payload[at : at + a.size], at = a, at + a.size
    return payload


def _values(payload: bytes, shape: tuple[int, ...]) -> npt.NDArray[np.float32]:
    """The chances of the codes at the start of ``payload`` (:func:`_payload`'s inverse)."""
    n = int(np.prod(shape))
    rows, columns = _as_columns(shape)
    raw = np.frombuffer(payload, dtype=np.uint8, count=2 * n)
    out = np.empty((rows, columns), dtype=np.float32)
    for j in range(columns):
        for lo in range(0, rows, _BLOCK):
            at, size = j * rows + lo, min(_BLOCK, rows - lo)
            low = raw[at : at + size].astype(np.uint16)
            low |= raw[n + at : n + at + size].astype(np.uint16) << 8
            out[lo : lo + size, j] = _decoded(low)
    return out.reshape(shape)


CHECKSUM_BYTES = 32
"""Bytes of the checksum, after the header."""


def _checksum(head: bytes | memoryview, payload: bytes | memoryview) -> bytes:
    """BLAKE2b-256 of the header's bytes and of the payload."""
    h = hashlib.blake2b(head, digest_size=CHECKSUM_BYTES)
    h.update(payload)
    return h.digest()


def save_table(
    path: Path,
    *,
    board: str,
    solver: str,
    codes: npt.NDArray[np.uint16],
    extra: Mapping[str, np.ndarray],
    about: Mapping[str, Any],
    stats: Mapping[str, Any] | None,
) -> int:
    """Write the table of ``board`` whole at ``path`` (:func:`written_whole`); return its bytes.

    ``codes`` from :func:`encode`; ``extra`` arrays are stored as they are.
    ``about`` says what the board is (for ``pinastats cache``); ``stats`` how
    the solve went. A failure of the disk is an
    :class:`~pinastats.errors.OutputError` and leaves nothing behind.
    """
    extras = {name: np.ascontiguousarray(a) for name, a in extra.items()}
    payload = _payload(codes, extras)
    header: dict[str, Any] = {
        "format": FORMAT,
        "board": board,
        "solver": solver,
        "values": {
            "shape": list(codes.shape),
            "dtype": "uint16",
            "scale": SCALE,
            "nan": NAN_CODE,
            "stored": STORED,
        },
        "extra": {
            name: {"shape": list(a.shape), "dtype": a.dtype.newbyteorder("<").str}
            for name, a in extras.items()
        },
        "payload_bytes": payload.size,
        "compression": f"zstd {LEVEL}",
        "about": dict(about),
        "stats": None if stats is None else dict(stats),
        "saved": datetime.now(UTC).isoformat(timespec="seconds"),
        "checksum": "blake2b-256 of this header and the payload, in the 32 bytes after it",
    }
    head = json.dumps(header, indent=1).encode()
    raw = payload.data  # the array's bytes, not copied
    checksum = _checksum(head, raw)
    compressed = zstandard.ZstdCompressor(level=LEVEL, threads=-1).compress(raw)
    raw.release()
    del payload
    with written_whole(path) as file:
        file.write(MAGIC + struct.pack("<I", len(head)) + head + checksum)
        file.write(compressed)
    return len(MAGIC) + 4 + len(head) + CHECKSUM_BYTES + len(compressed)


def _header(data: bytes | memoryview) -> tuple[dict[str, Any], int]:
    """The header of the table bytes ``data`` (their start will do), and where its bytes end."""
    if len(data) < len(MAGIC) + 4:
        raise TableError(f"truncated ({len(data)} bytes)")
    if bytes(data[: len(MAGIC)]) != MAGIC:
        raise TableError("not a pinastats table (its first bytes differ)")
    (size,) = struct.unpack("<I", bytes(data[len(MAGIC) : len(MAGIC) + 4]))
    start = len(MAGIC) + 4
    if size > _MAX_HEADER:
        raise TableError(f"its header claims {size:,} bytes")
    if len(data) < start + size:
        raise TableError("truncated in its header")
    try:
        header = json.loads(bytes(data[start : start + size]))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise TableError(f"its header is not JSON ({exc})") from None
    if not isinstance(header, dict):
        raise TableError("its header is not a JSON object")
    if header.get("format") != FORMAT:
        raise TableError(f"format {header.get('format')!r}, not {FORMAT}")
    return header, start + size


def read_header(path: Path) -> dict[str, Any]:
    """The header of the table at ``path`` (nothing else read or checked)."""
    with path.open("rb") as file:
        start = file.read(len(MAGIC) + 4)
        if len(start) == len(MAGIC) + 4 and start.startswith(MAGIC):
            start += file.read(min(struct.unpack("<I", start[len(MAGIC) :])[0], _MAX_HEADER))
    return _header(start)[0]


def _expect(what: str, found: Any, wanted: Any) -> None:
    if found != wanted:
        raise TableError(f"{what} {found!r}, not {wanted!r}")


def load_table(
    path: Path,
    *,
    board: str,
    shape: tuple[int, ...],
    extra: Mapping[str, tuple[tuple[int, ...], str]],
) -> Loaded:
    """The table of ``board`` at ``path``, read whole and checked, or a :class:`TableError`.

    ``shape`` is the shape the values must have; ``extra`` names each extra
    array with its shape and dtype (``"<f8"``). Checked: the magic bytes, the
    format, the board's digest, every shape and type, the payload's length and
    the checksum; extra arrays must be chances too (in [0, 1]).
    """
    data = path.read_bytes()
    header, end = _header(data)
    if len(data) < end + CHECKSUM_BYTES:
        raise TableError("truncated after its header")
    head, checksum = data[len(MAGIC) + 4 : end], data[end : end + CHECKSUM_BYTES]
    _expect("the table of board", header.get("board"), board)
    values = header.get("values")
    if not isinstance(values, dict):
        raise TableError("its header describes no values")
    _expect("values of shape", values.get("shape"), list(shape))
    _expect("values stored as", values.get("dtype"), "uint16")
    _expect("a scale of", values.get("scale"), SCALE)
    _expect("NaN coded as", values.get("nan"), NAN_CODE)
    _expect("values laid out", values.get("stored"), STORED)
    wanted = {name: {"shape": list(s), "dtype": d} for name, (s, d) in extra.items()}
    _expect("extra arrays", header.get("extra"), wanted)
    n = int(np.prod(shape))
    sizes = [int(np.prod(s)) * np.dtype(d).itemsize for s, d in extra.values()]
    length = 2 * n + sum(sizes)
    _expect("a payload of bytes", header.get("payload_bytes"), length)
    try:
        with memoryview(data) as view:  # the compressed bytes, not copied
            frame = view[end + CHECKSUM_BYTES :]
            payload = zstandard.ZstdDecompressor().decompress(frame, max_output_size=length)
            frame.release()
    except zstandard.ZstdError as exc:
        raise TableError(f"its compressed values are damaged ({exc})") from None
    del data  # the compressed bytes go before the values are decoded
    if len(payload) != length:
        raise TableError(f"truncated ({len(payload):,} of {length:,} bytes of values)")
    if _checksum(head, payload) != checksum:
        raise TableError("altered: its checksum does not match")
    table = _values(payload, shape)
    arrays, at = {}, 2 * n
    for (name, (s, d)), size in zip(extra.items(), sizes, strict=True):
        array = (
            np.frombuffer(payload, dtype=d, count=size // np.dtype(d).itemsize, offset=at)
            .reshape(s)
            .astype(np.dtype(d).newbyteorder("="))
        )
        if not np.all((array >= 0) & (array <= 1)):
            raise TableError(f"its {name} holds values outside [0, 1]")
        arrays[name], at = array, at + size
    return Loaded(table, arrays, header)


# ---------------------------------------------------------------- the folder


@dataclass(frozen=True)
class Kept:
    """One table file of a folder.

    Attributes:
        path: the file.
        bytes: its size.
        used: when it was last used (its modification time: a read marks it).
        header: its header, None when it cannot be read (``problem`` says why).
        problem: why its header cannot be read, else None.
    """

    path: Path
    bytes: int
    used: float
    header: dict[str, Any] | None
    problem: str | None

    @property
    def digest(self) -> str:
        """The board's digest (the file's name)."""
        return self.path.name.removesuffix(SUFFIX)


def _stat(path: Path) -> os.stat_result | None:
    try:
        return path.stat()
    except OSError:  # removed meanwhile by another process
        return None


def kept_tables(folder: Path, *, headers: bool = True) -> list[Kept]:
    """The tables of ``folder``, the most recently used first (none if there is no folder)."""
    found: list[Kept] = []
    for path in folder.glob(f"*{SUFFIX}"):
        st = _stat(path)
        if st is None:
            continue
        header, problem = None, None
        if headers:
            try:
                header = read_header(path)
            except (OSError, TableError) as exc:
                problem = str(exc)
        found.append(Kept(path, st.st_size, st.st_mtime, header, problem))
    return sorted(found, key=lambda k: k.used, reverse=True)


def orphans(folder: Path, *, now: float | None = None, age: float = ORPHAN_AGE) -> list[Path]:
    """The temporary files of ``folder`` older than ``age`` seconds: writes that were killed."""
    now = time.time() if now is None else now
    old = []
    for path in folder.glob(".*.tmp"):
        st = _stat(path)
        if st is not None and now - st.st_mtime > age:
            old.append(path)
    return old


def prune(
    folder: Path, cap: int, *, keep: Path | None = None, now: float | None = None
) -> list[Path]:
    """Keep at most ``cap`` bytes of tables in ``folder``, dropping the least recently used.

    ``keep`` (the table just written) stays whatever its size; the orphans of
    killed writes (:func:`orphans`) go too. Returns what was removed.
    """
    removed = orphans(folder, now=now)
    total = 0
    for kept in kept_tables(folder, headers=False):
        total += kept.bytes
        if total > cap and kept.path != keep:
            removed.append(kept.path)
            total -= kept.bytes
    for path in removed:
        with contextlib.suppress(OSError):
            path.unlink()
    return removed


def remove_tables(folder: Path, which: str | None = None) -> list[Kept]:
    """Remove every table of ``folder`` (and orphans), or the one whose digest starts ``which``."""
    tables = kept_tables(folder, headers=False)
    if which is not None:
        tables = [k for k in tables if k.digest.startswith(which.lower())]
        if len(tables) != 1:
            what = "no kept table" if not tables else f"{len(tables)} kept tables"
            raise PinastatsError(
                f"{what} in {folder} has a digest starting {which!r}: give the start of one "
                "digest that 'pinastats cache' lists"
            )
    for kept in tables:
        with contextlib.suppress(FileNotFoundError):
            kept.path.unlink()
    if which is None:
        for path in orphans(folder, age=0.0):
            with contextlib.suppress(OSError):
                path.unlink()
    return tables


_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*", re.IGNORECASE)


def parse_size(text: str) -> int:
    """Bytes of ``text``: a number, with ``K``, ``M``, ``G`` or ``T`` (powers of 1,024)."""
    match = _SIZE.fullmatch(text)
    if match is None:
        raise PinastatsError(
            f"{text!r} is not a size: give bytes or a number with K, M, G or T (500M, 2G)"
        )
    number, unit = match.groups()
    return int(float(number) * 1024 ** "_kmgt".index(unit.lower() or "_"))


def size_cap() -> int:
    """Bytes of tables a folder keeps: ``$PINASTATS_CACHE_SIZE``, else :data:`DEFAULT_CAP`."""
    given = os.environ.get(CAP_ENV, "")
    if not given:
        return DEFAULT_CAP
    try:
        return parse_size(given)
    except PinastatsError as exc:
        raise PinastatsError(f"{CAP_ENV}: {exc}") from None
