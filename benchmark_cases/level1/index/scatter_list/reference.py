"""Semantics of ScatterList: for every tensor l of the list var (each [B, S, D]) and batch b,
rows indices[b] .. indices[b] + U - 1 of var[l][b] are overwritten by updates[l, b] ([U, D]); in place,
every other element keeps its value."""
import numpy as np


def reference(var, indices, updates):
    out = []
    for layer, tensor in enumerate(var):
        t = tensor.clone()
        u = updates.shape[2]
        for b in range(t.shape[0]):
            s = int(indices[b])
            t[b, s:s + u, :] = updates[layer, b]
        out.append(t)
    return out


def make_inputs(case, seed):
    from npukernelbench.inputs import case_seed

    rng = np.random.default_rng(case_seed("scatter_list", seed, case.key()))
    var = [rng.uniform(-1.0, 1.0, size=tuple(s)) for s in case.shapes["var"]]
    b, s = case.shapes["var"][0][0], case.shapes["var"][0][1]
    u = case.shapes["updates"][2]
    indices = rng.integers(0, s - u + 1, size=(b,))
    updates = rng.uniform(2.0, 3.0, size=tuple(case.shapes["updates"]))
    return {"var": var, "indices": indices, "updates": updates}


def draw_case(draw, spec):
    from hypothesis import strategies as st

    types = draw(st.sampled_from(list(spec.type_combos)))
    n = draw(st.integers(1, 8))
    b = draw(st.integers(1, 64))
    s = draw(st.integers(1, 64))
    d = draw(st.integers(1, 2048))
    u = draw(st.integers(1, s))
    while n * b * s * d > 2_000_000 and d > 1:
        d //= 2
    return {"shapes": {"var": [[b, s, d]] * n, "indices": [b], "updates": [n, b, u, d]}, "types": dict(types)}
