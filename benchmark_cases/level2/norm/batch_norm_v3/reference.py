"""Semantics of BatchNormV3 on x [N, C, *spatial], statistics per channel over N and spatial.

Training: mean / biased variance of the batch normalize x; running_mean and running_var (updated in
place) move towards the batch mean and the unbiased batch variance by `momentum`; save_mean = batch
mean, save_rstd = 1 / sqrt(biased var + epsilon).
Inference: the running statistics normalize x and stay unchanged; save_mean = running_mean,
save_rstd = 1 / sqrt(running_var + epsilon)."""

import torch


def reference(x, weight, bias, running_mean, running_var, epsilon=1e-5, momentum=0.1, is_training=True):
    c = x.shape[1]
    dims = [0] + list(range(2, x.dim()))
    bshape = [1, c] + [1] * (x.dim() - 2)
    xd = x.double()
    rm, rv = running_mean.double(), running_var.double()
    if is_training:
        count = x.numel() // c
        mean = xd.mean(dim=dims)
        var = (xd - mean.reshape(bshape)).pow(2).mean(dim=dims)
        rm = (1 - momentum) * rm + momentum * mean
        rv = (1 - momentum) * rv + momentum * var * count / (count - 1)
    else:
        mean, var = rm, rv
    rstd = torch.rsqrt(var + epsilon)
    y = (xd - mean.reshape(bshape)) * (rstd * weight.double()).reshape(bshape) + bias.double().reshape(bshape)
    return y.float(), rm.float(), rv.float(), mean.float(), rstd.float()


def draw_case(draw, spec):
    from hypothesis import strategies as st

    n = draw(st.integers(1, 8))
    c = draw(st.integers(1, 64))
    spatial = draw(st.lists(st.integers(1, 48), min_size=0, max_size=2))
    hw = 1
    for s in spatial:
        hw *= s
    if n * hw < 2:
        n = 2
    while n * c * hw > 200_000 and c > 1:
        c //= 2
    types = draw(st.sampled_from([dict(t) for t in spec.type_combos]))
    attrs = {"epsilon": draw(st.sampled_from([1e-5, 1e-3])), "momentum": draw(st.sampled_from([0.1, 0.3])),
             "is_training": draw(st.booleans())}
    return {"shapes": {"x": [n, c, *spatial], "weight": [c], "bias": [c], "running_mean": [c],
                       "running_var": [c]}, "types": types, "attrs": attrs}
