"""Semantics of FlashAttentionScoreWithLargeHeadDim: BSH layout (query [B, S1, N * D], key and value
[B, S2, N * D]); per (batch, head) S = scale * Q K^T, m = rowmax(S), l = rowsum(exp(S - m)),
out = exp(S - m) V / l. softmax_max and softmax_sum are [B, N, S1, 8] (m and l repeated 8 times)."""
import math

import torch


def reference(query, key, value, scale_value=1.0, head_num=1):
    b, s1, hidden = query.shape
    s2 = key.shape[1]
    d = hidden // head_num
    q = query.double().reshape(b, s1, head_num, d).transpose(1, 2)
    k = key.double().reshape(b, s2, head_num, d).transpose(1, 2)
    v = value.double().reshape(b, s2, head_num, d).transpose(1, 2)
    s = scale_value * (q @ k.transpose(-1, -2))
    m = s.amax(dim=-1, keepdim=True)
    e = torch.exp(s - m)
    l_sum = e.sum(dim=-1, keepdim=True)
    out = (e @ v) / l_sum
    out = out.transpose(1, 2).reshape(b, s1, hidden)
    return (m.expand(b, head_num, s1, 8).float(), l_sum.expand(b, head_num, s1, 8).float(), out.to(query.dtype))


def draw_case(draw, spec):
    from hypothesis import strategies as st

    b = draw(st.integers(1, 2))
    n = draw(st.integers(1, 2))
    d = draw(st.sampled_from([192, 256, 320, 512]))
    s1 = draw(st.integers(1, 160))
    s2 = draw(st.integers(1, 400))
    return {"shapes": {"query": [b, s1, n * d], "key": [b, s2, n * d], "value": [b, s2, n * d]},
            "attrs": {"scale_value": 1.0 / math.sqrt(d), "head_num": n}}
