"""Data shipped with pinastats: the coaster catalogue and the layouts (installed as ``pinastats.data``)."""
