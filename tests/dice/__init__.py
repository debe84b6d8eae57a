"""Tests of the dice engine, with a brute-force oracle (:mod:`tests.dice.oracle`)."""
