"""Semantics of CrossEntropyLossGrad: gradient of CrossEntropyLoss w.r.t. the logits (float64)."""
import torch

LOGITS = "log_prob"


def extra_inputs(case, rng):
    import numpy as np

    n, c = case.shapes["log_prob"]
    logits = rng.normal(0.0, 2.0, size=(n, c))
    m = logits.max(axis=1, keepdims=True)
    log_prob = logits - m - np.log(np.exp(logits - m).sum(axis=1, keepdims=True))
    grad_loss = rng.uniform(0.5, 2.0, size=tuple(case.shapes["grad_loss"]))
    return {"log_prob": log_prob, "grad_loss": grad_loss}


def shapes_for(n, c):
    return {"grad_loss": [], "log_prob": [n, c], "target": [n]}


def reference(grad_loss, log_prob, target, reduction="mean", ignore_index=-100):
    lp = log_prob.double()
    valid = target != ignore_index
    onehot = torch.zeros_like(lp).scatter_(1, torch.where(valid, target, 0).unsqueeze(1), 1.0)
    g = grad_loss.double()
    if reduction == "mean":
        g = g / valid.sum()
    # Ignored rows get exactly 0 (also when "mean" divides by a count of 0, as torch's NLL backward).
    g = g if g.dim() == 1 else g.expand(lp.shape[0])
    scale = torch.where(valid, g, torch.zeros_like(g))
    return ((torch.exp(lp) - onehot) * scale.unsqueeze(1)).to(log_prob.dtype)


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
    shapes = shapes_for(n, c)
    if reduction == "none":
        shapes["grad_loss"] = [n]
    return {"shapes": shapes, "types": types, "attrs": {"reduction": reduction}}
