"""Semantics of Gelu (tanh approximation), computed in float64."""
import math

import torch


def reference(x):
    xd = x.double()
    y = 0.5 * xd * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (xd + 0.044715 * xd ** 3)))
    return y.to(x.dtype)
