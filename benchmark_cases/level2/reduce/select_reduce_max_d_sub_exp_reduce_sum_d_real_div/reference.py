"""Semantics of SelectReduceMaxDSubExpReduceSumDRealDiv: softmax over the last dim of
where(mask, x, -inf) (float32). Masked positions get exactly 0. Inputs keep at least one unmasked
element per row (make_inputs), so no row is all -inf."""

import numpy as np
import torch


def reference(mask, x):
    z = torch.where(mask, x.double(), torch.tensor(float("-inf"), dtype=torch.float64))
    return torch.softmax(z, dim=-1).float()


def make_inputs(case, seed):
    from npukernelbench.inputs import case_seed

    shape = tuple(case.shapes["x"])
    rng = np.random.default_rng(case_seed(seed, case.key()))
    mask = rng.random(shape) < 0.6
    if mask.size:
        empty = ~mask.any(axis=-1)
        mask[..., 0] |= empty
    x = rng.uniform(-5.0, 5.0, size=shape).astype(np.float32)
    return {"mask": mask, "x": x}


def draw_case(draw, spec):
    from hypothesis import strategies as st

    d = draw(st.integers(1, 4096))
    rows = draw(st.integers(1, max(1, min(8192, (1 << 20) // d))))
    lead = [rows] if draw(st.booleans()) else [2, max(1, rows // 2)]
    types = draw(st.sampled_from([dict(c) for c in spec.type_combos]))
    return {"shapes": {"mask": [*lead, d], "x": [*lead, d]}, "types": types}
