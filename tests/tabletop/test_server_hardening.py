"""The served board refuses what is not its own page's click, and answers every request.

Raw HTTP against a server in this process, its working folder a temporary one:
requests from another origin, malformed bodies and lengths, and messages whose
fields have the wrong type or range each get a 4xx status and one line of JSON,
leave the game as it was and write nothing; the server answers ``/api/view``
afterwards. ``export`` takes no path: the record comes back as a download.
"""

from __future__ import annotations

import http.client
import json
import select
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pinastats.records import read_records
from pinastats.records.format import parse_records
from pinastats.tabletop import server as server_module
from pinastats.tabletop.commands import COMMANDS, MessageError, act, carry_out, check_message
from pinastats.tabletop.server import MAX_BODY, TOKEN_HEADER, BoardServer
from pinastats.tabletop.session import PlaySession

Answer = tuple[int, dict[str, str], bytes]


class Board:
    """A served session and raw requests to it."""

    def __init__(self, server: BoardServer, folder: Path) -> None:
        self.server, self.folder = server, folder
        self.port = server.port
        self.origin = f"http://127.0.0.1:{self.port}"

    def raw(self, data: bytes, *, half_close: bool = False, timeout: float = 20.0) -> Answer:
        """Send ``data`` as it is; the status, headers and body of the answer."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as sock:
            sock.sendall(data)
            if half_close:
                sock.shutdown(socket.SHUT_WR)
            answer = http.client.HTTPResponse(sock)
            answer.begin()
            return answer.status, dict(answer.getheaders()), answer.read()

    def request(self, body: bytes | str | None = b"", *, method: str = "POST", path: str = "/api",
                headers: dict[str, str | None] | None = None, length: str | None = "auto",
                **options: Any) -> Answer:  # fmt: skip
        """A request as the page sends it, but for ``headers`` (None: left out) and ``length``."""
        if isinstance(body, str):
            body = body.encode()
        sent: dict[str, str | None] = {
            "Host": f"127.0.0.1:{self.port}",
            "Origin": self.origin,
            "Content-Type": "application/json",
            TOKEN_HEADER: self.server.token,
        }
        if method == "GET":
            sent = {"Host": sent["Host"]}
        sent.update(headers or {})
        if length == "auto":
            length = None if body is None else str(len(body))
        sent["Content-Length"] = length
        head = f"{method} {path} HTTP/1.1\r\n" + "".join(
            f"{k}: {v}\r\n" for k, v in sent.items() if v is not None
        )
        return self.raw(head.encode() + b"\r\n" + (body or b""), **options)

    def post(self, message: Any, **options: Any) -> Answer:
        return self.request(json.dumps(message), **options)

    def view(self) -> dict[str, Any]:
        status, _, body = self.request(None, method="GET", path="/api/view", length=None)
        assert status == 200
        view: dict[str, Any] = json.loads(body)
        return view


@pytest.fixture
def board(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Board]:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(server_module._Handler, "timeout", 1.0)  # a short body waits 1 s
    server = BoardServer(PlaySession(["human", "strategic"], seed=4), 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Board(server, tmp_path)
    finally:
        server.shutdown()
        server.server_close()
        server.session.close()


def _refused(answer: Answer, status: int, words: str = "") -> str:
    """The one line of a refusal with ``status``, checked."""
    got, headers, body = answer
    assert got == status, body
    assert headers["Content-Type"] == "application/json"
    error: str = json.loads(body)["error"]
    assert isinstance(error, str)
    assert error
    assert "\n" not in error
    assert len(error) <= 300
    assert words in error
    return error


def _untouched(board: Board, before: dict[str, Any]) -> None:
    """The game as it was, nothing written, the server still serving."""
    assert board.view() == before
    assert list(board.folder.rglob("*")) == []


def _play_once(board: Board) -> dict[str, Any]:
    """The first roll, by the page's own request: the view where dice can be held."""
    status, _, body = board.post({"cmd": "roll", "hold": []})
    assert status == 200, body
    view: dict[str, Any] = json.loads(body)["view"]
    assert view["pending"]["kind"] == "keep"
    return view


# -------------------------------------------------------------------- another origin


EVIL = {"Origin": "http://evil.example", "Content-Type": "text/plain", TOKEN_HEADER: None}


@pytest.mark.parametrize(
    "message",
    [
        {"cmd": "roll", "hold": []},
        {"cmd": "stop"},
        {"cmd": "undo"},
        {"cmd": "coach", "on": False},
        {"cmd": "export"},
        {"cmd": "export", "path": "PLACEHOLDER/deep/folder/written.jsonl"},
    ],
)
def test_a_page_of_another_site_cannot_play(board: Board, message: dict[str, Any]) -> None:
    _play_once(board)
    before = board.view()
    if "path" in message:
        message = {**message, "path": str(board.folder / "deep" / "folder" / "written.jsonl")}
    for headers in (
        EVIL,  # a form-like request: no preflight, no token
        {"Origin": "http://evil.example"},  # with the token, from elsewhere
        {"Origin": "null"},
        {"Sec-Fetch-Site": "cross-site", "Origin": None},
        {"Content-Type": "text/plain"},  # the page's own origin, not JSON
        {"Content-Type": None},
        {TOKEN_HEADER: None},  # no token
        {TOKEN_HEADER: "guessed"},
        {"Host": "evil.example:80", "Origin": "http://evil.example:80"},  # a name rebound to us
    ):
        _refused(board.post(message, headers=headers), 403)
    assert board.server.coach  # the coach still shown
    _untouched(board, before)


def test_the_page_of_localhost_plays_and_another_host_name_is_refused(board: Board) -> None:
    origin = {"Origin": f"http://localhost:{board.port}", "Host": f"localhost:{board.port}"}
    status, _, body = board.post({"cmd": "coach", "on": False}, headers=origin)
    assert status == 200, body
    assert json.loads(body)["coach"] is False
    got = board.request(None, method="GET", path="/", length=None,
                        headers={"Host": "evil.example:8765"})  # fmt: skip
    _refused(got, 403, "127.0.0.1")
    status, _, page = board.request(None, method="GET", path="/", length=None)
    assert status == 200
    assert board.server.token.encode() in page  # the page carries the token it sends
    assert b'name="viewport"' in page


# -------------------------------------------------------------------- bodies and lengths


@pytest.mark.parametrize(
    "body",
    [
        b"[]",
        b"1",
        b'"x"',
        b"null",
        b"",
        b"{",
        b"\xff\xfe",
        b"[" * 30_000 + b"]" * 30_000,
        b'{"cmd": "roll", "hold": ' + b"[" * 30_000 + b"]" * 30_000 + b"}",
    ],
    ids=["list", "number", "string", "null", "empty", "broken", "not-utf8", "deep", "deep-hold"],
)
def test_a_body_that_is_not_a_message_is_a_400(board: Board, body: bytes) -> None:
    before = board.view()
    _refused(board.request(body), 400)
    _untouched(board, before)


def test_lengths_missing_bad_too_large_or_short_are_refused(board: Board) -> None:
    before = board.view()
    deep = b"[" * 100_000 + b"]" * 100_000
    _refused(board.request(deep), 413, f"{MAX_BODY:,} bytes")
    _refused(board.request(b"{}", length=str(5_000_000)), 413)
    _refused(board.request(b"{}", length="1000000000000"), 413)
    _refused(board.request(b"{}", length="9" * 5000), 413)
    _refused(board.request(b"{}", length=None), 411)
    _refused(board.request(b"{}", length=None, headers={"Transfer-Encoding": "chunked"}), 411)
    for length in ("abc", "-1", "1.5", "0x10", "", "²"):
        _refused(board.request(b"{}", length=length), 400, "Content-Length")
    # a body shorter than its length: the client stops sending, or waits
    _refused(board.request(b'{"cmd"', length="100", half_close=True), 400, "6 of 100 bytes")
    # (the fixture's server waits 1 s for a body; the client's own timeout, 20 s, bounds a hang)
    _refused(board.request(b'{"cmd"', length="100"), 408, "did not come within")
    _untouched(board, before)


def test_a_silent_client_does_not_hold_the_server(
    board: Board, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = board.view()
    monkeypatch.setattr(server_module._Handler, "timeout", 120.0)  # the silent one waits long
    with socket.create_connection(("127.0.0.1", board.port), timeout=20) as waiting:
        waiting.sendall(b"POST /api HTTP/1.1\r\nContent-Type: application/json\r\n"
                        + f"{TOKEN_HEADER}: {board.server.token}\r\n".encode()
                        + b"Content-Length: 100\r\n\r\n{")  # fmt: skip
        assert board.view() == before  # answered while the other request waits...
        assert select.select([waiting], [], [], 0)[0] == []  # ...which has no answer yet
        waiting.shutdown(socket.SHUT_WR)  # the client gives up sending: now it is answered
        answer = http.client.HTTPResponse(waiting)
        answer.begin()
        assert answer.status == 400  # the body did not come
        assert "1 of 100 bytes" in json.loads(answer.read())["error"]
    _untouched(board, before)


def test_unknown_routes_methods_and_request_lines_are_answered(board: Board) -> None:
    before = board.view()
    _refused(board.request(None, method="GET", path="/nope", length=None), 404)
    _refused(board.request(None, method="GET", path="/api/view/../x", length=None), 404)
    _refused(board.post({"cmd": "stop"}, path="/api/view"), 404)
    _refused(board.post({"cmd": "stop"}, method="PUT"), 501)
    _refused(board.post({"cmd": "stop"}, method="DELETE"), 501)
    _refused(board.raw(b"GARBAGE\r\n\r\n"), 400)
    _refused(board.raw(b"GET / HTTP/9.9\r\n\r\n"), 505)
    _untouched(board, before)


# -------------------------------------------------------------------- messages


@pytest.mark.parametrize(
    ("message", "words"),
    [
        ({"cmd": "fly"}, 'unknown command "fly"'),
        ({"cmd": ["roll"]}, "unknown command"),
        ({"hold": []}, "unknown command null"),
        ({"cmd": "export", "path": 5}, "export takes no field"),
        ({"cmd": "export", "path": ["a"]}, "export takes no field"),
        ({"cmd": "export", "path": "a\x00b"}, "export takes no field"),
        ({"cmd": "export", "path": ""}, "export takes no field"),
        ({"cmd": "export", "path": []}, "export takes no field"),
        ({"cmd": "export", "path": {}}, "export takes no field"),
        ({"cmd": "roll", "hold": 5}, "hold must be a list"),
        ({"cmd": "roll", "hold": True}, "hold must be a list"),
        ({"cmd": "roll", "hold": "abc"}, "hold must be a list"),
        ({"cmd": "roll", "hold": ["x"]}, "hold must be a list"),
        ({"cmd": "roll", "hold": [None]}, "hold must be a list"),
        ({"cmd": "roll", "hold": [[0]]}, "hold must be a list"),
        ({"cmd": "roll", "hold": {"a": 1}}, "hold must be a list"),
        ({"cmd": "roll", "hold": [1.5]}, "hold must be a list"),
        ({"cmd": "roll", "hold": [1.0]}, "hold must be a list"),
        ({"cmd": "roll", "hold": ["0"]}, "hold must be a list"),
        ({"cmd": "roll", "hold": [True]}, "hold must be a list"),
        ({"cmd": "roll", "hold": [7]}, "0 to 4, got [7]"),
        ({"cmd": "roll", "hold": [-1]}, "0 to 4"),
        ({"cmd": "roll", "hold": [10**30]}, "0 to 4"),
        ({"cmd": "roll", "hold": [1, 1]}, "twice"),
        ({"cmd": "roll", "hold": [], "x": 1}, "roll takes only hold"),
        ({"cmd": "stop", "hold": []}, "stop takes no field"),
        ({"cmd": "place", "cell": "1"}, "cell must be a whole number 0 to 15"),
        ({"cmd": "place", "cell": True}, "cell must be"),
        ({"cmd": "place", "cell": 1.0}, "cell must be"),
        ({"cmd": "place", "cell": -1}, "cell must be"),
        ({"cmd": "place", "cell": 10**30}, "cell must be"),
        ({"cmd": "place"}, "cell must be"),
        ({"cmd": "choose", "option": "0"}, "option must be"),
        ({"cmd": "choose", "option": False}, "option must be"),
        ({"cmd": "choose", "option": 10**30}, "option must be"),
        ({"cmd": "coach", "on": "no"}, "on must be true or false"),
        ({"cmd": "coach", "on": 0}, "on must be true or false"),
        ({"cmd": "coach"}, "on must be true or false"),
        ({"cmd": "coach", "on": True, "x": 1}, "coach takes only on"),
    ],
)
def test_a_malformed_message_is_a_400_naming_the_value(
    board: Board, message: dict[str, Any], words: str
) -> None:
    _play_once(board)  # at a keep: the dice can be held
    before = board.view()
    _refused(board.post(message), 400, words)
    assert board.server.coach
    _untouched(board, before)


def test_a_move_the_game_refuses_is_a_message_and_a_good_one_plays(board: Board) -> None:
    before = board.view()
    status, _, body = board.post({"cmd": "place", "cell": 0})
    assert status == 200
    assert "not to place" in json.loads(body)["message"]
    _untouched(board, before)
    view = _play_once(board)
    status, _, body = board.post({"cmd": "roll", "hold": [0, 1]})
    assert status == 200
    after = json.loads(body)["view"]
    assert after != view


def _finish(session: PlaySession) -> None:
    while not session.is_over:
        p = session.pending
        assert p is not None
        if p.kind == "roll":
            session.roll()
        elif p.kind == "keep":
            session.stop()
        elif p.kind == "place":
            session.place(p.legal[0])
        else:
            session.choose(p.options[0])


def test_after_the_game_bad_fields_are_refused_and_export_is_a_download(board: Board) -> None:
    session = board.server.session
    assert isinstance(session, PlaySession)
    _finish(session)
    before = board.view()
    assert before["view"]["over"]
    for hold in (5, True):
        _refused(board.post({"cmd": "roll", "hold": hold}), 400, "hold must be a list")
    _refused(board.post({"cmd": "export", "path": "x.jsonl"}), 400, "takes no field")
    status, _, body = board.post({"cmd": "export"})
    assert status == 200
    answer = json.loads(body)
    download = answer["download"]
    assert download["filename"] == "pinastats-game-seed4.jsonl"
    assert "pinastats-game-seed4.jsonl" in answer["message"]
    (record,) = parse_records(download["text"])
    assert record == session.record
    _untouched(board, before)  # nothing written on the server's machine


# -------------------------------------------------------------------- the dispatcher itself


def test_messages_are_checked_before_the_game_sees_them(tmp_path: Path) -> None:
    session = PlaySession(["human", "strategic"], seed=4)
    try:
        assert check_message({"cmd": "roll"}, 16) == {"cmd": "roll", "hold": []}
        with pytest.raises(MessageError, match="a JSON object"):
            check_message([], 16)
        with pytest.raises(MessageError, match="hold must be a list"):
            carry_out(session, {"cmd": "roll", "hold": [1.5]})
        assert "hold must be a list" in act(session, {"cmd": "roll", "hold": ["0"]})
        assert session.pending is not None
        assert session.pending.kind == "roll"
        _finish(session)
        assert "takes no field" in act(session, {"cmd": "export", "path": str(tmp_path / "x")})
        assert list(tmp_path.iterdir()) == []
        text = act(session, {"cmd": "export"}, folder=tmp_path)
        assert "record written to" in text
        assert read_records(tmp_path / "pinastats-game-seed4.jsonl") == [session.record]
    finally:
        session.close()


# -------------------------------------------------------------------- any message at all

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
FIELD = st.sampled_from(["hold", "cell", "option", "on", "path", "cmd", "x"])
MESSAGES = st.one_of(
    JSON,
    st.fixed_dictionaries(
        {"cmd": st.sampled_from([*COMMANDS, "coach", "fly", "ROLL"])},
        optional={
            "hold": JSON | st.lists(st.integers(-2, 6), max_size=6),
            "cell": JSON,
            "option": JSON,
            "on": JSON,
            "path": JSON,
        },
    ),
    st.dictionaries(FIELD, JSON, max_size=3),
)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(message=MESSAGES)
def test_any_message_is_answered_with_the_view_or_one_line(board: Board, message: Any) -> None:
    """Whatever the page's own request carries: the view (a move played or refused) or a 400."""
    try:
        body = json.dumps(message, allow_nan=True)
    except ValueError:
        return
    status, _, answer = board.request(body)
    if status == 200:
        assert "view" in json.loads(answer)
    else:
        _refused((status, {"Content-Type": "application/json"}, answer), 400)
    assert list(board.folder.rglob("*")) == []
    assert board.view()["view"]["board"]
