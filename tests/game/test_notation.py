"""The position notation: codes, examples, errors, and the round trip on 10,000 positions.

The round trip: positions reached by playing games (random and greedy agents,
2-4 players, Happy Hour off and on, other layouts, rules and starting scores,
games to their end, the turn limit included, and a layout of one's own) are
written as a line, read back
(:func:`parse_position`, without the config: the line carries it), written again,
and converted through the state file both ways: every array of the game's state
must come back equal, and every line the same.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from pinastats._engine import states_equal
from pinastats.agents.builtin import make_agent
from pinastats.dice.combinations import Combination
from pinastats.game import notation_of, parse_position
from pinastats.game.catalogue import load_catalogue
from pinastats.game.config import GameConfig
from pinastats.game.game import Game
from pinastats.game.layout import Layout, load_layout
from pinastats.game.notation import (
    NotationError,
    coaster_codes,
    combination_code,
    position_data,
)
from pinastats.game.position import PositionError, game_from_position, position_of
from pinastats.game.rules import Rules
from pinastats.simulation.play import play_turn_fast

DOC = Path(__file__).parents[2] / "docs" / "notation.md"
EXAMPLE = Path(__file__).parents[2] / "examples" / "state.json"
EXAMPLE_LINE = "pc1 OD,T3,T4,T5/5K,S21+1,S26,T6+1/SS+2,P3,P2,FH+2/T1,P5+2,AD+1,P4+2 1"


@dataclass(frozen=True)
class Setup:
    players: int
    layout: str = "standard"
    rules: Rules = field(default_factory=Rules)
    start: tuple[int, ...] | None = None

    def config(self) -> GameConfig:
        return GameConfig(
            players=self.players,
            layout=RING if self.layout == RING.name else load_layout(self.layout),
            rules=self.rules,
            starting_scores=self.start,
        )


HH = Rules(happy_hour=True)
_AROUND = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)]
RING = Layout.build(
    "ring",
    _AROUND,
    [[(0, 0), (0, 1), (0, 2)], [(2, 0), (2, 1), (2, 2)], [(0, 0), (1, 0), (2, 0)],
     [(0, 2), (1, 2), (2, 2)]],
    {2: "A" * 8, 3: "BABAABAB", 4: "B" * 8},
)  # fmt: skip
"""A layout of one's own: eight coasters round an empty centre, the four sides its lines."""
SETUPS = [
    Setup(2),
    Setup(3),
    Setup(4),
    Setup(2, rules=HH),
    Setup(3, rules=HH),
    Setup(4, rules=Rules(happy_hour=True, negative_scores=True)),
    Setup(3, "cross", HH),
    Setup(4, "diamond", Rules(target_score=15, tokens=5, rolls=2)),
    Setup(2, "grid-5x5", Rules(happy_hour=True, max_turns=12), start=(0, 3)),
    Setup(2, rules=Rules(max_turns=9, rolls=4)),
    Setup(3, RING.name, HH),
]
POSITIONS = 10_000
PER_SETUP = -(-POSITIONS // len(SETUPS))  # at least POSITIONS in all


def _differences(game: Game, text: str) -> list[str]:
    out = []
    own = game.config.layout is RING  # a layout of one's own comes with the config
    loaded = parse_position(text, config=game.config) if own else parse_position(text)
    if loaded.config.rules != game.config.rules:
        out.append(f"rules {loaded.config.rules} != {game.config.rules}")
    if list(loaded.config.start_scores) != list(game.config.start_scores):
        out.append("starting scores")
    if not states_equal(game.state, loaded.state):
        out.append("the line's state")
    if notation_of(loaded) != text:
        out.append(f"written again: {notation_of(loaded)}")
    data = json.loads(json.dumps(position_of(game)))
    from_file = game_from_position(data, config=game.config)
    if not states_equal(game.state, from_file.state) or notation_of(from_file) != text:
        out.append("through the state file")
    data = position_data(text, layout=game.config.layout)
    via_line = game_from_position(data, config=game.config)
    if position_of(via_line) != position_of(game):
        out.append("the state file of the line")
    return out


def _name(s: Setup) -> str:
    return f"{s.players}p-{s.layout}" + "-hh" * s.rules.happy_hour + f"-{SETUPS.index(s)}"


@pytest.mark.parametrize("setup", SETUPS, ids=_name)
def test_positions_of_played_games_round_trip(setup: Setup) -> None:
    config = setup.config()
    rng = np.random.default_rng(SETUPS.index(setup))
    agents = [make_agent("random"), make_agent("greedy")]
    failures: list[tuple[str, list[str]]] = []
    seen = {"over": 0, "turn limit": 0, "split": 0, "flipped": 0, "scores": 0}
    positions = games = 0
    while positions < PER_SETUP:
        game = Game.new(seed=rng, config=config)
        agent = agents[games % 2]
        games += 1
        while True:
            text = notation_of(game)
            positions += 1
            problems = _differences(game, text)
            if problems:
                failures.append((text, problems))
            seen["split"] += "+." in text
            seen["flipped"] += ":" in text
            seen["scores"] += "scores=" in text
            if game.is_over:
                seen["over"] += 1
                seen["turn limit"] += game.end_reason.name == "TURN_LIMIT"
                break
            play_turn_fast(game, agent, rng)
    assert not failures, f"{len(failures)} of {positions} differ; first: {failures[0]}"
    assert seen["over"] == games
    happy = setup.rules.happy_hour
    assert seen["scores"] == (positions if happy else 0)  # free with Happy Hour only
    if happy and setup.players >= 3 and setup.layout == "standard":
        assert seen["split"] > 0
        assert seen["flipped"] > 0
    if setup.rules.max_turns < 20:
        assert seen["turn limit"] > 0


def test_a_standard_two_player_game_is_short() -> None:
    rng = np.random.default_rng(1)
    agent = make_agent("greedy")
    lengths = []
    for _ in range(20):
        game = Game.new(seed=rng)
        while not game.is_over:
            lengths.append(len(notation_of(game)))
            play_turn_fast(game, agent, rng)
    assert max(lengths) < 110
    assert sum(lengths) / len(lengths) < 90
    assert min(lengths) < 60  # the deal: 16 codes and the seat to move


def test_codes_are_distinct_for_every_combination() -> None:
    codes = [combination_code(c) for c in Combination]
    assert len(set(codes)) == len(codes)
    assert all(re.fullmatch(r"[0-9A-Z]{2,3}", c) for c in codes)


def test_the_shipped_codes_are_the_documented_ones() -> None:
    codes = list(coaster_codes(load_catalogue()).values())
    assert codes == [
        *[f"P{v}" for v in range(1, 7)], "DP", *[f"T{v}" for v in range(1, 7)], "OD", "EV",
        "S9", "S12", "S21", "S26", "SS", "LS", "4K", "FH", "AD", "5K",
    ]  # fmt: skip
    table = DOC.read_text(encoding="utf-8")
    for code in codes:
        assert f"`{code}`" in table or re.fullmatch("[PT][2-5]", code)


def _doc_lines() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```(?:text|python)\n(.*?)```", text, re.DOTALL)
    return [m for b in blocks for m in re.findall(r"(pc1 [^\"\n]*)", b)]


@pytest.mark.parametrize("line", _doc_lines())
def test_the_documented_examples_parse_and_are_written_back_the_same(line: str) -> None:
    assert notation_of(parse_position(line)) == line


def test_the_doc_has_its_examples() -> None:
    lines = _doc_lines()
    assert len(lines) >= 8
    over = [parse_position(line).is_over for line in lines]
    assert any(over)
    assert any("hh" in line.split() for line in lines)
    assert any("layout=cross" in line for line in lines)


def test_the_example_state_file_is_the_example_line() -> None:
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    game = game_from_position(data)
    assert notation_of(game).startswith(EXAMPLE_LINE)
    again = parse_position(notation_of(game))
    assert states_equal(game.state, again.state)


def test_scores_are_worked_out_and_turns_default_to_the_fewest() -> None:
    game = parse_position(EXAMPLE_LINE)
    assert game.scores == (7, 11)
    assert game.turn == 8  # seat 2 has 4 tokens: four whole rounds
    assert game.reserves == (3, 2)
    assert game.last_placed == (6, 7)


def test_codes_ids_and_case_are_accepted() -> None:
    line = EXAMPLE_LINE.replace("FH+2", "full-house+2").replace("OD", "od+.")
    line = line.replace("S21+1", "S21+1.")  # free spaces at the end may be written
    assert notation_of(parse_position(line)) == EXAMPLE_LINE


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("", "a position starts with 'pc1'"),
        ("pc2 " + EXAMPLE_LINE[4:], "this pinastats reads pc1"),
        ("pc1 OD", "expected 'pc1 BOARD SEAT-TO-MOVE"),
        (EXAMPLE_LINE.replace("FH+2", "FX+2"), "board cell 12: no coaster has the code 'FX'"),
        (EXAMPLE_LINE.replace("FH+2", "FH+3"), "a seat from 1 to 2"),
        (EXAMPLE_LINE.replace("FH+2", "FH:C"), "a side is A or B"),
        (EXAMPLE_LINE[:-1] + "3", "seat to move (the third word): expected a seat from 1 to 2"),
        (EXAMPLE_LINE + " colour=red", "unknown field"),
        (EXAMPLE_LINE + " turn=9", "did you mean 'turns'"),
        (EXAMPLE_LINE + " hh=1", "hh: takes no value"),
        (EXAMPLE_LINE + " turns", "turns: needs a value"),
        (EXAMPLE_LINE + " turns=8 turns=8", "given twice"),
        (EXAMPLE_LINE + " players=5", "players: expected 2, 3 or 4"),
        (EXAMPLE_LINE + " scores=7", "scores: expected 2 numbers"),
        (EXAMPLE_LINE + " end=maybe", "end: expected score, tokens or none"),
        ("pc1 OD,T3/T4 1", "rows of [2, 1] coasters"),
        ("pc1 OD,T3 1", "2 coasters; the layout 'standard' has 16 cells"),
        (EXAMPLE_LINE + " layout=nowhere", "layout: unknown layout 'nowhere'"),
    ],
)
def test_mistakes_name_the_field(line: str, message: str) -> None:
    with pytest.raises(NotationError, match=re.escape(message)):
        parse_position(line)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("turns=9", "turns: after 9 turns seat 1 is to move"),
        ("turns=6", "seat 1 has 4 tokens on the board but has played only 3"),
        ("hh", "scores is needed: with Happy Hour the tokens do not fix the scores"),
        ("scores=7,12", "seat 1 has 12, but its tokens explain exactly 11"),
        ("first=2 scores=7,11", "seat 0 has 7, but its tokens explain exactly 8"),
    ],
)
def test_positions_the_rules_refuse_say_why(extra: str, message: str) -> None:
    with pytest.raises(PositionError, match=re.escape(message)):
        parse_position(f"{EXAMPLE_LINE} {extra}")


def test_a_state_file_without_first_player_names_it_in_a_score_error() -> None:
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    data.pop("first_player")
    data["scores"] = [8, 10]  # as if seat 1 had played first
    with pytest.raises(PositionError, match="first_player is not given"):
        game_from_position(data)


def test_a_config_of_ones_own_sets_the_game_up() -> None:
    config = GameConfig(players=2, rules=HH)
    line = EXAMPLE_LINE + " scores=7,11 hh"
    game = parse_position(line, config=config)
    assert game.config is config
    with pytest.raises(PositionError, match="rules"):
        parse_position(EXAMPLE_LINE, config=GameConfig(players=2, rules=Rules(target_score=25)))
