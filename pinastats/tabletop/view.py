"""What the board shows: a session as plain data for the widget and the served page.

:func:`session_view` gives the board (every coaster with its combination, points,
side and the tokens on it), the seats (name, person or agent, score, reserve),
the dice and what is asked, the position as a line of the position notation
(``position``, ``docs/notation.md``), the log of the agents' moves and, with the coach
beside the player, its advice: every keep of the hand or every placement, best
first, with this turn's points and the chance to win by the learned network
(``pinastats.coach.win_advice``, ``evaluator="network"``), the best one marked.
The network's typical error on a chance to win is shown with it
(:data:`NETWORK_ERROR`).
"""

from __future__ import annotations

from typing import Any

from pinastats.agents.network import fits
from pinastats.game.game import Game
from pinastats.game.notation import notation_of
from pinastats.tabletop.session import PlaySession

NETWORK_ERROR = 0.045
"""The network's mean absolute error on a chance to win, on positions it never saw (the position
benchmark of ``docs/value.md``): the uncertainty shown beside its numbers."""


def _board(game: Game) -> list[dict[str, Any]]:
    cells = []
    for v in game.cells:
        coaster = game.coaster(v.cell)
        cells.append({
            "cell": v.cell, "row": v.row, "col": v.col, "coaster": coaster.name,
            "id": coaster.id, "combination": v.combination, "side": v.side,
            "points": [coaster.side_a] if v.side == "A" else list(coaster.side_b),
            "spaces": list(v.spaces),
        })  # fmt: skip
    return cells


def _advice(game: Game, dice: tuple[int, ...], rolls_left: int) -> dict[str, Any] | None:
    from pinastats.coach import win_advice

    if fits(game.config) is not None:
        return None
    a = win_advice(game, dice, rolls_left, evaluator="network")
    out: dict[str, Any] = {"win": a.win_probability, "error": NETWORK_ERROR,
                           "close": a.too_close_to_call, "evaluator": "network"}  # fmt: skip
    if rolls_left:
        out["keeps"] = [
            {"keep": list(k.keep), "stop": len(k.keep) == 5, "win": k.win_probability,
             "points": k.expected_points, "best": i == 0}
            for i, k in enumerate(a.keeps)
        ]  # fmt: skip
    else:
        out["placements"] = [
            {"cell": p.cell, "coaster": p.coaster, "points": p.points, "win": p.win_probability,
             "best": p.best}
            for p in a.placements
        ]  # fmt: skip
    return out


def session_view(session: PlaySession, coach: bool = True) -> dict[str, Any]:
    """The session as JSON-ready data (see the module docstring)."""
    from pinastats.records.replay import replay

    over = session.is_over
    game = replay(session.record) if over else session.game
    p = session.pending
    seats = [
        {"seat": i, "name": session.names[i], "person": i in session.humans,
         "score": game.scores[i], "reserve": game.reserves[i]}
        for i in range(game.players)
    ]  # fmt: skip
    view: dict[str, Any] = {
        "board": _board(game),
        "rows": max(c.row for c in game.cells) + 1,
        "cols": max(c.col for c in game.cells) + 1,
        "seats": seats,
        "turn": game.turn,
        "to_move": None if over else game.to_move,
        "happy_hour": game.config.rules.happy_hour,
        "log": list(session.log[-12:]),
        "log_count": len(session.log),
        "over": over,
        "can_undo": session.can_undo,
        "position": notation_of(game),
    }
    if over:
        winner = game.winner
        view["result"] = {
            "winner": winner,
            "reason": game.end_reason.name.lower().replace("_", " "),
            "text": ("nobody wins" if winner is None
                     else f"seat {winner} ({session.names[winner]}) wins") + " — "
                    + _why(game.end_reason.name),
        }  # fmt: skip
        return view
    assert p is not None
    view["pending"] = {"kind": p.kind, "seat": p.seat, "dice": list(p.dice),
                       "rolls_left": p.rolls_left, "legal": list(p.legal), "effect": p.effect,
                       "options": list(p.options)}  # fmt: skip
    if p.kind == "happy_hour":
        view["pending"]["labels"] = [_option_text(game, p.effect, o) for o in p.options]
    if coach and p.kind in ("keep", "place"):
        view["advice"] = _advice(game, p.dice, p.rolls_left)
    return view


def _option_text(game: Game, effect: str, option: int) -> str:
    """A Happy Hour option in words: ``cell 5``, ``seat 1's token from cell 6 to cell 0``."""
    from pinastats.game.rules import HappyHourEffect

    d = game.decode_happy_hour(HappyHourEffect[effect], option)
    if "from_cell" in d:
        return f"seat {d['owner']}'s token from cell {d['from_cell']} to cell {d['to_cell']}"
    if "cell" in d:
        return f"cell {d['cell']} ({game.coaster(d['cell']).name})"
    return "apply it" if not d else f"option {option}"


def _why(reason: str) -> str:
    return {
        "PINA_COLADICE": "four coasters in a row, column or diagonal",
        "SCORE": "the round ended after a player reached the target score",
        "TOKENS": "the round ended after a player placed their last token",
        "TIE_BREAK": "equal scores at the end: the tie goes to whoever placed last",
        "DRAW": "the game ended without a winner",
    }.get(reason, reason.lower().replace("_", " "))
