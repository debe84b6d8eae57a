"""The review for people: plain sentences and a chart, graded independently of the advice.

The coach advised with the learned network (or the exact solution where one is kept for
the board). The review grades with another evaluator: the exact solution where the
solver covers the game and its table is kept, else play-outs by ``strategic``
(:func:`pinastats.records.review.review_game`), and says which. It gives each seat's
chance to win through the game (a chart, with the turning points, the biggest swings),
the three costliest decisions with the better move, and the luck in words.

:func:`review_play` reviews a game played on the board against the agents (its record);
:func:`review_table` a game at a real table (its placements: the keeps are not known
there, only the dice of each roll).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from pinastats.evaluation import Evaluator, choose
from pinastats.game.game import Game
from pinastats.game.notation import parse_position
from pinastats.game.why import placement_reasons, why_text
from pinastats.tabletop.session import PlaySession
from pinastats.tabletop.table import TableSession
from pinastats.tabletop.words import seat_name

PLAYOUTS = 64
"""Most play-outs per outcome position that check a loss, when no exact solution grades."""
COSTLIEST = 3
"""The decisions told, costliest first."""


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


def grader_text(grader: Evaluator, advisor: Evaluator | None = None) -> str:
    """Which evaluator graded, and against which advice, in words."""
    text = f"Graded by {grader.label}"
    if advisor is not None and advisor.name != grader.name:
        text += (f", stronger than the coach's {advisor.label}; a move the coach starred "
                 f"counts at most the two evaluators' measured disagreement "
                 f"({pp(advisor.difference_error + grader.difference_error)})")  # fmt: skip
    return text + "."


def pp(x: float) -> str:
    """A difference of chances in percentage points: ``6.1 percentage points``."""
    return f"{100 * abs(x):.1f} percentage points"


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


def _chart_by(grader: Evaluator) -> str:
    """Who drew the chart's chances."""
    return grader.label if grader.name == "exact" else "the learned network"


def _turning(series: Sequence[float], turns: Sequence[int], most: int = 2) -> list[int]:
    """The turns after which the chance moved most."""
    swings = sorted(((abs(series[i + 1] - series[i]), turns[i]) for i in range(len(series) - 1)),
                    reverse=True)  # fmt: skip
    return sorted(t for s, t in swings[:most] if s > 0.05)


def _chart(turns: list[int], chances: list[list[float]], labels: Sequence[str],
           log: Sequence[str], focus: int) -> dict[str, Any]:  # fmt: skip
    """The chart's data: each seat's chance after each turn, and the turning points."""
    series = [{"seat": s, "name": labels[s], "chances": [c[s] for c in chances]}
              for s in range(len(labels))]  # fmt: skip
    turning = _turning([c[focus] for c in chances], turns)
    said = []
    for t in turning:
        i = turns.index(t)
        line = log[t - 1] if 0 < t <= len(log) else f"Turn {t}"
        was, now = chances[i][focus], chances[i + 1][focus]
        whose = "Your" if labels[focus].endswith("(you)") else f"{seat_name(focus, labels)}'s"
        said.append(f"{line} {whose} chance went from "
                    f"{100 * was:.0f}% to {100 * now:.0f}%.")  # fmt: skip
    return {"turns": turns, "series": series, "turning": turning, "turning_text": said}


def _cell_words(text: str, game: Game) -> str:
    """``cell 5 (pair-1)`` as the coaster's name."""
    return re.sub(r"cell (\d+) \([^)]*\)", lambda m: game.coaster(int(m.group(1))).name, text)


def _luck_words(luck: float) -> str:
    if abs(luck) < 0.03:
        return "The dice were about even for you."
    kind = "kinder" if luck > 0 else "less kind"
    return (f"The dice were {kind} to you than average: luck {'added' if luck > 0 else 'took'} "
            f"{pp(luck)} of chance to win in all.")  # fmt: skip


def review_play(session: PlaySession) -> dict[str, Any]:
    """The review of a finished game on the board, for its people (module docstring)."""
    from pinastats.records.replay import replay
    from pinastats.records.review import review_game

    record = session.record
    final = replay(record)
    start = parse_position(record.start) if record.start else None
    grader, advisor = _grader(final if start is None else start)
    seats = list(session.humans) or list(range(record.players))
    review = review_game(record, seats=seats, evaluator=grader, playouts=PLAYOUTS, seed=0,
                         advisor=advisor)  # fmt: skip
    evaluator = grader.name
    labels = session.labels
    games: list[Game] = []
    replay(record, visit=lambda k, g, t: games.append(g))
    games.append(final)
    turns = list(range(1, len(games) + 1))
    chances = [_chances(g, grader) for g in games]
    focus = seats[0]
    lines = [grader_text(grader, advisor)]
    result = "nobody won" if final.winner is None else f"{seat_name(final.winner, labels)} won"
    lines.append(f"The game lasted {len(games) - 1} turns and {result}.")
    costly = []
    for s in seats:
        mine = [d for d in review.decisions if d.seat == s]
        unforced = [d for d in mine if not d.forced]
        summary = review.summary(s)
        lines.append(
            f"{seat_name(s, labels)}: {len(mine)} decisions, {len(unforced)} of them real "
            f"choices; on average each real choice cost {summary.error_rate / 10:.1f} "
            f"percentage points of chance to win (plays {summary.rating})."
        )
        lines.append(_luck_words(summary.luck))
        costly.extend(unforced)
    worst = sorted((d for d in costly if d.loss > 0.005 and not d.advised),
                   key=lambda d: -d.loss)[:COSTLIEST]  # fmt: skip
    told = []
    for d in worst:
        g = games[d.turn - 1]
        played, best = _cell_words(d.played, g), _cell_words(d.best, g)
        cell = re.match(r"cell (\d+)", d.best)
        why = ""
        if d.decision == "place" and cell is not None:
            why = f" ({why_text(placement_reasons(g, int(cell.group(1)), d.dice, labels))})"
        told.append(f"Turn {d.turn}, with {' '.join(map(str, d.dice))}: {played} was played; "
                    f"{best} was better by {pp(d.loss)} of chance to win{why}.")  # fmt: skip
    if told:
        lines.append("The costliest decisions:")
        lines.extend(told)
    else:
        lines.append("No decision cost a real chance to win.")
    chart = _chart(turns, chances, labels, session.log, focus)
    lines.extend(chart["turning_text"])
    return {"evaluator": evaluator, "text": "\n".join(lines), "sentences": lines,
            "costliest": told, "chart": chart, "chart_by": _chart_by(grader)}  # fmt: skip


def review_table(session: TableSession) -> dict[str, Any]:
    """The review of a game at a real table: its placements graded, the chart (module doc)."""
    state = session.state
    if state is None:
        return {"evaluator": "", "text": "Set the table up and play first.", "sentences": []}
    labels = session.labels
    first = parse_position(state.starts[0][2])
    grader, advisor = _grader(first)
    evaluator = grader.name
    disagreement = advisor.difference_error + grader.difference_error
    told: list[tuple[float, str]] = []
    for line, dice, cell in state.placements:
        game = parse_position(line)
        legal = game.legal_cells(dice)
        if len(legal) < 2:
            continue
        a = grader.advise(game, tuple(dice), 0)
        wins = {p.cell: p.win_probability for p in a.placements}
        best = a.placements[0]
        loss = best.win_probability - wins[cell]
        starred = any(p.cell == cell and p.best
                      for p in advisor.advise(game, tuple(dice), 0).placements)  # fmt: skip
        if starred and advisor.name != grader.name:  # within the evaluators' disagreement
            loss = min(loss, disagreement)
        if starred:
            continue
        if loss > 0.005:
            why = why_text(placement_reasons(game, best.cell, dice, labels))
            told.append((loss, f"Turn {game.turn + 1}, {seat_name(game.to_move, labels)} with "
                         f"{' '.join(map(str, dice))}: {game.coaster(cell).name} was played; "
                         f"{game.coaster(best.cell).name} was better by {pp(loss)} of chance "
                         f"to win ({why})."))  # fmt: skip
    told.sort(key=lambda t: -t[0])
    games = [parse_position(s[2]) for s in state.starts]
    if state.game.is_over:
        games.append(state.game)
    chances = [_chances(g, grader) for g in games]
    turns = list(range(1, len(games) + 1))
    lines = [grader_text(grader, advisor) + " At a real table only the placements are graded, and "
             "the luck of each roll is not told: the dice kept between rolls are not "
             "entered."]  # fmt: skip
    if state.game.is_over:
        w = state.game.winner
        lines.append(f"The game ended and {'nobody' if w is None else seat_name(w, labels)} "
                     "won.")  # fmt: skip
    if told:
        lines.append("The costliest placements:")
        lines.extend(t for _, t in told[:COSTLIEST])
    else:
        lines.append("No placement cost a real chance to win.")
    chart = _chart(turns, chances, labels, state.log, state.starts[0][1])
    lines.extend(chart["turning_text"])
    return {"evaluator": evaluator, "text": "\n".join(lines), "sentences": lines,
            "costliest": [t for _, t in told[:COSTLIEST]], "chart": chart,
            "chart_by": _chart_by(grader)}  # fmt: skip
