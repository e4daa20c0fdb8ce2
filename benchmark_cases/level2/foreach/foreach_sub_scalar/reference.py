"""Semantics of ForeachSubScalar: y_i = x_i - scalar."""

import torch


def reference(x, scalar):
    scalar = float(scalar[0])
    s = scalar
    return [t - s for t in x]
