"""The one writer of the files pinastats writes: whole or not at all, checked, held."""

from __future__ import annotations

import errno
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pinastats import _files
from pinastats._files import check_output, claimed, written_whole
from pinastats.errors import OutputError, PinastatsError
from tests.full_disk import NO_SPACE, files_under, fill_disk


def test_a_file_is_written_whole_and_replaces_the_old_one(tmp_path: Path) -> None:
    target = tmp_path / "new" / "out.txt"
    with written_whole(target, encoding="utf-8") as file:
        file.write("première\nligne\n")
    assert target.read_bytes() == "première\nligne\n".encode()  # no newline translation
    with written_whole(target) as file:
        file.write(b"\x00binary")
    assert target.read_bytes() == b"\x00binary"
    assert files_under(tmp_path) == ["new", "new/out.txt"]  # no temporary file left
    assert target.stat().st_mode & 0o777 == 0o666 & ~_files._umask()


def test_a_full_disk_leaves_no_file_and_names_the_path_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "out.csv"
    target.write_text("the old table")
    fill_disk(monkeypatch, room=10)
    with pytest.raises(OutputError) as error, written_whole(target, encoding="utf-8") as file:
        file.write("x" * 100_000)
    assert str(error.value) == f"cannot write {target}: {NO_SPACE}"
    assert (error.value.errno, error.value.path) == (errno.ENOSPC, str(target))
    assert isinstance(error.value, OSError)
    assert ".tmp" not in str(error.value)
    assert target.read_text() == "the old table"  # the old file is untouched
    assert files_under(tmp_path) == ["out.csv"]


def test_a_failure_behind_another_error_is_the_one_reported(tmp_path: Path) -> None:
    """A library failing again while cleaning up (a PDF's zlib.error after ENOSPC)."""
    target = tmp_path / "report.pdf"

    class LibraryError(Exception):
        pass

    def write() -> None:
        with written_whole(target):
            try:
                raise OSError(errno.ENOSPC, NO_SPACE)
            except OSError:
                raise LibraryError("Error -2 while flushing") from None

    with pytest.raises(OutputError, match=re.escape(f"cannot write {target}: {NO_SPACE}")):
        write()
    assert files_under(tmp_path) == []


def test_other_errors_and_interrupts_pass_through_and_leave_nothing(tmp_path: Path) -> None:
    target = tmp_path / "out.bin"

    def stopped(error: type[BaseException]) -> None:
        with written_whole(target) as file:
            file.write(b"half")
            raise error("stop")

    for error in (KeyboardInterrupt, ValueError, PinastatsError):
        with pytest.raises(error):
            stopped(error)
    assert files_under(tmp_path) == []


def test_a_failing_cleanup_does_not_hide_the_first_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fill_disk(monkeypatch, room=0)

    def unlink(path: str) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", path)

    monkeypatch.setattr(os, "unlink", unlink)
    with pytest.raises(OutputError, match=NO_SPACE), written_whole(tmp_path / "x") as file:
        file.write(b"data")


def test_a_file_where_none_can_be_made_is_an_output_error_naming_it() -> None:
    """No file can be made in /proc, even by root."""
    with (
        pytest.raises(OutputError, match=r"/proc/r\.jsonl"),
        written_whole("/proc/r.jsonl") as file,
    ):
        file.write(b"{}")


def test_a_device_is_written_directly_and_not_held() -> None:
    with claimed(os.devnull), written_whole(os.devnull) as file:
        file.write(b"nothing")
        assert not Path(os.devnull + ".lock").exists()
    assert Path(os.devnull).exists()
    assert not Path(os.devnull).is_file()


def test_the_output_checks_name_the_path_and_why(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    cases = [
        (tmp_path, "is a folder; give a file name"),
        (blocker / "deeper" / "x.csv", f"{blocker} is a file, not a folder"),
    ]
    for path, why in cases:
        with pytest.raises(OutputError) as error:
            check_output(path)
        assert str(error.value) == f"{path}: {why}"
    assert check_output(tmp_path / "new" / "x.csv") == tmp_path / "new" / "x.csv"
    assert files_under(tmp_path) == ["a-file"]  # a check creates nothing


def test_a_read_only_folder_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "locked"
    folder.mkdir(mode=0o555)
    if os.geteuid() == 0:  # root may write in a read-only folder: the system says no for it
        real = os.access
        monkeypatch.setattr(os, "access", lambda p, m, **k: Path(p) != folder and real(p, m, **k))
    with pytest.raises(OutputError, match=f"the folder {folder} is not writable"):
        check_output(folder / "x.csv")


def test_a_held_file_is_refused_to_a_second_run(tmp_path: Path) -> None:
    target = tmp_path / "runs" / "games.csv"
    lock = tmp_path / "runs" / "games.csv.lock"
    with claimed(target):
        assert lock.read_text() == f"{os.getpid()}\n"
        with pytest.raises(OutputError) as error, claimed(target):
            pass
        assert f"another run (process {os.getpid()}) is writing it" in str(error.value)
        assert str(error.value).startswith(f"{target}: ")
    assert files_under(tmp_path) == []  # the lock and the folder made for it are gone


def test_a_lock_left_by_an_ended_process_is_taken_over(tmp_path: Path) -> None:
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    target = tmp_path / "games.csv"
    lock = tmp_path / "games.csv.lock"
    lock.write_text(f"{ended.pid}\n")
    with claimed(target):
        assert lock.read_text() == f"{os.getpid()}\n"
    assert not lock.exists()
