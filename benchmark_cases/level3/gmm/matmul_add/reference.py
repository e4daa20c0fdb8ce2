"""Semantics of MatmulAdd: out = A @ B + C, computed in float32 (float64 here), rounded once."""


def reference(a, b, c):
    return (a.double() @ b.double() + c.double()).to(a.dtype)


def draw_case(draw, spec):
    from hypothesis import strategies as st

    m = draw(st.integers(1, 600))
    k = draw(st.integers(1, 600))
    n = draw(st.integers(1, 600))
    types = draw(st.sampled_from(list(spec.type_combos)))
    return {"shapes": {"a": [m, k], "b": [k, n], "c": [m, n]}, "types": types}
