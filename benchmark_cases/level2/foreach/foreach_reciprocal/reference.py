"""Semantics of ForeachReciprocal: y_i = 1 / x_i."""

import torch


def reference(x):
    return [torch.reciprocal(t) for t in x]
