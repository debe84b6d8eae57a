"""``pinastats table``: the terminal table loop, fed by piped input."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from pinastats.dice import dice_tables
from pinastats.game import Game, notation_of, parse_position
from pinastats.game.rules import Rules
from tests.conftest import CliResult

Cli = Callable[..., CliResult]
DOC = Path(__file__).parents[2] / "docs" / "notation.md"
START = "pc1 OD,T3,T4,T5/5K,S21+1,S26,T6+1/SS+2,P3,P2,FH+2/T1,P5+2,AD+1,P4+2 1 turns=10"


def table(cli: Cli, monkeypatch: pytest.MonkeyPatch, lines: str, *args: str) -> CliResult:
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    return cli("table", "--objective", "points", *args)


def positions(out: str) -> list[str]:
    return re.findall(r"^Position: (pc1 .*)$", out, re.MULTILINE)


def test_a_turn_by_keep_and_reroll_places_and_prints_the_new_position(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = "dice 5 5 5 3 3\nkeep 5 5 5\ndice 3 3 roll 2\nplace pair of 3s\n"
    result = table(cli, monkeypatch, lines, "--position", START)
    assert (result.code, result.err) == (0, "")
    assert "Player 1 to move with 3 3 5 5 5, 2 rolls left." in result.out
    assert "Best: keep" in result.out
    assert "Player 1 to move with 3 3 5 5 5, 1 roll left." in result.out
    expected = parse_position(START)
    expected.place(expected.config.layout.cell_index(2, 1), [3, 3, 5, 5, 5])
    assert positions(result.out) == [START, notation_of(expected)]
    assert "Placed on Pair of 3s (row/col 2/1) for 3 points." in result.out


def test_codes_ids_row_and_column_and_close_spellings_name_a_coaster(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("P3", "pair-3", "pair of 3s", "pair of 3", "pear of 3s", "2 1"):
        lines = f"dice 5 5 5 3 3 roll 3\nplace {name}\n"
        result = table(cli, monkeypatch, lines, "--position", START)
        assert result.code == 0, (name, result.out)
        assert "Placed on Pair of 3s" in result.out


def test_an_illegal_coaster_is_refused_with_the_legal_ones(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = "dice 5 5 5 3 3 roll 3\nplace full house\nplace three 3s\nplace nothing like it\n"
    result = table(cli, monkeypatch, lines, "--position", START)
    assert result.code == 2  # a line was refused
    errors = [line for line in result.out.splitlines() if line.startswith("error:")]
    assert len(errors) == 3
    assert "the coaster Full House on cell 11 has no free space" in errors[0]
    assert all("Odds (OD, row/col 0/0, 3 points)" in e for e in errors)
    assert "do not show" in errors[1]
    assert "no coaster on the board is called 'nothing like it'" in errors[2]
    assert positions(result.out) == [START]  # nothing placed


def test_pass_only_when_nothing_matches_and_undo_goes_back(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = parse_position(START)
    blank = next(
        [int(d) for d in h] for h in dice_tables().hand_dice if not game.legal_cells(list(h))
    )
    dice = " ".join(map(str, blank))
    lines = f"dice 5 5 5 3 3 roll 3\npass\nundo\ndice {dice} roll 3\npass\nundo\nundo\nposition\n"
    result = table(cli, monkeypatch, lines, "--position", START)
    assert "error: placing is compulsory: 3 3 5 5 5 matches Odds" in result.out
    game.end_turn_without_placement(blank, rolls_used=3)
    assert positions(result.out) == [START, notation_of(game), START]
    assert result.out.count("Undone.") == 3


def test_happy_hour_asks_for_the_die_and_a_choice(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    start = START + " scores=7,11 hh"
    game = parse_position(start)
    blank = next(
        [int(d) for d in h] for h in dice_tables().hand_dice if not game.legal_cells(list(h))
    )
    dice = " ".join(map(str, blank))
    options = game.happy_hour_options(2)  # take back an own token: one per token
    assert len(options) > 1
    lines = f"dice {dice} roll 3\npass\nhappy 2\nhappy 2 1\n"
    result = table(cli, monkeypatch, lines, "--position", start)
    assert "error: all rolls are used and nothing can be placed" in result.out
    assert "needs a choice, 'happy 2 K' with K = 1: " in result.out
    game.end_turn_without_placement(blank, 2, options[0], rolls_used=3)
    assert positions(result.out)[-1] == notation_of(game)


def test_a_new_game_is_dealt_by_the_seed(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    result = table(cli, monkeypatch, "show\n", "--seed", "3", "--players", "3", "--happy-hour")
    from pinastats.game.config import GameConfig

    game = Game.new(seed=3, config=GameConfig(players=3, rules=Rules(happy_hour=True)))
    assert positions(result.out) == [notation_of(game)] * 2
    assert "Pair of 3s B1/1" in result.out or "[··]" in result.out


def test_seed_and_a_position_are_refused_together(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = table(cli, monkeypatch, "", "--position", START, "--seed", "3")
    assert result.code == 2
    assert "--seed sets up a new game" in result.err
    result = table(cli, monkeypatch, "", "--position", START, "--state", "x.json")
    assert result.code == 2
    assert "not allowed with argument" in result.err


def test_unknown_commands_and_bad_dice_are_refused_and_the_loop_goes_on(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = "dise 1 2 3 4 5\ndice 1 2 3\ndice 1 2 3 4 9\nkeep 1\nhelp\nquit\nshow\n"
    result = table(cli, monkeypatch, lines, "--position", START)
    assert "did you mean 'dice'?" in result.out
    assert "error: no dice yet this turn" in result.out
    assert "place NAME" in result.out  # the help
    assert result.out.count("error:") == 4
    assert "turn 10" not in result.out  # 'show' after 'quit' is not read


def test_the_documented_session_prints_what_the_doc_shows(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = DOC.read_text(encoding="utf-8")
    block = re.search(r"```console\n\$ pinastats table (.*?)\n(.*?)```", text, re.DOTALL)
    assert block is not None
    args, shown = block.group(1).split(), block.group(2).splitlines()
    typed = "".join(line[2:] + "\n" for line in shown if line.startswith("> "))
    result = table(cli, monkeypatch, typed, *args)
    assert result.code == 0
    out = result.out.splitlines()
    at = 0
    for line in shown:
        if line.startswith("> ") or line == "...":
            continue
        at = out.index(line, at) + 1  # each line shown comes, in order


def test_the_last_turn_of_a_recorded_game_ends_the_game_at_the_table(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pinastats.records import record_games, replay

    record = next(
        r for r in record_games(["strategic", "greedy"], 6, seed=2) if r.turns[-1].cell is not None
    )
    before: list[Game] = []
    replay(record, visit=lambda k, g, t: before.append(g))
    last = record.turns[-1]
    dice = " ".join(map(str, last.rolls[-1]))
    lines = f"dice {dice} roll {len(last.rolls)}\nplace {last.coaster}\ndice 1 2 3 4 5\nundo\n"
    result = table(cli, monkeypatch, lines, "--position", notation_of(before[-1]))
    assert "The game is over" in result.out
    assert "error: the game is over" in result.out
    final = replay(record)
    assert positions(result.out)[1] == notation_of(final)
    assert positions(result.out)[0] == notation_of(before[-1])
    assert result.out.rstrip().endswith(f"Dice {dice} after roll {len(last.rolls)}.")


def test_at_a_terminal_it_prompts_and_a_refused_line_is_no_failure() -> None:
    from pinastats.cli.table import PROMPT, TableLoop

    out = io.StringIO()
    loop = TableLoop(parse_position(START), objective="points", out=out)
    assert loop.run(["bogus\n", "position\n"], prompt=PROMPT) == 0
    assert out.getvalue().count(PROMPT) == 3  # before each line and before the end
    assert "error: unknown command 'bogus'" in out.getvalue()


def test_rolls_only_go_forward_digits_are_0_to_9_and_garbage_is_not_echoed(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fourth roll, a roll taken again, another script's digits, a megabyte line: each
    refused in one line, the turn unchanged."""
    garbage = "x" * 1_000_000
    lines = (f"dice 5 5 5 3 3 roll 3\ndice 1 2 3 4 5 roll 1\ndice 1 2 3 4 5\n"
             f"{garbage}\n")  # fmt: skip
    result = table(cli, monkeypatch, lines, "--position", START)
    errors = [line for line in result.out.splitlines() if line.startswith("error:")]
    assert len(errors) == 3, errors
    assert "that was roll 3 of 3" in errors[0]
    assert "that was roll 3 of 3" in errors[1]
    assert "a line of 1,000,000 characters" in errors[2]
    assert len(result.out) < 20_000  # the line is not written back
    arabic = "dice ٥ 5 5 3 3\n"
    result = table(cli, monkeypatch, arabic + "dice 5 5 5 3 3 roll 2\ndice 5 5 5 3 3 roll 1\n",
                   "--position", START)  # fmt: skip
    errors = [line for line in result.out.splitlines() if line.startswith("error:")]
    assert "expected whole numbers written 0-9" in errors[0]
    assert "this turn's next roll is 3" in errors[1]
