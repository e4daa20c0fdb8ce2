"""Semantics of ForeachErf: y_i = erf(x_i)."""

import torch


def reference(x):
    return [torch.erf(t) for t in x]
