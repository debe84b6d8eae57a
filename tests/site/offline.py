"""What a built page loads from outside, and its text without code: shared by the site tests."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

PROSE = """article => {
  const copy = article.cloneNode(true);
  copy.querySelectorAll("pre, code, .cell_input, .cell_output").forEach((e) => e.remove());
  document.body.append(copy);
  const text = copy.innerText;
  copy.remove();
  return text;
}"""
"""The text of a page but its code and the cells' outputs (where a backslash is Python's)."""


class Resources(HTMLParser):
    """What a page loads: scripts, styles, images and frames (not the links one follows)."""

    def __init__(self) -> None:
        super().__init__()
        self.loaded: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        key = {"script": "src", "img": "src", "iframe": "src", "link": "href"}.get(tag)
        if key and found.get(key) and (tag != "link" or found.get("rel") != "canonical"):
            self.loaded.append(str(found[key]))


def outside(html: str) -> list[str]:
    """The addresses off the site a page loads (``http:``, ``https:``, ``//host``)."""
    parser = Resources()
    parser.feed(html)
    return [u for u in parser.loaded if re.match(r"^(https?:)?//", u, re.IGNORECASE)]


def check_formulas_drawn(page: Any, url: str, name: str, at_least: int) -> None:
    """Open ``url`` and check its prose shows no TeX and ``at_least`` formulas have a size."""
    page.goto(url)
    page.wait_for_load_state("load")
    text = page.locator("article").evaluate(PROSE)
    assert "\\" not in text, f"{name}: TeX shown as text"
    assert not re.search(r"\$[^$\s]+\$", text), f"{name}: $...$ shown as text"
    formulas = page.locator("article math")
    assert formulas.count() >= at_least
    for i in range(formulas.count()):
        box = formulas.nth(i).bounding_box()
        assert box is not None
        assert box["width"] > 0
        assert box["height"] > 0
