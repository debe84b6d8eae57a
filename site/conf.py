"""Sphinx configuration of the pinastats documentation site (``python site/build.py``).

The source directory is the repository root (``site/build.py`` runs Sphinx with
``-c site``), so the pages are read where they live: ``site/*.md`` (the site-only
pages), ``docs/*.md``, ``notebooks/*.ipynb`` and a few README files. Nothing is
copied or moved by hand, and relative links between them resolve as on GitHub.

The notebooks are executed by MyST-NB in ``cache`` mode (jupyter-cache), sized by
``PINASTATS_NOTEBOOK_SCALE``. jupyter-cache keys on a notebook's code, not on the
environment, so each scale has its own cache folder.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

SITE = Path(__file__).resolve().parent
ROOT = SITE.parent
sys.path.insert(0, str(SITE))  # site/_ext.py, the site's own small extension

SCALE = os.environ.get("PINASTATS_NOTEBOOK_SCALE", "1")
"""Size of the notebooks' simulations (1: the real findings; the tests use 0.02)."""

project = "pinastats"
author = "the pinastats authors"
copyright = "the pinastats authors"

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.viewcode",
    "sphinx.ext.napoleon",
    "_ext",
    "_math",
]

root_doc = "site/index"
source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb"}
include_patterns = [
    "site/*.md",
    "docs/*.md",
    "notebooks/0*.ipynb",
    "notebooks/README.md",
    "README.md",
    "data/README.md",
    "data/layouts/README.md",
    "reports/README.md",
]
# folders Sphinx need not walk (the source directory is the whole repository)
pinastats_not_pages = ["headlines.md"]
"""Markdown of ``docs/`` that is not a page (site/_ext.py lists every other one)."""
exclude_patterns = [
    "docs/headlines.md",  # included in the landing page, not a page of its own
    ".git",
    ".venv",
    "**/.ipynb_checkpoints",
    "**/__pycache__",
    "site/_build",
    "build",
    "pinastats",
    "pinastats.egg-info",
    "tests",
    "benchmarks",
    "examples",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    ".hypothesis",
    ".import_linter_cache",
    ".grimp_cache",
    "dask-worker-space",
]

# MyST: heading anchors for links like docs/value.md#targets-out-of-reach-and-why
myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence", "dollarmath"]

# MyST-NB: execute through jupyter-cache, one cache per scale; no cell timeout (scale 1
# takes minutes per notebook); a cell's error stops the build with its traceback
nb_execution_mode = "cache"
nb_execution_cache_path = str(
    Path(os.environ.get("PINASTATS_SITE_CACHE") or SITE / "_build" / "jupyter_cache")
    / f"scale-{SCALE}"
)
nb_execution_timeout = -1
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_merge_streams = True
# a widget needs a kernel: site/_ext.py puts a note in its place, so no widget scripts
# are loaded from elsewhere
nb_ipywidgets_js: dict[str, dict[str, str]] = {}

# API reference: the docstrings, members in source order, type hints in the description
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_typehints_description_target = "documented"
autodoc_default_options = {"members": True, "show-inheritance": True}
autosummary_generate = False
# the docstrings' "Attributes:" sections are Google style (napoleon), as instance variables
# (no second description of a dataclass field beside autodoc's)
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_ivar = False

# heading levels as written for GitHub: docs/state-format.md opens with a level-2 heading,
# data/layouts/README.md goes from level 1 to level 3; neither is a problem on the site
suppress_warnings = ["myst.header"]

# mathematics as MathML written at build time (site/_math.py): no script, nothing fetched
html_math_renderer = "mathml"

html_theme = "furo"
html_title = "pinastats"
html_static_path = ["_static"]
html_css_files = ["site.css"]
html_extra_path = ["_root"]  # index.html at the top of the output: sends to site/index.html
html_show_sourcelink = False
html_copy_source = False
