r"""Numba kernels of the learned evaluator: position features and the network's forward pass.

A position is seen from the seat to move, ``m``: seat ``s`` is *relative seat*
``r = (s - m) mod n`` (0 the mover, 1 the next to play, ...), so one network
serves every seat. :func:`_features` writes, for ``n`` players and ``C`` cells
(``docs/value.md`` lists them):

* per cell (``C x (6 + n)``): side B; the points of space 0 and space 1 (/5);
  the points the next token there scores before neighbours (/5); the free
  spaces left (/2); the chance to make its combination in one turn from
  nothing (``K_rolls`` of the empty keep for that single target); then, per
  relative seat, whether that seat has a token on it;
* per relative seat (``n x 10``): score and points still missing to the
  target (/target); tokens left and tokens placed (/6); the lines still open
  to it holding 1, 2 and 3 of its tokens (/4); the cells that would complete
  a line and are still open to it (/4) and the sum of their chances to make;
  whether it owns a whole line;
* the game (``3 + n``): the end triggered; Happy Hour played; the turns played
  (/40); the mover's place in the round counted from the first player
  (one-hot of ``(m - first) mod n``).

The network is a multilayer perceptron on the standardised features
``z = (x - mean) / scale``: hidden layers ``h = relu(W h' + b)``, then
``n + 1`` logits and their softmax, the probability that each relative seat
wins and that nobody does (a draw or the turn limit). The value of a position
for seat ``s`` is ``P(win of r(s)) + P(no winner) / 2``, the score a play-out
gives (:func:`_result`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from pinastats._engine.lines import _line_count
from pinastats._engine.rules import _owns, _row
from pinastats._jit import jit, jit_flat, jit_inline

CELL_FEATURES = 6
"""Features of a cell before its ``n`` per-seat token flags."""
SEAT_FEATURES = 10
"""Features of each relative seat."""
GAME_FEATURES = 3
"""Features of the game before the mover's one-hot place in the round."""


def feature_count(n_cells: int, n_players: int) -> int:
    """Length of the feature vector for ``n_players`` on ``n_cells`` cells."""
    return (
        n_cells * (CELL_FEATURES + n_players)
        + n_players * SEAT_FEATURES
        + GAME_FEATURES
        + n_players
    )


class Net(NamedTuple):
    """A network the kernels evaluate, and its scratch memory (one per thread).

    Attributes:
        weights: ``(layers, rows, cols)`` each layer's weight matrix, zero-padded:
            layer ``k`` maps ``sizes[k]`` inputs to ``sizes[k + 1]`` outputs.
        biases: ``(layers, rows)`` each layer's bias, zero-padded.
        sizes: ``(layers + 1,)`` the width of the input, each hidden layer and the output.
        mean, scale: ``(n_features,)`` the features' standardisation.
        make: ``(n_combinations,)`` the chance to make each combination in one turn.
        x: ``(n_features,)`` scratch: the features.
        a, b: ``(rows,)`` scratch: a layer's input and output.
        out: ``(n_players + 1,)`` the last evaluation's probabilities.

    An empty net (``sizes`` of length 0) means no network for this game: the
    ``value`` agent refuses such games before a kernel sees them.
    """

    weights: npt.NDArray[np.float64]
    biases: npt.NDArray[np.float64]
    sizes: np.ndarray
    mean: npt.NDArray[np.float64]
    scale: npt.NDArray[np.float64]
    make: npt.NDArray[np.float64]
    x: npt.NDArray[np.float64]
    a: npt.NDArray[np.float64]
    b: npt.NDArray[np.float64]
    out: npt.NDArray[np.float64]


def empty_net(n_players: int, n_combinations: int) -> Net:
    """A net with no layers (games no network was trained for)."""
    return Net(
        np.zeros((0, 0, 0)),
        np.zeros((0, 0)),
        np.zeros(0, dtype=np.int64),
        np.zeros(0),
        np.ones(0),
        np.zeros(n_combinations),
        np.zeros(0),
        np.zeros(0),
        np.zeros(0),
        np.zeros(n_players + 1),
    )


@jit_inline
def _free_spaces(game, c):
    """The free token spaces of cell ``c`` (side A has one space, side B two)."""
    free = 0
    if game.spaces[c, 0] < 0:
        free += 1
    if game.cell_side[c] == 1 and game.spaces[c, 1] < 0:
        free += 1
    return free


@jit_flat
def _features(board, game, net, x):
    """Write the features of ``game`` seen from the seat to move into ``x`` (module docstring)."""
    n = game.players.shape[0]
    n_cells = game.cell_coaster.shape[0]
    status = game.status[0]
    mover = status.to_move
    target = max(board.target_score, 1)
    make = net.make
    k = 0
    for c in range(n_cells):
        coaster = game.cell_coaster[c]
        side = game.cell_side[c]
        free = _free_spaces(game, c)
        x[k] = side
        x[k + 1] = board.coaster_points[coaster, side, 0] / 5.0
        x[k + 2] = board.coaster_points[coaster, side, 1] / 5.0
        nxt = 0.0
        if game.spaces[c, 0] < 0:
            nxt = board.coaster_points[coaster, side, 0] / 5.0
        elif free > 0:
            nxt = board.coaster_points[coaster, side, 1] / 5.0
        x[k + 3] = nxt
        x[k + 4] = free / 2.0
        x[k + 5] = make[board.coaster_combination[coaster]]
        k += CELL_FEATURES
        for r in range(n):
            x[k + r] = 1.0 if _owns(game, c, (mover + r) % n) else 0.0
        k += n
    lines, length = board.lines, board.line_length
    for r in range(n):
        seat = (mover + r) % n
        player = game.players[seat]
        x[k] = player.score / target
        x[k + 1] = max(target - player.score, 0) / target
        x[k + 2] = player.reserve / 6.0
        placed = 0
        for c in range(n_cells):
            if _owns(game, c, seat):
                placed += 1
        x[k + 3] = placed / 6.0
        ones = twos = threes = 0.0
        threats = 0.0
        threat_make = 0.0
        whole = 0.0
        for i in range(lines.shape[0]):
            own, is_open = _line_count(board, game, seat, i)
            if own == length[i]:
                whole = 1.0
            elif is_open and own > 0:
                ones += own == 1
                twos += own == 2
                threes += own == 3
                if own == length[i] - 1:  # the one cell it lacks completes the line
                    threats += 1.0
                    for j in range(length[i]):
                        c = lines[i, j]
                        if not _owns(game, c, seat):
                            threat_make += make[board.coaster_combination[game.cell_coaster[c]]]
        x[k + 4] = ones / 4.0
        x[k + 5] = twos / 4.0
        x[k + 6] = threes / 4.0
        x[k + 7] = threats / 4.0
        x[k + 8] = threat_make
        x[k + 9] = whole
        k += SEAT_FEATURES
    x[k] = 1.0 if status.trigger != 0 else 0.0
    x[k + 1] = 1.0 if board.happy_hour else 0.0
    x[k + 2] = status.turn / 40.0
    k += GAME_FEATURES
    place = (mover - status.first) % n
    for r in range(n):
        x[k + r] = 1.0 if r == place else 0.0


@jit_flat
def _forward(net, x):
    """Evaluate the network on the raw features ``x``; ``net.out`` gets the probabilities."""
    a, b = net.a, net.b
    sizes = net.sizes
    n_in = sizes[0]
    for i in range(n_in):
        a[i] = (x[i] - net.mean[i]) / net.scale[i]
    layers = sizes.shape[0] - 1
    for layer in range(layers):
        w = net.weights[layer]
        bias = net.biases[layer]
        rows, cols = sizes[layer + 1], sizes[layer]
        last = layer == layers - 1
        for i in range(rows):
            total = bias[i]
            for j in range(cols):
                total += w[i, j] * a[j]
            b[i] = total if last or total > 0.0 else 0.0
        for i in range(rows):
            a[i] = b[i]
    out = net.out
    m = sizes[layers]
    top = a[0]
    for i in range(1, m):
        top = max(top, a[i])
    total = 0.0
    for i in range(m):
        out[i] = np.exp(a[i] - top)
        total += out[i]
    for i in range(m):
        out[i] /= total


NO_WINNER_SHARE = 0.5
"""What a game nobody won is worth to each seat (a win is worth 1, a loss 0)."""


def seat_value(win: Any, no_winner: Any) -> Any:
    """A seat's value from its chance to win and the chance that nobody wins (floats or arrays)."""
    return win + NO_WINNER_SHARE * no_winner


@jit_inline
def _result(game, seat):
    """1 if ``seat`` won the finished game, :data:`NO_WINNER_SHARE` if nobody did, else 0."""
    winner = game.status[0].winner
    if winner == seat:
        return 1.0
    if winner < 0:
        return NO_WINNER_SHARE
    return 0.0


@jit_flat
def _position_value(board, game, seat, net, over):
    """``seat``'s chance to win from ``game`` (a draw counts 1/2).

    Exact when the game is ``over``; else the network's, from the position seen
    by the seat to move.
    """
    if over:
        return _result(game, seat)
    _features(board, game, net, net.x)
    _forward(net, net.x)
    n = game.players.shape[0]
    r = (seat - game.status[0].to_move) % n
    return net.out[r] + NO_WINNER_SHARE * net.out[n]


@jit
def _features_of(board, batch, net, out):
    """``out[i]``: the features of state ``i`` of a :class:`~pinastats._engine.state.StateBatch`."""
    for i in range(out.shape[0]):
        _features(board, _row(batch, i), net, out[i])


@jit
def _evaluate(board, batch, net, out):
    """``out[i]``: the network's probabilities for state ``i`` of a batch (relative seats, none)."""
    for i in range(out.shape[0]):
        game = _row(batch, i)
        _features(board, game, net, net.x)
        _forward(net, net.x)
        for j in range(out.shape[1]):
            out[i, j] = net.out[j]
