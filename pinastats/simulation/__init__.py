"""Playing games: one at a time, or millions on local cores or a Dask cluster."""

from pinastats.simulation.play import TurnRecord, play_game, play_turn
from pinastats.simulation.result import SimulationResult
from pinastats.simulation.runner import simulate
from pinastats.simulation.stats import wilson_interval

__all__ = [
    "SimulationResult",
    "TurnRecord",
    "play_game",
    "play_turn",
    "simulate",
    "wilson_interval",
]
