"""Semantics of ForeachMaximumScalar: y_i = max(x_i, scalar)."""

import torch


def reference(x, scalar):
    scalar = float(scalar[0])
    s = scalar
    return [torch.clamp(t, min=s) for t in x]
