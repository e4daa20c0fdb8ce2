"""Semantics of GroupGemm: D_g = alpha_g * (A_g @ B_g) + beta_g * C_g for every group g; A_g (m_g x k_g),
B_g (k_g x n_g), C_g and D_g (m_g x n_g) are stored row-major one after the other in flat tensors."""
import torch


def reference(a, b, c, alpha, beta, m_list, k_list, n_list):
    out = []
    ao = bo = co = 0
    for g, (m, k, n) in enumerate(zip(m_list, k_list, n_list, strict=True)):
        ag = a[ao:ao + m * k].double().reshape(m, k)
        bg = b[bo:bo + k * n].double().reshape(k, n)
        cg = c[co:co + m * n].double().reshape(m, n)
        out.append((alpha[g].double() * (ag @ bg) + beta[g].double() * cg).reshape(-1))
        ao, bo, co = ao + m * k, bo + k * n, co + m * n
    return torch.cat(out).to(c.dtype)


def draw_case(draw, spec):
    from hypothesis import strategies as st

    g = draw(st.integers(1, 6))
    dims = st.integers(1, 260)
    ms = [draw(dims) for _ in range(g)]
    ks = [draw(dims) for _ in range(g)]
    ns = [draw(dims) for _ in range(g)]
    return {"shapes": {"a": [sum(m * k for m, k in zip(ms, ks, strict=True))],
                       "b": [sum(k * n for k, n in zip(ks, ns, strict=True))],
                       "c": [sum(m * n for m, n in zip(ms, ns, strict=True))], "alpha": [g], "beta": [g]},
            "attrs": {"m_list": ms, "k_list": ks, "n_list": ns}}
