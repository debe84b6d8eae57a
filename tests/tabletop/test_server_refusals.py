"""What ``play --serve`` refuses before serving, and the files a request cannot make it open.

* An agent that cannot play the game (``perfect`` with Happy Hour, three players or a
  Happy Hour position) is refused in one line before anything is served, as
  ``simulate`` refuses it.
* A served ``setup`` whose position line says ``layout=<path>`` opens no file: the
  served board takes layouts by name only.
* On the command line a layout file is read only if it is a regular file of bounded
  size: ``/dev/zero``, a FIFO and a file over the bound are refused at once.

The commands that would serve (or read) for ever on a faulty build run in a
subprocess with a time limit (and a memory limit for ``/dev/zero``).
"""

from __future__ import annotations

import http.client
import json
import os
import resource
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from importlib.resources import files
from pathlib import Path

import pytest

from pinastats.game.game import Game
from pinastats.game.layout import MAX_LAYOUT_BYTES, LayoutError, load_layout, names_only
from pinastats.game.notation import notation_of
from pinastats.tabletop.server import TOKEN_HEADER, BoardServer
from pinastats.tabletop.table import TableSession

ROOT = Path(__file__).resolve().parents[2]
HAPPY = (
    "pc1 T4,AD,T2,P5:B/P1+1,SS+1,LS,S12+1/OD,P2,T3,S21+2/T5,DP+2,4K,EV 2 turns=7 last=5,6 "
    "scores=7,7 hh"
)
"""A two-player Happy Hour position (docs/notation.md)."""


def _limit_memory() -> None:  # pragma: no cover - runs in the child
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


def _run(*args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    """``python -m pinastats.cli.main ARGS`` with a time and a memory limit."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "pinastats.cli.main", *args], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL, preexec_fn=_limit_memory)  # fmt: skip


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# -------------------------------------------------------------------- perfect where it cannot play


@pytest.mark.parametrize(
    ("options", "why"),
    [
        (["--seats", "human,perfect", "--happy-hour"], "not Happy Hour"),
        (["--seats", "perfect,human", "--happy-hour"], "not Happy Hour"),
        (["--seats", "human,perfect,strategic"], "two players, not 3"),
        (["--seats", "human,perfect", "--position", HAPPY], "not Happy Hour"),
    ],
    ids=["happy-hour", "perfect-first", "three-players", "happy-hour-position"],
)
def test_perfect_where_it_cannot_play_is_refused_before_serving(
    options: list[str], why: str
) -> None:
    port = str(_free_port())
    done = _run("play", "--serve", "--port", port, *options)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr  # one line, nothing served
    assert lines[0].startswith("pinastats: error: agent 'perfect' cannot play this game")
    assert why in lines[0]
    assert "serving" not in done.stderr


def test_the_same_refusal_as_simulate() -> None:
    play = _run("play", "--serve", "--port", str(_free_port()), "--seats", "human,perfect",
                "--happy-hour")  # fmt: skip
    simulate = _run("simulate", "--agents", "strategic,perfect", "--games", "2", "--happy-hour")
    assert simulate.returncode == play.returncode == 2
    # the same error line (a cold cache may print the compile's lines before it, in either)
    assert play.stderr.strip().splitlines()[-1] == simulate.stderr.strip().splitlines()[-1]
    assert play.stderr.strip().splitlines()[-1].startswith("pinastats: error: ")


# -------------------------------------------------------------------- a served setup names no file


@pytest.fixture
def table() -> Iterator[BoardServer]:
    server = BoardServer(TableSession(), 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        server.close_session()


def _setup(server: BoardServer, position: str) -> dict[str, object]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20)
    try:
        body = json.dumps({"cmd": "setup", "position": position})
        connection.request("POST", "/api", body=body,
                           headers={"Content-Type": "application/json",
                                    TOKEN_HEADER: server.token})  # fmt: skip
        answer = connection.getresponse()
        assert answer.status == 200
        out: dict[str, object] = json.loads(answer.read())
        return out
    finally:
        connection.close()


def test_a_served_setup_takes_layouts_by_name_only(table: BoardServer, tmp_path: Path) -> None:
    shipped = json.loads((files("pinastats.data") / "layouts" / "standard.json").read_text())
    shipped["name"] = "mine"
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps(shipped), encoding="utf-8")
    assert load_layout(mine).name == "mine"  # a good layout file, read on the command line
    line = notation_of(Game.new(2, seed=0))
    answer = _setup(table, f"{line} layout={mine}")
    assert answer["view"]["mode"] == "setup"  # type: ignore[index]  # not set up
    assert "by name" in str(answer["message"])
    assert str(mine)[:80] in str(answer["message"])  # the path, cut to 80 characters
    answer = _setup(table, f"{line} layout=standard")  # a shipped layout by its name
    assert answer["view"]["mode"] == "table"  # type: ignore[index]
    assert load_layout(mine).name == "mine"  # outside a request, files are read again


def test_names_only_refuses_every_path_and_ends_with_its_block(tmp_path: Path) -> None:
    with names_only("the test"):
        assert load_layout("Cross").name == "cross"
        for path in (str(tmp_path / "x.json"), tmp_path / "x.json", "/dev/zero", "nope/x"):
            with pytest.raises(LayoutError, match="the test takes a shipped layout by name"):
                load_layout(path)
    with pytest.raises(LayoutError, match="not a regular file"):
        load_layout("/dev/zero")


# -------------------------------------------------------------------- layout files on the CLI

_PROBE = """
import sys
from pinastats.game.layout import LayoutError, load_layout
for path in sys.argv[1:]:
    try:
        load_layout(path)
    except LayoutError as exc:
        print(path, "refused:", exc)
    else:
        print(path, "read")
"""


def test_layout_files_are_regular_and_bounded(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    big = tmp_path / "big.json"
    with big.open("wb") as out:
        out.truncate(MAX_LAYOUT_BYTES + 1)  # sparse: nothing written
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", _PROBE, "/dev/zero", str(fifo), str(big),
                           str(tmp_path)], env=env, capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL, preexec_fn=_limit_memory)  # fmt: skip
    assert done.returncode == 0, done.stderr
    said = dict(line.split(" ", 1) for line in done.stdout.splitlines())
    assert said["/dev/zero"].startswith("refused:")
    assert "not a regular file" in said["/dev/zero"]
    assert "not a regular file" in said[str(fifo)]
    assert f"over {MAX_LAYOUT_BYTES:,} bytes" in said[str(big)]
    assert "is a folder" in said[str(tmp_path)]


def test_a_position_naming_dev_zero_is_one_line_at_once() -> None:
    line = notation_of(Game.new(2, seed=0))
    done = _run("advise", "--position", f"{line} layout=/dev/zero", "--dice", "1", "2", "3", "4",
                "5", "--rolls-left", "2")  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "pinastats: error: --position: position notation, layout: '/dev/zero' is not a regular "
        "file (a device, a pipe or a socket); a layout is a JSON file"
    ]
