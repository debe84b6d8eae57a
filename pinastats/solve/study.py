"""What the yardstick keeps of a solved board, as named records with a schema version.

A survey's ``study`` (:func:`pinastats.records.yardstick.study_board`) stores, in
the board's row of the log, ``{"version": 1, "errors": ..., "duels": ...,
"reviewers": ...}``; a board's labelled positions
(:func:`pinastats.records.yardstick.label_board`) are a file
``{"version": 1, "board", ..., "positions": [...]}``. Their records are stored as
JSON arrays, each field at its place in the named tuples below (what
``json.dumps`` makes of a named tuple), and read back by :func:`read_study` and
:func:`read_labels`, which refuse a version they do not know. Files written
before the version was stored (the shipped ``studies/perfect/``) are version 1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, NamedTuple

from pinastats.errors import PinastatsError

STUDY_VERSION = 1
"""The version of the study rows and label files this code writes and reads."""


class StudyError(PinastatsError):
    """A study row or a label file that is not of a known version or shape."""


class GradedPosition(NamedTuple):
    """A turn's start in a graded game: its position line and the mover's exact chance."""

    line: str
    chance: float


class GradedGame(NamedTuple):
    """One self-play game graded exactly.

    Attributes:
        decisions: decisions graded (both seats).
        loss: the mean loss per decision, thousandths of a win.
        unforced: the unforced decisions' losses (wins).
        positions: each turn's start, with the mover's exact chance.
    """

    decisions: int
    loss: float
    unforced: tuple[float, ...]
    positions: tuple[GradedPosition, ...]


class Duel(NamedTuple):
    """One game of ``perfect`` against an opponent: its seat, its score, its exact chance."""

    perfect_seat: int
    score: float
    perfect_chance: float


class ReviewedDecision(NamedTuple):
    """One decision reviewed by both reviewers: each one's loss (wins) and mark (``??``, ``""``)."""

    exact_loss: float
    exact_mark: str
    network_loss: float
    network_mark: str


class ReviewerPair(NamedTuple):
    """The exact reviewer's figure and the network's, of one seat or one turn's start."""

    exact: float
    network: float


@dataclass(frozen=True)
class Reviewed:
    """One agent's games reviewed by the network beside the exact reviewer.

    Attributes:
        decisions: each decision of the games.
        seats: each seat's mean loss per unforced decision (thousandths; NaN without).
        starts: the mover's chance at each turn's start.
    """

    decisions: tuple[ReviewedDecision, ...] = ()
    seats: tuple[ReviewerPair, ...] = ()
    starts: tuple[ReviewerPair, ...] = ()

    def to_json(self) -> dict[str, list[Any]]:
        """The stored form: each record a JSON array."""
        return {"decisions": [list(d) for d in self.decisions],
                "seats": [list(s) for s in self.seats],
                "starts": [list(s) for s in self.starts]}  # fmt: skip


@dataclass(frozen=True)
class Study:
    """What the yardstick keeps of one board: graded games, duels and reviews, by agent."""

    errors: dict[str, tuple[GradedGame, ...]]
    duels: dict[str, tuple[Duel, ...]]
    reviewers: dict[str, Reviewed]

    def to_json(self) -> dict[str, Any]:
        """The stored form, with :data:`STUDY_VERSION`."""
        return {
            "version": STUDY_VERSION,
            "errors": {a: [{"decisions": g.decisions, "loss": g.loss,
                            "unforced": list(g.unforced),
                            "positions": [list(p) for p in g.positions]} for g in games]
                       for a, games in self.errors.items()},
            "duels": {a: [list(d) for d in games] for a, games in self.duels.items()},
            "reviewers": {a: r.to_json() for a, r in self.reviewers.items()},
        }  # fmt: skip


class LabelledPosition(NamedTuple):
    """A labelled turn's start: its line, the mover's exact chance, the agent to move, the game."""

    line: str
    chance: float
    agent: str
    game: int


def _version(data: dict[str, Any], what: str) -> None:
    """Refuse a version other than :data:`STUDY_VERSION` (none stored: version 1)."""
    version = data.get("version", 1)
    if version != STUDY_VERSION:
        raise StudyError(
            f"{what} is of version {version!r}; this pinastats reads version {STUDY_VERSION}"
        )


def _float(x: Any) -> float:
    """A stored number (``null``, which JSON makes of NaN in some writers, is NaN)."""
    return math.nan if x is None else float(x)


def read_study(data: dict[str, Any], what: str = "a study row") -> Study:
    """A stored study (its ``version`` checked; absent, version 1) as named records.

    A record of another length or a field of the wrong kind is a :class:`StudyError`
    naming ``what``.
    """
    if not isinstance(data, dict):
        raise StudyError(f"{what} is not a JSON object")
    _version(data, what)
    try:
        errors = {
            str(agent): tuple(
                GradedGame(int(g["decisions"]), float(g["loss"]),
                           tuple(float(u) for u in g.get("unforced", [])),
                           tuple(GradedPosition(str(line), float(chance))
                                 for line, chance in g.get("positions", [])))
                for g in games
            )
            for agent, games in data.get("errors", {}).items()
        }  # fmt: skip
        duels = {
            str(agent): tuple(Duel(int(seat), float(score), float(chance))
                              for seat, score, chance in games)
            for agent, games in data.get("duels", {}).items()
        }  # fmt: skip
        reviewers = {
            str(agent): Reviewed(
                tuple(ReviewedDecision(_float(el), str(em), _float(nl), str(nm))
                      for el, em, nl, nm in pair.get("decisions", [])),
                tuple(ReviewerPair(_float(e), _float(n)) for e, n in pair.get("seats", [])),
                tuple(ReviewerPair(_float(e), _float(n)) for e, n in pair.get("starts", [])),
            )
            for agent, pair in data.get("reviewers", {}).items()
        }  # fmt: skip
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        raise StudyError(f"{what} is not a study of version {STUDY_VERSION} ({exc})") from None
    return Study(errors, duels, reviewers)


def read_labels(data: dict[str, Any], what: str = "a label file") -> list[LabelledPosition]:
    """A label file's positions (its ``version`` checked; absent, version 1)."""
    if not isinstance(data, dict):
        raise StudyError(f"{what} is not a JSON object")
    _version(data, what)
    try:
        return [LabelledPosition(str(line), float(chance), str(agent), int(game))
                for line, chance, agent, game in data["positions"]]  # fmt: skip
    except (TypeError, ValueError, KeyError) as exc:
        raise StudyError(f"{what} holds no labelled positions of version 1 ({exc})") from None
