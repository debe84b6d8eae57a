"""What the board shows: a session as plain data for the widget and the served page.

:func:`session_view` gives the board (every coaster by name, its points, side and the
tokens on it), the seats (named, counted from 1, score, tokens left), the dice and
what is asked, the position as a line of the position notation (``position``,
``docs/notation.md``), the whole log of turns (passes and failed rolls with their
dice), what is announced (the end triggered, a player's last turn) and, with the
coach beside the player, its advice: every keep of the hand or every placement, best
first, with this turn's points, the chance to win and why the placement matters
(:mod:`pinastats.game.why`). The chances come from the evaluator the evaluation policy
picks for the board (:mod:`pinastats.evaluation.policy`): the exact solution where the
board's table is kept, else the learned network at once while the board is solved in the
background (two players without Happy Hour), the page saying how far; the evaluator is
named and its measured error shown in percentage points.

A table game (:class:`~pinastats.tabletop.table.TableSession`, dice entered by hand)
is drawn by :func:`pinastats.tabletop.table.table_view`, with the same parts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pinastats.evaluation import Evaluator, choose, solve_in_background
from pinastats.evaluation.network import NETWORK_CHANCE_ERROR, NETWORK_DIFFERENCE_ERROR
from pinastats.game.game import Game
from pinastats.game.notation import notation_of
from pinastats.game.rules import HappyHourEffect, Trigger
from pinastats.game.why import placement_reasons, why_text
from pinastats.tabletop.session import PlaySession
from pinastats.tabletop.table import TableSession
from pinastats.tabletop.words import effect_name, effect_text, option_text, plural, seat_name

NETWORK_ERROR = NETWORK_CHANCE_ERROR
"""The network's mean absolute error on a chance to win (:mod:`pinastats.evaluation.network`)."""
TIE = 0.0005
"""A lead below this is no lead: the two options are worth the same."""
KEEPS_SHOWN = 6
"""The keeps listed, best first."""
LOST = 0.005
"""A chance to win below this with the best play: the position is said to be lost."""


def board_cells(game: Game) -> list[dict[str, Any]]:
    """Every coaster: its name, place, side, points (in words) and the seat on each space."""
    cells = []
    for v in game.cells:
        coaster = game.coaster(v.cell)
        points = [coaster.side_a] if v.side == "A" else list(coaster.side_b)
        cells.append({
            "cell": v.cell, "row": v.row, "col": v.col, "coaster": coaster.name,
            "id": coaster.id, "combination": v.combination, "side": v.side,
            "points": points, "points_text": f"side {v.side} · "
            + (plural(points[0], "point") if len(points) == 1 else
               f"{'/'.join(map(str, points))} points"),
            "spaces": list(v.spaces),
        })  # fmt: skip
    return cells


def seats_view(game: Game, labels: Sequence[str], persons: Sequence[int]) -> list[dict[str, Any]]:
    """Each seat: its label, person or agent, score and tokens left, in words."""
    return [
        {"seat": i, "name": labels[i], "person": i in persons, "score": game.scores[i],
         "reserve": game.reserves[i],
         "text": f"{plural(game.scores[i], 'point')} · {plural(game.reserves[i], 'token')} left"}
        for i in range(game.players)
    ]  # fmt: skip


def _evaluator(game: Game, surface: str = "board") -> tuple[Evaluator, str]:
    """The policy's evaluator for ``game`` on ``surface`` and what the page says of it.

    Where the exact solution covers the game but is not kept yet, the board is solved in
    the background and the words say how far it is; the next view after it is ready
    answers exactly.
    """
    choice = choose(game, surface)
    e = choice.evaluator
    words = e.label + (f", typical error ±{100 * e.chance_error:.1f} percentage points"
                       if e.chance_error else "")  # fmt: skip
    if choice.solve == "background":
        status = solve_in_background(game)
        if status.state == "solving":
            words += f" · solving this board exactly: {100 * status.share:.0f}%"
        elif status.state == "failed":
            words += f" · the exact solve failed ({status.error})"
    return e, words


def _next_roll(keep: Sequence[int]) -> dict[int, float]:
    """The chance of each hand after re-rolling the dice not kept (a stop: the hand itself)."""
    from pinastats.dice.hands import dice_tables, keep_index_by_dice

    t = dice_tables()
    k = keep_index_by_dice()[tuple(sorted(int(d) for d in keep))]
    a, b = int(t.keep_ptr[k]), int(t.keep_ptr[k + 1])
    total = float(t.keep_weight[a:b].sum())
    return {int(h): float(w) / total for h, w in zip(t.keep_hand[a:b], t.keep_weight[a:b],
                                                       strict=True)}  # fmt: skip


def keep_difference_error(a: Sequence[int], b: Sequence[int],
                          difference: float = NETWORK_DIFFERENCE_ERROR) -> float:  # fmt: skip
    """An evaluator's error on the lead of keep ``a`` over keep ``b``.

    Its error on a difference (``difference``, the network's
    :data:`~pinastats.evaluation.network.NETWORK_DIFFERENCE_ERROR` by default) counts on the
    share of the next roll in which the two keeps lead to different hands (their total
    variation distance): where both keeps give the same hand, the same positions are valued.
    """
    pa, pb = _next_roll(a), _next_roll(b)
    tv = 0.5 * sum(abs(pa.get(h, 0.0) - pb.get(h, 0.0)) for h in set(pa) | set(pb))
    return difference * tv


def advice_view(
    game: Game,
    dice: Sequence[int],
    rolls_left: int,
    labels: Sequence[str] = (),
    surface: str = "board",
) -> dict[str, Any] | None:
    """The coach's advice for the dice showing, in the board's words (module docstring).

    ``labels``: the seats' names, as the reasons name them; ``surface``: ``board`` or
    ``table`` (the policy treats them alike).
    """
    if not dice:
        return None
    evaluator, source = _evaluator(game, surface)
    a = evaluator.advise(game, tuple(dice), rolls_left)
    exact = evaluator.name == "exact"
    lost = a.win_probability < LOST
    out: dict[str, Any] = {
        "win": a.win_probability, "evaluator": evaluator.name, "lost": lost,
        "error": evaluator.chance_error, "source": source,
    }  # fmt: skip
    lead, margin = 0.0, 0.0
    if rolls_left:
        keeps = list(a.keeps)
        if len(keeps) > 1:
            lead = keeps[0].win_probability - keeps[1].win_probability
            margin = keep_difference_error(keeps[0].keep, keeps[1].keep,
                                           evaluator.difference_error)  # fmt: skip
        stop_coaster = _stop_coaster(game, dice) if any(len(k.keep) == 5 for k in keeps) else ""
        rows = []
        for i, k in enumerate(keeps):
            stop = len(k.keep) == 5
            take = f": take {stop_coaster}" if stop_coaster else ": nothing to take"
            kept = f"keep {' '.join(map(str, k.keep))}" if k.keep else "re-roll all"
            label = "stop" + take if stop else kept
            rows.append({"keep": list(k.keep), "stop": stop, "win": k.win_probability,
                         "points": k.expected_points, "best": i == 0, "label": label})  # fmt: skip
        out["keeps"] = rows[:KEEPS_SHOWN]
        out["lit"] = list(game.legal_cells(list(dice)))
    else:
        places = list(a.placements)
        if len(places) > 1:
            lead = places[0].win_probability - places[1].win_probability
            margin = evaluator.difference_error
        out["placements"] = [
            {"cell": p.cell, "coaster": game.coaster(p.cell).name, "points": p.points,
             "win": p.win_probability, "best": i == 0, "points_text": plural(p.points, "point"),
             "why": why_text(placement_reasons(game, p.cell, dice, labels))}
            for i, p in enumerate(places)
        ]  # fmt: skip
    out["lead"] = lead
    out["margin"] = margin
    shown: list[dict[str, Any]] = out.get("keeps") or out.get("placements") or []
    out["close"] = (
        not lost and not exact and len(shown) > 1 and (lead <= margin or a.too_close_to_call)
    )
    if lost:
        out["verdict"] = "this position is lost: no play gives a real chance to win"
    elif a.win_probability > 1 - LOST:
        out["verdict"] = "this position is won with the best play"
        out["close"] = False
    elif out["close"] and lead < TIE:
        name = shown[1].get("label") or shown[1].get("coaster")
        out["verdict"] = (f"chance to win with the best play: {100 * a.win_probability:.1f}%; "
                          f"{name} is as good (within 0.1 percentage points)")  # fmt: skip
        out["close"] = False
    elif out["close"]:
        out["verdict"] = (f"too close to call: the best leads by {100 * lead:.1f} percentage "
                          f"points, within the {evaluator.name} evaluator's error of "
                          f"{100 * max(margin, a.lead_se):.1f} for this comparison")  # fmt: skip
    else:
        out["verdict"] = f"chance to win with the best play: {100 * a.win_probability:.1f}%"
    return out


def _stop_coaster(game: Game, dice: Sequence[int]) -> str:
    """The coaster stopping now would take: the best placement of the dice showing."""
    legal = game.legal_cells(list(dice))
    if not legal:
        return ""
    if len(legal) == 1:
        return game.coaster(legal[0]).name
    evaluator, _ = _evaluator(game)
    best = evaluator.advise(game, tuple(dice), 0).placements[0].cell
    return game.coaster(best).name


def announcements(game: Game, labels: Sequence[str], persons: Sequence[int]) -> list[str]:
    """What the board announces: the end triggered and whose last turn this is."""
    if game.is_over or game.trigger == Trigger.NONE:
        return []
    out = ["End triggered — this is the last round."]
    seat = game.to_move
    who = "your" if seat in persons and len(persons) == 1 else f"{seat_name(seat, labels)}'s"
    out.append(f"This is {who} last turn.")
    return out


def happy_hour_view(game: Game, effect: str, options: Sequence[int], dice: Sequence[int],
                    labels: Sequence[str], coach: bool) -> dict[str, Any]:  # fmt: skip
    """The Happy Hour prompt: the failed dice, the die's face, the effect in words, the options."""
    face = int(HappyHourEffect[effect])
    out: dict[str, Any] = {
        "face": face, "effect_name": effect_name(effect), "effect_text": effect_text(effect),
        "dice": list(dice),
        "labels": [option_text(game, effect, o, labels) for o in options],
    }  # fmt: skip
    if coach and len(options) > 1:
        out["advice"] = _happy_advice(game, effect, options, dice)
    return out


def _happy_advice(game: Game, effect: str, options: Sequence[int],
                  dice: Sequence[int]) -> list[float] | None:  # fmt: skip
    """Each option's chance to win for the mover, by the board's evaluator.

    None where it cannot value a position between turns (play-outs).
    """
    evaluator, _ = _evaluator(game)
    seat = game.to_move
    chances = []
    for o in options:
        after = game.copy()
        after.end_turn_without_placement(tuple(dice), int(HappyHourEffect[effect]), int(o),
                                         rolls_used=game.config.rules.rolls)  # fmt: skip
        seats = evaluator.chances(after)
        if seats is None:
            return None
        chances.append(seats[seat])
    return chances


def session_view(session: PlaySession, coach: bool = True) -> dict[str, Any]:
    """The session as JSON-ready data (see the module docstring)."""
    from pinastats.records.replay import replay

    over = session.is_over
    game = replay(session.record) if over else session.game
    p = session.pending
    view: dict[str, Any] = {
        "mode": "play",
        "seed": session.seed,
        "board": board_cells(game),
        "rows": max(c.row for c in game.cells) + 1,
        "cols": max(c.col for c in game.cells) + 1,
        "seats": seats_view(game, session.labels, session.humans),
        "turn": game.turn,
        "to_move": None if over else game.to_move,
        "happy_hour": game.config.rules.happy_hour,
        "log": list(session.log),
        "log_count": len(session.log),
        "over": over,
        "can_undo": session.can_undo,
        "position": notation_of(game),
        "announce": announcements(game, session.labels, session.humans),
    }
    if over:
        view["result"] = result_view(game, session.labels)
        return view
    assert p is not None
    view["pending"] = {"kind": p.kind, "seat": p.seat, "dice": list(p.dice),
                       "rolls_left": p.rolls_left, "legal": list(p.legal), "effect": p.effect,
                       "options": list(p.options)}  # fmt: skip
    if p.kind == "keep":  # the coasters the dice already make, lit while keeping
        view["pending"]["lit"] = list(game.legal_cells(p.dice))
    if p.kind == "happy_hour":
        view["pending"].update(happy_hour_view(game, p.effect, p.options, p.dice,
                                               session.labels, coach))  # fmt: skip
    if coach and p.kind in ("keep", "place") and p.seat in session.humans:
        view["advice"] = advice_view(game, p.dice, p.rolls_left, session.labels)
    return view


def result_view(game: Game, labels: Sequence[str]) -> dict[str, Any]:
    """How the game ended, in a sentence."""
    winner = game.winner
    who = "nobody wins" if winner is None else f"{seat_name(winner, labels)} wins"
    return {"winner": winner, "reason": game.end_reason.name.lower().replace("_", " "),
            "text": f"{who} — {_why(game.end_reason.name)}"}  # fmt: skip


def _why(reason: str) -> str:
    return {
        "PINA_COLADICE": "four coasters in a row, column or diagonal",
        "SCORE": "the round ended after a player reached the target score",
        "TOKENS": "the round ended after a player placed their last token",
        "TIE_BREAK": "equal scores at the end: the tie goes to whoever placed last",
        "DRAW": "the game ended without a winner",
    }.get(reason, reason.lower().replace("_", " "))


def catalogue_view() -> list[dict[str, str]]:
    """Every coaster a table may hold: its name and short code, for the setup's type-ahead."""
    from pinastats.game.catalogue import load_catalogue
    from pinastats.game.notation import coaster_codes

    catalogue = load_catalogue()
    codes = coaster_codes(catalogue)
    return [{"id": i, "code": codes[i], "name": catalogue.find(i).name} for i in catalogue.ids]


def table_view(session: TableSession, coach: bool = True) -> dict[str, Any]:
    """A game at a real table as the board shows it: the setup, then the turn loop."""
    if session.state is None:
        from pinastats.game.layout import load_layout

        layout = load_layout("standard")
        return {
            "mode": "setup", "catalogue": catalogue_view(), "names": list(session.names),
            "board": [{"cell": c, "row": r, "col": k, "coaster": "", "spaces": []}
                      for c, (r, k) in enumerate(layout.cells)],
            "rows": 4, "cols": 4, "seats": [], "log": [], "log_count": 0, "over": False,
            "can_undo": False, "announce": [],
        }  # fmt: skip
    game = session.game
    persons = list(range(game.players))
    view: dict[str, Any] = {
        "mode": "table",
        "board": board_cells(game),
        "rows": max(c.row for c in game.cells) + 1,
        "cols": max(c.col for c in game.cells) + 1,
        "seats": seats_view(game, session.labels, persons),
        "turn": game.turn,
        "to_move": None if game.is_over else game.to_move,
        "happy_hour": game.config.rules.happy_hour,
        "log": session.log,
        "log_count": len(session.log),
        "over": game.is_over,
        "can_undo": session.can_undo,
        "position": notation_of(game),
        "announce": announcements(game, session.labels, []),
    }  # fmt: skip
    if game.is_over:
        view["result"] = result_view(game, session.labels)
        return view
    table = session.summary()
    view["table"] = table
    if table["ending"] == "happy_hour":
        faces = []
        for f in range(1, 7):
            options = session.happy_options(f)
            face: dict[str, Any] = {
                "face": f, "effect_name": effect_name(f), "effect_text": effect_text(f),
                "options": options,
                "labels": [option_text(game, f, o, session.labels) for o in options],
            }  # fmt: skip
            if coach and len(options) > 1:
                name = HappyHourEffect(f).name
                face["advice"] = _happy_advice(game, name, options, table["dice"])
            faces.append(face)
        view["table"]["faces"] = faces
    dice = tuple(table["dice"])
    if coach and dice and table["ending"] != "happy_hour":
        left = table["rolls"] - table["roll"]
        view["advice"] = advice_view(game, dice, min(left, 2), session.labels, "table")
    return view


def board_view(session: PlaySession | TableSession, coach: bool = True) -> dict[str, Any]:
    """The view of either kind of session."""
    if isinstance(session, TableSession):
        return table_view(session, coach)
    return session_view(session, coach)
