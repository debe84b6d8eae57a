"""The yardstick's stored study and labels: named records, a schema version, the shipped files."""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pinastats.errors import PinastatsError
from pinastats.game import Game, GameConfig, Rules
from pinastats.records.yardstick import (
    duel_table,
    error_table,
    label_board,
    label_file,
    reviewer_table,
    study_board,
)
from pinastats.solve import remember, solve
from pinastats.solve.study import (
    STUDY_VERSION,
    Duel,
    ReviewedDecision,
    StudyError,
    read_labels,
    read_study,
)
from pinastats.solve.survey import board_seed, read_survey
from pinastats.value.exact import exact_positions

SHIPPED = Path(__file__).resolve().parents[2] / "studies" / "perfect"
SMALL = GameConfig(rules=Rules(tokens=3))


def test_a_stored_row_reads_as_its_named_fields() -> None:
    # as the shipped logs hold them: no version, each record a JSON array
    study = read_study({
        "errors": {"ev": [{"decisions": 3, "loss": 12.5, "unforced": [0.01, 0.0],
                           "positions": [["line one", 0.4]]}]},
        "duels": {"strategic": [[1, 0.5, 0.48]]},
        "reviewers": {"ev": {"decisions": [[0.29, "??", 0.25, ""]], "seats": [[1.0, None]],
                             "starts": [[0.4, 0.45]]}},
    })  # fmt: skip
    assert study.reviewers["ev"].decisions == (ReviewedDecision(0.29, "??", 0.25, ""),)
    decision = study.reviewers["ev"].decisions[0]
    assert (decision.exact_loss, decision.exact_mark) == (0.29, "??")
    assert (decision.network_loss, decision.network_mark) == (0.25, "")
    assert study.duels["strategic"] == (Duel(perfect_seat=1, score=0.5, perfect_chance=0.48),)
    assert math.isnan(study.reviewers["ev"].seats[0].network)  # NaN stored as null
    assert study.errors["ev"][0].positions[0].chance == 0.4
    again = read_study(json.loads(json.dumps(study.to_json())))
    for key in ("decisions", "starts"):
        assert getattr(again.reviewers["ev"], key) == getattr(study.reviewers["ev"], key)
    assert math.isnan(again.reviewers["ev"].seats[0].network)  # NaN is not equal to itself
    assert again.errors == study.errors
    assert again.duels == study.duels


def test_an_unknown_version_or_shape_is_refused() -> None:
    with pytest.raises(StudyError, match="version 2; this pinastats reads version 1"):
        read_study({"version": 2, "errors": {}})
    with pytest.raises(StudyError, match="not a study of version 1"):
        read_study({"reviewers": {"ev": {"decisions": [[0.1, "??", 0.2]]}}})
    with pytest.raises(StudyError, match="version 3"):
        read_labels({"version": 3, "positions": []})
    frame = pd.DataFrame([{"board": 7, "study": {"version": 9}}])
    for table in (error_table, duel_table, reviewer_table):
        with pytest.raises(StudyError, match="board 7's study is of version 9"):
            table(frame)


def test_the_shipped_study_reads_as_the_positions_say() -> None:
    frame = read_survey(SHIPPED / "boards.jsonl")
    raw = [json.loads(line)["study"] for line in
           (SHIPPED / "boards.jsonl").read_text(encoding="utf-8").splitlines()]  # fmt: skip
    decisions = [d for s in raw for pair in s.get("reviewers", {}).values()
                 for d in pair["decisions"]]  # fmt: skip
    duels = [g for s in raw for games in s.get("duels", {}).values() for g in games]
    assert decisions
    assert duels
    reviewers = reviewer_table(frame).set_index("agent")
    # the oracle: the positions as the old prose describes them
    assert reviewers.loc["all", "decisions"] == len(decisions)
    assert reviewers.loc["all", "same_mark"] == pytest.approx(
        np.mean([d[1] == d[3] for d in decisions])
    )
    assert reviewers.loc["all", "loss_network"] == pytest.approx(
        1000 * np.mean([d[2] for d in decisions])
    )
    head = duel_table(frame)
    assert sum(h.games for h in head) == len(duels)
    assert sum(h.score * h.games for h in head) == pytest.approx(sum(g[1] for g in duels))
    assert not error_table(frame).empty


def test_a_new_study_and_label_file_carry_the_version(tmp_path: Path) -> None:
    start = Game.new(config=SMALL, seed=board_seed(2, 0))
    solution = solve(start, store=False)
    remember(solution)  # as a survey does: the perfect agent finds it, nothing is kept on disk
    stored = study_board(0, start, solution, agents=["ev"], games=1, opponents=["greedy"],
                         duels=2, reviewed=1, seed=2)  # fmt: skip
    assert stored["version"] == STUDY_VERSION
    study = read_study(json.loads(json.dumps(stored)))
    assert [d.perfect_seat for d in study.duels["greedy"]] == [0, 1]
    assert all(isinstance(d, ReviewedDecision) for d in study.reviewers["ev"].decisions)
    assert study.errors["ev"][0].decisions == len(study.reviewers["ev"].decisions)
    label_board(0, start, solution, games=2, folder=tmp_path, seed=2)
    data = json.loads(gzip.decompress(label_file(tmp_path, 0).read_bytes()))
    assert data["version"] == STUDY_VERSION
    assert len(exact_positions(None, labels=tmp_path)) == len(read_labels(data)) > 0


def test_a_label_file_of_another_version_is_refused(tmp_path: Path) -> None:
    data = {"version": 2, "board": 0, "positions": []}
    label_file(tmp_path, 0).write_bytes(gzip.compress(json.dumps(data).encode()))
    with pytest.raises(StudyError, match=r"board-000\.json\.gz is of version 2"):
        exact_positions(None, labels=tmp_path)
    label_file(tmp_path, 0).write_bytes(b"not gzip")
    with pytest.raises(PinastatsError, match="is not a file of labelled positions"):
        exact_positions(None, labels=tmp_path)


def test_the_shipped_labels_have_no_version_and_read_as_version_1() -> None:
    path = label_file(SHIPPED / "labels", 35)
    data = json.loads(gzip.decompress(path.read_bytes()))
    assert "version" not in data
    positions = read_labels(data)
    assert positions
    assert all(0.0 <= p.chance <= 1.0 for p in positions)
    assert len(exact_positions(None, [35], labels=SHIPPED / "labels")) > 0
