"""The browser the board's page tests drive: Debian's Chromium through Playwright."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
"""Debian's Chromium (the README's test command installs it)."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless Chromium for the tests of one module."""
    from playwright import sync_api as playwright  # in the [dev] extra

    if CHROMIUM is None:
        pytest.fail("the browser tests need Debian's chromium: apt-get install -y chromium")
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture(autouse=True)
def _table_kept_in_tmp(tmp_path_factory: pytest.TempPathFactory,
                       monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """A table game saved by a test goes to a folder of its own, never the user's."""
    monkeypatch.setenv("PINASTATS_TABLE_DIR", str(tmp_path_factory.mktemp("table")))
