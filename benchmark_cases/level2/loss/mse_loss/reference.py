"""Semantics of MseLoss, accumulated in float64."""


def reference(predict, label, reduction="mean"):
    d = (predict.double() - label.double()) ** 2
    if reduction == "mean":
        d = d.mean()
    elif reduction == "sum":
        d = d.sum()
    return d.to(predict.dtype)


def draw_case(draw, spec):
    """Rank 1-3 shapes up to 1e6 elements; a float16 "sum" stays below 60000 elements so that the
    sum (about 2/3 per element for inputs in [-1, 1]) cannot overflow float16."""
    from hypothesis import strategies as st

    types = draw(st.sampled_from(list(spec.type_combos)))
    reduction = draw(st.sampled_from(["mean", "sum", "none"]))
    budget = 60000 if (types["T"] == "float16" and reduction == "sum") else 1000000
    rank = draw(st.integers(1, 3))
    shape = []
    for _ in range(rank):
        d = draw(st.integers(1, max(1, min(8192, budget))))
        shape.append(d)
        budget = max(1, budget // d)
    return {"shapes": {"predict": shape, "label": shape}, "types": types, "attrs": {"reduction": reduction}}
