"""Semantics of GeluGrad: dy * d/dx gelu_tanh(x), computed in float64."""
import math

import torch


def reference(dy, x):
    xd = x.double()
    c = math.sqrt(2.0 / math.pi)
    t = torch.tanh(c * (xd + 0.044715 * xd ** 3))
    d = 0.5 * (1.0 + t) + 0.5 * xd * (1.0 - t * t) * c * (1.0 + 3.0 * 0.044715 * xd * xd)
    return (dy.double() * d).to(dy.dtype)
