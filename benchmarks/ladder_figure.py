"""Draw the strength ladder: ``python benchmarks/ladder_figure.py [LADDER.json [FIGURE.png]]``.

Reads a ladder saved by ``pinastats ladder --out`` (default ``data/strength-ladder.json``),
writes its figure (default ``docs/strength-ladder.png``) with
:func:`pinastats.ratings.figure.ladder_figure` and prints its two Markdown tables
(the ratings, the pairs) for ``docs/strength-ladder.md``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from pinastats.ratings.document import pairs_markdown, ratings_markdown
from pinastats.ratings.figure import ladder_figure

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str]) -> int:
    """Read the ladder, draw it, say where the figure went."""
    source = Path(argv[0]) if argv else ROOT / "data" / "strength-ladder.json"
    target = Path(argv[1]) if len(argv) > 1 else ROOT / "docs" / "strength-ladder.png"
    document = json.loads(source.read_text(encoding="utf-8"))
    if "ratings" not in document:
        print(f"{source}: no ratings (re-rate it: pinastats ladder --from {source} --prior 1)")
        return 2
    ladder_figure(document, target)
    print(f"wrote {target}\n\n{ratings_markdown(document)}\n\n{pairs_markdown(document)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
