"""Semantics of InplaceFusedMatmulSoftmaxGrad (shapes [..., M, N], [..., M, K], [..., N, K]):

    dy   = grad_output @ values^T                       per leading (batch) index, [..., M, N]
    grad = softmax_output * (dy - sum(softmax_output * dy, dim=-1, keepdim=True))

computed in float64 and returned in the input dtype; the kernel writes it into softmax_output.
"""

import numpy as np
import torch


def reference(softmax_output, grad_output, values):
    y, g, v = softmax_output.double(), grad_output.double(), values.double()
    dy = torch.matmul(g, v.transpose(-1, -2))
    return (y * (dy - (y * dy).sum(dim=-1, keepdim=True))).to(softmax_output.dtype)


def make_inputs(case, seed):
    """softmax_output is a real softmax (rows of positive values summing to 1) of normal logits;
    grad_output and values are uniform in [-1, 1]."""
    from npukernelbench.inputs import case_seed

    rng = np.random.default_rng(case_seed(seed, case.key()))
    logits = rng.normal(0.0, 2.0, size=tuple(case.shapes["softmax_output"]))
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    y = e / e.sum(axis=-1, keepdims=True)
    g = rng.uniform(-1.0, 1.0, size=tuple(case.shapes["grad_output"]))
    v = rng.uniform(-1.0, 1.0, size=tuple(case.shapes["values"]))
    return {"softmax_output": y, "grad_output": g, "values": v}


def draw_case(draw, spec):
    """Shapes inside the documented limits: K a multiple of 8 up to 64, N * K <= 16384, 1-2 batch dims."""
    from hypothesis import strategies as st

    k = 8 * draw(st.integers(1, 8))
    n = draw(st.integers(1, 16384 // k))
    m = draw(st.integers(1, 128))
    batch = [draw(st.integers(1, 8))]
    if draw(st.booleans()):
        batch.append(draw(st.integers(1, 4)))
    types = draw(st.sampled_from([dict(c) for c in spec.type_combos]))
    return {"shapes": {"softmax_output": [*batch, m, n], "grad_output": [*batch, m, k], "values": [*batch, n, k]},
            "types": types, "attrs": {}}
