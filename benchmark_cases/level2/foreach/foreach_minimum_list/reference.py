"""Semantics of ForeachMinimumList: y_i = min(x1_i, x2_i)."""

import torch


def reference(x1, x2):
    return [torch.minimum(a, b) for a, b in zip(x1, x2, strict=True)]
