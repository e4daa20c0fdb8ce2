"""Semantics of CrossEntropyLoss: log_softmax over classes + NLL (float64)."""
import torch

LOGITS = "input"


def extra_inputs(case, rng):
    return {"input": rng.normal(0.0, 2.0, size=tuple(case.shapes["input"]))}


def shapes_for(n, c):
    return {"input": [n, c], "target": [n]}


def reference(input, target, reduction="mean", ignore_index=-100):
    log_prob = torch.log_softmax(input.double(), dim=1)
    valid = target != ignore_index
    picked = log_prob.gather(1, torch.where(valid, target, 0).unsqueeze(1)).squeeze(1)
    loss = torch.where(valid, -picked, torch.zeros_like(picked))
    if reduction == "mean":
        loss = loss.sum() / valid.sum()
    elif reduction == "sum":
        loss = loss.sum()
    return loss.to(input.dtype), log_prob.to(input.dtype)


def make_inputs(case, seed):
    """Logits ~ N(0, 2); targets uniform over the classes with about 10% set to ignore_index."""
    import numpy as np

    rng = np.random.default_rng([seed, *shape_key(case)])
    n, c = case.shapes["target"][0], case.shapes[LOGITS][1]
    target = rng.integers(0, c, size=(n,), endpoint=False).astype(np.int64)
    target[rng.random(n) < 0.1] = case.attrs.get("ignore_index", -100)
    out = {"target": target}
    out.update(extra_inputs(case, rng))
    return out


def shape_key(case):
    return [int(d) for shape in case.shapes.values() for d in shape]


def draw_case(draw, spec):
    """N in [1, 2048], C in [1, 8192] with N * C <= 1e6, any reduction."""
    from hypothesis import strategies as st

    c = draw(st.integers(1, 8192))
    n = draw(st.integers(1, max(1, min(2048, 1000000 // c))))
    types = draw(st.sampled_from(list(spec.type_combos)))
    reduction = draw(st.sampled_from(["mean", "sum", "none"]))
    return {"shapes": shapes_for(n, c), "types": types, "attrs": {"reduction": reduction}}
