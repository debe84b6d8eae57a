"""A full disk, faked: the files pinastats writes hit ``ENOSPC`` after a few bytes.

:func:`fill_disk` replaces the opening of the one writer's temporary files
(:func:`pinastats._files._open`): the first ``whole`` files are written as usual,
each later one takes ``room`` bytes, then every write fails with "No space left on
device", as on a disk that has just filled up. A command not writing through the
one writer is not touched by it.
"""

from __future__ import annotations

import errno
import io
import os
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

import pytest

from pinastats import _files

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer

NO_SPACE = os.strerror(errno.ENOSPC)
"""The reason a full disk gives: "No space left on device"."""


class FullFile(io.FileIO):
    """A file whose writes fail with ``ENOSPC`` once ``room`` bytes are written."""

    room = 0

    def write(self, data: ReadableBuffer, /) -> int:
        """Write what fits; nothing fits: ``OSError(ENOSPC)``."""
        if self.room <= 0:
            raise OSError(errno.ENOSPC, NO_SPACE)
        part = memoryview(data).cast("B")[: self.room]
        self.room -= len(part)
        return super().write(part)


def fill_disk(monkeypatch: pytest.MonkeyPatch, room: int = 100, whole: int = 0) -> list[int]:
    """Fake a full disk from the ``whole + 1``-th file on; the list counts the files opened."""
    opened: list[int] = []

    def full(fd: int) -> BinaryIO:
        opened.append(fd)
        raw = FullFile(fd, "wb")
        raw.room = room if len(opened) > whole else 1 << 62
        return io.BufferedWriter(raw)

    monkeypatch.setattr(_files, "_open", full)
    return opened


def files_under(folder: Path) -> list[str]:
    """Every file and folder under ``folder``, as paths relative to it, sorted."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))
