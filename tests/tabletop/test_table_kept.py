"""My table's second round: the first player, the kept dice, the words in four languages,
the game saved and resumed, the record that ``pinastats review`` reads."""

from __future__ import annotations

import itertools
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from pinastats.dice.combinations import parse_combination
from pinastats.game.notation import notation_of, parse_position
from pinastats.records.format import parse_records
from pinastats.records.replay import replay
from pinastats.tabletop.commands import MessageError, carry_out
from pinastats.tabletop.session import PlayError
from pinastats.tabletop.table import SAVE_NAME, TableSession, resume, save
from pinastats.tabletop.view import keep_aim, table_view
from pinastats.tabletop.words import LANGUAGES, WORDS, catalogue, placeholders, say

LINE = "pc1 P1,P2+2,P3+1,P4/P5+2,P6+1,T1+2,T2/T3+1,T4+2,T5,T6+1/FH+2,SS,LS,OD 1"
CODES = ["P1", "P2", "P3", "P4", "P5", "P6", "T1", "T2", "T3", "T4", "T5", "T6", "FH", "SS",
         "LS", "OD"]  # fmt: skip


def test_every_message_is_in_every_language_with_the_same_placeholders() -> None:
    english = catalogue("en")
    for lang in LANGUAGES:
        path = WORDS / f"words-{lang}.json"
        words = json.loads(path.read_text(encoding="utf-8"))
        assert set(words) == set(english), (lang, set(words) ^ set(english))
        for key, message in words.items():
            assert placeholders(message) == placeholders(english[key]), (lang, key)
            assert message.strip(), (lang, key)
    from pinastats.game.catalogue import load_catalogue

    for coaster in load_catalogue():  # every coaster has its printed name in each language
        assert f"coaster.{coaster.id}" in english
    assert english["coaster.full-house"] == "Full House"
    # the coasters as printed in the game's own German and Dutch explainers
    assert catalogue("de")["coaster.small-straight"] == "Kleine Straße"
    assert catalogue("nl")["coaster.large-straight"] == "Grote straat"
    assert catalogue("fr")["coaster.double-pair"] == "Double paire"


KEY = r"""\b(?:say\(\w+, |T\(|N\(|count\(\w+, )["'`]([a-z_]+\.[a-z_.]+)["'`]"""
"""A message asked for by its key in the code: ``say(lang, "ui.undo")``, ``T("ui.undo")``."""


def test_the_code_reads_only_messages_the_catalogue_has() -> None:
    """Every key the Python and the page ask for exists (a typo would show the key itself)."""
    root = Path(__file__).parents[2] / "pinastats" / "tabletop"
    english = catalogue("en")
    asked: set[str] = set()
    for path in [*root.glob("*.py"), root / "static" / "app.js"]:
        text = path.read_text(encoding="utf-8")
        asked |= set(re.findall(KEY, text))
    assert len(asked) > 60
    missing = {k for k in asked if k not in english and f"{k}.one" not in english}
    assert not missing


def test_the_first_player_fixes_the_starting_scores_and_the_turn_order() -> None:
    empty: list[list[int]] = [[] for _ in range(16)]
    # the rules: the first player starts on 1 point, the next in the order of play on 2
    t = TableSession().setup(coasters=CODES, tokens=empty, names=["Ana", "Ben"], first=1)
    game = t.game
    assert game.first_player == 1
    assert game.to_move == 1  # an empty table: the first player moves
    assert game.scores == (2, 1)  # Ben played first: 1 point; Ana second: 2
    view = table_view(t)
    assert [s["text"] for s in view["seats"]] == ["2 points · 6 tokens left",
                                                  "1 point · 6 tokens left"]  # fmt: skip
    three = TableSession().setup(coasters=CODES, tokens=empty, names=["A", "B", "C"], first=2)
    assert three.game.scores == (2, 3, 1)
    with pytest.raises(PlayError, match="the first player is seat 1 to 2, got 3"):
        TableSession().setup(coasters=CODES, tokens=empty, names=["Ana", "Ben"], first=2)
    # the message carries it through
    fresh = TableSession()
    carry_out(fresh, {"cmd": "setup", "coasters": CODES, "tokens": empty, "first": 1,
                      "names": ["Ana", "Ben"], "happy_hour": True})  # fmt: skip
    assert fresh.game.scores == (2, 1)
    assert fresh.game.config.rules.happy_hour


def test_kept_dice_are_checked_recorded_told_and_graded() -> None:
    t = TableSession().setup(coasters=CODES, tokens=[[] for _ in range(16)], first=0,
                             names=["Ana", "Ben"])  # fmt: skip
    with pytest.raises(PlayError, match="the first roll of a turn keeps nothing"):
        t.enter_dice([1, 2, 3, 4, 6], kept=[1])
    t.enter_dice([1, 2, 3, 4, 6])
    with pytest.raises(PlayError, match=r"kept \[5\]: the kept dice are part of the roll before"):
        t.enter_dice([1, 2, 3, 4, 5], kept=[5])
    with pytest.raises(PlayError, match="not all five"):
        t.enter_dice([1, 2, 3, 4, 6], kept=[1, 2, 3, 4, 6])
    t.place(13)  # Ana stops at once on the Small Straight: a keep of all five, graded
    t.enter_dice([2, 2, 5, 5, 6])
    t.enter_dice([2, 2, 3, 3, 6], kept=[2, 2])
    t.enter_dice([2, 2, 3, 3, 6])  # the keep of the last re-roll not entered
    t.place(1)
    assert t.turns[1].keeps == [(2, 2), None]
    assert ("Turn 2 · Ben: rolled 2 2 5 5 6, kept 2 2, then 2 2 3 3 6, then 2 2 3 3 6 — placed "
            "on Pair of 2s") in t.log[1]  # fmt: skip
    from pinastats.tabletop.review import _grader, grade_keep, review_table

    before = t.turns[0].before
    grader, advisor = _grader(before)  # the table review's grader: a deeper search here
    assert grader.strength > advisor.strength
    oracle = grader.advise(before, (1, 2, 3, 4, 6), 2)
    chances = {k.keep: k.win_probability for k in oracle.keeps}
    best, loss, _ = grade_keep(before, (1, 2, 3, 4, 6), 2, (1, 2, 3, 4, 6), grader)
    assert loss == pytest.approx(max(chances.values()) - chances[(1, 2, 3, 4, 6)])
    assert loss > 0.05
    assert grade_keep(before, (1, 2, 3, 4, 6), 2, best, grader).loss == 0.0
    review = review_table(t)
    text = review["text"]
    assert "the keeps where the kept dice were entered (1 of 2 re-rolls)" in text
    assert (f"Turn 1, Ana with 1 2 3 4 6 (roll 1): kept 1 2 3 4 6; {' '.join(map(str, best))} "
            f"was better by {100 * loss:.1f}") in text  # fmt: skip
    assert review["people"][0]["keeps"] == 1
    assert review["people"][1]["keeps"] == 1
    assert re.search(r"Ana — placements: 1, .*keeps graded: 1", text)
    assert re.search(r"Ben — placements: 1, .*keeps graded: 1", text)
    with pytest.raises(MessageError, match="kept must be a list of at most 4 faces"):
        carry_out(t, {"cmd": "dice", "dice": [1, 2, 3, 4, 5], "kept": [1, 2, 3, 4, 5]})


def _chance_by_enumeration(keep: tuple[int, ...], combination: str) -> Fraction:
    """The chance that one re-roll of the dice not kept shows ``combination`` (every roll)."""
    c = parse_combination(combination)
    free = 5 - len(keep)
    hits = sum(c.holds(sorted(keep + roll)) for roll in itertools.product(range(1, 7), repeat=free))
    return Fraction(hits, 6**free)


def test_a_keep_says_what_it_aims_at_and_its_chance() -> None:
    game = parse_position(LINE)  # Ana to move; Small Straight, Three 5s, Large Straight ... open
    why = keep_aim(game, (5, 5), 1, None)
    m = re.fullmatch(r"aims at (.+) \((\d) points?\): (\d+)% to make it this turn", why)
    assert m is not None, why
    name, chance = m.group(1), int(m.group(3))
    cell = next(c for c in range(16) if game.coaster(c).name == name)
    exact = _chance_by_enumeration((5, 5), str(game.cells[cell].combination))
    assert chance == round(100 * exact)
    assert keep_aim(game, (1, 2, 3, 4, 6), 1, 13).startswith("takes Small Straight now for")
    french = keep_aim(game, (5, 5), 1, None, "fr")
    assert french.startswith("vise ")
    assert f"{chance}%" in french


def test_the_words_follow_the_language_chosen() -> None:
    t = TableSession().setup(position=LINE, names=["Ana", "Ben"])
    carry_out(t, {"cmd": "lang", "lang": "fr"})
    t.enter_dice([1, 2, 3, 4, 6])
    view = table_view(t)
    assert view["lang"] == "fr"
    assert view["words"]["ui.undo"] == "Annuler"
    assert view["seats"][0]["text"] == "7 points · 2 pions en réserve"
    assert any(c["coaster"] == "Petite suite" for c in view["board"])
    assert re.match(r"(chance de gagner|trop serré)", view["advice"]["verdict"])
    t.place(13)
    assert t.log[0].startswith("Tour 11 · Ana : lance 1 2 3 4 6 — pose sur Petite suite pour")
    assert t.log_lines("de")[0].startswith("Zug 11 · Ana: würfelte 1 2 3 4 6 — setzte auf Kleine")
    with pytest.raises(MessageError, match="lang must be one of en, fr, nl, de"):
        carry_out(t, {"cmd": "lang", "lang": "xx"})
    assert say("nl", "n.points.other", n=3) == "3 punten"


def test_side_b_is_explained() -> None:
    t = TableSession().setup(coasters=CODES, tokens=[[] for _ in range(16)], first=0,
                             names=["A", "B", "C", "D"])  # fmt: skip
    cells = table_view(t)["board"]
    two = [c for c in cells if len(c["points"]) == 2]
    assert two  # four players: every coaster on its side with two spaces
    a, b = two[0]["points"]
    assert two[0]["points_text"] == f"side B · {a}/{b} points"
    assert two[0]["side_b"] == (f"{a}/{b} points: a coaster on side B has two spaces; the first "
                                f"token placed on it scores {a}, the second {b}.")  # fmt: skip


def test_a_table_game_is_saved_whole_and_resumed(tmp_path: Path) -> None:
    hh, _ = resume(folder=tmp_path / "hh", happy_hour=True)  # play --serve --table --happy-hour
    assert table_view(hh)["happy_hour_default"] is True
    table, said = resume(folder=tmp_path)
    assert table_view(table)["happy_hour_default"] is False
    assert said.startswith("a new table")
    assert table.mode == "setup"
    carry_out(table, {"cmd": "setup", "position": LINE, "names": ["Ana", "Ben"]})
    carry_out(table, {"cmd": "dice", "dice": [1, 2, 3, 4, 6]})
    carry_out(table, {"cmd": "dice", "dice": [1, 2, 3, 4, 4], "kept": [1, 2, 3, 4]})
    carry_out(table, {"cmd": "place", "cell": 13})
    carry_out(table, {"cmd": "dice", "dice": [6, 6, 6, 6, 6]})
    carry_out(table, {"cmd": "undo"})  # a mistyped roll taken back is not kept
    carry_out(table, {"cmd": "lang", "lang": "nl"})
    assert [p.name for p in tmp_path.iterdir()] == [SAVE_NAME]  # no temporary file left
    again, said = resume(folder=tmp_path)
    assert said.startswith("resumed the table game")
    assert notation_of(again.game) == notation_of(table.game)
    assert again.roll == 0
    assert again.names == ("Ana", "Ben")
    assert again.lang == "nl"
    assert again.log == table.log
    assert again.turns[0].keeps == [(1, 2, 3, 4)]
    again.undo()  # the steps themselves are kept: the placement can still be taken back
    assert again.roll == 2
    (tmp_path / SAVE_NAME).write_text("{not json", encoding="utf-8")
    fresh, said = resume(folder=tmp_path)
    assert fresh.mode == "setup"
    assert "could not be read" in said
    assert (tmp_path / (SAVE_NAME + ".bad")).read_text(encoding="utf-8") == "{not json"
    assert save(TableSession()) is None  # a session without a file keeps nothing


def test_the_record_of_a_table_game_replays_and_is_reviewed(tmp_path: Path) -> None:
    t = TableSession().setup(position=LINE + " hh scores=7,14", names=["Ana", "Ben"])
    t.enter_dice([1, 2, 3, 4, 6])
    t.enter_dice([1, 2, 3, 4, 4], kept=[1, 2, 3, 4])
    t.place(13)
    for dice in ([2, 3, 3, 5, 6], [2, 2, 3, 6, 6], [2, 2, 3, 3, 6]):  # no keep entered
        t.enter_dice(dice)
    assert t.summary()["ending"] == "happy_hour"
    t.happy(6)  # Ben gains 4 points
    record = parse_records(t.record().to_json() + "\n")[0]
    game = replay(record)  # every roll, keep and the Happy Hour die drawn again
    assert notation_of(game) == notation_of(t.game)
    assert record.turns[1].keeps == ((2, 3, 6), (2, 2, 3, 6))  # the dice the rolls share
    assert record.turns[1].happy_hour is not None
    assert record.turns[1].happy_hour.die == 6
    path = tmp_path / "table.jsonl"
    path.write_text(record.to_json() + "\n", encoding="utf-8")
    from pinastats.cli.main import main

    assert main(["review", str(path), "--evaluator", "playouts", "--playouts", "20"]) == 0


def test_a_game_against_the_agents_is_told_and_reviewed_in_the_language_chosen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pinastats.tabletop import review
    from pinastats.tabletop.session import PlaySession

    monkeypatch.setattr(review, "PLAYOUTS", 10)
    s = PlaySession(["human:Ana", "strategic"], seed=3)
    for _ in range(400):  # Ana stops at once and takes the last legal coaster
        p = s.pending
        if p is None:
            break
        if p.kind == "roll":
            s.roll()
        elif p.kind == "keep":
            s.stop()
        elif p.kind == "place":
            s.place(p.legal[-1])
        else:
            s.choose(p.options[0])
    assert s.is_over
    english = s.log
    carry_out(s, {"cmd": "lang", "lang": "de"})
    assert s.log[0].startswith("Zug 1 · Ana: würfelte ")  # the same turns, told again
    assert len(s.log) == len(english)
    text = review.review_play(s)["text"]
    assert text.startswith("Bewertet von einer Suche über das Netz, 3 Züge tief")
    assert f"Das Spiel dauerte {len(english)} Züge" in text
    assert "Ana — Entscheidungen: " in text
