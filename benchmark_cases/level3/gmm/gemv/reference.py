"""Semantics of Gemv: out = alpha * (A @ x) + beta * y, float32 inputs (float64 here)."""


def reference(a, x, y, alpha=1.0, beta=1.0):
    return (alpha * (a.double() @ x.double()) + beta * y.double()).to(a.dtype)


def draw_case(draw, spec):
    from hypothesis import strategies as st

    m = draw(st.integers(1, 800))
    n = draw(st.integers(1, 3000))
    alpha = draw(st.sampled_from([1.0, -2.0, 0.5]))
    beta = draw(st.sampled_from([0.0, 1.0, 0.5]))
    return {"shapes": {"a": [m, n], "x": [n], "y": [m]}, "attrs": {"alpha": alpha, "beta": beta}}
