"""The game model: coaster catalogue, layouts, rules and the game state."""

from pinastats.game.catalogue import (
    Catalogue,
    CatalogueError,
    Coaster,
    Colour,
    UnknownCoasterError,
    load_catalogue,
)
from pinastats.game.config import GameConfig
from pinastats.game.game import Game, IllegalMoveError
from pinastats.game.layout import Layout, LayoutError, available_layouts, load_layout
from pinastats.game.notation import NotationError, notation_of, parse_position
from pinastats.game.position import PositionError, game_from_position, position_of
from pinastats.game.rules import EndReason, HappyHourEffect, Rules, Trigger
from pinastats.game.sides import Side
from pinastats.game.view import Placement

__all__ = [
    "Catalogue",
    "CatalogueError",
    "Coaster",
    "Colour",
    "EndReason",
    "Game",
    "GameConfig",
    "HappyHourEffect",
    "IllegalMoveError",
    "Layout",
    "LayoutError",
    "NotationError",
    "Placement",
    "PositionError",
    "Rules",
    "Side",
    "Trigger",
    "UnknownCoasterError",
    "available_layouts",
    "game_from_position",
    "load_catalogue",
    "load_layout",
    "notation_of",
    "parse_position",
    "position_of",
]
