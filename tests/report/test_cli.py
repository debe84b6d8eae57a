"""``pinastats report``: the file it writes, the folders it creates, and every user error."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import pinastats.report
from pinastats.cli import report as cli_report
from pinastats.simulation.progress import Interrupted
from tests.full_disk import NO_SPACE, fill_disk
from tests.report.conftest import GAMES, SEED, Written

Cli = Callable[..., Any]  # the ``cli`` fixture of tests/conftest.py


def files_under(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def test_writes_the_pdf_and_its_folders(cli: Cli, two_players: Written, tmp_path: Path) -> None:
    target = tmp_path / "new" / "folder" / "two.pdf"
    result = cli("report", "--players", "2", "--games", str(GAMES), "--seed", str(SEED),
                 "--workers", "1", "-o", str(target), "--allow-small", "--quiet",
                 "--designer-games", "0", "--win-positions", "0")  # fmt: skip
    assert (result.code, result.err) == (0, "")
    assert result.out.startswith(f"wrote {target}: 31 pages, ")  # 2 of them Perfect play
    # the fixture ran on 2 workers: the same inputs give the same bytes
    assert target.read_bytes() == two_players.path.read_bytes()
    assert files_under(tmp_path) == ["new", "new/folder", "new/folder/two.pdf"]


def test_out_dir_names_one_file_per_player_count(
    cli: Cli, two_players: Written, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[int, dict[str, Any]]] = []

    def build(players: int, **options: Any) -> Any:
        calls.append((players, options))
        return two_players.report

    def write(report: Any, path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"%PDF")
        return path

    monkeypatch.setattr(pinastats.report, "build_report", build)
    monkeypatch.setattr(pinastats.report, "write_pdf", write)
    out = tmp_path / "reports"
    result = cli("report", "--players", "2", "3", "4", "--out-dir", str(out), "--happy-hour",
                 "--games", "10", "--seed", "3", "--allow-small")  # fmt: skip
    assert result.code == 0, result.err
    names = ["strategy-2p-happy-hour.pdf", "strategy-3p-happy-hour.pdf",
             "strategy-4p-happy-hour.pdf"]  # fmt: skip
    assert files_under(out) == names
    assert [p for p, _ in calls] == [2, 3, 4]
    options = calls[0][1]
    assert (options["games"], options["seed"], options["happy_hour"]) == (10, 3, True)
    assert options["progress"] is True  # off a terminal too: a line every few seconds
    assert len(result.out.splitlines()) == 3


def test_too_few_games_are_refused_unless_allowed(cli: Cli, tmp_path: Path) -> None:
    target = tmp_path / "one-game.pdf"
    line = cli("report", "--players", "2", "--games", "1", "-o", str(target)).one_error_line()
    assert "--games 1: a report needs at least 1,000 games per run" in line
    assert "--allow-small" in line
    assert not target.exists()


def test_default_games_agree() -> None:
    assert cli_report.DEFAULT_GAMES == pinastats.report.DEFAULT_GAMES


def test_listed_in_the_help(cli: Cli) -> None:
    result = cli("--help")
    assert "report" in result.out
    assert "PDF strategy report" in result.out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "5", "-o", "x.pdf"], "a game has 2, 3 or 4 players, got 5"),
        (["--players", "1", "-o", "x.pdf"], "a game has 2, 3 or 4 players, got 1"),
        (["--players", "two", "-o", "x.pdf"], "expected 2, 3 or 4"),
        (["--players", "2", "2", "--out-dir", "d"], "each player count once"),
        (["--players", "2", "3", "-o", "x.pdf"], "use --out-dir"),
        (["--players", "2"], "one of the arguments -o/--output --out-dir is required"),
        (["--players", "2", "-o", "x.pdf", "--out-dir", "d"], "not allowed with"),
        (["--players", "2", "--games", "0", "-o", "x.pdf"], "--games: must be at least 1"),
        (["--players", "2", "--games", "-5", "-o", "x.pdf"], "--games: must be at least 1"),
        (["--players", "2", "--seed", "-1", "-o", "x.pdf"], "--seed: must be at least 0"),
        (["--players", "2", "--workers", "0", "-o", "x.pdf"], "--workers: must be at least 1"),
        (["--players", "2", "-o", "x.txt"], "give a file name ending in .pdf"),
        (["--players", "2", "-o", "a-file/x.pdf"], "a-file is a file"),
        (["--players", "2", "-o", "a-file/deeper/x.pdf"], "a-file is a file"),
        (["--players", "2", "--out-dir", "a-file"], "a-file is a file"),
        (["--players", "2", "-o", "folder.pdf"], "is a directory"),
        (["--players", "2", "-o", "x.pdf", "--coasters", "missing.csv"],
         "--coasters missing.csv: No such file or directory"),
        (["--players", "2", "-o", "x.pdf", "--coasters", "bad.csv"],
         "bad.csv, line 2, column 'combination': unknown combination 'Ful House'"),
    ],
)  # fmt: skip
def test_errors_are_one_line_and_leave_no_file(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str], message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a-file").write_text("not a folder")
    (tmp_path / "folder.pdf").mkdir()
    header = "id,combination,colour,side_a,side_b_first,side_b_second\n"
    (tmp_path / "bad.csv").write_text(header + "full-house,Ful House,red,3,4,3\n")
    before = files_under(tmp_path)
    line = cli("report", *argv).one_error_line()
    assert message in line
    assert files_under(tmp_path) == before


def test_read_only_folder(cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "locked"
    folder.mkdir(mode=0o555)
    if os.geteuid() == 0:  # root may write in a read-only folder: the system says no for it
        real = os.access
        monkeypatch.setattr(os, "access", lambda p, m, **k: Path(p) != folder and real(p, m, **k))
    line = cli("report", "--players", "2", "-o", str(folder / "x.pdf")).one_error_line()
    assert line.endswith(f"the folder {folder} is not writable")
    assert list(folder.iterdir()) == []


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs a /proc file system")
def test_a_folder_no_file_can_be_made_in(cli: Cli) -> None:
    """``os.access`` says yes to root in /proc, where no file can be created: the write is tried."""
    line = cli("report", "--players", "2", "-o", "/proc/x.pdf").one_error_line()
    assert "cannot write in the folder /proc (" in line or line.endswith("/proc is not writable")
    assert not Path("/proc/x.pdf").exists()


def test_a_full_disk_is_one_error_naming_the_file_and_leaves_nothing(
    cli: Cli, two_players: Written, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pinastats.report, "build_report", lambda p, **o: two_players.report)
    fill_disk(monkeypatch, room=24_000)  # a partial PDF of 24 kB, then ENOSPC
    target = tmp_path / "reports" / "two.pdf"
    result = cli("report", "--players", "2", "-o", str(target), "--games", "10", "--allow-small",
                 "-q")  # fmt: skip
    assert result.one_error_line() == f"pinastats: error: cannot write {target}: {NO_SPACE}"
    assert files_under(tmp_path) == []


@pytest.mark.parametrize("out_dir", [False, True])
def test_ctrl_c_says_which_reports_were_written(
    cli: Cli, two_players: Written, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, out_dir: bool
) -> None:
    def build(players: int, **options: Any) -> Any:
        if players == 3:
            raise Interrupted(5_000, 20_000)
        return two_players.report

    def write(report: Any, path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"%PDF")
        return path

    monkeypatch.setattr(pinastats.report, "build_report", build)
    monkeypatch.setattr(pinastats.report, "write_pdf", write)
    where = ["--players", "2", "3", "4", "--out-dir", str(tmp_path)] if out_dir else [
        "--players", "3", "-o", str(tmp_path / "three.pdf")]  # fmt: skip
    result = cli("report", *where, "--games", "10", "--allow-small", "-q")
    assert result.code == 130
    said = "pinastats: interrupted after 5,000 of 20,000 games, building the 3-player report: "
    if out_dir:
        said += (f"wrote {tmp_path / 'strategy-2p.pdf'}; did not write "
                 f"{tmp_path / 'strategy-3p.pdf'}, {tmp_path / 'strategy-4p.pdf'}")  # fmt: skip
        assert files_under(tmp_path) == ["strategy-2p.pdf"]
    else:
        said += "no file was written"
        assert files_under(tmp_path) == []
    assert result.err.splitlines()[-1] == said
