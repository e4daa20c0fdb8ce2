"""Semantics of FastGelu, computed in float64."""
import torch


def reference(x):
    xd = x.double()
    a = xd.abs()
    return (xd / (1.0 + torch.exp(-1.702 * a)) * torch.exp(0.851 * (xd - a))).to(x.dtype)
