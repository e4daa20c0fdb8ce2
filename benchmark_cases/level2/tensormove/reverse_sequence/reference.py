"""Semantics of ReverseSequence (tf.reverse_sequence): for every batch entry b, the first
seq_lengths[b] slices along seq_dim are reversed; the rest are copied. (seq_dim, batch_dim) is (1, 0)
for [B, S, ...] or (0, 1) for [S, B, ...]. seq_lengths values lie in [0, S]."""

import numpy as np
import torch


def reference(x, seq_lengths, seq_dim=1, batch_dim=0):
    y = x.clone()
    for b, n in enumerate(seq_lengths.tolist()):
        n = int(n)
        if n <= 1:
            continue
        src = x.select(batch_dim, b)                     # seq dim shifts down by one if batch_dim < seq_dim
        sd = seq_dim - 1 if batch_dim < seq_dim else seq_dim
        y.select(batch_dim, b).narrow(sd, 0, n).copy_(torch.flip(src.narrow(sd, 0, n), dims=[sd]))
    return y


def make_inputs(case, seed):
    from npukernelbench.inputs import case_seed

    shape = tuple(case.shapes["x"])
    seq_dim, batch_dim = case.attrs.get("seq_dim", 1), case.attrs.get("batch_dim", 0)
    rng = np.random.default_rng(case_seed(seed, case.key()))
    x = rng.uniform(-100.0, 100.0, size=shape)
    if case.types.get("T") == "int32":
        x = np.rint(x)
    lengths = rng.integers(0, shape[seq_dim], size=shape[batch_dim], endpoint=True).astype(np.int32)
    return {"x": x, "seq_lengths": lengths}


def draw_case(draw, spec):
    from hypothesis import strategies as st

    b = draw(st.integers(1, 16))
    s = draw(st.integers(1, 128))
    inner = [draw(st.integers(1, max(1, (1 << 20) // (b * s))))] if draw(st.booleans()) else []
    swap = draw(st.booleans())
    shape = [s, b, *inner] if swap else [b, s, *inner]
    attrs = {"seq_dim": 0, "batch_dim": 1} if swap else {"seq_dim": 1, "batch_dim": 0}
    types = draw(st.sampled_from([dict(c) for c in spec.type_combos]))
    return {"shapes": {"x": shape, "seq_lengths": [b]}, "types": types, "attrs": attrs}
