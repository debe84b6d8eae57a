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

import functools
from collections.abc import Sequence
from typing import Any

from pinastats.evaluation import Evaluator, SearchEvaluator, choose, solve_in_background
from pinastats.evaluation.network import NETWORK_DIFFERENCE_ERROR
from pinastats.game.game import Game
from pinastats.game.notation import notation_of
from pinastats.game.rules import HappyHourEffect, Trigger
from pinastats.game.why import placement_reasons, why_text
from pinastats.tabletop.session import PlaySession
from pinastats.tabletop.table import TableSession
from pinastats.tabletop.words import (
    DEFAULT,
    catalogue,
    cell_name,
    count,
    effect_name,
    effect_text,
    option_text,
    percent,
    say,
    seat_name,
)

TIE = 0.0005
"""A lead below this is no lead: the two options are worth the same."""
KEEPS_SHOWN = 6
"""The keeps listed, best first."""
LOST = 0.005
"""A chance to win below this with the best play: the position is said to be lost."""


def board_cells(game: Game, lang: str = DEFAULT) -> list[dict[str, Any]]:
    """Every coaster: its name, place, side, points (in words) and the seat on each space.

    A coaster on side B has two spaces: ``4/3 points``, the first token on it scores 4, the
    second 3 (``side_b``: the words that say so, on the cells that have it).
    """
    cells = []
    for v in game.cells:
        coaster = game.coaster(v.cell)
        points = [coaster.side_a] if v.side == "A" else list(coaster.side_b)
        if len(points) == 1:
            text = say(lang, "side.one", side=v.side, points=count(lang, "n.points", points[0]))
        else:
            text = say(lang, "side.two", side=v.side, first=points[0], second=points[1])
        cells.append({
            "cell": v.cell, "row": v.row, "col": v.col, "coaster": cell_name(game, v.cell, lang),
            "id": coaster.id, "combination": v.combination, "side": v.side,
            "points": points, "points_text": text, "spaces": list(v.spaces),
        })  # fmt: skip
        if len(points) == 2:
            cells[-1]["side_b"] = say(lang, "side.explain", first=points[0], second=points[1])
    return cells


def seats_view(game: Game, labels: Sequence[str], persons: Sequence[int],
               lang: str = DEFAULT) -> list[dict[str, Any]]:  # fmt: skip
    """Each seat: its label, person or agent, score and tokens left, in words."""
    return [
        {"seat": i, "name": labels[i], "person": i in persons, "score": game.scores[i],
         "reserve": game.reserves[i],
         "text": say(lang, "seat.text", points=count(lang, "n.points", game.scores[i]),
                     tokens=count(lang, "n.tokens_left", game.reserves[i]))}
        for i in range(game.players)
    ]  # fmt: skip


def _evaluator(game: Game, surface: str = "board",
               lang: str = DEFAULT) -> tuple[Evaluator, str]:  # fmt: skip
    """The policy's evaluator for ``game`` on ``surface`` and what the page says of it.

    Where the exact solution covers the game but is not kept yet, the board is solved in
    the background and the words say how far it is; the next view after it is ready
    answers exactly.
    """
    choice = choose(game, surface)
    e = choice.evaluator
    if e.name == "exact":
        words = say(lang, "advice.source_exact")
    elif e.name == "network":
        words = say(lang, "advice.source_network", error=f"{100 * e.chance_error:.1f}")
    elif isinstance(e, SearchEvaluator):
        words = say(lang, "advice.source_search", depth=e.depth,
                    error=f"{100 * e.chance_error:.1f}")  # fmt: skip
    else:
        words = say(lang, "advice.source_other", label=e.label)
    if choice.solve == "background":
        status = solve_in_background(game)
        if status.state == "solving":
            words += " · " + say(lang, "advice.solving", share=f"{100 * status.share:.0f}")
        elif status.state == "failed":
            words += " · " + say(lang, "advice.solve_failed", error=status.error)
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
    lang: str = DEFAULT,
    surface: str = "board",
) -> dict[str, Any] | None:
    """The coach's advice for the dice showing, in the board's words (module docstring).

    ``labels``: the seats' names, as the reasons name them. Each keep says what it aims
    at and its chance this turn (:func:`keep_aim`); the best placement is compared with
    the runner-up (``compare``); ``best_text``: the best option in one line, shown
    beside the dice. ``surface``: ``board`` or ``table`` (the policy treats them alike).
    """
    if not dice:
        return None
    evaluator, source = _evaluator(game, surface, lang)
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
        stop_cell = _stop_cell(game, dice) if any(len(k.keep) == 5 for k in keeps) else None
        stop_coaster = "" if stop_cell is None else cell_name(game, stop_cell, lang)
        rows: list[dict[str, Any]] = []
        for i, k in enumerate(keeps[:KEEPS_SHOWN]):
            stop = len(k.keep) == 5
            dice_words = " ".join(map(str, k.keep))
            if stop:
                label = (say(lang, "keep.stop", coaster=stop_coaster) if stop_coaster
                         else say(lang, "keep.stop_nothing"))  # fmt: skip
            else:
                label = (say(lang, "keep.label", dice=dice_words) if k.keep
                         else say(lang, "keep.reroll_all"))  # fmt: skip
            why = keep_aim(game, k.keep, rolls_left, stop_cell, lang)
            rows.append({"keep": list(k.keep), "stop": stop, "win": k.win_probability,
                         "points": k.expected_points, "best": i == 0, "label": label,
                         "why": why})  # fmt: skip
        out["keeps"] = rows
        out["lit"] = list(game.legal_cells(list(dice)))
        top = rows[0]
        if top["stop"]:
            out["best_text"] = (say(lang, "best.stop", coaster=stop_coaster) if stop_coaster
                                else say(lang, "best.stop_nothing"))  # fmt: skip
            out["stop_cell"] = stop_cell
        elif top["keep"]:
            out["best_text"] = say(lang, "best.keep", dice=" ".join(map(str, top["keep"])),
                                   why=top["why"])  # fmt: skip
        else:
            out["best_text"] = say(lang, "best.reroll_all", why=top["why"])
    else:
        places = list(a.placements)
        if len(places) > 1:
            lead = places[0].win_probability - places[1].win_probability
            margin = evaluator.difference_error
        out["placements"] = [
            {"cell": p.cell, "coaster": cell_name(game, p.cell, lang), "points": p.points,
             "win": p.win_probability, "best": i == 0,
             "points_text": count(lang, "n.points", p.points),
             "why": why_text(placement_reasons(game, p.cell, dice, labels))}
            for i, p in enumerate(places)
        ]  # fmt: skip
        if out["placements"]:
            best = out["placements"][0]
            best["compare"] = _compare(out["placements"], lang)
            out["best_text"] = say(lang, "best.place", coaster=best["coaster"])
    out["lead"] = lead
    out["margin"] = margin
    shown: list[dict[str, Any]] = out.get("keeps") or out.get("placements") or []
    out["close"] = (
        not lost and not exact and len(shown) > 1 and (lead <= margin or a.too_close_to_call)
    )
    chance = percent(a.win_probability)
    if lost:
        out["verdict"] = say(lang, "advice.lost")
    elif a.win_probability > 1 - LOST:
        out["verdict"] = say(lang, "advice.won")
        out["close"] = False
    elif out["close"] and lead < TIE:
        name = shown[1].get("label") or shown[1].get("coaster")
        out["verdict"] = say(lang, "advice.as_good", chance=chance, name=name)
        out["close"] = False
    elif out["close"]:
        out["verdict"] = say(lang, "advice.close", lead=f"{100 * lead:.1f}",
                             margin=f"{100 * max(margin, a.lead_se):.1f}")  # fmt: skip
    else:
        out["verdict"] = say(lang, "advice.chance", chance=chance)
    return out


def _compare(placements: Sequence[dict[str, Any]], lang: str) -> str:
    """Why the best placement beats the runner-up: its lead, and the points it gives up."""
    if len(placements) < 2:
        return ""
    best, runner = placements[0], placements[1]
    lead = best["win"] - runner["win"]
    if lead < TIE:
        return say(lang, "compare.same", next=runner["coaster"])
    if best["points"] < runner["points"]:
        return say(lang, "compare.fewer_points", next=runner["coaster"], lead=f"{100 * lead:.1f}",
                   points=count(lang, "n.points", runner["points"] - best["points"]))  # fmt: skip
    return say(lang, "compare.more", next=runner["coaster"], lead=f"{100 * lead:.1f}")


@functools.cache
def _made_by_end(combination: str) -> Any:
    """The solved turn of one combination: the chance to show it at the end of the turn."""
    from pinastats.dice.solver import solve_turn

    return solve_turn(combination)


def _next_points(game: Game, cell: int) -> int:
    """The points the next token on ``cell`` scores (its first free space)."""
    coaster = game.coaster(cell)
    points = [coaster.side_a] if game.side(cell) == "A" else list(coaster.side_b)
    return int(points[min(len(game.tokens(cell)), len(points) - 1)])


def keep_aim(game: Game, keep: Sequence[int], rolls_left: int, stop_cell: int | None,
             lang: str = DEFAULT) -> str:  # fmt: skip
    """What keeping ``keep`` aims at, in words, and its chance this turn.

    The aim: the coaster open to the mover with the most points in expectation,
    ``P(made by the end of the turn) x points``, among those the kept dice do not make
    already (those only when nothing else can be made).
    ``P`` is the exact chance of showing the coaster's combination at the end of the turn
    holding for it from ``keep`` with ``rolls_left`` rolls left
    (:func:`pinastats.dice.solver.solve_turn`). A stop takes ``stop_cell`` now.
    """
    seat = game.to_move
    if len(keep) == 5:
        if stop_cell is None:
            return say(lang, "keep.why_nothing")
        return say(lang, "keep.why_stop", coaster=cell_name(game, stop_cell, lang),
                   points=count(lang, "n.points", _next_points(game, stop_cell)))  # fmt: skip
    from pinastats.dice.hands import dice_tables

    k = dice_tables().keep_index(tuple(sorted(int(d) for d in keep)))
    aim: tuple[float, float, float, int, int] | None = None
    for v in game.cells:
        spaces = game.spaces(v.cell)
        if None not in spaces or seat in game.tokens(v.cell):
            continue
        chance = float(_made_by_end(str(v.combination)).keep_value[rolls_left - 1, k])
        points = _next_points(game, v.cell)
        # a coaster the kept dice make already is aimed at only when nothing else is in reach
        value = (float(chance < 1.0), chance * points, chance, points, v.cell)
        if chance > 0 and (aim is None or value > aim):
            aim = value
    if aim is None:
        return say(lang, "keep.why_nothing")
    _, _, chance, points, cell = aim
    return say(lang, "keep.why_aim", coaster=cell_name(game, cell, lang),
               points=count(lang, "n.points", points), chance=percent(chance, 0))  # fmt: skip


def _stop_cell(game: Game, dice: Sequence[int]) -> int | None:
    """The coaster stopping now would take: the best placement of the dice showing."""
    legal = game.legal_cells(list(dice))
    if not legal:
        return None
    if len(legal) == 1:
        return int(legal[0])
    evaluator, _ = _evaluator(game)
    return int(evaluator.advise(game, tuple(dice), 0).placements[0].cell)


def announcements(game: Game, labels: Sequence[str], persons: Sequence[int],
                  lang: str = DEFAULT) -> list[str]:  # fmt: skip
    """What the board announces: the end triggered and whose last turn this is."""
    if game.is_over or game.trigger == Trigger.NONE:
        return []
    out = [say(lang, "announce.end")]
    seat = game.to_move
    if seat in persons and len(persons) == 1:
        out.append(say(lang, "announce.your_last_turn"))
    else:
        out.append(say(lang, "announce.last_turn", who=seat_name(seat, labels, lang)))
    return out


def happy_hour_view(game: Game, effect: str, options: Sequence[int], dice: Sequence[int],
                    labels: Sequence[str], coach: bool,
                    lang: str = DEFAULT) -> dict[str, Any]:  # fmt: skip
    """The Happy Hour prompt: the failed dice, the die's face, the effect in words, the options."""
    face = int(HappyHourEffect[effect])
    out: dict[str, Any] = {
        "face": face, "effect_name": effect_name(effect, lang),
        "effect_text": effect_text(effect, lang), "dice": list(dice),
        "labels": [option_text(game, effect, o, labels, lang) for o in options],
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
    lang = getattr(session, "lang", DEFAULT)
    view: dict[str, Any] = {
        "mode": "play",
        "lang": lang,
        "words": catalogue(lang),
        "seed": session.seed,
        "board": board_cells(game, lang),
        "rows": max(c.row for c in game.cells) + 1,
        "cols": max(c.col for c in game.cells) + 1,
        "seats": seats_view(game, session.labels, session.humans, lang),
        "turn": game.turn,
        "to_move": None if over else game.to_move,
        "happy_hour": game.config.rules.happy_hour,
        "log": list(session.log),
        "log_count": len(session.log),
        "over": over,
        "can_undo": session.can_undo,
        "position": notation_of(game),
        "announce": announcements(game, session.labels, session.humans, lang),
    }
    if over:
        view["result"] = result_view(game, session.labels, lang)
        return view
    assert p is not None
    view["pending"] = {"kind": p.kind, "seat": p.seat, "dice": list(p.dice),
                       "rolls_left": p.rolls_left, "legal": list(p.legal), "effect": p.effect,
                       "options": list(p.options)}  # fmt: skip
    if p.kind == "keep":  # the coasters the dice already make, lit while keeping
        view["pending"]["lit"] = list(game.legal_cells(p.dice))
    if p.kind == "happy_hour":
        view["pending"].update(happy_hour_view(game, p.effect, p.options, p.dice,
                                               session.labels, coach, lang))  # fmt: skip
    if coach and p.kind in ("keep", "place") and p.seat in session.humans:
        view["advice"] = advice_view(game, p.dice, p.rolls_left, session.labels, lang)
    return view


def result_view(game: Game, labels: Sequence[str], lang: str = DEFAULT) -> dict[str, Any]:
    """How the game ended, in a sentence."""
    winner = game.winner
    reason = game.end_reason.name
    why = (say(lang, f"reason.{reason}") if f"reason.{reason}" in catalogue(DEFAULT)
           else reason.lower().replace("_", " "))  # fmt: skip
    who = None if winner is None else seat_name(winner, labels, lang)
    text = (say(lang, "result.nobody", why=why) if who is None
            else say(lang, "result.wins", who=who, why=why))  # fmt: skip
    return {"winner": winner, "reason": reason.lower().replace("_", " "), "text": text}


def catalogue_view() -> list[dict[str, str]]:
    """Every coaster a table may hold: its name and short code, for the setup's type-ahead."""
    from pinastats.game.catalogue import load_catalogue
    from pinastats.game.notation import coaster_codes

    catalogue = load_catalogue()
    codes = coaster_codes(catalogue)
    return [{"id": i, "code": codes[i], "name": catalogue.find(i).name} for i in catalogue.ids]


def _catalogue_in(lang: str) -> list[dict[str, str]]:
    """The setup's type-ahead: each coaster's code, its name in ``lang`` and in English."""
    return [dict(c, local=say(lang, f"coaster.{c['id']}")) for c in catalogue_view()]


def table_view(session: TableSession, coach: bool = True) -> dict[str, Any]:
    """A game at a real table as the board shows it: the setup, then the turn loop."""
    lang = session.lang
    if session.state is None:
        from pinastats.game.layout import load_layout

        layout = load_layout("standard")
        return {
            "mode": "setup", "lang": lang, "words": catalogue(lang),
            "catalogue": _catalogue_in(lang), "names": list(session.names),
            "happy_hour_default": session.happy_hour,
            "board": [{"cell": c, "row": r, "col": k, "coaster": "", "spaces": []}
                      for c, (r, k) in enumerate(layout.cells)],
            "rows": 4, "cols": 4, "seats": [], "log": [], "log_count": 0, "over": False,
            "can_undo": False, "announce": [],
        }  # fmt: skip
    game = session.game
    persons = list(range(game.players))
    view: dict[str, Any] = {
        "mode": "table",
        "lang": lang,
        "words": catalogue(lang),
        "board": board_cells(game, lang),
        "rows": max(c.row for c in game.cells) + 1,
        "cols": max(c.col for c in game.cells) + 1,
        "seats": seats_view(game, session.labels, persons, lang),
        "turn": game.turn,
        "to_move": None if game.is_over else game.to_move,
        "happy_hour": game.config.rules.happy_hour,
        "log": session.log,
        "log_count": len(session.log),
        "over": game.is_over,
        "can_undo": session.can_undo,
        "position": notation_of(game),
        "announce": announcements(game, session.labels, [], lang),
        "names": list(session.names),
    }  # fmt: skip
    if game.is_over:
        view["result"] = result_view(game, session.labels, lang)
        return view
    table = session.summary()
    view["table"] = table
    if table["ending"] == "happy_hour":
        faces = []
        for f in range(1, 7):
            options = session.happy_options(f)
            face: dict[str, Any] = {
                "face": f, "effect_name": effect_name(f, lang),
                "effect_text": effect_text(f, lang), "options": options,
                "labels": [option_text(game, f, o, session.labels, lang) for o in options],
            }  # fmt: skip
            if coach and len(options) > 1:
                name = HappyHourEffect(f).name
                face["advice"] = _happy_advice(game, name, options, table["dice"])
            faces.append(face)
        view["table"]["faces"] = faces
    dice = tuple(table["dice"])
    if coach and dice and table["ending"] != "happy_hour":
        left = table["rolls"] - table["roll"]
        view["advice"] = advice_view(game, dice, min(left, 2), session.labels, lang, "table")
    return view


def board_view(session: PlaySession | TableSession, coach: bool = True) -> dict[str, Any]:
    """The view of either kind of session."""
    if isinstance(session, TableSession):
        return table_view(session, coach)
    return session_view(session, coach)
