"""pinastats.agents."""
