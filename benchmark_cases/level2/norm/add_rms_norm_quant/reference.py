"""Semantics of AddRmsNormQuant: AddRmsNorm then y1 = clamp(round(y / scales1 + zero_points1), -128, 127).

round() is round-half-to-even on the float32 value of y / scales1 + zero_points1 (y not rounded to
the input dtype first). x = x1 + x2 is returned in the input dtype.
"""

import numpy as np
import torch


def reference(x1, x2, gamma, scales1, zero_points1=None, epsilon=1e-6):
    x = x1.float() + x2.float()
    xd = x.double()
    rstd = torch.rsqrt(xd.pow(2).mean(dim=-1, keepdim=True) + epsilon)
    y = (xd * rstd * gamma.double()).float()
    q = y / scales1.float()
    if zero_points1 is not None:
        q = q + zero_points1.float()
    q = torch.round(q.clamp(-128.0, 127.0)).to(torch.int8)
    return q, x


def check(got, expected, case):
    """int8 y1 within 1 of the reference everywhere and exact on >= 99.9% of the elements; x within
    the dtype tolerance."""
    from npukernelbench.inputs import to_values

    q = np.asarray(got["y1"]).astype(np.int32)
    q_ref = np.asarray(expected["y1"]).astype(np.int32)
    if q.shape != q_ref.shape:
        return False
    diff = np.abs(q - q_ref)
    if diff.size and (diff.max() > 1 or np.count_nonzero(diff) > max(1, diff.size // 1000)):
        return False
    dt = case.types["T"]
    x = to_values(np.asarray(got["x"]), dt).astype(np.float64)
    x_ref = np.asarray(expected["x"], dtype=np.float64)
    rtol = 2e-3 if dt == "float16" else 1.6e-2
    return bool(np.all(np.abs(x - x_ref) <= 1e-3 + rtol * np.abs(x_ref)))


def draw_case(draw, spec):
    from hypothesis import strategies as st

    d = draw(st.integers(1, 4096))
    rows = draw(st.integers(1, max(1, min(4096, (1 << 20) // d))))
    lead = [rows] if draw(st.booleans()) else [1, rows]
    types = draw(st.sampled_from([dict(c) for c in spec.type_combos]))
    shapes = {"x1": [*lead, d], "x2": [*lead, d], "gamma": [d], "scales1": [d]}
    if draw(st.booleans()):
        shapes["zero_points1"] = [d]
    return {"shapes": shapes, "types": types, "attrs": {"epsilon": draw(st.sampled_from([1e-6, 1e-5]))}}
