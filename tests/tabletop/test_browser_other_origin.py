"""A page of another origin, open in the same headless Chromium, cannot play the served board.

The other page is served on another port of 127.0.0.1 (another origin): it posts
clicks to the board as a page may without asking (``no-cors`` fetches as
``text/plain``, a form posted into a frame), and as JSON (which needs the server's
consent, never given). The game stays as it was, the coach stays on, no file is written.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from pinastats.tabletop.server import BoardServer
from pinastats.tabletop.session import PlaySession

ATTACK = """<!doctype html><html><body>
<form id="f" method="POST" action="{api}" enctype="text/plain" target="sink">
<input name='{{"cmd": "roll", "hold": [], "x": "' value='"}}'></form>
<iframe name="sink"></iframe>
<script>
const api = "{api}";
const messages = [{{cmd: "roll", hold: []}}, {{cmd: "coach", on: false}}, {{cmd: "undo"}},
  {{cmd: "export", path: "{folder}/written.jsonl"}}, {{cmd: "export"}}];
(async () => {{
  const seen = [];
  for (const m of messages) {{
    try {{
      await fetch(api, {{method: "POST", mode: "no-cors", body: JSON.stringify(m),
                         headers: {{"Content-Type": "text/plain"}}}});
      seen.push("sent");
    }} catch (e) {{ seen.push("failed"); }}
    try {{
      const r = await fetch(api, {{method: "POST", body: JSON.stringify(m),
                                   headers: {{"Content-Type": "application/json"}}}});
      seen.push("read " + r.status);
    }} catch (e) {{ seen.push("blocked"); }}
  }}
  document.getElementById("f").submit();
  await new Promise((done) => setTimeout(done, 1500));
  document.body.dataset.seen = JSON.stringify(seen);
}})();
</script></body></html>
"""


def _serve_page(html: str) -> ThreadingHTTPServer:
    class Page(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = html.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def test_a_page_of_another_origin_cannot_play(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    board = BoardServer(PlaySession(["human", "strategic"], seed=4), 0)
    threading.Thread(target=board.serve_forever, daemon=True).start()
    api = f"http://127.0.0.1:{board.port}/api"
    evil = _serve_page(ATTACK.format(api=api, folder=tmp_path / "deep"))
    try:
        before = board.answer(None)
        page = browser.new_page()
        page.set_default_timeout(30_000)
        page.goto(f"http://127.0.0.1:{evil.server_address[1]}/")
        page.wait_for_function("document.body.dataset.seen !== undefined")
        seen = json.loads(page.evaluate("document.body.dataset.seen"))
        assert "sent" in seen  # the requests did leave the other page
        assert not any(s.startswith("read") for s in seen)  # no answer was readable there
        assert board.answer(None) == before  # the game as it was, the coach still on
        assert board.coach
        assert list(tmp_path.iterdir()) == []  # nothing written
        page.close()
    finally:
        evil.shutdown()
        evil.server_close()
        board.shutdown()
        board.server_close()
        board.session.close()
