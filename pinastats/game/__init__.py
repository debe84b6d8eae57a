"""pinastats.game."""
