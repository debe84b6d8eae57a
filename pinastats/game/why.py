"""Why a placement matters, in a few words worked out from the position.

:func:`placement_reasons` compares the position before and after a token on a cell:
a line completed (the game won), an opponent's line of ``n - 1`` of ``n`` blocked,
an own line built (the most own tokens on a line still open to the mover), the points
and the neighbours they come from, the end triggered (this turn begins the last
round) or kept away (another placement would trigger it), and how many coasters stay
open to the mover while the game goes on. Every reason is computed from
the board's lines and tokens; nothing is canned per coaster.

>>> from pinastats.game.notation import parse_position
>>> game = parse_position("pc1 P1+1,P2+1,P3+1,P4/P5+2,P6+2,T1+2,T2/T3,T4,T5,T6/FH,SS,LS,OD 1")
>>> [r.text for r in placement_reasons(game, 3, (4, 4, 1, 2, 3))][:1]
['completes a line of 4: wins the game']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pinastats import _engine as E
from pinastats.game.game import Game
from pinastats.game.rules import EndReason, Trigger


@dataclass(frozen=True)
class Reason:
    """One reason and its words.

    ``kind``: ``wins``, ``blocks``, ``builds``, ``points``, ``triggers``, ``avoids`` (the
    end, which another placement would trigger) or ``open``.
    """

    kind: str
    text: str


def _lines(game: Game) -> list[list[int]]:
    return [[int(c) for c in row if c >= 0] for row in game.config.layout.lines]


def _open_to(game: Game, cell: int, seat: int) -> bool:
    """Whether ``seat`` may still take the coaster on ``cell``: the engine's rule.

    A free space, none of the seat's tokens, a token in its reserve (``_engine.open_to``).
    """
    return bool(E.open_to(game.state, seat, cell))


def _line_word(game: Game, line: Sequence[int]) -> str:
    rows = {game.cells[c].row for c in line}
    cols = {game.cells[c].col for c in line}
    return "row" if len(rows) == 1 else "column" if len(cols) == 1 else "diagonal"


def threats(game: Game, seat: int) -> list[tuple[list[int], int]]:
    """The lines where ``seat`` holds all but one coaster, that one still open to it.

    Each as (the line's cells, the missing cell).
    """
    out = []
    for line in _lines(game):
        missing = [c for c in line if seat not in game.spaces(c)]
        if len(missing) == 1 and _open_to(game, missing[0], seat):
            out.append((line, missing[0]))
    return out


def best_line(game: Game, seat: int, cell: int) -> tuple[int, int, str] | None:
    """The line through ``cell`` still open to ``seat`` with most of its tokens.

    (own tokens, line length, row/column/diagonal); None when no line through it is open.
    """
    best = None
    for line in _lines(game):
        if cell not in line:
            continue
        if not all(seat in game.spaces(c) or _open_to(game, c, seat) for c in line):
            continue
        own = sum(seat in game.spaces(c) for c in line)
        if best is None or own > best[0]:
            best = (own, len(line), _line_word(game, line))
    return best


def _another_triggers(game: Game, cell: int, dice: Sequence[int]) -> bool:
    """Another legal placement of the dice would trigger the end."""
    for other in game.legal_cells(dice):
        if other != cell:
            after = game.copy()
            after.place(other, dice)
            if after.trigger != Trigger.NONE:
                return True
    return False


def open_count(game: Game, seat: int) -> int:
    """The coasters still open to ``seat``."""
    return sum(_open_to(game, c, seat) for c in range(game.config.layout.n_cells))


def placement_reasons(game: Game, cell: int, dice: Sequence[int],
                      names: Sequence[str] = ()) -> list[Reason]:  # fmt: skip
    """Why a token on ``cell`` with ``dice`` matters for the mover, most telling first.

    ``names``: the seats' names (default ``Seat 1``, ``Seat 2``, ...).
    """
    seat = game.to_move
    after = game.copy()
    points = after.place(cell, dice)
    out: list[Reason] = []
    if after.end_reason == EndReason.PINA_COLADICE and after.winner == seat:
        length = max(len(line) for line in _lines(game) if cell in line)
        return [Reason("wins", f"completes a line of {length}: wins the game")]
    for other in range(game.players):
        if other == seat:
            continue
        for line, missing in threats(game, other):
            if missing == cell and not _open_to(after, cell, other):
                word = _line_word(game, line)
                who = names[other] if other < len(names) else f"Seat {other + 1}"
                out.append(Reason("blocks", f"blocks {who}'s {word} "
                                  f"({len(line) - 1} of {len(line)})"))  # fmt: skip
                break
    built = best_line(after, seat, cell)
    if built is not None and built[0] >= 2:
        own, length, word = built
        verb = "builds" if own < length - 1 else "sets up"
        out.append(Reason("builds", f"{verb} a {word}: {own} of {length}"))
    layout = game.config.layout
    near = sum(1 for n in layout.neighbours[cell] if n >= 0 and seat in game.spaces(int(n)))
    unit = "point" if points == 1 else "points"
    by = f" ({near} from neighbours)" if near else ""
    out.append(Reason("points", f"{points} {unit}{by}"))
    if game.trigger == Trigger.NONE and after.trigger != Trigger.NONE:
        out.append(Reason("triggers", "triggers the end: last round"))
    elif game.trigger == Trigger.NONE and _another_triggers(game, cell, dice):
        out.append(Reason("avoids", "keeps the end away (another coaster would trigger it)"))
    left = open_count(after, seat)
    if after.reserves[seat] > 0 and after.trigger == Trigger.NONE and not after.is_over:
        out.append(Reason("open", f"{left} coasters stay open to you"))
    return out


def why_text(reasons: Sequence[Reason], *, most: int = 3) -> str:
    """The first ``most`` reasons, joined: ``blocks Seat 2's row (3 of 4); 2 points``."""
    return "; ".join(r.text for r in reasons[:most])
