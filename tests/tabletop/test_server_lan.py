"""The board for the phones at a table: served on another address, with its token and QR code.

Every request goes to 127.0.0.2, a loopback address other than the default 127.0.0.1,
standing for the computer's address on a Wi-Fi: nothing is sent to this machine's own
network address. ``--lan``'s choice of address is checked with the address lookups
replaced (:func:`pinastats.tabletop.server.lan_address`), never by connecting.
The phones are headless Chromium (Debian's ``chromium`` through Playwright) at 360×740
with touch.
"""

from __future__ import annotations

import http.client
import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pinastats.errors import PinastatsError
from pinastats.tabletop import server as server_module
from pinastats.tabletop.server import TOKEN_HEADER, BoardServer, StartUp, check_host, lan_address
from pinastats.tabletop.session import PlaySession

HOST = "127.0.0.2"
"""The address served in these tests: loopback, but not 127.0.0.1."""
STEP = 30_000
"""Milliseconds a page waits for the board."""
PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 2}  # fmt: skip
ROOT = Path(__file__).resolve().parents[2]

Answer = tuple[int, bytes]


def _request(port: int, path: str, *, method: str = "GET", body: Any = None,
             headers: dict[str, str] | None = None) -> Answer:  # fmt: skip
    """One request to the server on 127.0.0.2: its status and body."""
    sent = {"Host": f"{HOST}:{port}"}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        sent.update({"Content-Type": "application/json", "Origin": f"http://{HOST}:{port}"})
    sent.update(headers or {})
    connection = http.client.HTTPConnection(HOST, port, timeout=20)
    try:
        connection.request(method, path, body=data, headers=sent)
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


@pytest.fixture
def served() -> Iterator[BoardServer]:
    """A game served on 127.0.0.2 in this process."""
    server = BoardServer(PlaySession(["human", "strategic"], seed=4), 0, host=HOST)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        server.close_session()


# -------------------------------------------------------------------- the address of --lan


def test_lan_takes_the_private_address_of_the_route(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server_module, "_route_address", lambda: "192.168.1.20")
    monkeypatch.setattr(server_module, "_named_addresses", lambda: ["127.0.1.1", "10.0.0.5"])
    assert lan_address() == "192.168.1.20"


@pytest.mark.parametrize(
    ("route", "named", "chosen"),
    [
        (None, ["127.0.1.1", "10.0.0.5"], "10.0.0.5"),  # no route: the name's, loopback left
        ("169.254.3.4", ["172.16.9.9"], "172.16.9.9"),  # link-local (no DHCP) is no use
        ("8.8.4.4", ["192.168.0.7"], "192.168.0.7"),  # a private address before a public one
        ("8.8.4.4", [], "8.8.4.4"),  # a public one when it is all there is
        ("127.0.0.1", ["not an address", "0.0.0.0", "224.0.0.1", "10.1.2.3"], "10.1.2.3"),
    ],
)
def test_lan_skips_what_a_phone_cannot_reach(
    monkeypatch: pytest.MonkeyPatch, route: str | None, named: list[str], chosen: str
) -> None:
    monkeypatch.setattr(server_module, "_route_address", lambda: route)
    monkeypatch.setattr(server_module, "_named_addresses", lambda: named)
    assert lan_address() == chosen


def test_lan_without_a_network_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server_module, "_route_address", lambda: None)
    monkeypatch.setattr(server_module, "_named_addresses", lambda: ["127.0.1.1", "::1"])
    with pytest.raises(PinastatsError, match=r"no network address.*--host"):
        lan_address()


@pytest.mark.parametrize("text", ["0.0.0.0", "::", "224.0.0.1", "my-laptop", "", "1.2.3"])
def test_host_must_be_one_address(text: str) -> None:
    with pytest.raises(PinastatsError, match="--host"):
        check_host(text)


def test_an_ipv6_address_is_served_in_brackets() -> None:
    assert check_host("[::1]") == "::1"
    server = BoardServer(None, 0, host="::1")
    try:
        assert server.hosts() == {f"[::1]:{server.port}"}
        assert server.url.startswith(f"http://[::1]:{server.port}/?token=")
    finally:
        server.server_close()


# -------------------------------------------------------------------- what is refused


def test_off_127_0_0_1_everything_needs_the_token_and_the_served_host(
    served: BoardServer,
) -> None:
    port, token = served.port, served.token
    assert served.url == f"http://{HOST}:{port}/?token={token}"
    assert served.hosts() == {f"{HOST}:{port}"}
    assert _request(port, "/")[0] == 403  # a device on the network without the URL
    assert _request(port, "/?token=guessed")[0] == 403
    assert _request(port, "/api/view")[0] == 403
    assert _request(port, "/api/status")[0] == 403
    assert _request(port, f"/qr.svg?token={token[:-1]}")[0] == 403
    status, page = _request(port, f"/?token={token}")
    assert status == 200
    assert token.encode() in page
    assert _request(port, "/app.js")[0] == 200  # the widget's script holds no secret
    for name in ("127.0.0.1", "localhost", "evil.example", "192.168.1.20"):  # another host
        status, body = _request(port, f"/?token={token}", headers={"Host": f"{name}:{port}"})
        assert status == 403
        assert f"{HOST}:{port}" in json.loads(body)["error"]
    roll = {"cmd": "roll", "hold": []}
    before = _request(port, "/api/view", headers={TOKEN_HEADER: token})[1]
    assert _request(port, "/api", method="POST", body=roll)[0] == 403  # no token
    assert _request(port, "/api", method="POST", body=roll, headers={TOKEN_HEADER: "x"})[0] == 403
    for other in ({"Origin": f"http://127.0.0.1:{port}"}, {"Host": f"localhost:{port}"}):
        refused = _request(port, "/api", method="POST", body=roll,
                           headers={TOKEN_HEADER: token, **other})  # fmt: skip
        assert refused[0] == 403
    assert _request(port, "/api/view", headers={TOKEN_HEADER: token})[1] == before
    status, body = _request(port, "/api", method="POST", body=roll, headers={TOKEN_HEADER: token})
    assert status == 200
    assert json.loads(body)["view"]["pending"]["kind"] == "keep"


def test_the_qr_code_holds_the_url_with_its_token(served: BoardServer) -> None:
    segno = pytest.importorskip("segno")
    status, svg = _request(served.port, f"/qr.svg?token={served.token}")
    assert status == 200
    assert svg.startswith(b"<?xml")
    made = segno.make(served.url, error="m")  # the same code, made here from the URL
    assert made.designator == segno.make(served.url, error="m").designator
    status, page = _request(served.port, f"/?token={served.token}")
    assert b'src="/qr.svg?token=' + served.token.encode() in page


# -------------------------------------------------------------------- phones in a browser


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def _lines(stream: Any, into: queue.Queue[str]) -> None:
    for line in iter(stream.readline, ""):
        into.put(line)


def test_a_phone_opens_the_printed_url_and_two_phones_see_each_others_moves(
    browser: Any,
) -> None:
    """``play --serve --host 127.0.0.2``: the printed URL opens the board on a touch phone."""
    port = _free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    process = subprocess.Popen(
        [sys.executable, "-m", "pinastats.cli.main", "play", "--serve", "--host", HOST, "--port",
         str(port), "--seats", "human,strategic", "--seed", "3"],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env, cwd=ROOT,
    )  # fmt: skip
    said: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(target=_lines, args=(process.stderr, said), daemon=True)
    reader.start()
    try:
        url = None
        while url is None:
            line = said.get(timeout=120)
            if "serving the board at " in line:
                url = line.split("serving the board at ", 1)[1].split()[0]
        assert url.startswith(f"http://{HOST}:{port}/?token=")
        token = url.split("token=", 1)[1]
        assert _request(port, "/")[0] == 403  # without the token
        assert (
            _request(port, url.split(str(port), 1)[1], headers={"Host": f"127.0.0.1:{port}"})[0]
            == 403
        )  # naming another host
        first = browser.new_context(**PHONE)
        second = browser.new_context(**PHONE)
        try:
            phone, other = first.new_page(), second.new_page()
            for page in (phone, other):
                page.set_default_timeout(STEP)
                page.goto(url)
            phone.wait_for_selector(".pina-roll", timeout=600_000)  # after any compile
            other.wait_for_selector(".pina-roll")
            width = phone.evaluate("document.documentElement.scrollWidth")
            assert width <= 360  # nothing to scroll sideways
            assert phone.evaluate("navigator.maxTouchPoints") > 0
            assert phone.locator(".pina-share img").is_visible() is False  # folded away
            phone.locator(".pina-share summary").tap()
            phone.wait_for_function(
                "document.querySelector('.pina-share img').complete"
                " && document.querySelector('.pina-share img').naturalWidth > 0"
            )
            assert token in phone.locator(".pina-share code").inner_text()
            assert other.locator(".pina-stop").count() == 0
            phone.locator(".pina-roll").tap()  # one phone rolls ...
            phone.wait_for_selector(".pina-stop")
            other.wait_for_selector(".pina-stop")  # ... the other sees the dice to keep
            assert _dice(other) == _dice(phone)
            other.locator(".pina-stop").tap()  # and the other way round
            phone.wait_for_selector(".pina-stop", state="detached")
            assert _dice(other) == _dice(phone)
        finally:
            first.close()
            second.close()
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        reader.join(timeout=30)
        assert process.stderr is not None
        process.stderr.close()
    assert process.returncode == 0


def _dice(page: Any) -> list[str]:
    texts: list[str] = page.locator(".pina-die").all_inner_texts()
    return texts


def test_the_page_answers_while_the_engine_compiles_then_shows_the_board(browser: Any) -> None:
    starting = StartUp()
    server = BoardServer(None, 0, host=HOST, starting=starting)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        port, token = server.port, server.token
        starting.write("pinastats: compiling the engine, first run only…\n")
        starting.write("  [1/2] compiling the dice solvers…")
        starting.write("\r  [1/2] compiling the dice solvers… 3 s")
        starting.write("\r  [1/2] compiling the dice solvers: done in 4.2 s\n")
        starting.write("  [2/2] compiling the agents' decisions…\n")
        status, body = _request(port, "/api/status", headers={TOKEN_HEADER: token})
        said = json.loads(body)
        assert status == 200
        assert said["ready"] is False
        assert said["lines"][1:] == ["  [1/2] compiling the dice solvers: done in 4.2 s",
                                     "  [2/2] compiling the agents' decisions…"]  # fmt: skip
        assert _request(port, "/api/view", headers={TOKEN_HEADER: token})[0] == 503
        status, body = _request(port, "/api", method="POST", body={"cmd": "roll", "hold": []},
                                headers={TOKEN_HEADER: token})  # fmt: skip
        assert status == 503
        assert "compiling" in json.loads(body)["error"]
        context = browser.new_context(**PHONE)
        try:
            page = context.new_page()
            page.set_default_timeout(STEP)
            page.goto(server.url)
            page.wait_for_selector("#starting:not([hidden])")
            text = page.locator("#starting").inner_text()
            assert "compiling" in text
            assert "dice solvers: done in 4.2 s" in text
            assert page.locator(".pina-roll").count() == 0
            server.ready(PlaySession(["human", "strategic"], seed=4))
            page.wait_for_selector(".pina-roll")
            assert page.locator("#starting").is_hidden()
        finally:
            context.close()
    finally:
        server.shutdown()
        server.server_close()
        server.close_session()
