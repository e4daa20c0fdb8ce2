"""Semantics of ApplyFusedEmaAdam (aclnnApplyFusedEmaAdam's formula), computed in float64:

    (c1, c2) = (1 - beta1^step, 1 - beta2^step) if bias_correction else (1, 1)
    g        = grad + weight_decay * var   if mode == 0 (L2)   else grad
    m        = beta1 * m + (1 - beta1) * g
    v        = beta2 * v + (1 - beta2) * g^2
    update   = (m / c1) / (sqrt(v / c2) + eps)   (+ weight_decay * var if mode == 1, decoupled)
    var      = var - lr * update
    s        = ema_decay * s + (1 - ema_decay) * var          (the updated var)

Returns (var, m, v, s).
"""

import torch


def reference(grad, var, m, v, s, step, lr=1e-3, ema_decay=0.5, beta1=0.9, beta2=0.999, eps=1e-8, mode=1,
              bias_correction=True, weight_decay=0.0):
    t = float(step.reshape(-1)[0])
    c1, c2 = (1.0 - beta1 ** t, 1.0 - beta2 ** t) if bias_correction else (1.0, 1.0)
    p = var.double()
    g = grad.double() + weight_decay * p if mode == 0 else grad.double()
    m2 = beta1 * m.double() + (1.0 - beta1) * g
    v2 = beta2 * v.double() + (1.0 - beta2) * g * g
    update = (m2 / c1) / (torch.sqrt(v2 / c2) + eps)
    if mode == 1:
        update = update + weight_decay * p
    p2 = p - lr * update
    s2 = ema_decay * s.double() + (1.0 - ema_decay) * p2
    return p2.float(), m2.float(), v2.float(), s2.float()


def draw_case(draw, spec):
    from hypothesis import strategies as st

    rank = draw(st.integers(1, 3))
    dims = [draw(st.integers(1, 64)) for _ in range(rank - 1)]
    count = 1
    for d in dims:
        count *= d
    dims.append(draw(st.integers(1, max(1, min(8192, 2_000_000 // count)))))
    shapes = {n: list(dims) for n in ("grad", "var", "m", "v", "s")}
    shapes["step"] = [1]
    types = draw(st.sampled_from([dict(c) for c in spec.type_combos]))
    attrs = {"mode": draw(st.sampled_from([0, 1])), "bias_correction": draw(st.booleans()),
             "weight_decay": draw(st.sampled_from([0.0, 0.01, 0.1])), "ema_decay": draw(st.sampled_from([0.5, 0.99]))}
    return {"shapes": shapes, "types": types, "attrs": attrs}
