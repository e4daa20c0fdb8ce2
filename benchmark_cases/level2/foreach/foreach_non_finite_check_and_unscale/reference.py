"""Semantics of ForeachNonFiniteCheckAndUnscale (torch._amp_foreach_non_finite_check_and_unscale_):
every tensor is multiplied by inv_scale in place; found_inf becomes 1.0 when any element of any
tensor is inf or NaN and keeps its value otherwise."""

import numpy as np
import torch

from npukernelbench.inputs import case_seed


def reference(scaled_grads, found_inf, inv_scale):
    s = float(inv_scale[0])
    flag = float(found_inf[0])
    if any(not bool(torch.isfinite(g).all()) for g in scaled_grads):
        flag = 1.0
    return [g * s for g in scaled_grads], torch.tensor([flag], dtype=torch.float32)


def make_inputs(case, seed):
    """Finite gradients in [-1000, 1000]; seed % 3 == 1 plants a few inf/-inf/NaN in random tensors;
    seed % 3 == 2 starts with found_inf = 1.0 (it must stay set)."""
    rng = np.random.default_rng(case_seed(seed, case.key()))
    grads = [rng.uniform(-1000.0, 1000.0, size=tuple(shape)).astype(np.float32)
             for shape in case.shapes["scaled_grads"]]
    if seed % 3 == 1:
        filled = [g for g in grads if g.size]
        for _ in range(int(rng.integers(1, 4))):
            g = filled[int(rng.integers(0, len(filled)))].reshape(-1)
            g[int(rng.integers(0, g.size))] = rng.choice([np.inf, -np.inf, np.nan])
    found = np.array([1.0 if seed % 3 == 2 else 0.0], dtype=np.float32)
    inv_scale = np.array([rng.uniform(1e-4, 0.1)], dtype=np.float32)
    return {"scaled_grads": grads, "found_inf": found, "inv_scale": inv_scale}
