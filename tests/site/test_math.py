"""The site's formulas are MathML written at build time: offline, no TeX is left to show.

A small Sphinx project with the site's own math renderer (``site/_math.py``) and
MyST-NB reads notebooks 01 and 02 (not executed: their formulas are in the Markdown)
and a page of display maths; the HTML must carry MathML and reference no script or
style from outside, and headless Chromium (Debian's ``chromium``) with every request
off the local server refused draws each formula with no TeX in the text. The whole
site's build (``test_site.py``) checks the same of every page.
"""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.site.offline import check_formulas_drawn, outside

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
NOTEBOOKS = ["01_dice_and_holds.ipynb", "02_coaster_values.ipynb"]

CONF = f"""
import sys
sys.path.insert(0, {str(ROOT / "site")!r})
extensions = ["myst_nb", "_math"]
myst_enable_extensions = ["dollarmath"]
nb_execution_mode = "off"
html_math_renderer = "mathml"
html_theme = "furo"
suppress_warnings = ["myst.header"]
"""
PAGE = """# Formulas

Inline $5!/(c_1!\\cdots c_6!)$ and a display:

$$
y \\approx a + b\\,(-\\ln p)
$$ (fit)

```{toctree}
01_dice_and_holds
02_coaster_values
```
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = tmp_path_factory.mktemp("math")
    (source / "conf.py").write_text(CONF, encoding="utf-8")
    (source / "index.md").write_text(PAGE, encoding="utf-8")
    for name in NOTEBOOKS:
        shutil.copy(ROOT / "notebooks" / name, source / name)
    out = source / "_build"
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html",
                           str(source), str(out)], capture_output=True, text=True,
                          timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def test_the_formulas_are_mathml_and_nothing_is_loaded_from_outside(built: Path) -> None:
    pages = sorted(built.glob("*.html"))
    assert len(pages) >= 3
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert outside(html) == [], page.name
        assert not re.search(r"<script[^>]*(mathjax|>[^<]*mathjax)", html, re.I), page.name
    index = (built / "index.html").read_text(encoding="utf-8")
    assert index.count("<math ") == 2
    assert 'display="block"' in index
    assert '<span class="eqno">(1)</span>' in index
    assert "&#x022EF;" in index  # \cdots, as its character
    first = (built / "01_dice_and_holds.html").read_text(encoding="utf-8")
    assert first.count("<math ") >= 8


def test_outside_finds_what_a_cdn_would_load() -> None:
    html = (
        '<script src="https://cdn.example/mathjax.js"></script><script src="_static/a.js">'
        '</script><link rel="stylesheet" href="//fonts.example/x.css"><a href="https://x">'
    )
    assert outside(html) == ["https://cdn.example/mathjax.js", "//fonts.example/x.css"]


@pytest.fixture
def served(built: Path) -> Iterator[str]:
    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(built)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def test_offline_chromium_draws_every_formula_with_no_tex(served: str) -> None:
    from playwright import sync_api as playwright  # in the [dev] extra

    if CHROMIUM is None:
        pytest.fail("the browser tests need Debian's chromium: apt-get install -y chromium")
    refused: list[str] = []

    def route(request: Any) -> None:
        if request.request.url.startswith(served):
            request.continue_()
        else:  # the network is off: anything else is refused, and noted
            refused.append(request.request.url)
            request.abort()

    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.route("**/*", route)
            page.set_default_timeout(30_000)
            for name in ("index", "01_dice_and_holds", "02_coaster_values"):
                check_formulas_drawn(page, f"{served}{name}.html", name, 2)
        finally:
            browser.close()
    assert refused == []
