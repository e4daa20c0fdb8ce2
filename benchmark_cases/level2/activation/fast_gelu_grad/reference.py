"""Semantics of FastGeluGrad: dy * d/dx [x * sigmoid(1.702 x)], computed in float64."""
import torch


def reference(dy, x):
    xd = x.double()
    s = torch.sigmoid(1.702 * xd)
    return (dy.double() * (s + 1.702 * xd * s * (1.0 - s))).to(dy.dtype)
