"""Semantics of GroupedMatmulSliceK: with end = group_list (cumulative over K, last = K),
c[g] = a[start_g:end_g, :]^T @ b[start_g:end_g, :] (zeros for an empty group); float32 accumulation."""
import numpy as np
import torch


def reference(a, b, group_list):
    out = torch.zeros(len(group_list), a.shape[1], b.shape[1], dtype=torch.float64)
    start = 0
    for g, end in enumerate(group_list.tolist()):
        out[g] = a[start:end].double().T @ b[start:end].double()
        start = end
    return out.to(a.dtype)


def make_inputs(case, seed):
    from npukernelbench.inputs import case_seed

    rng = np.random.default_rng(case_seed(seed, case.key()))
    k = case.shapes["a"][0]
    g = case.shapes["group_list"][0]
    ends = np.sort(rng.integers(0, k + 1, size=g - 1)) if g > 1 else np.array([], dtype=np.int64)
    return {"a": rng.uniform(-1, 1, size=tuple(case.shapes["a"])),
            "b": rng.uniform(-1, 1, size=tuple(case.shapes["b"])),
            "group_list": np.append(ends, k).astype(np.int64)}


def draw_case(draw, spec):
    from hypothesis import strategies as st

    g = draw(st.integers(1, 6))
    k = draw(st.integers(1, 500))
    m = draw(st.integers(1, 300))
    n = draw(st.integers(1, 300))
    types = draw(st.sampled_from(list(spec.type_combos)))
    return {"shapes": {"a": [k, m], "b": [k, n], "group_list": [g]}, "types": types}
