"""Semantics of ApplyAdamWV2: one AdamW step (torch.optim.AdamW, single tensor), in place.

    g = -grad if maximize else grad
    var = var * (1 - lr * weight_decay)
    m = beta1 * m + (1 - beta1) * g
    v = beta2 * v + (1 - beta2) * g^2
    vmax = max(max_grad_norm, v) if amsgrad else v        (max_grad_norm is updated only with amsgrad)
    var = var - lr / (1 - beta1^step) * m / (sqrt(vmax / (1 - beta2^step)) + eps)

Returns (var, m, v, max_grad_norm) after the step, computed in float64.
"""

import torch


def reference(var, m, v, max_grad_norm, grad, step, lr=1e-3, beta1=0.9, beta2=0.999, weight_decay=0.01, eps=1e-8,
              amsgrad=False, maximize=False):
    t = float(step.reshape(-1)[0])
    g = -grad.double() if maximize else grad.double()
    p = var.double() * (1.0 - lr * weight_decay)
    m2 = beta1 * m.double() + (1.0 - beta1) * g
    v2 = beta2 * v.double() + (1.0 - beta2) * g * g
    vmax = torch.maximum(max_grad_norm.double(), v2) if amsgrad else v2
    bc1 = 1.0 - beta1 ** t
    bc2 = 1.0 - beta2 ** t
    p = p - (lr / bc1) * m2 / (torch.sqrt(vmax / bc2) + eps)
    return p.float(), m2.float(), v2.float(), (vmax if amsgrad else max_grad_norm.double()).float()


def draw_case(draw, spec):
    from hypothesis import strategies as st

    rank = draw(st.integers(1, 3))
    dims = [draw(st.integers(1, 64)) for _ in range(rank - 1)]
    count = 1
    for d in dims:
        count *= d
    dims.append(draw(st.integers(1, max(1, min(8192, 2_000_000 // count)))))
    shapes = {n: list(dims) for n in ("var", "m", "v", "max_grad_norm", "grad")}
    shapes["step"] = [1]
    types = draw(st.sampled_from([dict(c) for c in spec.type_combos]))
    attrs = {"amsgrad": draw(st.booleans()), "maximize": draw(st.booleans()),
             "lr": draw(st.sampled_from([1e-3, 1e-2])), "weight_decay": draw(st.sampled_from([0.0, 0.01, 0.1]))}
    return {"shapes": shapes, "types": types, "attrs": attrs}
