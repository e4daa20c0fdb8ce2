"""Semantics of GroupedMatmulSliceKPerTokenDequant (see api_desc.md): int32 accumulation of int8 products, scaled in
float32 (float64 here) by the group's column scale and the token scale, rounded once to bfloat16."""
import numpy as np
import torch


def reference(a, b, scale, per_token_scale, group_list):
    out = torch.zeros(len(group_list), a.shape[1], b.shape[1], dtype=torch.float64)
    start = 0
    for g, end in enumerate(group_list.tolist()):
        acc = a[start:end].to(torch.int64).T @ b[start:end].to(torch.int64)
        out[g] = acc.double() * scale[g].double()[None, :] * per_token_scale[g].double()[:, None]
        start = end
    return out.to(torch.bfloat16)


def make_inputs(case, seed):
    """int8 A and B over the whole range; scales positive (column scales ~1e-3, token scales ~1e-2);
    group ends drawn at random (empty groups allowed), the last one the whole extent."""
    from npukernelbench.inputs import case_seed

    rng = np.random.default_rng(case_seed(seed, case.key()))
    total = case.shapes["a"][0]
    g = case.shapes["group_list"][0]
    ends = np.sort(rng.integers(0, total + 1, size=g - 1)) if g > 1 else np.array([], dtype=np.int64)
    return {"a": rng.integers(-128, 128, size=tuple(case.shapes["a"])).astype(np.int8),
            "b": rng.integers(-128, 128, size=tuple(case.shapes["b"])).astype(np.int8),
            "scale": rng.uniform(1e-4, 1e-3, size=tuple(case.shapes["scale"])),
            "per_token_scale": rng.uniform(1e-2, 1e-1, size=tuple(case.shapes["per_token_scale"])),
            "group_list": np.append(ends, total).astype(np.int64)}


def draw_case(draw, spec):
    from hypothesis import strategies as st

    g = draw(st.integers(1, 5))
    k = draw(st.integers(1, 900))
    m = draw(st.integers(1, 200))
    n = draw(st.integers(1, 200))
    return {"shapes": {"a": [k, m], "b": [k, n], "scale": [g, n], "per_token_scale": [g, m], "group_list": [g]}}
