"""Semantics of StridedSliceAssignV2: var[begin[0]:end[0]:strides[0], ..., begin[k-1]:end[k-1]:strides[k-1]]
= input_value, in place, with k = len(begin) leading dims sliced (the others taken whole). begin / end
follow Python slice rules (negative values count from the end, out-of-range values clamp); strides > 0."""

import numpy as np


def _slice(b: int, e: int, s: int, size: int) -> slice:
    start, stop, step = slice(b, e, s).indices(size)
    return slice(start, stop, step)


def reference(var, input_value, begin, end, strides):
    out = var.clone()
    index = tuple(_slice(int(b), int(e), int(s), out.shape[i])
                  for i, (b, e, s) in enumerate(zip(begin.tolist(), end.tolist(), strides.tolist(), strict=True)))
    out[index] = input_value.to(out.dtype)
    return out


def make_inputs(case, seed):
    """begin / end / strides chosen so that the slice has exactly input_value's leading dims; begin and
    end are sometimes negative or past the end (clamped), end is not always on the stride grid."""
    from npukernelbench.inputs import case_seed

    rng = np.random.default_rng(case_seed(seed, case.key()))
    var_shape = list(case.shapes["var"])
    val_shape = list(case.shapes["input_value"])
    k = case.shapes["begin"][0]
    begin, end, strides = [], [], []
    for i in range(k):
        size, n = var_shape[i], val_shape[i]
        s = int(rng.integers(1, 4)) if n == 1 else int(rng.integers(1, max(1, (size - 1) // (n - 1)) + 1))
        s = min(s, 4) if n > 1 and rng.random() < 0.5 else s
        b = int(rng.integers(0, size - (n - 1) * s))
        e = b + (n - 1) * s + 1 + int(rng.integers(0, s))
        if e >= size:
            e = size + int(rng.integers(0, 5))        # past the end: clamps to size
        elif rng.random() < 0.3:
            e -= size                                 # negative end
        if rng.random() < 0.3:
            b -= size                                 # negative begin
        begin.append(b)
        end.append(e)
        strides.append(s)
    integer = case.types.get("T") == "int32"
    var = rng.integers(-1000, 1000, size=var_shape) if integer else rng.uniform(-5.0, 5.0, size=var_shape)
    value = rng.integers(-1000, 1000, size=val_shape) if integer else rng.uniform(-5.0, 5.0, size=val_shape)
    as_i64 = lambda v: np.asarray(v, dtype=np.int64)  # noqa: E731
    return {"var": var, "input_value": value, "begin": as_i64(begin), "end": as_i64(end),
            "strides": as_i64(strides)}


def draw_case(draw, spec):
    from hypothesis import strategies as st

    var = draw(st.lists(st.integers(1, 200), min_size=1, max_size=4))
    while int(np.prod(var)) > 300_000:
        var[draw(st.integers(0, len(var) - 1))] //= 2
        var = [max(1, d) for d in var]
    k = draw(st.integers(1, len(var)))
    val = [draw(st.integers(1, var[i])) for i in range(k)] + var[k:]
    types = draw(st.sampled_from([dict(t) for t in spec.type_combos]))
    return {"shapes": {"var": var, "input_value": val, "begin": [k], "end": [k], "strides": [k]},
            "types": types, "attrs": {}}
