"""Semantics of GatherV3: y = torch.gather(x, dim, index); index has x's shape except along dim."""
import numpy as np
import torch


def reference(x, index, dim=0):
    return torch.gather(x, dim, index.long())


def make_inputs(case, seed):
    """x uniform in [-10, 10]; index uniform over [0, x.shape[dim])."""
    from npukernelbench.inputs import case_seed

    xs, ix = tuple(case.shapes["x"]), tuple(case.shapes["index"])
    rng = np.random.default_rng(case_seed("gather_v3", seed, case.key()))
    dim = case.attrs["dim"] % len(xs)
    x = rng.uniform(-10.0, 10.0, size=xs)
    index = rng.integers(0, xs[dim], size=ix)
    return {"x": x, "index": index}


def draw_case(draw, spec):
    """Rank 1-3, a gather axis, the slab x[o, :, :] at most 16384 elements, output up to ~300k."""
    from hypothesis import strategies as st

    types = draw(st.sampled_from(list(spec.type_combos)))
    rank = draw(st.integers(1, 3))
    dim = draw(st.integers(0, rank - 1))
    shape = [draw(st.integers(1, 64)) for _ in range(rank)]
    shape[dim] = draw(st.integers(1, 2048))
    inner = int(np.prod(shape[dim + 1:], dtype=np.int64))
    while shape[dim] * inner > 16384:
        shape[dim] = max(1, shape[dim] // 2)
        if shape[dim] == 1 and inner > 16384:
            break
    index = list(shape)
    index[dim] = draw(st.integers(1, 4096))
    while int(np.prod(index)) > 300_000 and index[dim] > 1:
        index[dim] //= 2
    if draw(st.booleans()):
        dim -= rank  # negative axis
    return {"shapes": {"x": shape, "index": index}, "types": dict(types), "attrs": {"dim": dim}}
