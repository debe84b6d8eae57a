"""``pinastats review`` and :func:`review_game`: structure, invariants and refusals."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pinastats.game import GameConfig, Rules
from pinastats.records import GameRecord, record_games, write_records
from pinastats.records import review as review_module
from pinastats.records.review import COLUMNS, GameReview, review_game
from tests.full_disk import NO_SPACE, files_under, fill_disk

PLAYOUTS = 100

Cli = Callable[..., Any]  # the ``cli`` fixture of tests/conftest.py


@pytest.fixture(scope="module")
def short_game() -> GameRecord:
    """The shortest game won by a PIÑA COLADICE among a few recorded ones."""
    records = record_games(["strategic", "ev"], 12, seed=9)
    pina = [r for r in records if r.reason == "PINA_COLADICE"]
    return min(pina, key=lambda r: len(r.turns))


@pytest.fixture(scope="module")
def review(short_game: GameRecord) -> GameReview:
    return review_game(short_game, evaluator="network", playouts=PLAYOUTS, seed=1)


def test_every_decision_is_rated_and_the_invariants_hold(
    short_game: GameRecord, review: GameReview
) -> None:
    rolls = 3
    expected = sum(min(len(t.rolls), rolls - 1) + (t.cell is not None) for t in short_game.turns)
    assert len(review.decisions) == expected
    for d in review.decisions:
        assert 0.0 <= d.played_win <= d.best_win + 1e-12 <= 1.0 + 1e-12
        assert d.evaluator_loss == pytest.approx(max(d.best_win - d.played_win, 0.0), abs=1e-9)
        assert d.options >= 1
    for seat, total in review.given_away.items():
        assert total == pytest.approx(
            sum(d.loss for d in review.decisions if d.seat == seat and not d.forced)
        )
    last = review.decisions[-1]
    assert last.decision == "place"
    assert last.seat == short_game.winner
    assert last.played_win == 1.0
    assert last.high == 0.0 or last.forced  # the winning placement is exact


def test_frame_and_determinism(short_game: GameRecord, review: GameReview) -> None:
    frame = review.frame()
    assert tuple(frame.columns) == COLUMNS
    assert len(frame) == len(review.decisions)
    again = review_game(short_game, evaluator="network", playouts=PLAYOUTS, seed=1, seats=[1])
    assert again.decisions == tuple(d for d in review.decisions if d.seat == 1)


def test_cli_table_json_pdf_annotated(cli: Cli, tmp_path: Path, short_game: GameRecord) -> None:
    other = record_games(["ev", "strategic"], 2, seed=3)
    path = write_records(tmp_path / "g.jsonl", [short_game, *other])
    table = cli(
        "review",
        "--evaluator",
        "network",
        str(path),
        "--playouts",
        str(PLAYOUTS),
        "--seat",
        "0",
        "-q",
    )
    assert table.code == 0
    assert "error rate" in table.out
    assert "luck" in table.out
    out = cli(
        "review",
        "--evaluator",
        "network",
        str(path),
        "--playouts",
        str(PLAYOUTS),
        "--format",
        "json",
        "-q",
    )
    data = json.loads(out.out)
    assert data["game"] == short_game.game
    assert data["evaluator"] == "network"
    assert [s["seat"] for s in data["summary"]] == [0, 1]
    assert all(d["played_win"] <= d["best_win"] + 1e-12 for d in data["decisions"])
    assert data["rolls"]
    note = cli(
        "review",
        "--evaluator",
        "network",
        str(path),
        "--playouts",
        str(PLAYOUTS),
        "--format",
        "annotated",
        "-q",
    )
    assert note.out.startswith(f'[Game "{short_game.game}"]')
    every = cli(
        "review",
        "--evaluator",
        "network",
        str(path),
        "--games",
        "all",
        "--playouts",
        str(PLAYOUTS),
        "-q",
    )
    assert "Per agent:" in every.out
    assert every.out.count("Game ") == 3
    many = json.loads(
        cli(
            "review",
            "--evaluator",
            "network",
            str(path),
            "--games",
            "all",
            "--format",
            "json",
            "-q",
        ).out
    )
    assert {a["agent"] for a in many["agents"]} == {"strategic", "ev"}
    assert len(many["games"]) == 3
    pdf = tmp_path / "r.pdf"
    done = cli(
        "review",
        "--evaluator",
        "network",
        str(path),
        "--games",
        "all",
        "--format",
        "pdf",
        "--out",
        str(pdf),
        "-q",
    )
    assert done.code == 0
    assert pdf.read_bytes().startswith(b"%PDF")
    played = cli("review", str(path), "--evaluator", "playouts", "--playouts", "20", "-q",
                 "--format", "json")  # fmt: skip
    assert json.loads(played.out)["evaluator"] == "playouts"


def test_cli_refusals(cli: Cli, tmp_path: Path, short_game: GameRecord) -> None:
    path = write_records(tmp_path / "g.jsonl", [short_game])
    cut = tmp_path / "cut.jsonl"
    cut.write_text(path.read_text()[:200], encoding="utf-8")
    bad = [
        ((str(cut),), "truncated"),
        ((str(path), "--game", "999"), "no game 999"),
        ((str(path), "--seat", "5"), "--seat"),
        ((str(path), "--format", "pdf"), "--out"),
        ((str(tmp_path / "none.jsonl"),), "no such file"),
        ((str(path), "--evaluator", "nets"), "invalid choice: 'nets'"),
        ((str(path), "--game", "0", "--games", "all"), "not allowed with argument"),
    ]
    for args, words in bad:
        line = cli("review", "--evaluator", "network", *args).one_error_line()
        assert words in line
    tampered = tmp_path / "t.jsonl"
    tampered.write_text(path.read_text().replace('"points":', '"points":1', 1), encoding="utf-8")
    line = cli("review", "--evaluator", "network", str(tampered)).one_error_line()
    assert "turn" in line
    assert "does not replay" in line


@pytest.mark.parametrize("fmt", ["table", "json", "pdf", "annotated"])
def test_a_full_disk_is_one_error_naming_the_file_and_leaves_nothing(
    cli: Cli,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    short_game: GameRecord,
    review: GameReview,
    fmt: str,
) -> None:
    path = write_records(tmp_path / "g.jsonl", [short_game])
    monkeypatch.setattr(review_module, "review_game", lambda record, **options: review)
    fill_disk(monkeypatch)
    out = tmp_path / "reviews" / f"review.{fmt}"
    line = cli(
        "review", "--evaluator", "network", str(path), "--format", fmt, "--out", str(out), "-q"
    ).one_error_line()
    assert line == f"pinastats: error: cannot write {out}: {NO_SPACE}"
    assert files_under(tmp_path) == ["g.jsonl"]  # no partial file, no temporary file, no lock


def test_out_is_checked_before_the_review(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, short_game: GameRecord
) -> None:
    path = write_records(tmp_path / "g.jsonl", [short_game])

    def no_review(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the game was reviewed")

    monkeypatch.setattr(review_module, "review_game", no_review)
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    out = blocker / "review.pdf"
    line = cli(
        "review", "--evaluator", "network", str(path), "--format", "pdf", "--out", str(out)
    ).one_error_line()
    assert line == f"pinastats: error: --out {out}: {blocker} is a file, not a folder"
    line = cli(
        "review", "--evaluator", "network", str(path), "--out", str(tmp_path)
    ).one_error_line()
    assert line == f"pinastats: error: --out {tmp_path}: is a folder; give a file name"


def test_a_two_player_base_game_is_graded_exactly_by_default(cli: Cli, tmp_path: Path) -> None:
    """The review policy: the board is solved first (with progress), then every loss is exact."""
    config = GameConfig(rules=Rules(tokens=3))  # 14,793 positions: solved in a second
    record = record_games(["strategic", "ev"], 1, seed=4, config=config)[0]
    path = write_records(tmp_path / "small.jsonl", [record])
    done = cli("review", str(path), "--format", "json")
    assert done.code == 0, done.err
    data = json.loads(done.out)
    assert (data["evaluator"], data["graded_by"]) == ("exact", "the exact solution of this board")
    assert all(d["checked"] == 0 for d in data["decisions"])  # exact: nothing to check
    again = cli("review", str(path), "--format", "json")
    assert json.loads(again.out)["decisions"] == data["decisions"]
    assert "solving this board first" not in again.err  # the table was kept
