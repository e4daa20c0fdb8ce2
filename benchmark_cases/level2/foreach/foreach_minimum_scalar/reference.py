"""Semantics of ForeachMinimumScalar: y_i = min(x_i, scalar)."""

import torch


def reference(x, scalar):
    scalar = float(scalar[0])
    s = scalar
    return [torch.clamp(t, max=s) for t in x]
