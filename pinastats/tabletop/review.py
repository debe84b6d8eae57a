"""The review for people: plain sentences and a chart, graded independently of the advice.

The coach advised with the learned network (or the exact solution where one is kept for
the board). The review grades with another evaluator: the exact solution where the
solver covers the game and its table is kept, else play-outs by ``strategic``
(:func:`pinastats.records.review.review_game`), and says which. It gives each seat's
chance to win through the game (a chart, with the turning points, the biggest swings),
the three costliest decisions with the better move, and the luck in words.

:func:`review_play` reviews a game played on the board against the agents (its record);
:func:`review_table` a game at a real table: its placements, and its keeps where the kept
dice were entered (each graded by one call, :func:`grade_keep`), with a summary per person.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from pinastats.evaluation import Evaluator, PlayoutEvaluator, SearchEvaluator, choose

if TYPE_CHECKING:
    from pinastats.records.review import GameReview
from pinastats.game.game import Game
from pinastats.game.notation import parse_position
from pinastats.game.why import placement_reasons, why_text
from pinastats.tabletop.session import PlaySession
from pinastats.tabletop.table import TableSession
from pinastats.tabletop.words import (
    DEFAULT,
    cell_name,
    count,
    dice_text,
    percent,
    say,
    seat_name,
)

PLAYOUTS = 256
"""Most play-outs per outcome position that check a loss, when no exact solution grades."""
_REVIEWS: weakref.WeakKeyDictionary[PlaySession, tuple[int, GameReview]] = (
    weakref.WeakKeyDictionary()
)
"""The review of each session's game, by its number of turns (made once per game)."""
COSTLIEST = 3
"""The decisions told, costliest first."""


class Graded(NamedTuple):
    """A graded decision: the grader's best option and the loss of the one played.

    ``starred``: the coach starred the option played.
    """

    best: Any
    loss: float
    starred: bool


def _grader(game: Game) -> tuple[Evaluator, Evaluator]:
    """The evaluator that grades a board game and the one that advised in it.

    The review policy's grader (:mod:`pinastats.evaluation.policy`), without waiting for a
    solve: exact where the board's table is kept (the board solves it in the background
    while the game is played), else play-outs by ``value``, stronger than the network that
    advised.
    """
    advisor = choose(game, "board").evaluator
    choice = choose(game, "board-review")
    return choice.evaluator, advisor


def grader_text(grader: Evaluator, advisor: Evaluator | None = None, lang: str = DEFAULT) -> str:
    """Which evaluator graded, and against which advice, in words."""
    if grader.name == "exact":
        return say(lang, "review.graded_exact")
    if isinstance(grader, SearchEvaluator):
        name = say(lang, "grader.search", depth=grader.depth)
    elif isinstance(grader, PlayoutEvaluator):
        name = say(lang, "grader.playouts", n=grader.playouts, policy=grader.policy)
    else:
        name = say(lang, "grader.network")
    if advisor is not None and advisor != grader:
        points = f"{100 * (advisor.difference_error + grader.difference_error):.1f}"
        return say(lang, "review.graded_over_coach", grader=name, points=points)
    return say(lang, "review.graded_by", grader=name)


def _network_chances(game: Game) -> list[float]:
    """Each seat's chance to win (plus half of no winner) by the network; exact at the end."""
    from pinastats import _engine as E
    from pinastats.agents.network import evaluate_states, fits

    n = game.players
    if game.is_over:
        return [float(E.seat_result(game.state, s)) for s in range(n)]
    if fits(game.config) is not None:
        return [1.0 / n] * n
    p = evaluate_states(game.config, E.stack_states([game.state]))
    return [float(E.seat_value(p[0, (s - game.to_move) % n], p[0, n])) for s in range(n)]


def _chances(game: Game, grader: Evaluator) -> list[float]:
    """Each seat's chance by an exact grader, else by the network."""
    seats = grader.chances(game) if grader.name == "exact" else None
    return list(seats) if seats is not None else _network_chances(game)


def _chart_by(grader: Evaluator, lang: str = DEFAULT) -> str:
    """Who drew the chart's chances: the exact solution where it graded, else the network."""
    return say(lang, "advice.source_exact" if grader.name == "exact" else "review.chart_by")


def _turning(series: Sequence[float], turns: Sequence[int], most: int = 2) -> list[int]:
    """The turns after which the chance moved most."""
    swings = sorted(((abs(series[i + 1] - series[i]), turns[i]) for i in range(len(series) - 1)),
                    reverse=True)  # fmt: skip
    return sorted(t for s, t in swings[:most] if s > 0.05)


def _chart(turns: list[int], chances: list[list[float]], labels: Sequence[str],
           log: Sequence[str], focus: int, lang: str = DEFAULT,
           first: int = 0) -> dict[str, Any]:  # fmt: skip
    """The chart's data: each seat's chance after each turn, and the turning points.

    ``turns[i]``: the turns played at chart point ``i`` (0: the start); ``log[j]`` tells
    turn ``first + j + 1``, as the log numbers it; ``turning``: the turns (numbered as
    the log) after which the chance moved most.
    """
    series = [{"seat": s, "name": labels[s], "chances": [c[s] for c in chances]}
              for s in range(len(labels))]  # fmt: skip
    moved = _turning([c[focus] for c in chances], turns)  # the point before each big move
    said = []
    for t in moved:
        i = turns.index(t)
        j = t - first
        line = log[j] if 0 <= j < len(log) else f"Turn {t + 1}"
        was, now = chances[i][focus], chances[i + 1][focus]
        whose = ("Your" if lang == DEFAULT and labels[focus].endswith("(you)")
                 else say(lang, "review.whose", who=seat_name(focus, labels, lang)))  # fmt: skip
        said.append(say(lang, "review.turning", line=line, whose=whose, was=percent(was, 0),
                        now=percent(now, 0)))  # fmt: skip
    return {
        "turns": turns,
        "series": series,
        "turning": [t + 1 for t in moved],
        "turning_text": said,
    }


def _cell_words(text: str, game: Game) -> str:
    """``cell 5 (pair-1)`` as the coaster's name."""
    return re.sub(r"cell (\d+) \([^)]*\)", lambda m: game.coaster(int(m.group(1))).name, text)


def _luck_words(luck: float, lang: str = DEFAULT) -> str:
    if abs(luck) < 0.03:
        return say(lang, "review.luck_even")
    key = "review.luck_kind" if luck > 0 else "review.luck_unkind"
    return say(lang, key, luck=f"{100 * abs(luck):.1f}")


def _decision_words(text: str, game: Game, lang: str) -> str:
    """A decision as the record review writes it (``keep 2 2``, ``stop``, ``cell 5 (pair-2)``).

    In ``lang``, the coaster by its printed name.
    """
    cell = re.fullmatch(r"cell (\d+) \([^)]*\)", text)
    if cell is not None:
        return cell_name(game, int(cell.group(1)), lang)
    if text == "stop":
        return say(lang, "review.stop")
    if text == "keep none":
        return say(lang, "keep.reroll_all")
    if text.startswith("keep "):
        return say(lang, "keep.label", dice=text.removeprefix("keep "))
    return _cell_words(text, game)


def review_play(session: PlaySession) -> dict[str, Any]:
    """The review of a finished game on the board, for its people (module docstring)."""
    from pinastats.records.replay import replay
    from pinastats.records.review import review_game

    record = session.record
    final = replay(record)
    start = parse_position(record.start) if record.start else None
    grader, advisor = _grader(final if start is None else start)
    seats = list(session.humans) or list(range(record.players))
    kept = _REVIEWS.get(session)
    if kept is not None and kept[0] == len(record.turns):
        review = kept[1]  # the same finished game: the page asks again in another language
    else:
        review = review_game(record, seats=seats, evaluator=grader, playouts=PLAYOUTS, seed=0,
                             advisor=advisor)  # fmt: skip
        _REVIEWS[session] = (len(record.turns), review)
    evaluator = grader.name
    labels = session.labels
    lang = getattr(session, "lang", DEFAULT)
    games: list[Game] = []
    replay(record, visit=lambda k, g, t: games.append(g))
    games.append(final)
    turns = [g.turn for g in games]
    chances = [_chances(g, grader) for g in games]
    focus = seats[0]
    lines = [grader_text(grader, advisor, lang)]
    winner = None if final.winner is None else seat_name(final.winner, labels, lang)
    result = (say(lang, "review.nobody_won") if winner is None
              else say(lang, "review.won_by", who=winner))  # fmt: skip
    lines.append(say(lang, "review.lasted", turns=count(lang, "n.turns", len(games) - 1),
                     result=result))  # fmt: skip
    costly = []
    for s in seats:
        mine = [d for d in review.decisions if d.seat == s]
        unforced = [d for d in mine if not d.forced]
        summary = review.summary(s)
        lines.append(say(lang, "review.play_person", who=seat_name(s, labels, lang),
                         decisions=len(mine), choices=len(unforced),
                         cost=f"{summary.error_rate / 10:.1f}", rating=summary.rating))  # fmt: skip
        lines.append(_luck_words(summary.luck, lang))
        costly.extend(unforced)
    worst = sorted((d for d in costly if d.loss > 0.005 and not d.advised),
                   key=lambda d: -d.loss)[:COSTLIEST]  # fmt: skip
    told = []
    for d in worst:
        g = games[d.turn - 1]
        played, best = _decision_words(d.played, g, lang), _decision_words(d.best, g, lang)
        cell = re.match(r"cell (\d+)", d.best)
        fields = {"turn": d.turn, "dice": " ".join(map(str, d.dice)), "played": played,
                  "best": best, "loss": f"{100 * abs(d.loss):.1f}"}  # fmt: skip
        if d.decision == "place" and cell is not None:
            why = why_text(placement_reasons(g, int(cell.group(1)), d.dice, labels))
            told.append(say(lang, "review.play_costly_why", why=why, **fields))
        else:
            told.append(say(lang, "review.play_costly", **fields))
    if told:
        lines.append(say(lang, "review.costliest"))
        lines.extend(told)
    else:
        lines.append(say(lang, "review.none_costly"))
    chart = _chart(turns, chances, labels, session.log, focus, lang, games[0].turn)
    lines.extend(chart["turning_text"])
    return {"evaluator": evaluator, "text": "\n".join(lines), "sentences": lines,
            "costliest": told, "chart": chart, "chart_by": _chart_by(grader, lang),
            "decisions": [{"turn": d.turn, "seat": d.seat, "decision": d.decision,
                           "played": d.played, "best": d.best, "loss": d.loss, "mark": d.mark,
                           "advised": d.advised} for d in review.decisions]}  # fmt: skip


def grade_keep(game: Game, dice: Sequence[int], rolls_left: int, kept: Sequence[int],
               grader: Evaluator, advisor: Evaluator | None = None) -> Graded:  # fmt: skip
    """The best keep of ``dice`` by ``grader`` and what keeping ``kept`` lost against it.

    All five kept is a stop. A keep the ``advisor`` (the coach) starred loses at most the
    two evaluators' measured disagreement, and is marked ``starred``.
    """
    a = grader.advise(game, tuple(dice), rolls_left)
    wins = {tuple(k.keep): k.win_probability for k in a.keeps}
    best = a.keeps[0]
    played = tuple(sorted(int(d) for d in kept))
    loss = best.win_probability - wins.get(played, best.win_probability)
    starred = advisor is not None and any(
        tuple(k.keep) == played and k.best for k in advisor.advise(game, tuple(dice),
                                                                   rolls_left).keeps)  # fmt: skip
    return _graded(tuple(best.keep), loss, starred, grader, advisor)


def grade_placement(game: Game, dice: Sequence[int], cell: int, grader: Evaluator,
                    advisor: Evaluator | None = None) -> Graded:  # fmt: skip
    """The best cell for ``dice`` by ``grader`` and what placing on ``cell`` lost against it."""
    a = grader.advise(game, tuple(dice), 0)
    wins = {p.cell: p.win_probability for p in a.placements}
    best = a.placements[0]
    starred = advisor is not None and any(
        p.cell == cell and p.best for p in advisor.advise(game, tuple(dice), 0).placements
    )
    return _graded(best.cell, best.win_probability - wins[cell], starred, grader, advisor)


def _graded(best: Any, loss: float, starred: bool, grader: Evaluator,
            advisor: Evaluator | None) -> Graded:  # fmt: skip
    """A graded decision; a starred one loses at most the evaluators' disagreement."""
    if starred and advisor is not None and advisor != grader:
        loss = min(loss, advisor.difference_error + grader.difference_error)
    return Graded(best, loss, starred)


def review_table(session: TableSession) -> dict[str, Any]:
    """The review of a game at a real table: placements and entered keeps graded (module doc).

    Each person's summary: placements, real choices among them (two legal cells or
    more), keeps graded (those entered, and each stop with rolls left), the average
    cost of the graded decisions in percentage points of chance to win, and how many
    were the best. A decision the coach starred is never told as a costly one.
    """
    lang = session.lang
    state = session.state
    if state is None:
        return {"evaluator": "", "text": say(lang, "review.set_up_first"), "sentences": []}
    labels = session.labels
    first = parse_position(state.starts[0][2])
    grader, advisor = _grader(first)
    evaluator = grader.name
    rolls = int(first.config.rules.rolls)
    told: list[tuple[float, str]] = []
    n = first.players
    people = [{"placements": 0, "choices": 0, "keeps": 0, "graded": 0, "best": 0, "cost": 0.0}
              for _ in range(n)]  # fmt: skip
    rerolls = known = 0
    for turn in session.turns:
        game, seat = turn.before, turn.before.to_move
        who = seat_name(seat, labels, lang)
        mine = people[seat]
        decisions: list[tuple[int, tuple[int, ...]]] = [
            (i, k) for i, k in enumerate(turn.keeps) if k is not None
        ]
        rerolls += len(turn.keeps)
        known += len(decisions)
        last = len(turn.rolls) - 1
        if last < rolls - 1 and (turn.cell is not None or game.legal_cells(turn.rolls[-1])):
            decisions.append((last, turn.rolls[-1]))  # stopped with rolls left: a keep of all
        for i, kept in decisions:
            dice = turn.rolls[i]
            best, loss, starred = grade_keep(game, dice, rolls - 1 - i, kept, grader, advisor)
            mine["keeps"] += 1
            mine["graded"] += 1
            mine["cost"] += max(loss, 0.0)
            mine["best"] += loss <= 0.0005 or starred
            if loss > 0.005 and not starred:
                word = dice_text(kept) if kept else say(lang, "review.keep_nothing")
                told.append((loss, say(lang, "review.keep_costly", turn=game.turn + 1, who=who,
                                       dice=dice_text(dice), roll=i + 1, played=word,
                                       best=dice_text(best) or say(lang, "review.keep_nothing"),
                                       loss=f"{100 * loss:.1f}")))  # fmt: skip
        if turn.cell is None:
            continue
        mine["placements"] += 1
        dice = turn.rolls[-1]
        if len(game.legal_cells(dice)) < 2:
            continue
        mine["choices"] += 1
        best_cell, loss, starred = grade_placement(game, dice, turn.cell, grader, advisor)
        mine["graded"] += 1
        mine["cost"] += max(loss, 0.0)
        mine["best"] += loss <= 0.0005 or starred
        if loss > 0.005 and not starred:
            why = why_text(placement_reasons(game, best_cell, dice, labels))
            told.append((loss, say(lang, "review.place_costly", turn=game.turn + 1, who=who,
                                   dice=dice_text(dice), played=cell_name(game, turn.cell, lang),
                                   best=cell_name(game, best_cell, lang),
                                   loss=f"{100 * loss:.1f}", why=why)))  # fmt: skip
    told.sort(key=lambda t: -t[0])
    games = [parse_position(s[2]) for s in state.starts]
    if state.game.is_over:
        games.append(state.game)
    chances = [_chances(g, grader) for g in games]
    turns = [g.turn for g in games]  # the chart's points: after each turn, numbered as the log
    lines = [grader_text(grader, advisor, lang),
             say(lang, "review.table_keeps", known=known, rerolls=rerolls)]  # fmt: skip
    if state.game.is_over:
        w = state.game.winner
        lines.append(say(lang, "review.ended_nobody") if w is None
                     else say(lang, "review.ended", who=seat_name(w, labels, lang)))  # fmt: skip
    else:
        lines.append(say(lang, "review.not_over", turn=state.game.turn + 1))
    for s, p in enumerate(people):
        cost = p["cost"] / p["graded"] if p["graded"] else 0.0
        lines.append(say(lang, "review.person", who=seat_name(s, labels, lang),
                         placements=p["placements"], choices=p["choices"], keeps=p["keeps"],
                         cost=f"{100 * cost:.1f}", followed=p["best"],
                         graded=p["graded"]))  # fmt: skip
    if told:
        lines.append(say(lang, "review.costliest"))
        lines.extend(t for _, t in told[:COSTLIEST])
    else:
        lines.append(say(lang, "review.none_costly"))
    log = session.log_lines(lang)
    chart = _chart(turns, chances, labels, log, state.starts[0][1], lang, first.turn)
    lines.extend(chart["turning_text"])
    return {"evaluator": evaluator, "text": "\n".join(lines), "sentences": lines,
            "costliest": [t for _, t in told[:COSTLIEST]], "chart": chart,
            "people": people, "chart_by": _chart_by(grader, lang)}  # fmt: skip
