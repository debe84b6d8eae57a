"""One vocabulary of holds: ``optimal-hold``'s guide and the cheat-sheets say a keep alike.

The guide's face rules (:func:`pinastats.holds.words.face_rules`) and the
decision lists' keeps (:class:`pinastats.holds.decision_list.Keep`) name the
same keeps; each keep they share is said in the same words (a cheat-sheet rule
that keeps faces adds ", re-roll the others").
"""

from __future__ import annotations

import itertools

import pytest

from pinastats.holds.decision_list import Action, Keep
from pinastats.holds.words import REROLL, STOP, face_rules

GUIDE = {rule.text for rule in face_rules(True)}
FACE_SETS = [s for n in range(1, 6) for s in itertools.combinations(range(1, 7), n)]


def _sheet(keep: Keep) -> str:
    return keep.text.removesuffix(", re-roll the others")


@pytest.mark.parametrize("faces", FACE_SETS, ids=lambda f: "".join(map(str, f)))
def test_keeping_every_die_of_some_faces(faces: tuple[int, ...]) -> None:
    assert _sheet(Keep(Action.FACES, faces=faces)) in GUIDE


@pytest.mark.parametrize("faces", [s for s in FACE_SETS if len(s) >= 2], ids=str)
def test_keeping_one_of_each_of_some_faces(faces: tuple[int, ...]) -> None:
    assert _sheet(Keep(Action.ONE_EACH, faces=faces)) in GUIDE


@pytest.mark.parametrize(("n", "lo", "hi"), [(2, 5, 7), (3, 8, 8), (4, 8, 11), (1, 3, 4)])
def test_keeping_dice_that_total_a_span(n: int, lo: int, hi: int) -> None:
    assert _sheet(Keep(Action.TOTAL, n=n, lo=lo, hi=hi)) in GUIDE


def test_stopping_and_rerolling() -> None:
    assert (Keep(Action.STOP).text, Keep(Action.REROLL).text) == (STOP, REROLL)
