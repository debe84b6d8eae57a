"""Game records: finished games kept as JSON Lines, replayed exactly, and reviewed.

>>> records = record_games(["greedy", "ev"], 2, seed=1)
>>> [replay(r).winner == r.winner for r in records]
[True, True]

See ``docs/records.md`` for the file format.
"""

from pinastats.records.format import (
    FORMAT,
    VERSION,
    GameRecord,
    HappyHour,
    RecordedTurn,
    RecordError,
    read_records,
    write_records,
)
from pinastats.records.record import record_chunk, record_game, record_games, record_run
from pinastats.records.replay import record_config, replay

__all__ = [
    "FORMAT",
    "VERSION",
    "GameRecord",
    "HappyHour",
    "RecordError",
    "RecordedTurn",
    "read_records",
    "record_chunk",
    "record_config",
    "record_game",
    "record_games",
    "record_run",
    "replay",
    "write_records",
]
