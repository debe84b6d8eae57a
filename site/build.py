"""Build the documentation site: ``python site/build.py [--scale S] [--strict] [--out DIR]``.

Runs Sphinx (MyST-NB) with the repository root as the source directory and
``site/`` as the configuration directory. The notebooks are executed through
jupyter-cache at ``PINASTATS_NOTEBOOK_SCALE=S`` (default 1, the real findings;
the tests use 0.02), one cache per scale under ``site/_build/jupyter_cache/``,
so a rebuild only re-runs the notebooks whose code changed. ``--strict`` turns
every warning into an error (as CI does). The HTML goes to ``--out`` (default
``site/_build/html`` at scale 1, ``site/_build/html-scale-S`` otherwise); open
its ``index.html``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

SITE = Path(__file__).resolve().parent
ROOT = SITE.parent
BUILD = SITE / "_build"


def _scale(text: str) -> float:
    """``--scale``: a positive number."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text!r}")
    return value


def main(argv: list[str] | None = None) -> int:
    """Build the site; return Sphinx's exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--scale",
        type=_scale,
        default=1.0,
        help="PINASTATS_NOTEBOOK_SCALE for the notebooks, a positive number (default 1)",
    )
    parser.add_argument("--strict", action="store_true", help="warnings are errors")
    parser.add_argument("--out", type=Path, help="folder of the HTML (see above for the default)")
    parser.add_argument(
        "--cache",
        type=Path,
        help="parent folder of the execution caches (default site/_build/jupyter_cache)",
    )
    parser.add_argument(
        "--fresh", action="store_true", help="re-read every page (Sphinx -E; the cache is kept)"
    )
    args = parser.parse_args(argv)
    scale = str(args.scale).removesuffix(".0")
    out = args.out or BUILD / ("html" if scale == "1" else f"html-scale-{scale}")
    out = out.resolve()
    # one Sphinx environment per output folder and scale: a page read at another scale
    # is never reused
    doctrees = out.parent / f".doctrees-{out.name}-scale-{scale}"
    os.environ["PINASTATS_NOTEBOOK_SCALE"] = scale
    if args.cache:
        os.environ["PINASTATS_SITE_CACHE"] = str(args.cache.resolve())
    sphinx_args = ["-b", "html", "-c", str(SITE), "-d", str(doctrees), str(ROOT), str(out)]
    if args.strict:
        sphinx_args[:0] = ["-W", "--keep-going"]
    if args.fresh:
        sphinx_args[:0] = ["-E"]

    from sphinx.cmd.build import build_main

    start = time.perf_counter()
    status = build_main(sphinx_args)
    seconds = time.perf_counter() - start
    print(
        f"site built at scale {scale} in {seconds:.0f} s: {out / 'index.html'}"
        if status == 0
        else f"site build failed (status {status}) after {seconds:.0f} s",
        file=sys.stderr,
    )
    return status


if __name__ == "__main__":
    sys.exit(main())
