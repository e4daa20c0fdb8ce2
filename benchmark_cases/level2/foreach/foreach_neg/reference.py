"""Semantics of ForeachNeg: y_i = -x_i."""

import torch


def reference(x):
    return [torch.neg(t) for t in x]
