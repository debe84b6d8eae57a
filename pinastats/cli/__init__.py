"""pinastats.cli."""
