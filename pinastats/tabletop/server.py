"""``pinastats play --serve``: the same board as a web page, for a browser or the phones at a table.

The page loads the widget's own script (``static/app.js``) with a small stand-in for
the notebook's model: the view comes from ``GET /api/view`` and every click is a
``POST /api`` whose answer is the new view, so the browser and the notebook run the
same code against the same :class:`~pinastats.tabletop.session.PlaySession`. Every
page asks ``GET /api/status`` every 1.5 s and reads the view again when the game's
``version`` moved: several phones at one table see each other's moves.

The server serves one address: 127.0.0.1 by default, or another (``--host``, or the
computer's address on its network, :func:`lan_address`, for ``--lan``). It answers
to that address with its port only (and to ``localhost`` on 127.0.0.1): a request
naming another host is refused (a page of another site reaching the server through
its own name). On 127.0.0.1 the page opens without more; on any other address
everything but the page's script needs the server's token (:data:`TOKEN_HEADER`, a
random value made when the server starts): the page and its QR code in the URL's
``token=`` (the printed URL, :attr:`BoardServer.url`, carries it), the API in the
header, so a device on the same network that does not have the URL can neither read
nor play the game.

Only the page may change the game. A ``POST /api`` is carried out when it comes from
the page's own origin (``Origin`` absent or ``http://<a host served>``,
``Sec-Fetch-Site`` absent or ``same-origin``), with ``Content-Type: application/json``
and the server's token in :data:`TOKEN_HEADER`; else it is refused with 403. A
request names no file: a ``setup``'s position line takes a layout by its shipped name
only (:func:`~pinastats.game.layout.names_only`).

The server answers before the game is ready: while the engine compiles
(:class:`StartUp`, the first run on a machine), the page shows the compile's lines
and its time from ``GET /api/status``, and ``/api/view`` and ``/api`` answer 503;
:meth:`BoardServer.ready` hands it the session.

Every request is answered: the view as JSON, or ``{"error": "<one line>"}`` with a
4xx status (5xx for a fault of the server's or a game not ready): 404 for an unknown
route, 403 as above, 411 without a ``Content-Length``, 400 for a bad length, a body
shorter than its length, a body that is not a JSON object or a malformed message
(:func:`~pinastats.tabletop.commands.check_message`), 413 for a body over
:data:`MAX_BODY`, 408 for a body that does not come within :data:`TIMEOUT` seconds.
A move the game refuses (not your turn, an illegal cell) is a 200 whose ``message``
says why. ``export`` writes nothing on the server's machine: the answer carries
``"download": {"filename", "text"}`` and the page saves it as a file.
"""

from __future__ import annotations

import contextlib
import hmac
import html
import io
import ipaddress
import json
import secrets
import socket
import sys
import threading
import time
import traceback
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TextIO
from urllib.parse import parse_qs, urlsplit

from pinastats.errors import PinastatsError
from pinastats.game.layout import names_only
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
DEFAULT_HOST = "127.0.0.1"
"""The address served unless another is named; it answers to ``localhost`` too."""
POLL_MS = 1500
"""How often the page asks whether the game moved (milliseconds)."""

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Piña Coladice — pinastats</title>
<style>body {{ margin: 8px; }} {css}
.pina-starting {{ font: 16px/1.4 system-ui, sans-serif; max-width: 40em; }}
.pina-starting pre {{ white-space: pre-wrap; font-size: 13px; }}
.pina-share {{ margin-top: 16px; font: 14px/1.4 system-ui, sans-serif; }}
.pina-share summary {{ min-height: 44px; line-height: 44px; cursor: pointer; }}
.pina-share img {{ width: 240px; max-width: 80vw; height: auto; display: block; }}
.pina-share code {{ overflow-wrap: anywhere; }}</style></head>
<body><h1 class="pina-title">Piña Coladice</h1>
<div id="starting" class="pina-starting" hidden><p><b>Getting the board ready.</b> The engine
is compiling, once on this computer (the next starts are quick); the board opens by itself when
it is done. <span class="pina-starting-time"></span></p><pre class="pina-starting-lines"></pre>
</div>
<div id="app"></div>{share}
<script type="module">
import app from "/app.js";
const TOKEN = "{token}";
const HEADERS = {{ "{header}": TOKEN }};
const state = {{ view: null, coach: true, message: "", review: null, version: null }};
const handlers = {{}};
let calls = 0;
const fire = (k) => (handlers["change:" + k] || []).forEach((f) => f());
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
function save(download) {{
  const url = URL.createObjectURL(new Blob([download.text], {{ type: "application/x-ndjson" }}));
  const a = document.createElement("a");
  a.href = url; a.download = download.filename;
  document.body.append(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}}
async function call(url, body) {{
  const options = body ? {{ method: "POST", body: JSON.stringify(body),
    headers: {{ "Content-Type": "application/json", ...HEADERS }} }} : {{ headers: HEADERS }};
  let d;
  calls += 1;
  try {{
    const r = await fetch(url, options);
    d = await r.json();
  }} catch (e) {{
    d = {{ error: "the board's server did not answer: " + e }};
  }} finally {{
    calls -= 1;
  }}
  if (d.error !== undefined) {{
    state.message = d.error;
  }} else {{
    state.view = d.view; state.message = d.message || ""; state.coach = d.coach;
    state.review = d.review || null; state.version = d.version;
    if (d.download) save(d.download);
  }}
  fire("view"); fire("message");
  document.body.dataset.answers = String(Number(document.body.dataset.answers || 0) + 1);
}}
async function status() {{
  try {{
    return await (await fetch("/api/status", {{ headers: HEADERS }})).json();
  }} catch (e) {{
    return {{ ready: false, error: "the board's server did not answer: " + e }};
  }}
}}
const model = {{
  get: (k) => state[k],
  set: (k, v) => {{ state[k] = v; }},
  save_changes: () => call("/api", {{ cmd: "coach", on: state.coach }}),
  on: (event, f) => {{ (handlers[event] = handlers[event] || []).push(f); }},
  send: (msg) => call("/api", msg),
}};
async function start() {{
  const box = document.getElementById("starting");
  for (;;) {{  // the engine compiles (first run): its lines and time until the board is ready
    const s = await status();
    if (s.ready) break;
    box.hidden = false;
    box.querySelector(".pina-starting-lines").textContent =
      (s.lines || []).join("\\n") + (s.error ? "\\n" + s.error : "");
    if (s.seconds !== undefined) {{
      box.querySelector(".pina-starting-time").textContent = `${{Math.round(s.seconds)}} s so far.`;
    }}
    document.body.dataset.starting = "1";
    await sleep(1000);
  }}
  box.hidden = true;
  delete document.body.dataset.starting;
  app.render({{ model, el: document.getElementById("app") }});
  await call("/api/view");
  for (;;) {{  // another phone at the table played: read the view again
    await sleep({poll});
    if (document.hidden || calls > 0) continue;
    const s = await status();
    if (s.ready && s.version !== state.version && calls === 0) await call("/api/view");
  }}
}}
start();
</script></body></html>
"""

SHARE = """
<details class="pina-share"><summary>Another phone at the table: scan this</summary>
<img src="/qr.svg?token={token}" alt="QR code of this board's address, with its token">
<p>or open <code>{url}</code> on a phone on the same network.</p></details>"""
"""The QR code of the board's address under the board (served on another address than
127.0.0.1, with segno installed)."""


class StartUp:
    """The engine's compile as the server tells it: the lines written so far, the time, ready.

    A stream for :func:`pinastats._warmup.ensure_warm`: what is written goes on to
    ``echo`` (the terminal) and is kept for ``GET /api/status``, a carriage return
    redrawing the line it is on (the last :data:`KEEP` characters are kept).
    """

    KEEP = 20_000

    def __init__(self, echo: TextIO | None = None) -> None:
        self.echo = echo
        self.started = time.monotonic()
        self.error: str | None = None
        self._text = ""
        self._lock = threading.Lock()

    def write(self, text: str) -> int:
        """Keep ``text`` (and write it to ``echo``)."""
        if self.echo is not None:
            self.echo.write(text)
        with self._lock:
            self._text = (self._text + text)[-self.KEEP :]
        return len(text)

    def flush(self) -> None:
        """Flush ``echo``."""
        if self.echo is not None:
            self.echo.flush()

    def isatty(self) -> bool:
        """Whether ``echo`` is a terminal (then the compile redraws its line every second)."""
        return self.echo is not None and self.echo.isatty()

    def lines(self) -> list[str]:
        """The lines written so far, each as last redrawn."""
        with self._lock:
            text = self._text
        lines = [[p for p in line.split("\r") if p] for line in text.split("\n")]
        return [parts[-1] for parts in lines if parts]

    def seconds(self) -> float:
        """Seconds since the start."""
        return time.monotonic() - self.started


class RequestError(Exception):
    """A request refused: its status and the one line that says why."""

    def __init__(self, status: HTTPStatus, text: str) -> None:
        super().__init__(text)
        self.status = status


def lan_address() -> str:
    """The computer's address on its local network (``--lan``), as text.

    The address this computer would send from towards a private network (a UDP socket's
    ``connect`` picks the route and sends nothing), else the addresses of the computer's
    name; the first that is neither loopback, link-local, multicast nor unspecified,
    a private one (10/8, 172.16/12, 192.168/16) first. Raises
    :class:`~pinastats.errors.PinastatsError` when there is none (no network).
    """
    seen = [a for a in (_route_address(), *_named_addresses()) if a]
    usable = []
    for text in dict.fromkeys(seen):
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            continue
        if not (address.is_loopback or address.is_link_local or address.is_multicast
                or address.is_unspecified):  # fmt: skip
            usable.append(address)
    if not usable:
        raise PinastatsError("--lan: this computer has no network address (connect it to the "
                             "table's Wi-Fi, or name the address with --host ADDRESS)")  # fmt: skip
    return str(sorted(usable, key=lambda a: not a.is_private)[0])


def _route_address() -> str | None:
    """The address a UDP socket bound towards 10.255.255.255 has (nothing is sent)."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.connect(("10.255.255.255", 9))
        return str(sock.getsockname()[0])
    return None


def _named_addresses() -> list[str]:
    """The IPv4 addresses of this computer's name (none when it has none)."""
    try:
        found = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except (OSError, UnicodeError):
        return []
    return [str(info[4][0]) for info in found]


def check_host(text: str) -> str:
    """``--host``: one IP address to serve on, checked (one line naming it otherwise)."""
    try:
        address = ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        raise PinastatsError(f"--host must be an IP address such as 192.168.1.20, got "
                             f"{text!r:.80}")  from None  # fmt: skip
    if address.is_unspecified or address.is_multicast:
        raise PinastatsError(f"--host {text}: name one address of this computer (--lan finds "
                             "its address on the network)")  # fmt: skip
    return str(address)


class BoardServer(ThreadingHTTPServer):
    """The page and its API for one session (one click at a time), on one address.

    ``session`` None: the server answers at once, the game comes with :meth:`ready`
    (meanwhile ``starting`` tells the page how the compile goes).
    """

    daemon_threads = True

    def __init__(self, session: Session | None, port: int = 8765, coach: bool = True, *,
                 host: str = DEFAULT_HOST, starting: StartUp | None = None) -> None:  # fmt: skip
        self._session = session
        self.coach, self.lock = coach, threading.Lock()
        self.token = secrets.token_urlsafe(32)
        self.host = check_host(host)
        self.starting = starting or StartUp()
        self.version = 0
        """Moves each time the game's view changes (the pages read it again)."""
        self._shown: object = None
        if ipaddress.ip_address(self.host).version == 6:
            self.address_family = socket.AF_INET6
        super().__init__((self.host, port), _Handler)

    @property
    def session(self) -> Session:
        """The session served (a :class:`RequestError` 503 while the engine compiles)."""
        if self._session is None:
            raise RequestError(HTTPStatus.SERVICE_UNAVAILABLE, "the board is not ready: the "
                               "engine is compiling (first run on this computer)")  # fmt: skip
        return self._session

    @session.setter
    def session(self, session: Session) -> None:
        self._session = session

    @property
    def is_ready(self) -> bool:
        """Whether the game is served (:meth:`ready` was called)."""
        return self._session is not None

    def ready(self, session: Session) -> None:
        """Serve ``session`` from now on (the compile is done)."""
        with self.lock:
            self._session = session

    def close_session(self) -> None:
        """Close the session served, if any."""
        if self._session is not None:
            self._session.close()

    @property
    def port(self) -> int:
        """The port served (the one the system chose for port 0)."""
        return int(self.server_address[1])

    @property
    def open_page(self) -> bool:
        """Whether the page opens without the token (served on 127.0.0.1 only)."""
        return self.host == DEFAULT_HOST

    def _names(self) -> list[str]:
        """The host names the server answers to, without the port."""
        own = f"[{self.host}]" if ":" in self.host else self.host
        return [own, "localhost"] if self.host == DEFAULT_HOST else [own]

    def hosts(self) -> set[str]:
        """The server's names with its port, as ``Host`` and ``Origin`` give them."""
        names = {f"{h}:{self.port}" for h in self._names()}
        return names | set(self._names()) if self.port == 80 else names  # HTTP's own: unwritten

    @property
    def url(self) -> str:
        """The board's address with its token, to open on a phone (or print)."""
        return f"http://{self._names()[0]}:{self.port}/?token={self.token}"

    def qr_svg(self) -> bytes | None:
        """The QR code of :attr:`url` as SVG (None without segno, the ``play`` extra)."""
        try:
            import segno
        except ImportError:
            return None
        out = io.BytesIO()
        segno.make(self.url, error="m").save(out, kind="svg", scale=6, border=2,
                                              title="the board's address")  # fmt: skip
        return out.getvalue()

    def page(self) -> str:
        """The page, with this server's token."""
        css = (STATIC / "app.css").read_text(encoding="utf-8")
        share = ""
        if not self.open_page and self.qr_svg() is not None:
            share = SHARE.format(token=self.token, url=html.escape(self.url))
        return PAGE.format(css=css, token=self.token, header=TOKEN_HEADER, share=share,
                           poll=POLL_MS)  # fmt: skip

    def status(self) -> dict[str, Any]:
        """What ``GET /api/status`` says: ready or the compile's lines, and the version."""
        out: dict[str, Any] = {"ready": self.is_ready, "version": self.version}
        if not self.is_ready:
            out.update(lines=self.starting.lines(), seconds=round(self.starting.seconds(), 1),
                       error=self.starting.error)  # fmt: skip
        return out

    def answer(self, message: object) -> dict[str, Any]:
        """Carry out a message (None: none) and return the new view, the text and the coach.

        A malformed message raises :class:`~pinastats.tabletop.commands.MessageError`
        before anything changes. A position line names layouts by name only.
        """
        with self.lock:
            session = self.session
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
                with names_only("the served board"):
                    outcome = carry_out(session, message)
                text, download, review = outcome.text, outcome.download, outcome.review
                if outcome.session is not None:
                    session.close()
                    self.session = session = outcome.session
            view = board_view(session, coach=self.coach)
            if view != self._shown:
                self._shown, self.version = view, self.version + 1
            out = {"view": view, "message": text, "coach": self.coach, "version": self.version}
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
        self.send_header("Referrer-Policy", "no-referrer")  # the page's URL carries the token
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
        """Refuse a request naming another host (another site's name rebound to this address)."""
        host = self.headers.get("Host")
        if host is not None and host.lower() not in self.server.hosts():
            served = " and ".join(sorted(self.server.hosts()))
            raise RequestError(HTTPStatus.FORBIDDEN, f"this server answers to {served} only, "
                               f"not to host {host!r:.80}")  # fmt: skip

    def _has_token(self) -> bool:
        """Whether the request carries the server's token (header, or ``token=`` in the URL)."""
        given = self.headers.get(TOKEN_HEADER)
        if given is None:
            given = (parse_qs(urlsplit(self.path).query).get("token") or [""])[0]
        return hmac.compare_digest(given.encode(), self.server.token.encode())

    def _check_reader(self) -> None:
        """Off 127.0.0.1, refuse a read without the token (a device without the URL)."""
        if not self.server.open_page and not self._has_token():
            raise RequestError(HTTPStatus.FORBIDDEN, "open the board by the address "
                               "'pinastats play' printed, with its token=")  # fmt: skip

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
        parts = urlsplit(self.path)
        path = parts.path
        if parts.query and path not in ("/", "/index.html", "/qr.svg"):
            raise RequestError(HTTPStatus.NOT_FOUND, f"no page at {self.path!r:.80}")
        if path == "/app.js":  # the widget's script: no secret in it
            self._send((STATIC / "app.js").read_bytes(), "text/javascript; charset=utf-8")
            return
        if path == "/favicon.ico":
            self._send(b"", "image/x-icon", 204)
            return
        self._check_reader()
        if path in ("/", "/index.html"):
            self._send(self.server.page().encode(), "text/html; charset=utf-8")
        elif path == "/api/status":
            self._json(self.server.status())
        elif path == "/api/view":
            self._json(self.server.answer(None))
        elif path == "/qr.svg" and (svg := self.server.qr_svg()) is not None:
            self._send(svg, "image/svg+xml")
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
