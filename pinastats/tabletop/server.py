"""``pinastats play --serve``: the same board as a web page on 127.0.0.1, for a browser.

The page loads the widget's own script (``static/app.js``) with a small stand-in for
the notebook's model: the view comes from ``GET /api/view`` and every click is a
``POST /api`` whose answer is the new view, so the browser and the notebook run the
same code against the same :class:`~pinastats.tabletop.session.PlaySession`.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from pinastats.tabletop.commands import act
from pinastats.tabletop.session import PlaySession
from pinastats.tabletop.view import session_view
from pinastats.tabletop.widget import STATIC

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Piña Coladice — pinastats</title>
<style>body {{ margin: 16px; }} {css}</style></head>
<body><h2>Piña Coladice</h2><div id="app"></div>
<script type="module">
import app from "/app.js";
const state = {{ view: null, coach: true, message: "" }};
const handlers = {{}};
const fire = (k) => (handlers["change:" + k] || []).forEach((f) => f());
async function call(url, body) {{
  const r = await fetch(url, body ? {{ method: "POST", body: JSON.stringify(body) }} : {{}});
  const d = await r.json();
  state.view = d.view; state.message = d.message || ""; state.coach = d.coach;
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


class BoardServer(ThreadingHTTPServer):
    """The page and its API for one session (one click at a time)."""

    daemon_threads = True

    def __init__(self, session: PlaySession, port: int = 8765, coach: bool = True) -> None:
        self.session, self.coach, self.lock = session, coach, threading.Lock()
        super().__init__(("127.0.0.1", port), _Handler)

    def answer(self, message: dict[str, Any] | None) -> dict[str, Any]:
        """Carry out a message (None: none) and return the new view, the text and the coach."""
        with self.lock:
            text = ""
            if message is not None:
                if message.get("cmd") == "coach":
                    self.coach = bool(message.get("on"))
                else:
                    text = act(self.session, message)
            return {"view": session_view(self.session, coach=self.coach), "message": text,
                    "coach": self.coach}  # fmt: skip


class _Handler(BaseHTTPRequestHandler):
    server: BoardServer

    def _send(self, body: bytes, kind: str, status: int = 200) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        if self.path in ("/", "/index.html"):
            css = (STATIC / "app.css").read_text(encoding="utf-8")
            self._send(PAGE.format(css=css).encode(), "text/html; charset=utf-8")
        elif self.path == "/app.js":
            self._send((STATIC / "app.js").read_bytes(), "text/javascript; charset=utf-8")
        elif self.path == "/favicon.ico":
            self._send(b"", "image/x-icon", 204)
        elif self.path == "/api/view":
            self._send(json.dumps(self.server.answer(None)).encode(), "application/json")
        else:
            self._send(b"not found", "text/plain", 404)

    def do_POST(self) -> None:
        if self.path != "/api":
            self._send(b"not found", "text/plain", 404)
            return
        length = int(self.headers.get("Content-Length") or 0)
        try:
            message = json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            self._send(b'{"message": "the request is not JSON"}', "application/json", 400)
            return
        self._send(json.dumps(self.server.answer(message)).encode(), "application/json")

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: no line per request."""
