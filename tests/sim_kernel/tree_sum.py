"""The summation order of the vector unit's reductions, for the tests' numpy references."""

from __future__ import annotations

import numpy as np


def tree_sum(v: np.ndarray, dt) -> np.ndarray:
    """Pairwise sum in dt: adjacent pairs, then pairs of those; an odd element is carried."""
    v = list(np.asarray(v, dt))
    while len(v) > 1:
        nxt = [dt(v[i] + v[i + 1]) for i in range(0, len(v) - 1, 2)]
        if len(v) % 2:
            nxt.append(v[-1])
        v = nxt
    return dt(v[0])
