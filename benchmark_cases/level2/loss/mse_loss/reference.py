"""Semantics of MseLoss, accumulated in float64."""


def reference(predict, label, reduction="mean"):
    d = (predict.double() - label.double()) ** 2
    if reduction == "mean":
        d = d.mean()
    elif reduction == "sum":
        d = d.sum()
    return d.to(predict.dtype)
