"""Semantics of MseLossGradV2 (float64)."""


def reference(predict, label, dout, reduction="mean"):
    g = 2.0 * (predict.double() - label.double()) * dout.double()
    if reduction == "mean":
        g = g / predict.numel()
    return g.to(predict.dtype)
