"""Data shipped with pinastats: the coaster catalogue and the layouts.

Installed as the package ``pinastats.data``.
"""
