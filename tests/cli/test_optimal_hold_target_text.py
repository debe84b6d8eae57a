"""``optimal-hold --target``: a blank name or one with a control character is refused by name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

Cli = Callable[..., Any]


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("   ", "--target is blank (3 spaces)"),
        (" ", "--target is blank (1 space)"),
        ("", "--target is empty"),
        ("\u2003 \u2003", "blank (3 blank characters: U+2003 U+0020 U+2003)"),
        ("full\nhouse", r"--target 'full\nhouse' holds a control character ('\n', character 5"),
        ("full\thouse", r"('\t', character 5 of 10)"),
        ("full house\x00", r"('\x00', character 11 of 11)"),
        ("full\u2028house", r"'\u2028'"),
    ],
)
def test_a_target_that_is_not_one_line_of_a_name_is_named_exactly(
    cli: Cli, target: str, message: str
) -> None:
    result = cli("optimal-hold", "--target", target)
    line = result.one_error_line()  # exit 2, one line, nothing on stdout
    assert message in line


def test_spaces_around_and_inside_a_name_still_match(cli: Cli) -> None:
    result = cli("optimal-hold", "--target", "  full   house ", "--format", "json")
    assert result.code == 0, result.err
    assert '"Full House"' in result.out
