"""The engine: every game kernel of pinastats, in one private package (draft surface)."""
