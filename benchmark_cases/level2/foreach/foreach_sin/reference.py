"""Semantics of ForeachSin: y_i = sin(x_i)."""

import torch


def reference(x):
    return [torch.sin(t) for t in x]
