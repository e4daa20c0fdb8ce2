"""Semantics of Mla (decode over a paged latent cache): for sequence b with query tokens
[qs_b, qs_b + q_seqlen[b]) and k_seqlen[b] cached tokens (page j of the sequence is cache block
block_tables[b, j]): C, R = the cached latent and rotary rows, S = (Q_nope C^T + Q_rope R^T) / sqrt(Dn + Dr)
per head, out = softmax(S) C. No mask."""
import math

import numpy as np
import torch


def reference(query_nope, query_rope, kv_nope_cache, kv_rope_cache, block_tables, q_seqlen_list, k_seqlen_list):
    dn, dr = query_nope.shape[-1], query_rope.shape[-1]
    bs = kv_nope_cache.shape[1]
    scale = 1.0 / math.sqrt(dn + dr)
    out = torch.empty(query_nope.shape, dtype=torch.float64)
    qs = 0
    for b, (ql, kl) in enumerate(zip(q_seqlen_list, k_seqlen_list, strict=False)):
        pages = block_tables[b, :(kl + bs - 1) // bs].long()
        c = kv_nope_cache[pages].double().reshape(-1, dn)[:kl]
        r = kv_rope_cache[pages].double().reshape(-1, dr)[:kl]
        qn = query_nope[qs:qs + ql].double()          # [ql, N, dn]
        qr = query_rope[qs:qs + ql].double()
        s = (qn @ c.T + qr @ r.T) * scale             # [ql, N, kl]
        out[qs:qs + ql] = torch.softmax(s, dim=-1) @ c
        qs += ql
    return out.to(query_nope.dtype)


def make_inputs(case, seed):
    """Values uniform in [-1, 1]; every sequence gets distinct cache pages in random order."""
    from npukernelbench.inputs import case_seed

    rng = np.random.default_rng(case_seed(seed, case.key()))
    sh = case.shapes
    b, max_blocks = sh["block_tables"]
    tables = rng.permutation(sh["kv_nope_cache"][0])[:b * max_blocks].reshape(b, max_blocks).astype(np.int32)
    vals = {name: rng.uniform(-1, 1, size=tuple(sh[name]))
            for name in ("query_nope", "query_rope", "kv_nope_cache", "kv_rope_cache")}
    return {**vals, "block_tables": tables}


def draw_case(draw, spec):
    from hypothesis import strategies as st

    b = draw(st.integers(1, 3))
    heads = draw(st.sampled_from([8, 16, 32]))
    bs = draw(st.sampled_from([16, 64, 128]))
    ql = [draw(st.integers(1, 3)) for _ in range(b)]
    kl = [draw(st.integers(1, 600)) for _ in range(b)]
    max_blocks = max((k + bs - 1) // bs for k in kl)
    blocks = b * max_blocks + draw(st.integers(0, 3))
    t = sum(ql)
    types = draw(st.sampled_from(list(spec.type_combos)))
    return {"shapes": {"query_nope": [t, heads, 512], "query_rope": [t, heads, 64],
                       "kv_nope_cache": [blocks, bs, 512], "kv_rope_cache": [blocks, bs, 64],
                       "block_tables": [b, max_blocks]},
            "types": types, "attrs": {"q_seqlen_list": ql, "k_seqlen_list": kl}}
