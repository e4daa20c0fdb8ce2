"""Semantics of CoalesceSparse: merge duplicate COO entries. unique_indices[i] is the slot of entry i
in the sorted list of unique index rows (torch.unique(indices, dim=0, return_inverse=True)'s
inverse); m = max(unique_indices) + 1 and every slot in [0, m) occurs.

    new_values[s]  = sum of values[i] over the entries i with unique_indices[i] == s
    new_indices[s] = indices[i] for any such i (they are all equal)
"""

import numpy as np
import torch


def reference(unique_indices, indices, values):
    ui = unique_indices.long()
    m = int(ui.max()) + 1 if ui.numel() else 0
    new_indices = torch.zeros((m, *indices.shape[1:]), dtype=indices.dtype)
    new_indices[ui] = indices
    acc = torch.zeros((m, *values.shape[1:]), dtype=torch.float64)
    acc.index_add_(0, ui, values.double())
    return new_indices, acc.to(values.dtype if not values.dtype.is_floating_point else torch.float32)


def make_inputs(case, seed):
    """Index rows drawn from a small box so that duplicates are common; the inverse map of the
    sorted unique rows is unique_indices."""
    from npukernelbench.inputs import case_seed

    nnz, ndim = case.shapes["indices"]
    vshape = tuple(case.shapes["values"])
    rng = np.random.default_rng(case_seed(seed, case.key()))
    box = max(2, int(round((nnz / 1.5) ** (1.0 / ndim))) + 1)
    indices = rng.integers(0, box, size=(nnz, ndim)).astype(np.int32)
    _, inverse = np.unique(indices, axis=0, return_inverse=True)
    values = rng.uniform(-10.0, 10.0, size=vshape)
    if case.types.get("T") == "int32":
        values = np.rint(values * 100)
    return {"unique_indices": inverse.reshape(-1).astype(np.int32), "indices": indices, "values": values}


def draw_case(draw, spec):
    from hypothesis import strategies as st

    nnz = draw(st.integers(1, 20000))
    ndim = draw(st.integers(1, 3))
    trailing = draw(st.lists(st.integers(1, 48), min_size=0, max_size=2))
    row = 1
    for n in trailing:
        row *= n
    nnz = max(1, min(nnz, (1 << 19) // row))
    types = draw(st.sampled_from([dict(c) for c in spec.type_combos]))
    return {"shapes": {"unique_indices": [nnz], "indices": [nnz, ndim], "values": [nnz, *trailing]},
            "types": types, "attrs": {}}
