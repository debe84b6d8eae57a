r"""Training the value networks (the ``[train]`` extra: PyTorch).

One multilayer perceptron per player count, on the features of
:mod:`pinastats._engine.net` standardised by the training split's mean and
standard deviation. The loss is the cross-entropy of the softmax output
against the play-out label ``y`` (the share of play-outs each relative seat
won, then no winner)::

    L = - sum_k y_k log softmax(f(x))_k

whose minimum is the label's own entropy: fitting the play-outs' shares is
fitting the win probabilities. Adam, mini-batches, a held-out split of whole
games (positions of one game never straddle the split) and early stopping:
training stops when the held-out loss has not improved for ``patience``
epochs, and the weights of the best epoch are kept.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import numpy as np
import pandas as pd

from pinastats._arrays import FloatArray
from pinastats._engine import seat_value
from pinastats.agents.network import PlayerNetwork, save_networks
from pinastats.errors import PinastatsError
from pinastats.value.data import Positions, read_positions
from pinastats.value.features import features

DEFAULT_HIDDEN = (96, 48)
"""Widths of the hidden layers."""


class TrainError(PinastatsError):
    """Bad training settings or data."""


def require_torch() -> Any:
    """The ``torch`` module; a clear error when the ``[train]`` extra is not installed."""
    try:
        import torch
    except ImportError:
        raise TrainError(
            "training needs PyTorch: pip install torch==2.13.0 && pip install -e '.[train]' "
            "(a plain `pip install torch` may pull a CUDA build of several GB)"
        ) from None
    return torch


@dataclass(frozen=True)
class TrainedNetwork:
    """A network fitted for one player count, and how the fit went.

    Attributes:
        network: the weights (as the kernels evaluate them).
        history: one row per epoch: ``epoch``, ``train_loss``, ``held_out_loss``,
            ``held_out_mae`` (mean absolute error of the mover's value), ``seconds``.
        best_epoch: the epoch whose weights are kept.
        metrics: the held-out figures of the best epoch, the label noise floor, sizes.
    """

    network: PlayerNetwork
    history: pd.DataFrame
    best_epoch: int
    metrics: dict[str, Any]


def split_games(positions: Sequence[Positions], held_out: float, seed: int) -> list[np.ndarray]:
    """Per part, whether each position is held out: whole games, by a seeded hash of the game."""
    masks = []
    for k, part in enumerate(positions):
        key = np.array([hashlib.blake2b(f"{seed}/{k}/{g}".encode(), digest_size=8).digest()
                        for g in part.game])  # fmt: skip
        u = np.array([int.from_bytes(b, "little") / 2.0**64 for b in key])
        masks.append(u < held_out)
    return masks


def _values(p: FloatArray) -> FloatArray:
    """The mover's value (the engine's ``seat_value``) of probability rows."""
    value: FloatArray = seat_value(p[:, 0], p[:, -1])
    return value


def fit(
    parts: Sequence[Positions],
    *,
    hidden: Sequence[int] = DEFAULT_HIDDEN,
    seed: int = 0,
    held_out: float = 0.1,
    epochs: int = 200,
    patience: int = 8,
    batch: int = 512,
    learning_rate: float = 1e-3,
    stream: TextIO | None = sys.stderr,
    validation: Sequence[Positions] = (),
    init: PlayerNetwork | None = None,
) -> TrainedNetwork:
    """Fit one network to ``parts`` (positions of one player count); progress on ``stream``.

    The held-out positions that stop the training are a ``held_out`` share of
    whole games of ``parts``, or, when ``validation`` is given, those positions
    (e.g. whole boards of the solved game apart from the training ones) and all
    of ``parts`` is trained on.

    ``init``: start from these weights and this standardisation (a warm start:
    the next round of policy iteration goes on from the network whose play
    labelled it); ``hidden`` is then ``init``'s.
    """
    torch = require_torch()
    if not parts:
        raise TrainError("no positions to train on")
    players = {p.players for p in parts}
    if len(players) != 1:
        raise TrainError(
            f"one network per player count: got positions of {sorted(players)} players"
        )
    (n,) = players
    if not 0 < held_out < 1:
        raise TrainError(f"held_out must be a share in (0, 1), got {held_out!r}")
    if init is not None:
        if not isinstance(init, PlayerNetwork) or init.players != n:
            raise TrainError(f"init must be a {n}-player network, got {init!r:.80}")
        hidden = init.sizes[1:-1]
    if any(h < 1 for h in hidden) or not hidden:
        raise TrainError(f"hidden layers must have at least one unit each, got {list(hidden)}")
    if validation and {p.players for p in validation} != players:
        raise TrainError(f"validation positions of {sorted({p.players for p in validation})} "
                         f"players for a {n}-player network")  # fmt: skip
    if validation:
        x_train = np.concatenate([features(p) for p in parts])
        y_train = np.concatenate([p.labels for p in parts])
        x_test = np.concatenate([features(p) for p in validation])
        y_test = np.concatenate([p.labels for p in validation])
    else:
        masks = split_games(parts, held_out, seed)
        x = np.concatenate([features(p) for p in parts])
        y = np.concatenate([p.labels for p in parts])
        test = np.concatenate(masks)
        x_train, y_train, x_test, y_test = x[~test], y[~test], x[test], y[test]
    n_positions = len(x_train) + len(x_test)
    if len(x_test) == 0 or len(x_train) == 0:
        raise TrainError("the held-out split is empty: give more games")
    if init is not None:
        if init.mean.shape != (x_train.shape[1],):
            raise TrainError(f"init reads {init.mean.shape[0]} features, the positions have "
                             f"{x_train.shape[1]}")  # fmt: skip
        mean, scale = init.mean.copy(), init.scale.copy()
    else:
        mean = x_train.mean(axis=0)
        scale = x_train.std(axis=0)
        scale[scale < 1e-6] = 1.0
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    sizes = [x_train.shape[1], *hidden, n + 1]
    modules: list[Any] = []
    for a, b in itertools.pairwise(sizes):
        modules += [torch.nn.Linear(a, b), torch.nn.ReLU()]
    model = torch.nn.Sequential(*modules[:-1]).double()
    if init is not None:
        with torch.no_grad():
            linear = [m for m in model if isinstance(m, torch.nn.Linear)]
            for m, (w, b) in zip(linear, init.layers, strict=True):
                m.weight.copy_(torch.from_numpy(np.asarray(w, dtype=np.float64)))
                m.bias.copy_(torch.from_numpy(np.asarray(b, dtype=np.float64)))
    opt = torch.optim.Adam(model.parameters(), lr=learning_rate)
    xt = torch.from_numpy((x_train - mean) / scale)
    yt = torch.from_numpy(y_train)
    xv = torch.from_numpy((x_test - mean) / scale)
    yv = torch.from_numpy(y_test)

    def loss_of(logits: Any, target: Any) -> Any:
        return -(target * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()

    rows = []
    best, best_epoch, best_state, waited = float("inf"), 0, None, 0
    start = time.perf_counter()
    for epoch in range(1, epochs + 1):
        model.train()
        order = torch.randperm(len(xt), generator=gen)
        total = 0.0
        for i in range(0, len(order), batch):
            idx = order[i : i + batch]
            opt.zero_grad()
            loss = loss_of(model(xt[idx]), yt[idx])
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(idx)
        model.eval()
        with torch.no_grad():
            logits = model(xv)
            held = float(loss_of(logits, yv))
            p = torch.softmax(logits, dim=1).numpy()
        mae = float(np.abs(_values(p) - _values(y_test)).mean())
        rows.append({"epoch": epoch, "train_loss": total / len(xt), "held_out_loss": held,
                     "held_out_mae": mae, "seconds": time.perf_counter() - start})  # fmt: skip
        if stream is not None:
            took = time.perf_counter() - start
            print(f"  {n}p epoch {epoch:3d}: train {total / len(xt):.4f}  held-out {held:.4f}  "
                  f"MAE {mae:.4f}  ({took:.0f} s)", file=stream, flush=True)  # fmt: skip
        if held < best - 1e-5:
            best, best_epoch, waited = held, epoch, 0
            best_state = {k: v.clone() for k, v in model.state_dict().items()}
        else:
            waited += 1
            if waited >= patience:
                break
    assert best_state is not None
    model.load_state_dict(best_state)
    linear = [m for m in model if isinstance(m, torch.nn.Linear)]
    layers = tuple(
        (m.weight.detach().numpy().copy(), m.bias.detach().numpy().copy()) for m in linear
    )
    network = PlayerNetwork(n, layers, mean, scale)
    history = pd.DataFrame(rows)
    entropy = float(-(y_test * np.log(np.clip(y_test, 1e-12, 1))).sum(axis=1).mean())
    best_row = history.loc[history["epoch"] == best_epoch].iloc[0]
    metrics = {
        "players": n,
        "positions": n_positions,
        "train_positions": len(x_train),
        "held_out_positions": len(x_test),
        "best_epoch": int(best_epoch),
        "epochs_run": len(history),
        "held_out_loss": float(best_row["held_out_loss"]),
        "held_out_mae": float(best_row["held_out_mae"]),
        "label_entropy": entropy,
        "sizes": sizes,
    }
    return TrainedNetwork(network, history, best_epoch, metrics)


def torch_forward(network: PlayerNetwork, x: FloatArray) -> FloatArray:
    """The probabilities of ``network`` on raw features ``x`` computed by PyTorch (a check)."""
    torch = require_torch()
    a = torch.from_numpy((np.asarray(x, dtype=np.float64) - network.mean) / network.scale)
    for k, (w, b) in enumerate(network.layers):
        a = a @ torch.from_numpy(w).T + torch.from_numpy(b)
        if k < len(network.layers) - 1:
            a = torch.relu(a)
    return np.asarray(torch.softmax(a, dim=1).numpy())


def learning_curves(results: dict[int, TrainedNetwork]) -> Any:
    """A figure of the training and held-out loss per epoch, one panel per player count."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(results), figsize=(4.2 * len(results), 3.4), squeeze=False)
    for ax, (n, result) in zip(axes[0], sorted(results.items()), strict=True):
        h = result.history
        ax.plot(h["epoch"], h["train_loss"], label="training split")
        ax.plot(h["epoch"], h["held_out_loss"], label="held-out games")
        ax.axhline(
            result.metrics["label_entropy"], color="grey", ls=":", label="label entropy (floor)"
        )
        ax.axvline(result.best_epoch, color="black", lw=0.8, ls="--", label="kept epoch")
        ax.set_title(f"{n} players: MAE {result.metrics['held_out_mae']:.3f}")
        ax.set_xlabel("epoch")
        ax.set_ylabel("cross-entropy")
        ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def train_files(
    files: dict[int, list[Path]],
    out: str | Path,
    *,
    hidden: Sequence[int] = DEFAULT_HIDDEN,
    seed: int = 0,
    command: str = "",
    figure: str | Path | None = None,
    stream: TextIO | None = sys.stderr,
    **settings: Any,
) -> dict[int, TrainedNetwork]:
    """Train one network per player count on its Parquet files; write the weights file ``out``."""
    torch = require_torch()
    results: dict[int, TrainedNetwork] = {}
    data: dict[int, list[dict[str, Any]]] = {}
    for n, paths in sorted(files.items()):
        parts = [read_positions(p) for p in paths]
        for p in parts:
            if p.players != n:
                raise TrainError(f"a {p.players}-player data set was given for {n} players")
        if stream is not None:
            total = sum(len(p) for p in parts)
            print(f"pinastats: training the {n}-player network on {total:,} positions",
                  file=stream, flush=True)  # fmt: skip
        results[n] = fit(parts, hidden=hidden, seed=seed, stream=stream, **settings)
        data[n] = [{"file": Path(p).name, "digest": q.provenance.get("digest"),
                    "positions": len(q)} for p, q in zip(paths, parts, strict=True)]  # fmt: skip
    provenance = {
        "command": command,
        "seed": seed,
        "hidden": list(hidden),
        "settings": settings,
        "torch": str(torch.__version__),
        "data": {str(n): d for n, d in data.items()},
        "metrics": {str(n): r.metrics for n, r in results.items()},
    }
    save_networks(out, {n: r.network for n, r in results.items()}, provenance)
    if figure is not None:
        fig = learning_curves(results)
        from pinastats._files import written_whole

        with written_whole(Path(figure)) as handle:
            fig.savefig(handle, format=Path(figure).suffix.lstrip(".") or "png", dpi=120)
    if stream is not None:
        print(json.dumps(provenance["metrics"], indent=1), file=stream)
    return results
