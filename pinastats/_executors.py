"""A ``dask.distributed.Client`` told apart from any other executor, without importing Dask.

The simulations and the solver's survey take either a ``concurrent.futures.Executor`` or
a Dask client; :func:`is_dask_client` is the one test of which it is.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, TypeGuard

if TYPE_CHECKING:
    from distributed import Client


def is_dask_client(executor: object) -> TypeGuard[Client]:
    """Whether ``executor`` is a ``dask.distributed.Client``.

    Dask is not imported: a client's class is imported already where there is a client.
    """
    distributed = sys.modules.get("distributed")
    return distributed is not None and isinstance(executor, distributed.Client)
