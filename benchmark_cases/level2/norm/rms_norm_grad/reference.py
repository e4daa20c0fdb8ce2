"""Semantics of RmsNormGrad: the gradient of y = x * rstd * gamma (rstd = 1 / sqrt(mean(x^2) + eps)
over the last dim) w.r.t. x and gamma, given the forward's saved rstd:

    xhat   = x * rstd
    dx     = rstd * (dy * gamma - xhat * mean(dy * gamma * xhat))      (mean over the last dim)
    dgamma = sum over all rows of dy * xhat                            (float32, shape [D])
"""

import numpy as np


def reference(dy, x, rstd, gamma):
    d = x.shape[-1]
    dy, x, r, g = dy.double(), x.double(), rstd.double(), gamma.double()
    xhat = x * r
    gdy = dy * g
    dx = r * (gdy - xhat * (gdy * xhat).mean(dim=-1, keepdim=True))
    dgamma = (dy * xhat).reshape(-1, d).sum(dim=0)
    return dx.float(), dgamma.float()


def make_inputs(case, seed):
    """x, dy and gamma drawn from the declared distributions; rstd is the forward's rstd of x."""
    from npukernelbench.inputs import case_seed

    shape = tuple(case.shapes["x"])
    d = shape[-1]
    rng = np.random.default_rng(case_seed(seed, case.key()))
    x = rng.uniform(-2.0, 2.0, size=shape)
    dy = rng.uniform(-1.0, 1.0, size=shape)
    gamma = rng.uniform(0.5, 1.5, size=(d,))
    rstd = 1.0 / np.sqrt((x * x).mean(axis=-1, keepdims=True) + 1e-6)
    return {"dy": dy, "x": x, "rstd": rstd.astype(np.float32), "gamma": gamma}


def draw_case(draw, spec):
    from hypothesis import strategies as st

    d = draw(st.integers(1, 4096))
    rows = draw(st.integers(1, max(1, min(4096, (1 << 19) // d))))
    lead = [rows] if draw(st.booleans()) else [1, rows]
    types = draw(st.sampled_from([dict(c) for c in spec.type_combos]))
    return {"shapes": {"dy": [*lead, d], "x": [*lead, d], "rstd": [*lead, 1], "gamma": [d]}, "types": types,
            "attrs": {}}
