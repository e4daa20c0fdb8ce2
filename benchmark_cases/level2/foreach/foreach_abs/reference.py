"""Semantics of ForeachAbs: y_i = |x_i|."""

import torch


def reference(x):
    return [torch.abs(t) for t in x]
