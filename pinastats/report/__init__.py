"""pinastats.report."""
