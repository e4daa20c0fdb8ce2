"""Semantics of ExpandV2: y = x.expand(shape) materialized (torch broadcasting: x's dims align to the
right of shape; a dim of size 1 repeats; -1 keeps x's dim). Values are copied exactly."""



def reference(x, shape=()):
    return x.expand(*shape).contiguous()


def draw_case(draw, spec):
    from hypothesis import strategies as st

    rank = draw(st.integers(1, 4))
    out = [draw(st.integers(1, 64)) for _ in range(rank - 1)]
    count = 1
    for d in out:
        count *= d
    out.append(draw(st.integers(1, max(1, min(8192, (1 << 20) // count)))))
    x_rank = draw(st.integers(1, rank))
    x = [d if draw(st.booleans()) else 1 for d in out[rank - x_rank:]]
    shape = list(out)
    for i in range(rank - x_rank, rank):
        if x[i - (rank - x_rank)] == out[i] and draw(st.integers(0, 4)) == 0:
            shape[i] = -1
    types = draw(st.sampled_from([dict(c) for c in spec.type_combos]))
    return {"shapes": {"x": x}, "types": types, "attrs": {"shape": shape}}
