"""Game records: write, read and replay give the same games; bad files are refused clearly."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pinastats.agents import PythonAgent
from pinastats.game import Game
from pinastats.game.config import GameConfig
from pinastats.game.layout import load_layout
from pinastats.game.rules import Rules
from pinastats.records import (
    GameRecord,
    RecordError,
    read_records,
    record_games,
    replay,
    write_records,
)
from pinastats.simulation import simulate


class ChancyAgent(PythonAgent):
    """Draws from the game's generator between rolls: keeps a random part, places at random."""

    name = "chancy"

    def choose_keep(
        self, game: Game, dice: Sequence[int], rolls_left: int, rng: np.random.Generator
    ) -> Sequence[int]:
        return [d for d in dice if rng.random() < 0.5]

    def choose_placement(self, game: Game, dice: Sequence[int], rng: np.random.Generator) -> int:
        cells = game.legal_cells(dice)
        return cells[int(rng.integers(len(cells)))]


CASES = [
    (("random", "greedy"), False),
    (("ev", "strategic", "greedy"), True),
    (("strategic", "ev"), True),
    (("greedy", "random", "ev", "strategic"), False),
    ((ChancyAgent(), "greedy", "random"), True),
    ((ChancyAgent(), ChancyAgent()), False),
]


@pytest.mark.parametrize(("agents", "happy_hour"), CASES)
def test_round_trip_replays_the_games_simulate_plays(
    tmp_path: Path, agents: tuple[object, ...], happy_hour: bool
) -> None:
    config = GameConfig(players=len(agents), rules=Rules(happy_hour=happy_hour))
    records = record_games(agents, 4, seed=11, config=config, chunk_size=3)  # type: ignore[arg-type]
    path = write_records(tmp_path / "games.jsonl", records)
    back = read_records(path)
    assert back == records
    table = simulate(agents, 4, seed=11, config=config, chunk_size=3, workers=1).games  # type: ignore[arg-type]
    for record, row in zip(back, table.itertuples(), strict=True):
        game = replay(record)
        assert game.is_over
        assert game.scores == record.scores
        assert record.game == row.game
        assert (-1 if game.winner is None else game.winner) == _winner(row)
        assert game.scores == tuple(getattr(row, f"score_{p}") for p in range(len(agents)))
        assert game.turn == row.turns == len(record.turns)


def _winner(row: Any) -> int:
    value = row.winner
    return -1 if value is None or value != value else int(value)


def test_happy_hour_turns_are_recorded() -> None:
    config = GameConfig(players=2, rules=Rules(happy_hour=True))
    records = record_games(["greedy", ChancyAgent()], 6, seed=2, config=config)
    dice = [t.happy_hour.die for r in records for t in r.turns if t.happy_hour is not None]
    assert dice
    assert all(1 <= d <= 6 for d in dice)
    for r in records:
        replay(r)


@pytest.fixture(scope="module")
def record() -> GameRecord:
    return record_games(["strategic", "ev"], 1, seed=5)[0]


def _with_turn(record: GameRecord, k: int, **changes: Any) -> GameRecord:
    turns = list(record.turns)
    turns[k] = dataclasses.replace(turns[k], **changes)
    return dataclasses.replace(record, turns=tuple(turns))


def test_a_changed_die_is_refused_naming_the_turn(record: GameRecord) -> None:
    # a die of a first roll that the re-roll did not keep: only the generator can tell
    k = next(i for i, t in enumerate(record.turns) if len(t.rolls) > 1 and len(t.keeps[0]) < 5)
    turn = record.turns[k]
    first = list(turn.rolls[0])
    free = next(i for i, d in enumerate(first) if first.count(d) > turn.keeps[0].count(d))
    first[free] = first[free] % 6 + 1
    tampered = _with_turn(record, k, rolls=(tuple(sorted(first)), *turn.rolls[1:]))
    with pytest.raises(RecordError, match=rf"game 0, turn {k + 1}\b.*(roll 1|keep)"):
        replay(tampered)


def test_a_changed_score_is_refused(record: GameRecord) -> None:
    turn = record.turns[2]
    scores = (turn.scores[0] + 1, *turn.scores[1:])
    with pytest.raises(RecordError, match=r"game 0, turn 3: .*the scores"):
        replay(_with_turn(record, 2, scores=scores))


def test_a_record_cut_short_is_refused(record: GameRecord) -> None:
    cut = dataclasses.replace(record, turns=record.turns[:-1])
    with pytest.raises(RecordError, match="before the end of the game"):
        replay(cut)


def test_a_record_from_another_layout_is_refused() -> None:
    grid = GameConfig(players=2, layout=load_layout("grid-5x5"))
    other = record_games(["greedy", "greedy"], 1, seed=1, config=grid)[0]
    assert replay(other).is_over  # the shipped layout of its name
    with pytest.raises(RecordError, match="layout 'grid-5x5'"):
        replay(other, GameConfig(players=2))


def test_truncated_and_bad_files(tmp_path: Path, record: GameRecord) -> None:
    path = tmp_path / "games.jsonl"
    line = record.to_json()
    path.write_text(line + "\n" + line[: len(line) // 2], encoding="utf-8")
    with pytest.raises(RecordError, match=r"line 2: not valid JSON.*truncated"):
        read_records(path)
    path.write_text("hello\n", encoding="utf-8")
    with pytest.raises(RecordError, match="line 1: not valid JSON"):
        read_records(path)
    path.write_text(line.replace('"version":1', '"version":7') + "\n", encoding="utf-8")
    with pytest.raises(RecordError, match="version 7"):
        read_records(path)
    path.write_text('{"players": 2}\n', encoding="utf-8")
    with pytest.raises(RecordError, match="not a game record"):
        read_records(path)
    path.write_text("", encoding="utf-8")
    with pytest.raises(RecordError, match="no game record"):
        read_records(path)
    with pytest.raises(RecordError, match="no such file"):
        read_records(tmp_path / "missing.jsonl")


def test_numpy_whole_numbers_play_and_write_like_ints(tmp_path: Path) -> None:
    """A seed, a game count or a chunk size from NumPy is taken as the int it holds."""
    agents = ["greedy", "ev"]
    plain = record_games(agents, 3, seed=4, chunk_size=2)
    three, four, two = np.int64(3), np.int64(4), np.int64(2)
    numpy = record_games(agents, three, seed=four, chunk_size=two)  # type: ignore[arg-type]
    assert [r.to_json() for r in numpy] == [r.to_json() for r in plain]
    write_records(tmp_path / "r.jsonl", numpy)  # plain JSON: no NumPy scalar inside
    result = simulate(agents, three, seed=four, chunk_size=two, workers=1)  # type: ignore[arg-type]
    assert type(result.seed) is int
    assert type(result.chunk_size) is int
    json.dumps(result.summary())


def test_rollout_records_default_to_the_chunks_simulate_plays() -> None:
    agents = ["rollout(rollouts=1,policy=greedy)", "random"]
    records = record_games(agents, 18, seed=6)  # two chunks of 16 and 2 games
    table = simulate(agents, 18, seed=6, workers=1).games
    assert [r.winner for r in records] == [None if w < 0 else int(w) for w in table["winner"]]
    assert [r.scores for r in records] == [
        tuple(int(table[f"score_{s}"][g]) for s in range(2)) for g in range(18)
    ]
    assert records[-1].chunk_size == 16
