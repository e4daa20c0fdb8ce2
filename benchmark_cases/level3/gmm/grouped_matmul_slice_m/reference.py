"""Semantics of GroupedMatmulSliceM: rows [end[g-1], end[g]) of A times B[g] (end = group_list,
cumulative, last = M); float32 accumulation, one rounding."""
import numpy as np
import torch


def reference(a, b, group_list):
    out = torch.zeros(a.shape[0], b.shape[2], dtype=torch.float64)
    start = 0
    for g, end in enumerate(group_list.tolist()):
        out[start:end] = a[start:end].double() @ b[g].double()
        start = end
    return out.to(a.dtype)


def make_inputs(case, seed):
    """A and B uniform in [-1, 1]; group ends drawn at random (empty groups allowed), the last one M."""
    from npukernelbench.inputs import case_seed

    rng = np.random.default_rng(case_seed(seed, case.key()))
    m = case.shapes["a"][0]
    g = case.shapes["group_list"][0]
    ends = np.sort(rng.integers(0, m + 1, size=g - 1)) if g > 1 else np.array([], dtype=np.int64)
    return {"a": rng.uniform(-1, 1, size=tuple(case.shapes["a"])),
            "b": rng.uniform(-1, 1, size=tuple(case.shapes["b"])),
            "group_list": np.append(ends, m).astype(np.int64)}


def draw_case(draw, spec):
    from hypothesis import strategies as st

    g = draw(st.integers(1, 8))
    m = draw(st.integers(1, 400))
    k = draw(st.integers(1, 300))
    n = draw(st.integers(1, 300))
    types = draw(st.sampled_from(list(spec.type_combos)))
    return {"shapes": {"a": [m, k], "b": [g, k, n], "group_list": [g]}, "types": types}
