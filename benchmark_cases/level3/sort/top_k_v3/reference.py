"""Semantics of TopKV3: torch.topk along the last dim, int32 indices. With sorted=False any order of
the k winners is accepted (check() orders them before comparing)."""
import numpy as np
import torch

K_MAX = 128   # the drawn k stays at most this (k rounds over a row are the expert solution's cost)


def reference(x, k, sorted=True, largest=True):
    values, indices = torch.topk(x, int(k.reshape(-1)[0]), dim=-1, largest=largest, sorted=True)
    return values, indices.to(torch.int32)


def make_inputs(case, seed):
    """Every row a random choice of distinct float16-representable values in (-8, 8) (no ties);
    k one of 1, min(n, K_MAX) and a random value in between, by seed."""
    from npukernelbench.inputs import case_seed

    rng = np.random.default_rng(case_seed(seed, case.key()))
    shape = tuple(case.shapes["x"])
    n = shape[-1]
    rows = int(np.prod(shape[:-1])) if len(shape) > 1 else 1
    bits = np.arange(0, 0x4800, dtype=np.uint16)                 # +0 .. just below 8.0
    pool = np.concatenate([bits, bits[1:] | 0x8000]).view(np.float16)
    x = np.stack([rng.choice(pool, size=n, replace=False) for _ in range(rows)]).reshape(shape)
    top = min(n, K_MAX)
    k = [1, top, int(rng.integers(1, top + 1))][seed % 3]
    return {"x": x, "k": np.array([k], dtype=np.int32)}


def check(got, expected, case):
    gv, gi = np.asarray(got["values"]), np.asarray(got["indices"])
    ev, ei = np.asarray(expected["values"]), np.asarray(expected["indices"])
    if gv.shape != ev.shape or gi.shape != ei.shape:
        return False
    if not case.attrs.get("sorted", True):
        order = np.argsort(-gv.astype(np.float64) if case.attrs.get("largest", True) else gv, axis=-1, kind="stable")
        gv = np.take_along_axis(gv, order, axis=-1)
        gi = np.take_along_axis(gi, order, axis=-1)
    return bool(np.array_equal(gv, ev.astype(gv.dtype)) and np.array_equal(gi, ei.astype(gi.dtype)))


def draw_case(draw, spec):
    from hypothesis import strategies as st

    rank = draw(st.integers(1, 3))
    n = draw(st.integers(1, 3000))
    lead = [draw(st.integers(1, 6)) for _ in range(rank - 1)]
    return {"shapes": {"x": lead + [n], "k": [1]}, "types": {"T": draw(st.sampled_from(["float16", "float32"]))},
            "attrs": {"sorted": draw(st.booleans()), "largest": draw(st.booleans())}}
