"""Semantics of GroupNormSwish: group normalization of x [N, C, *] over (C/G channels x spatial) per
(sample, group), biased variance, per-channel affine gamma / beta, then optionally
swish(z) = z * sigmoid(swish_scale * z). Also returns mean and rstd of every (n, g) as [N, G] float32."""

import torch


def reference(x, gamma, beta, num_groups=1, epsilon=1e-5, activate_swish=True, swish_scale=1.0):
    n, c = x.shape[0], x.shape[1]
    xd = x.double().reshape(n, num_groups, -1)
    mean = xd.mean(dim=2, keepdim=True)
    var = (xd - mean).pow(2).mean(dim=2, keepdim=True)
    rstd = torch.rsqrt(var + epsilon)
    z = ((xd - mean) * rstd).reshape(x.shape)
    bshape = [1, c] + [1] * (x.dim() - 2)
    z = z * gamma.double().reshape(bshape) + beta.double().reshape(bshape)
    if activate_swish:
        z = z * torch.sigmoid(swish_scale * z)
    return z.float(), mean.reshape(n, num_groups).float(), rstd.reshape(n, num_groups).float()


def draw_case(draw, spec):
    from hypothesis import strategies as st

    n = draw(st.integers(1, 6))
    groups = draw(st.integers(1, 16))
    cg = draw(st.integers(1, 8))
    spatial = draw(st.lists(st.integers(1, 48), min_size=0, max_size=2))
    hw = 1
    for s in spatial:
        hw *= s
    c = groups * cg
    while n * c * hw > 200_000 and n > 1:
        n -= 1
    types = draw(st.sampled_from([dict(t) for t in spec.type_combos]))
    attrs = {"num_groups": groups, "epsilon": draw(st.sampled_from([1e-5, 1e-6])),
             "activate_swish": draw(st.booleans()), "swish_scale": draw(st.sampled_from([1.0, 0.5, 1.7]))}
    return {"shapes": {"x": [n, c, *spatial], "gamma": [c], "beta": [c]}, "types": types, "attrs": attrs}
