"""Semantics of BasicMatmul: C = A @ B, accumulated in float32 (float64 here), rounded once."""


def reference(a, b):
    return (a.double() @ b.double()).to(a.dtype)


def draw_case(draw, spec):
    """M, K, N in 1..700 (unaligned tails included); A [M, K], B [K, N]."""
    from hypothesis import strategies as st

    m = draw(st.integers(1, 700))
    k = draw(st.integers(1, 700))
    n = draw(st.integers(1, 700))
    types = draw(st.sampled_from(list(spec.type_combos)))
    return {"shapes": {"a": [m, k], "b": [k, n]}, "types": types}
