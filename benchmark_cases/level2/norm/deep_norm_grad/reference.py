"""Semantics of DeepNormGrad: the gradient of DeepNorm (s = alpha * x + gx; y = (s - mean) * rstd *
gamma + beta over the last dim) given the forward's saved mean and rstd:

    xhat   = (s - mean) * rstd,   g = dy * gamma
    dgx    = rstd * (g - mean(g) - xhat * mean(g * xhat))
    dx     = alpha * dgx
    dbeta  = sum over all rows of dy,  dgamma = sum over all rows of dy * xhat   (float32, [D])
Outputs in the order dx, dgx, dbeta, dgamma.
"""

import numpy as np


def reference(dy, x, gx, gamma, mean, rstd, alpha=0.3):
    d = x.shape[-1]
    s = alpha * x.double() + gx.double()
    dy, mean, rstd, gamma = dy.double(), mean.double(), rstd.double(), gamma.double()
    xhat = (s - mean) * rstd
    g = dy * gamma
    dgx = rstd * (g - g.mean(dim=-1, keepdim=True) - xhat * (g * xhat).mean(dim=-1, keepdim=True))
    dbeta = dy.reshape(-1, d).sum(dim=0)
    dgamma = (dy * xhat).reshape(-1, d).sum(dim=0)
    return (alpha * dgx).float(), dgx.float(), dbeta.float(), dgamma.float()


def make_inputs(case, seed):
    """x, gx, dy, gamma drawn at random; mean and rstd are the forward's statistics of alpha * x + gx."""
    from npukernelbench.inputs import case_seed

    shape = tuple(case.shapes["x"])
    d = shape[-1]
    alpha = case.attrs.get("alpha", 0.3)
    rng = np.random.default_rng(case_seed(seed, case.key()))
    x = rng.uniform(-3.0, 3.0, size=shape)
    gx = rng.uniform(-2.0, 2.0, size=shape)
    s = alpha * x + gx
    mean = s.mean(axis=-1, keepdims=True)
    rstd = 1.0 / np.sqrt(((s - mean) ** 2).mean(axis=-1, keepdims=True) + 1e-6)
    return {"dy": rng.uniform(-1.0, 1.0, size=shape), "x": x, "gx": gx, "gamma": rng.uniform(0.5, 1.5, size=(d,)),
            "mean": mean.astype(np.float32), "rstd": rstd.astype(np.float32)}


def draw_case(draw, spec):
    from hypothesis import strategies as st

    d = draw(st.integers(1, 2048))
    rows = draw(st.integers(1, max(1, min(4096, (1 << 19) // d))))
    lead = [rows] if draw(st.booleans()) else [1, rows]
    types = draw(st.sampled_from([dict(c) for c in spec.type_combos]))
    full, stat = [*lead, d], [*lead, 1]
    alpha = draw(st.sampled_from([0.3, 1.0, 2.5]))
    return {"shapes": {"dy": full, "x": full, "gx": full, "gamma": [d], "mean": stat, "rstd": stat},
            "types": types, "attrs": {"alpha": alpha}}
