"""The engine against a pure-Python engine written from the rules, and its games pinned."""
