"""The array types of pinastats' type hints, one name per element type."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]
"""Counts, indices, seats and scores: the engine's integers."""
FloatArray = npt.NDArray[np.float64]
"""Probabilities, values and expectations."""
BoolArray = npt.NDArray[np.bool_]
"""Masks: legal cells, hands that show a combination."""
IndexArray = npt.NDArray[np.uint32]
"""The dice tables' compact CSR indices."""
