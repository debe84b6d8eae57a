"""What a run may ask for: its settings checked, and the memory of its per-game table."""

from __future__ import annotations

import os

from pinastats.dice.errors import at_least, is_whole
from pinastats.errors import PinastatsError
from pinastats.game.config import GameConfig

MEMORY_SHARE = 0.8
"""Share of the available memory the per-game table of a run may take."""


def check_run(
    seats: int, games: int, seed: int, chunk_size: int, first_seat: int | None, config: GameConfig
) -> tuple[int, int, int]:
    """Refuse a run's settings that do not fit (the checks :func:`simulate` makes).

    Returns ``(games, seed, chunk_size)`` as Python ints (NumPy integers are accepted).
    """
    if seats != config.players:
        raise PinastatsError(
            f"{seats} agents given for {config.players} players: name one agent per seat"
        )
    games, seed = at_least(games, "games", 1), at_least(seed, "seed", 0)
    chunk_size = at_least(chunk_size, "chunk size", 1)
    if first_seat is not None and (
        not is_whole(first_seat) or not 0 <= first_seat < config.players
    ):
        raise PinastatsError(f"first seat must be 0 to {config.players - 1}, got {first_seat!r}")
    return games, seed, chunk_size


def table_bytes(games: int, config: GameConfig) -> int:
    """Estimated peak memory, in bytes, of collecting the per-game table of ``games`` games.

    Per game: the chunk arrays (6 + 2 p + c int64 for p seats and c catalogue
    coasters) held twice while they are joined, plus the table's 7 + 2 p int64
    columns and p + 3 one-byte categorical columns (about 650 bytes for 2 seats).
    """
    p, c = config.players, len(config.catalogue)
    return games * (2 * (6 + 2 * p + c) * 8 + (7 + 2 * p) * 8 + p + 3)


def available_memory() -> int | None:
    """Bytes of memory available to a new allocation (``MemAvailable``), None if unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def _size(n: float) -> str:
    """Bytes in words: ``'1.5 GB'``."""
    for unit in ("bytes", "kB", "MB", "GB", "TB", "PB"):
        if n < 1000 or unit == "PB":
            return f"{n:,.0f} {unit}" if unit == "bytes" else f"{n:,.1f} {unit}"
        n /= 1000
    raise AssertionError  # pragma: no cover


def check_memory(games: int, config: GameConfig, available: int | None = None) -> None:
    """Refuse (PinastatsError) a run whose per-game table would not fit in memory.

    The table may take up to :data:`MEMORY_SHARE` of the available memory
    (``available``, default :func:`available_memory`; unknown: no check).
    """
    available = available_memory() if available is None else available
    need = table_bytes(games, config)
    if available is None or need <= MEMORY_SHARE * available:
        return
    most = int(MEMORY_SHARE * available) // table_bytes(1, config)
    raise PinastatsError(
        f"{games:,} games need about {_size(need)} of memory for the per-game table "
        f"({table_bytes(1, config)} bytes a game), and {_size(available)} is available: "
        f"play at most {most:,} games a run (several seeds make several runs)"
    )
