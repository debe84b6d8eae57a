"""The ``pinastats`` command line: one module per subcommand, wired in :mod:`.main`.

Subcommand modules import only the standard library at module level; the
engine (NumPy, numba, pandas) is imported when a command runs, so ``--help``
stays instant.
"""
