"""Holds in words: the readable hold guide and the cheat-sheets' decision lists.

A package of its own above the dice layer (:mod:`pinastats.dice`: hands,
keeps, combinations and the turn DP), which it reads and never changes:

==================  =========================================================
``words``           the one vocabulary of holds: a keep said by the hand's
                    shape ("keep both pairs") or by face values ("keep every
                    die ≥ 5", "keep one each of 2 3 4 5")
``guide``           ``optimal-hold``'s guide: the 252 hands grouped by what to
                    keep, in those words
``decision_list``   hold rules as ordered decision lists (conditions and keeps
                    that evaluate and say themselves)
``decision_learn``  learning a short decision list from a solved turn
``decision_sheet``  a coaster's cheat-sheet: the lists of each stage, checked
==================  =========================================================

The modules are imported by name (nothing is re-exported here), so the
command line loads only what it uses.
"""
