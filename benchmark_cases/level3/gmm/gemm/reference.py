"""Semantics of Gemm: out = alpha * (A @ B) + beta * C, float32 inputs (float64 here)."""


def reference(a, b, c, alpha=1.0, beta=1.0):
    return (alpha * (a.double() @ b.double()) + beta * c.double()).to(a.dtype)


def draw_case(draw, spec):
    from hypothesis import strategies as st

    m = draw(st.integers(1, 300))
    k = draw(st.integers(1, 300))
    n = draw(st.integers(1, 300))
    alpha = draw(st.sampled_from([1.0, -0.5, 2.0]))
    beta = draw(st.sampled_from([0.0, 1.0, 0.25]))
    return {"shapes": {"a": [m, k], "b": [k, n], "c": [m, n]}, "attrs": {"alpha": alpha, "beta": beta}}
