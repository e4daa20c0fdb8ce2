"""Semantics of AddSigmoidMulReduceSumD: y = sum(sigmoid(x1 + x2) * x3, dim=-1) (float32; the
reduced dim is dropped)."""

import torch


def reference(x1, x2, x3):
    s = torch.sigmoid(x1.double() + x2.double()) * x3.double()
    return s.sum(dim=-1).float()


def draw_case(draw, spec):
    from hypothesis import strategies as st

    d = draw(st.integers(1, 4096))
    rows = draw(st.integers(1, max(1, min(8192, (1 << 20) // d))))
    lead = [rows] if draw(st.booleans()) else [2, max(1, rows // 2)]
    types = draw(st.sampled_from([dict(c) for c in spec.type_combos]))
    return {"shapes": {n: [*lead, d] for n in ("x1", "x2", "x3")}, "types": types}
