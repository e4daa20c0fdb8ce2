"""Semantics of PaddingMatmul: C = A @ B, float32 accumulation, one rounding to float16."""


def reference(a, b):
    return (a.double() @ b.double()).to(a.dtype)


def draw_case(draw, spec):
    from hypothesis import strategies as st

    m = draw(st.integers(1, 500))
    k = draw(st.integers(1, 500))
    n = draw(st.integers(1, 500))
    return {"shapes": {"a": [m, k], "b": [k, n]}}
