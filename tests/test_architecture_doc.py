"""docs/architecture.md lists the layers of the import contract, every one and in order."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _contract_layers() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (layers,) = [
        c["layers"] for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers"
    ]
    return [" | ".join(part.strip() for part in layer.split("|")) for layer in layers]


def _documented_layers() -> list[str]:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text[text.index("## The layers") :]
    block = re.search(r"```text\n(.*?)```", section, re.S)
    assert block is not None
    out = []
    for line in block.group(1).splitlines():
        if line.startswith(" "):  # the words of a long layer, on a line of their own
            continue
        names = re.match(r"([\w]+(?: \| [\w]+)*)", line)
        assert names is not None, line
        out.append(names.group(1))
    return out


def test_the_documented_layers_are_the_contracts() -> None:
    assert _documented_layers() == _contract_layers()


def test_the_hold_words_are_a_package_above_the_dice() -> None:
    package = ROOT / "pinastats"
    assert (package / "holds" / "words.py").is_file()
    moved = ("hold_words", "guide", "decision_list", "decision_learn", "decision_sheet")
    assert [m for m in moved if (package / "dice" / f"{m}.py").exists()] == []
    assert any(layer.startswith("_engine | holds") for layer in _contract_layers())
