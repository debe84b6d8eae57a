"""The learned evaluator: a small network that gives each seat's chance to win a position.

* :mod:`pinastats.value.data`: training positions from self-play, labelled by play-outs;
* :mod:`pinastats.value.train`: training (the ``[train]`` extra: PyTorch);
* :mod:`pinastats.value.evaluate`: the shipped network on positions and games.

The ``value`` agent (:mod:`pinastats.agents.builtin`) plays with it; the
network itself runs in numba (:mod:`pinastats._engine.net`), no training
library needed. ``docs/value.md`` describes the features, the data and the
measurements.
"""
