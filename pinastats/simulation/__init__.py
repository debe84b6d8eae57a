"""pinastats.simulation."""
