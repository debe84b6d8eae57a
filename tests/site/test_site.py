"""The documentation site: built at the notebooks' test scale with warnings as errors.

One build for the module (``python site/build.py --scale 0.02 --strict``, the
documented command, in a subprocess, with a fresh execution cache in a temporary
folder, so every notebook is run by this code), then checks of the HTML, then two
pages opened in headless Chromium (Debian's ``chromium``, driven by Playwright, as
in ``tests/tabletop/test_browser.py``) over a local HTTP server: every image
loaded and visible, with a screenshot of each page kept beside the build.

The build and every check are one test: pytest-xdist would run separate tests of
the module on both workers, each building the site (its ``loadgroup`` grouping
has no effect with pytest 9), so one test keeps it to one build on one worker.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest

from tests.notebooks.conftest import NOTEBOOKS, SMALL_SCALE
from tests.notebooks.strip import read
from tests.site.offline import check_formulas_drawn, outside

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
STEP = 30_000
"""Milliseconds a page may take to load."""
DOCS = sorted(p for p in (ROOT / "docs").glob("*.md") if p.name != "headlines.md")
"""The pages of ``docs/`` (``headlines.md`` is included in the landing page)."""


@dataclass
class Site:
    html: Path
    seconds: float
    shots: Path


class Page(HTMLParser):
    """The images and links of an HTML page."""

    def __init__(self) -> None:
        super().__init__()
        self.images: list[dict[str, str | None]] = []
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(str(found["id"]))
        if tag == "img":
            self.images.append(found)
        elif tag == "a" and found.get("href"):
            self.links.append(str(found["href"]))


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def build(folder: Path) -> Site:
    """The site built by the documented command at the test scale, warnings as errors."""
    html = folder / "html"
    command = [
        sys.executable,
        str(ROOT / "site" / "build.py"),
        "--scale",
        SMALL_SCALE,
        "--strict",
        "--out",
        str(html),
        "--cache",
        str(folder / "jupyter_cache"),
    ]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    assert done.returncode == 0, f"the site build failed:\n{done.stdout[-5000:]}\n{done.stderr}"
    shots = Path(os.environ.get("PINASTATS_SITE_SHOTS") or folder / "screenshots")
    shots.mkdir(parents=True, exist_ok=True)
    return Site(html, seconds, shots)


def check_the_landing_page_and_the_redirect_to_it(site: Site) -> None:
    landing = (site.html / "site" / "index.html").read_text(encoding="utf-8")
    assert "Headline findings" in landing  # docs/headlines.md, included
    assert 'url=site/index.html"' in (site.html / "index.html").read_text(encoding="utf-8")


def check_the_solved_game_headlines(site: Site) -> None:
    """The landing page's solved-game headlines are the shipped file's, computed at build time."""
    from pinastats.balance.perfect import first_player, perfect_play
    from pinastats.report.perfect_figures import FIGURES
    from pinastats.report.perfect_text import ranking
    from pinastats.report.text import percent, percent_range

    path = site.html / "site" / "index.html"
    landing, page = path.read_text(encoding="utf-8"), parse(path)
    assert 'id="headline-findings-the-solved-game"' in landing
    pp = perfect_play()
    fp = first_player(pp)
    assert f"{percent(fp['mean'])} on average over {pp.about['boards']} boards" in landing
    assert f"95% interval {percent_range(fp['low'], fp['high'])}" in landing
    assert f"{pp.about['boards']} boards dealt from seed {pp.about['seed']}" in landing
    for r in ranking(pp).to_dict("records"):
        assert f"{r['loss']:.1f} [{r['loss_low']:.1f}, {r['loss_high']:.1f}]" in landing
    assert "../docs/solved-game.html" in page.links
    figure = [i for i in page.images if i.get("alt") == FIGURES["perfect-play-first-player.png"]]
    assert len(figure) == 1
    assert str(figure[0].get("src", "")).startswith("data:image/png;base64,")


def check_the_notebook_page(site: Site, notebook: Path) -> None:
    page = site.html / "notebooks" / f"{notebook.stem}.html"
    text = page.read_text(encoding="utf-8")
    assert "cell_output" in text, f"{page.name} has no cell output"
    assert f"SCALE = {SMALL_SCALE}" in text, "the notebook ran at the scale asked for"
    code = "\n".join(c.source for c in read(notebook).cells if c.cell_type == "code")
    figures = code.count("show_figure(")
    images = parse(page).images
    assert len(images) >= min(figures, 1), f"{page.name}: {figures} figure calls, no image"
    for image in images:
        assert str(image.get("src", "")).startswith("data:image/png;base64,")
    # a live widget cannot run on a static page: a note stands in its place
    assert "widget-view+json" not in text, f"{page.name} embeds a widget view"
    if re.search(r"(?<![\w.])play\(", code):  # pinastats.play: the board widget
        assert "widget-note" in text, f"{page.name}: no note where the board would be"


def check_every_image_has_alt_text_that_says_something(site: Site) -> None:
    pages = sorted(site.html.rglob("*.html"))
    images = [(p, image) for p in pages for image in parse(p).images]
    assert len(images) > 20
    for path, image in images:
        alt = (image.get("alt") or "").strip()
        assert alt, f"{path.relative_to(site.html)}: an image without alt text: {image}"
        assert alt != "Figure.", f"{path.relative_to(site.html)}: an untitled figure"


def check_every_page_of_docs_is_on_the_site(site: Site) -> None:
    for doc in DOCS:
        assert (site.html / "docs" / f"{doc.stem}.html").is_file(), doc.name
    rules = (site.html / "docs" / "rules.html").read_text(encoding="utf-8")
    assert "The 25 coasters" in rules
    for page in ("docs/state-format.html", "docs/records.html", "README.html"):
        assert (site.html / page).is_file()


def check_local_links_lead_to_files_of_the_site(site: Site) -> None:
    checked = 0
    for page in sorted(site.html.rglob("*.html")):
        for href in parse(page).links:
            parts = urlsplit(href)
            if parts.scheme or parts.netloc or not parts.path:
                continue
            target = (page.parent / unquote(parts.path)).resolve()
            assert target.is_file(), f"{page.relative_to(site.html)} links to missing {href}"
            checked += 1
    assert checked > 100


def check_nothing_is_loaded_from_outside(site: Site) -> None:
    """No page loads a script, a style or an image from another site (MathJax's CDN...)."""
    pages = sorted(site.html.rglob("*.html"))
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert outside(html) == [], f"{page.relative_to(site.html)} loads from outside"
        assert not re.search(r"<script[^>]*(mathjax|>[^<]*mathjax)", html, re.I), page.name
    first = (site.html / "notebooks" / "01_dice_and_holds.html").read_text(encoding="utf-8")
    assert first.count("<math ") >= 8  # the formulas, as MathML


def check_the_formulas_offline(served: str, browser: Any) -> None:
    """With every request off the local server refused, notebooks 01 and 02 show no TeX."""
    refused: list[str] = []

    def route(request: Any) -> None:
        if request.request.url.startswith(served):
            request.continue_()
        else:
            refused.append(request.request.url)
            request.abort()

    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.set_default_timeout(STEP)
    page.route("**/*", route)
    try:
        for name in ("01_dice_and_holds", "02_coaster_values"):
            check_formulas_drawn(page, f"{served}notebooks/{name}.html", name, 4)
    finally:
        page.close()
    assert refused == []


def check_the_cli_reference_names_every_subcommand_and_option(site: Site) -> None:
    from pinastats.cli.main import build_parser

    page = site.html / "site" / "cli.html"
    text = page.read_text(encoding="utf-8")
    ids = parse(page).ids

    def check(parser: argparse.ArgumentParser, prog: str) -> int:
        count = 0
        for action in parser._actions:
            for option in action.option_strings:
                assert option in text, f"{prog}: option {option} missing"
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    anchor = f"{prog} {name}".replace(" ", "-")
                    assert anchor in ids, f"no section for {prog} {name}"
                    count += 1 + check(sub, f"{prog} {name}")
        return count

    assert check(build_parser(), "pinastats") >= 10


def check_the_api_reference_documents_the_public_packages(site: Site) -> None:
    import inspect

    import pinastats
    import pinastats.dice

    page = site.html / "site" / "api.html"
    ids = parse(page).ids
    functions = [
        n for n in pinastats.dice.__all__ if inspect.isfunction(getattr(pinastats.dice, n))
    ]
    assert len(functions) > 5
    for name in functions:
        assert f"pinastats.dice.{name}" in ids, f"pinastats.dice.{name} is not documented"
    text = page.read_text(encoding="utf-8")
    for name in pinastats.__all__:
        if name != "__version__":
            assert f".{name}" in text, f"pinastats.{name} is not in the top level's table"
    packages = [
        p.parent.name
        for p in sorted((ROOT / "pinastats").glob("*/__init__.py"))
        if not p.parent.name.startswith("_") and p.parent.name != "cli"
    ]
    assert len(packages) >= 11
    for package in packages:  # every public package, a new one too
        assert f"module-pinastats.{package}" in ids, f"pinastats.{package} is not documented"
    for module in ("value.data", "tabletop.widget", "integrations.openspiel"):
        assert f"module-pinastats.{module}" in ids


def check_the_reports_are_linked_and_copied(site: Site) -> None:
    page = site.html / "site" / "reports.html"
    links = parse(page).links
    pdfs = sorted((ROOT / "reports").glob("*.pdf"))
    assert len(pdfs) >= 3
    for pdf in pdfs:
        found = [h for h in links if h.endswith("/" + pdf.name)]
        assert found, f"{pdf.name} is not linked"
        copy = (page.parent / unquote(found[0])).resolve()
        assert copy.read_bytes() == pdf.read_bytes()
    landing = parse(site.html / "site" / "index.html").links
    assert any(h.endswith("reports.html") for h in landing)


@contextlib.contextmanager
def served(site: Site) -> Iterator[str]:
    """The built site over HTTP on a free local port; every file asked for must be there."""
    missing: list[str] = []

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def send_error(
            self, code: int, message: str | None = None, explain: str | None = None
        ) -> None:
            if self.path != "/favicon.ico":  # the browser's own guess; the site has none
                missing.append(f"{code} {self.path}")
            super().send_error(code, message, explain)

    class Server(ThreadingHTTPServer):
        def handle_error(self, request: Any, client_address: Any) -> None:
            pass  # a page closed before its answer was sent: nothing to report

    handler = functools.partial(Quiet, directory=str(site.html))
    server = Server(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
    assert not missing, f"the pages asked for files the site does not have: {missing}"


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    from playwright import sync_api as playwright  # in the [dev] extra

    if CHROMIUM is None:
        pytest.fail("the browser tests need Debian's chromium: apt-get install -y chromium")
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


def check_the_page_in_chromium(
    site: Site, served: str, browser: Any, path: str, least: int
) -> None:
    """``path`` loads with at least ``least`` images, each loaded and visible; screenshots."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(STEP)
    try:
        page.goto(served + path)  # the landing page through the redirect at the top
        page.wait_for_load_state("load")
        page.wait_for_selector("article h1")
        assert "pinastats" in page.title()
        images = page.locator("article img")
        assert images.count() >= least
        for i in range(images.count()):
            image = images.nth(i)
            image.scroll_into_view_if_needed()
            assert image.is_visible(), f"image {i} of {path} is not visible"
            width = image.evaluate("img => img.complete ? img.naturalWidth : 0")
            assert width > 0, f"image {i} of {path} did not load"
            assert image.bounding_box()["width"] > 100
        name = Path(path).stem
        if images.count():
            images.first.screenshot(path=str(site.shots / f"{name}-figure.png"))
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(site.shots / f"{name}.png"))
        page.screenshot(path=str(site.shots / f"{name}-full.png"), full_page=True)
        assert (site.shots / f"{name}.png").stat().st_size > 10_000
    finally:
        page.close()


def test_the_site_builds_and_shows_what_it_should(tmp_path: Path) -> None:
    site = build(tmp_path)
    check_the_landing_page_and_the_redirect_to_it(site)
    check_the_solved_game_headlines(site)
    for notebook in NOTEBOOKS:
        check_the_notebook_page(site, notebook)
    check_every_image_has_alt_text_that_says_something(site)
    check_every_page_of_docs_is_on_the_site(site)
    check_local_links_lead_to_files_of_the_site(site)
    check_nothing_is_loaded_from_outside(site)
    check_the_cli_reference_names_every_subcommand_and_option(site)
    check_the_api_reference_documents_the_public_packages(site)
    check_the_reports_are_linked_and_copied(site)
    with served(site) as url, chromium() as browser:
        check_the_page_in_chromium(site, url, browser, "index.html", 0)
        check_the_page_in_chromium(site, url, browser, "notebooks/04_game_simulations.html", 3)
        check_the_formulas_offline(url, browser)
    print(f"site built at scale {SMALL_SCALE} in {site.seconds:.0f} s; screenshots in {site.shots}")
