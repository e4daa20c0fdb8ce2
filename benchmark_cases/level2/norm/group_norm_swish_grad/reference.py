"""Semantics of GroupNormSwishGrad: the backward of GroupNormSwish (y = swish(group_norm(x) * gamma + beta))
given dy, x, gamma, beta and the forward's per-(sample, group) mean and rstd. Returns dx, dgamma and dbeta
(dgamma / dbeta summed over the batch and spatial positions, float32)."""

import numpy as np
import torch


def reference(dy, mean, rstd, x, gamma, beta, num_groups=1, swish_scale=1.0):
    n, c = x.shape[0], x.shape[1]
    g = num_groups
    bshape = [1, c] + [1] * (x.dim() - 2)
    gshape = [n, g] + [1] * (x.dim() - 1)
    xd = x.double().reshape(n, g, c // g, -1)
    xhat = ((xd - mean.double().reshape(gshape[:2] + [1, 1])) * rstd.double().reshape(gshape[:2] + [1, 1]))
    xhat = xhat.reshape(x.shape)
    z = xhat * gamma.double().reshape(bshape) + beta.double().reshape(bshape)
    sig = torch.sigmoid(swish_scale * z)
    dz = dy.double() * sig * (1 + swish_scale * z * (1 - sig))
    dims = [0] + list(range(2, x.dim()))
    dgamma = (dz * xhat).sum(dim=dims)
    dbeta = dz.sum(dim=dims)
    dxhat = (dz * gamma.double().reshape(bshape)).reshape(n, g, -1)
    xh = xhat.reshape(n, g, -1)
    a = dxhat.mean(dim=2, keepdim=True)
    b = (dxhat * xh).mean(dim=2, keepdim=True)
    dx = rstd.double().reshape(n, g, 1) * (dxhat - a - xh * b)
    return dx.reshape(x.shape).float(), dgamma.float(), dbeta.float()


def make_inputs(case, seed):
    """x, dy, gamma, beta drawn at random; mean / rstd are the true group statistics of x."""
    from npukernelbench.inputs import case_seed

    rng = np.random.default_rng(case_seed(seed, case.key()))
    shape = list(case.shapes["x"])
    n, c = shape[0], shape[1]
    g = int(case.attrs["num_groups"])
    x = rng.uniform(-2.0, 4.0, size=shape)
    dy = rng.uniform(-1.0, 1.0, size=shape)
    gamma = rng.uniform(0.5, 1.5, size=c)
    beta = rng.uniform(-0.5, 0.5, size=c)
    dtype = case.types.get("T", "float32")
    if dtype != "float32":  # statistics of the values the kernel will actually see
        x = torch.from_numpy(x).to(getattr(torch, dtype)).double().numpy()
    xg = x.reshape(n, g, -1)
    mean = xg.mean(axis=2)
    rstd = 1.0 / np.sqrt(xg.var(axis=2) + 1e-5)
    return {"dy": dy, "mean": mean.astype(np.float32), "rstd": rstd.astype(np.float32), "x": x, "gamma": gamma,
            "beta": beta}


def draw_case(draw, spec):
    from hypothesis import strategies as st

    n = draw(st.integers(1, 6))
    groups = draw(st.integers(1, 16))
    cg = draw(st.integers(1, 8))
    spatial = draw(st.lists(st.integers(1, 40), min_size=0, max_size=2))
    hw = 1
    for s in spatial:
        hw *= s
    c = groups * cg
    while n * c * hw > 150_000 and n > 1:
        n -= 1
    types = draw(st.sampled_from([dict(t) for t in spec.type_combos]))
    attrs = {"num_groups": groups, "swish_scale": draw(st.sampled_from([1.0, 0.5, 1.7]))}
    return {"shapes": {"dy": [n, c, *spatial], "mean": [n, groups], "rstd": [n, groups], "x": [n, c, *spatial],
                       "gamma": [c], "beta": [c]}, "types": types, "attrs": attrs}
