"""``pinastats play --serve``: the same board as a web page on 127.0.0.1, for a browser.

The page loads the widget's own script (``static/app.js``) with a small stand-in for
the notebook's model: the view comes from ``GET /api/view`` and every click is a
``POST /api`` whose answer is the new view, so the browser and the notebook run the
same code against the same :class:`~pinastats.tabletop.session.PlaySession`.

Only the page may change the game. A ``POST /api`` is carried out when it comes from
the page's own origin (``Origin`` absent or ``http://127.0.0.1:<port>`` /
``http://localhost:<port>``, ``Sec-Fetch-Site`` absent or ``same-origin``), with
``Content-Type: application/json`` and the server's token (:data:`TOKEN_HEADER`, a
random value made when the server starts and written into the page); else it is
refused with 403. Every request naming another host than 127.0.0.1 or localhost is
refused (a page of another site reaching the server through its own name).

Every request is answered: the view as JSON, or ``{"error": "<one line>"}`` with a
4xx status (5xx for a fault of the server's): 404 for an unknown route, 403 as
above, 411 without a ``Content-Length``, 400 for a bad length, a body shorter than
its length, a body that is not a JSON object or a malformed message
(:func:`~pinastats.tabletop.commands.check_message`), 413 for a body over
:data:`MAX_BODY`, 408 for a body that does not come within :data:`TIMEOUT` seconds.
A move the game refuses (not your turn, an illegal cell) is a 200 whose ``message``
says why. ``export`` writes nothing on the server's machine: the answer carries
``"download": {"filename", "text"}`` and the page saves it as a file.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import secrets
import socket
import sys
import threading
import time
import traceback
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from pinastats.errors import PinastatsError
from pinastats.tabletop.commands import MessageError, Session, carry_out, shown
from pinastats.tabletop.view import board_view
from pinastats.tabletop.widget import STATIC

MAX_BODY = 64 * 1024
"""The largest request body accepted, in bytes (a click's message is under 200)."""
TIMEOUT = 5.0
"""Seconds a connection may stay silent (a request or a body that does not come) before the
server answers 408 and closes it; other connections are served meanwhile."""
DRAIN = 1 << 20
"""The most bytes of an unread body read and dropped after a refusal, before closing."""
TOKEN_HEADER = "X-Pinastats-Token"
"""The header carrying the server's token, which the page sends with every POST."""
HOSTS = ("127.0.0.1", "localhost")
"""The names the server answers to (with its port)."""

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Piña Coladice — pinastats</title>
<style>body {{ margin: 8px; }} {css}</style></head>
<body><h1 class="pina-title">Piña Coladice</h1><div id="app"></div>
<script type="module">
import app from "/app.js";
const TOKEN = "{token}";
const state = {{ view: null, coach: true, message: "", review: null }};
const handlers = {{}};
const fire = (k) => (handlers["change:" + k] || []).forEach((f) => f());
function save(download) {{
  const url = URL.createObjectURL(new Blob([download.text], {{ type: "application/x-ndjson" }}));
  const a = document.createElement("a");
  a.href = url; a.download = download.filename;
  document.body.append(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}}
async function call(url, body) {{
  const options = body ? {{ method: "POST", body: JSON.stringify(body),
    headers: {{ "Content-Type": "application/json", "{header}": TOKEN }} }} : {{}};
  let d;
  try {{
    const r = await fetch(url, options);
    d = await r.json();
  }} catch (e) {{
    d = {{ error: "the board's server did not answer: " + e }};
  }}
  if (d.error !== undefined) {{
    state.message = d.error;
  }} else {{
    state.view = d.view; state.message = d.message || ""; state.coach = d.coach;
    state.review = d.review || null;
    if (d.download) save(d.download);
  }}
  fire("view"); fire("message");
  document.body.dataset.answers = String(Number(document.body.dataset.answers || 0) + 1);
}}
const model = {{
  get: (k) => state[k],
  set: (k, v) => {{ state[k] = v; }},
  save_changes: () => call("/api", {{ cmd: "coach", on: state.coach }}),
  on: (event, f) => {{ (handlers[event] = handlers[event] || []).push(f); }},
  send: (msg) => call("/api", msg),
}};
app.render({{ model, el: document.getElementById("app") }});
call("/api/view");
</script></body></html>
"""


class RequestError(Exception):
    """A request refused: its status and the one line that says why."""

    def __init__(self, status: HTTPStatus, text: str) -> None:
        super().__init__(text)
        self.status = status


class BoardServer(ThreadingHTTPServer):
    """The page and its API for one session (one click at a time)."""

    daemon_threads = True

    def __init__(self, session: Session, port: int = 8765, coach: bool = True) -> None:
        self.session: Session = session
        self.coach, self.lock = coach, threading.Lock()
        self.token = secrets.token_urlsafe(32)
        super().__init__(("127.0.0.1", port), _Handler)

    @property
    def port(self) -> int:
        """The port served (the one the system chose for port 0)."""
        return int(self.server_address[1])

    def hosts(self) -> set[str]:
        """The server's names with its port, as ``Host`` and ``Origin`` give them."""
        names = {f"{h}:{self.port}" for h in HOSTS}
        return names | set(HOSTS) if self.port == 80 else names  # HTTP's own port: not written

    def page(self) -> str:
        """The page, with this server's token."""
        css = (STATIC / "app.css").read_text(encoding="utf-8")
        return PAGE.format(css=css, token=self.token, header=TOKEN_HEADER)

    def answer(self, message: object) -> dict[str, Any]:
        """Carry out a message (None: none) and return the new view, the text and the coach.

        A malformed message raises :class:`~pinastats.tabletop.commands.MessageError`
        before anything changes.
        """
        with self.lock:
            text, download = "", None
            if isinstance(message, dict) and message.get("cmd") == "coach":
                extra = sorted(str(k) for k in message if k not in ("cmd", "on"))
                if extra:
                    raise MessageError(f"coach takes only on, got {shown(extra)}")
                if not isinstance(message.get("on"), bool):
                    raise MessageError(
                        f"coach: on must be true or false, got {shown(message.get('on'))}"
                    )
                self.coach = message["on"]
            review = None
            if message is not None and not (isinstance(message, dict)
                                            and message.get("cmd") == "coach"):  # fmt: skip
                outcome = carry_out(self.session, message)
                text, download, review = outcome.text, outcome.download, outcome.review
                if outcome.session is not None:
                    self.session.close()
                    self.session = outcome.session
            out = {"view": board_view(self.session, coach=self.coach), "message": text,
                   "coach": self.coach}  # fmt: skip
            if download is not None:
                out["download"] = download
            if review is not None:
                out["review"] = review
            return out


def _one_line(text: str) -> str:
    return " ".join(text.split())[:300]


class _Handler(BaseHTTPRequestHandler):
    server: BoardServer
    timeout = TIMEOUT  # on the connection's socket: a silent client cannot hold its thread

    # answers ----------------------------------------------------------------------------

    def _send(self, body: bytes, kind: str, status: int = 200) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, data: dict[str, Any], status: int = 200) -> None:
        self._send(json.dumps(data).encode(), "application/json", status)

    def _refuse(self, status: int, text: str) -> None:
        """Answer ``{"error": text}`` and close the connection (a body may be left unread)."""
        self.close_connection = self.linger = True
        self._json({"error": _one_line(text)}, status)

    def finish(self) -> None:
        """After a refusal, read what the client still sends before closing.

        At most :data:`DRAIN` bytes for at most :data:`TIMEOUT` seconds: the client reads
        the answer rather than a reset connection.
        """
        super().finish()
        if not getattr(self, "linger", False):
            return
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_WR)
            deadline = time.monotonic() + TIMEOUT
            drained = 0
            while drained < DRAIN and (left := deadline - time.monotonic()) > 0:
                self.connection.settimeout(left)
                chunk = self.connection.recv(65536)
                if not chunk:
                    break
                drained += len(chunk)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The standard library's refusals in the server's own form: JSON with one line.

        A bad request line, an unknown method, headers too long, ...
        """
        try:
            text = message or HTTPStatus(code).phrase
        except ValueError:
            text = message or "error"
        self.log_error("code %d, message %s", code, text)
        if self.request_version == "HTTP/0.9":  # no version read: answer with a status line
            self.request_version = "HTTP/1.0"
        if code in (HTTPStatus.NO_CONTENT, HTTPStatus.NOT_MODIFIED) or code < 200:
            self.send_response(code, text)
            self.end_headers()
            return
        self._refuse(code, text)

    # checks -----------------------------------------------------------------------------

    def _check_host(self) -> None:
        """Refuse a request naming another host (another site's name rebound to 127.0.0.1)."""
        host = self.headers.get("Host")
        if host is not None and host.lower() not in self.server.hosts():
            raise RequestError(HTTPStatus.FORBIDDEN, f"this server answers to 127.0.0.1:"
                               f"{self.server.port} only, not to host {host!r:.80}")  # fmt: skip

    def _check_page(self) -> None:
        """Refuse a state-changing request that is not the page's own."""
        origin = self.headers.get("Origin")
        if origin is not None and origin not in {f"http://{h}" for h in self.server.hosts()}:
            raise RequestError(HTTPStatus.FORBIDDEN, f"requests from origin {origin!r:.80} are "
                               "refused: only the board's own page may play")  # fmt: skip
        site = self.headers.get("Sec-Fetch-Site")
        if site is not None and site != "same-origin":
            raise RequestError(HTTPStatus.FORBIDDEN, f"a {site!r:.40} request is refused: only "
                               "the board's own page may play")  # fmt: skip
        kind = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if kind != "application/json":
            got = kind or "no Content-Type"
            raise RequestError(HTTPStatus.FORBIDDEN, "a request to play must be "
                               f"application/json, got {got!r:.60}")  # fmt: skip
        token = self.headers.get(TOKEN_HEADER) or ""
        if not hmac.compare_digest(token.encode(), self.server.token.encode()):
            raise RequestError(HTTPStatus.FORBIDDEN, f"a request to play needs the page's "
                               f"{TOKEN_HEADER} (reload the page)")  # fmt: skip

    def _body(self) -> bytes:
        """The body, read whole: its length checked first, a short one refused."""
        if self.headers.get("Transfer-Encoding") is not None:
            raise RequestError(HTTPStatus.LENGTH_REQUIRED,
                               "a body in chunks is refused: send its Content-Length")  # fmt: skip
        lengths = self.headers.get_all("Content-Length") or []
        if not lengths:
            raise RequestError(HTTPStatus.LENGTH_REQUIRED, "a request to play needs a "
                               "Content-Length")  # fmt: skip
        text = lengths[0].strip()
        if len(lengths) > 1 or not text.isdigit() or not text.isascii():
            shown = ", ".join(lengths)
            raise RequestError(HTTPStatus.BAD_REQUEST, f"Content-Length must be one whole "
                               f"number of bytes, got {shown!r:.60}")  # fmt: skip
        digits = text.lstrip("0") or "0"
        if len(digits) > 12 or int(digits) > MAX_BODY:
            raise RequestError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"a body is at most "
                               f"{MAX_BODY:,} bytes, this one says {text[:20]}")  # fmt: skip
        length = int(digits)
        try:
            body = self.rfile.read(length)
        except TimeoutError:
            raise RequestError(HTTPStatus.REQUEST_TIMEOUT, f"the body did not come within "
                               f"{TIMEOUT:g} s (Content-Length {length})") from None  # fmt: skip
        if len(body) < length:
            raise RequestError(HTTPStatus.BAD_REQUEST, f"the body is shorter than its "
                               f"Content-Length: {len(body)} of {length} bytes")  # fmt: skip
        return body

    def _message(self) -> object:
        body = self._body()
        try:
            return json.loads(body.decode("utf-8"))
        except UnicodeDecodeError:
            raise RequestError(HTTPStatus.BAD_REQUEST, "the body is not UTF-8 text") from None
        except RecursionError:
            raise RequestError(HTTPStatus.BAD_REQUEST, "the body's JSON is nested too "
                               "deep") from None  # fmt: skip
        except ValueError as exc:
            raise RequestError(HTTPStatus.BAD_REQUEST, f"the body is not JSON: {exc}") from None

    # routes -----------------------------------------------------------------------------

    def _serve(self, route: Any) -> None:
        """Answer by ``route``, every refusal and fault included."""
        try:
            route()
        except RequestError as exc:
            self._refuse(exc.status, str(exc))
        except MessageError as exc:
            self._refuse(HTTPStatus.BAD_REQUEST, str(exc))
        except PinastatsError as exc:  # the game's own refusal of a state it cannot serve
            self._refuse(HTTPStatus.CONFLICT, str(exc))
        except (ConnectionError, TimeoutError):
            self.close_connection = True  # the client has gone: nobody to answer
        except Exception as exc:
            traceback.print_exc(file=sys.stderr)
            self._refuse(HTTPStatus.INTERNAL_SERVER_ERROR, f"internal error of the board's "
                         f"server: {type(exc).__name__}: {exc}")  # fmt: skip

    def _get(self) -> None:
        self._check_host()
        if self.path in ("/", "/index.html"):
            self._send(self.server.page().encode(), "text/html; charset=utf-8")
        elif self.path == "/app.js":
            self._send((STATIC / "app.js").read_bytes(), "text/javascript; charset=utf-8")
        elif self.path == "/favicon.ico":
            self._send(b"", "image/x-icon", 204)
        elif self.path == "/api/view":
            self._json(self.server.answer(None))
        else:
            raise RequestError(HTTPStatus.NOT_FOUND, f"no page at {self.path!r:.80}")

    def _post(self) -> None:
        self._check_host()
        if self.path != "/api":
            raise RequestError(HTTPStatus.NOT_FOUND, f"nothing to post to at {self.path!r:.80}: "
                               "the board's API is /api")  # fmt: skip
        self._check_page()
        message = self._message()
        if not isinstance(message, dict):
            raise MessageError(f"a message is a JSON object with a cmd, got {shown(message)}")
        self._json(self.server.answer(message))

    def do_GET(self) -> None:
        self._serve(self._get)

    def do_POST(self) -> None:
        self._serve(self._post)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: no line per request."""
