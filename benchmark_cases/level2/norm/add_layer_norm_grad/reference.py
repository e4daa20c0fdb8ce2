"""Semantics of AddLayerNormGrad: the gradient of AddLayerNorm (x = x1 + x2; y = (x - mean) * rstd *
gamma + beta over the last dim) given the forward's saved mean and rstd, plus dsum, the gradient
arriving at the forward's second output x:

    xhat   = (x - mean) * rstd,   g = dy * gamma
    dx     = rstd * (g - mean(g) - xhat * mean(g * xhat)) + dsum       (the gradient of x1 and of x2)
    dgamma = sum over all rows of dy * xhat,  dbeta = sum over all rows of dy   (float32, [D])
"""

import numpy as np


def reference(dy, x1, x2, rstd, mean, gamma, dsum):
    x = x1.double() + x2.double()
    dx, dgamma, dbeta = _layer_norm_grad(dy.double(), x, mean.double(), rstd.double(), gamma.double())
    return (dx + dsum.double()).float(), dgamma.float(), dbeta.float()


def _layer_norm_grad(dy, x, mean, rstd, gamma):
    d = x.shape[-1]
    xhat = (x - mean) * rstd
    g = dy * gamma
    dx = rstd * (g - g.mean(dim=-1, keepdim=True) - xhat * (g * xhat).mean(dim=-1, keepdim=True))
    return dx, (dy * xhat).reshape(-1, d).sum(dim=0), dy.reshape(-1, d).sum(dim=0)


def make_inputs(case, seed):
    """x1, x2, dy, dsum, gamma drawn at random; mean and rstd are the forward's statistics of x1 + x2."""
    from npukernelbench.inputs import case_seed

    shape = tuple(case.shapes["x1"])
    d = shape[-1]
    rng = np.random.default_rng(case_seed(seed, case.key()))
    x1 = rng.uniform(-2.0, 2.0, size=shape) + 0.5
    x2 = rng.uniform(-1.0, 1.0, size=shape)
    x = x1 + x2
    mean = x.mean(axis=-1, keepdims=True)
    rstd = 1.0 / np.sqrt(((x - mean) ** 2).mean(axis=-1, keepdims=True) + 1e-5)
    return {"dy": rng.uniform(-1.0, 1.0, size=shape), "x1": x1, "x2": x2, "rstd": rstd.astype(np.float32),
            "mean": mean.astype(np.float32), "gamma": rng.uniform(0.5, 1.5, size=(d,)),
            "dsum": rng.uniform(-0.5, 0.5, size=shape)}


def draw_case(draw, spec):
    from hypothesis import strategies as st

    d = draw(st.integers(1, 2048))
    rows = draw(st.integers(1, max(1, min(4096, (1 << 19) // d))))
    lead = [rows] if draw(st.booleans()) else [1, rows]
    types = draw(st.sampled_from([dict(c) for c in spec.type_combos]))
    full, stat = [*lead, d], [*lead, 1]
    return {"shapes": {"dy": full, "x1": full, "x2": full, "rstd": stat, "mean": stat, "gamma": [d], "dsum": full},
            "types": types, "attrs": {}}
