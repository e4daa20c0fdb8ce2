"""Semantics of ForeachPowScalarAndTensor: y_i = scalar ** x_i."""

import torch


def reference(x, scalar):
    scalar = float(scalar[0])
    s = scalar
    return [torch.pow(s, t) for t in x]
