"""Semantics of ForeachSqrt: y_i = sqrt(x_i)."""

import torch


def reference(x):
    return [torch.sqrt(t) for t in x]
