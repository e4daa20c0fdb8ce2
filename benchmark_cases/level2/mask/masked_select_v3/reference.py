"""Semantics of MaskedSelectV3: torch.masked_select with a mask of the same shape as x.

y = x[mask] (row-major order), a 1-D tensor whose length is the number of true mask elements.
"""

import numpy as np
import torch


def reference(x, mask):
    return torch.masked_select(x, mask.bool())


def make_inputs(case, seed):
    """x from the declared distribution; the mask density varies with the seed (sparse, half, dense)
    and at least one element is selected so that the output is never empty."""
    from npukernelbench.inputs import case_seed

    shape = tuple(case.shapes["x"])
    rng = np.random.default_rng(case_seed(seed, case.key()))
    if case.types["T"] == "int32":
        x = rng.integers(-1000000, 1000000, size=shape, endpoint=True).astype(np.int32)
    else:
        x = rng.uniform(-10.0, 10.0, size=shape)
    density = (0.5, 0.05, 0.95)[seed % 3]
    mask = rng.random(shape) < density
    flat = mask.reshape(-1)
    flat[rng.integers(0, flat.size)] = True
    return {"x": x, "mask": mask}
