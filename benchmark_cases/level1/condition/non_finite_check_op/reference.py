"""Semantics of NonFiniteCheckOp: one flag, 1.0 if any element is NaN or +-Inf, else 0.0."""
import numpy as np
import torch


def reference(x):
    return (~torch.isfinite(x)).any().to(torch.float32).reshape(1)


def make_inputs(case, seed):
    """Finite values, and for two seeds out of three 1 to 3 NaN/Inf values at random positions."""
    from npukernelbench.inputs import case_seed

    shape = tuple(case.shapes["x"])
    rng = np.random.default_rng(case_seed("non_finite_check_op", seed, case.key()))
    x = rng.uniform(-100.0, 100.0, size=shape).astype(np.float32)
    if seed % 3 != 0 and x.size:
        flat = x.reshape(-1)
        for _ in range(int(rng.integers(1, 4))):
            flat[int(rng.integers(0, flat.size))] = rng.choice([np.nan, np.inf, -np.inf])
    return {"x": x}
