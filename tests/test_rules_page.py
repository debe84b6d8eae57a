"""The rules page ``docs/rules.md`` against the data and the engine's vocabulary.

The page is written for players; these tests keep its tables honest: the
coaster table must agree with ``data/coasters.csv`` (read here with the
``csv`` module, not through the catalogue loader), every Happy Hour effect,
rule option, end reason and shipped layout must be described, and the
relative links of the page and of ``data/README.md`` must lead to files.
"""

from __future__ import annotations

import ast
import csv
import dataclasses
import json
import re
from pathlib import Path

import pytest

from pinastats.dice.combinations import parse_combination
from pinastats.game.layout import load_layout
from pinastats.game.rules import EndReason, HappyHourEffect, Rules

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "rules.md"
DATA_README = ROOT / "data" / "README.md"
COASTERS_CSV = ROOT / "data" / "coasters.csv"
LAYOUT_DIR = ROOT / "data" / "layouts"

Table = list[dict[str, str]]


def _section(heading: str) -> str:
    """The text of the ``## heading`` section of the page (up to the next ``## ``)."""
    text = PAGE.read_text(encoding="utf-8")
    match = re.search(rf"^## {re.escape(heading)}\s*$(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, f"docs/rules.md has no section '## {heading}'"
    return match.group(1)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _tables(text: str) -> list[Table]:
    """Every markdown table in ``text``, as rows keyed by the header's cells."""
    tables: list[Table] = []
    lines = text.splitlines()
    i = 0
    while i + 1 < len(lines):
        head, rule = lines[i].strip(), lines[i + 1].strip()
        if head.startswith("|") and re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", rule):
            header = _cells(head)
            rows: Table = []
            i += 2
            while i < len(lines) and lines[i].strip().startswith("|"):
                values = _cells(lines[i])
                assert len(values) == len(header), f"table row {lines[i]!r} vs header {header}"
                rows.append(dict(zip(header, values, strict=True)))
                i += 1
            tables.append(rows)
        else:
            i += 1
    return tables


def _table_with(heading: str, column: str) -> Table:
    """The table of a section whose header has ``column``."""
    found = [t for t in _tables(_section(heading)) if t and column in t[0]]
    assert len(found) == 1, f"section {heading!r}: expected one table with column {column!r}"
    return found[0]


def _code(cell: str) -> str:
    """The text of a cell written as inline code (`x`), else the cell itself."""
    match = re.fullmatch(r"`([^`]+)`", cell)
    return match.group(1) if match else cell


def _first_int(cell: str) -> int:
    match = re.search(r"\d+", cell)
    assert match, f"no number in table cell {cell!r}"
    return int(match.group())


# ---------------------------------------------------------------- coasters


def _csv_rows() -> dict[str, dict[str, str]]:
    with COASTERS_CSV.open(encoding="utf-8-sig", newline="") as f:
        lines = [ln for ln in f if ln.strip() and not ln.lstrip().startswith("#")]
    return {r["id"].strip(): r for r in csv.DictReader(lines)}


def test_catalogue_table_lists_each_coaster_of_the_csv_once() -> None:
    rows = _table_with("The 25 coasters", "id")
    ids = [_code(r["id"]) for r in rows]
    assert len(ids) == len(set(ids)), f"coasters listed twice: {sorted(ids)}"
    assert sorted(ids) == sorted(_csv_rows())
    assert len(ids) == 25


def test_catalogue_table_agrees_with_the_csv() -> None:
    csv_rows = _csv_rows()
    columns = {"side A": "side_a", "side B, 1st space": "side_b_first"}
    columns["side B, 2nd space"] = "side_b_second"
    for row in _table_with("The 25 coasters", "id"):
        coaster = _code(row["id"])
        expected = csv_rows[coaster]
        assert parse_combination(row["combination"]) is parse_combination(
            expected["combination"]
        ), coaster
        assert row["colour"] == expected["colour"].strip(), coaster
        for page_column, csv_column in columns.items():
            assert int(row[page_column]) == int(expected[csv_column]), (coaster, page_column)


def test_colour_groups_stated_on_the_page_match_the_csv() -> None:
    colours = [r["colour"].strip() for r in _csv_rows().values()]
    text = _section("The 25 coasters")
    for colour in ("green", "blue", "red"):
        stated = re.search(rf"\*\*{colour}\*\*[^()]*\((\d+)\)", text)
        assert stated, f"the page does not give the size of the {colour} group"
        assert int(stated.group(1)) == colours.count(colour), colour


# ---------------------------------------------------------------- engine vocabulary


def test_every_happy_hour_effect_is_described_on_its_die_face() -> None:
    rows = _table_with("The Happy Hour variant (off unless chosen)", "die")
    by_face = {int(r["die"]): _code(r["effect (engine name)"]) for r in rows}
    assert by_face == {effect.value: effect.name for effect in HappyHourEffect}
    descriptions = [r["what happens"] for r in rows]
    assert all(descriptions), "a Happy Hour effect without a description"
    assert len(set(descriptions)) == len(descriptions), "two effects share a description"


def test_every_rule_option_is_described_with_its_default() -> None:
    rows = _table_with("Rule options in the engine", "option")
    described = {_code(r["option"]): r for r in rows}
    fields = {f.name: f for f in dataclasses.fields(Rules)}
    assert sorted(described) == sorted(fields)
    for name, field in fields.items():
        stated = ast.literal_eval(_code(described[name]["default"]))
        assert stated == field.default, name
        assert type(stated) is type(field.default), name
        assert described[name]["meaning"], name


def test_every_end_reason_is_described() -> None:
    rows = _table_with("Rule options in the engine", "end reason")
    described = {_code(r["end reason"]) for r in rows}
    assert described == {r.name for r in EndReason if r is not EndReason.ONGOING}


@pytest.mark.parametrize("path", sorted(LAYOUT_DIR.glob("*.json")), ids=lambda p: p.stem)
def test_every_shipped_layout_is_named_with_its_size(path: Path) -> None:
    rows = {_code(r["layout"]): r for r in _table_with("Other layouts", "layout")}
    name = json.loads(path.read_text(encoding="utf-8"))["name"]
    assert name in rows, f"docs/rules.md does not name the layout {name!r}"
    layout = load_layout(path)
    assert _first_int(rows[name]["coasters"]) == layout.n_cells
    assert _first_int(rows[name]["winning lines"]) == layout.n_lines


def test_the_layout_table_names_only_shipped_layouts() -> None:
    rows = _table_with("Other layouts", "layout")
    assert sorted(_code(r["layout"]) for r in rows) == sorted(
        p.stem for p in LAYOUT_DIR.glob("*.json")
    )


# ---------------------------------------------------------------- links


@pytest.mark.parametrize("page", [PAGE, DATA_README], ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_lead_to_files(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    local = [t for t in targets if "://" not in t]
    for target in local:
        assert (page.parent / target).exists(), f"{page.name}: broken link {target!r}"


def test_data_readme_points_to_the_rules_page() -> None:
    text = DATA_README.read_text(encoding="utf-8")
    assert "](../docs/rules.md)" in text
    assert "RULES.md" not in text


def test_contents_anchor_of_the_page_exists() -> None:
    text = PAGE.read_text(encoding="utf-8")
    headings = re.findall(r"^#+ (.+)$", text, re.M)
    anchors = {re.sub(r"[^\w\- ]", "", h).strip().lower().replace(" ", "-") for h in headings}
    for anchor in re.findall(r"\]\(#([^)]+)\)", text):
        assert anchor in anchors, f"docs/rules.md: link to missing heading #{anchor}"
