"""Semantics of ForeachNorm: y_i = ||x_i||_p, one norm per tensor of the list, each of shape [1]."""

import torch


def reference(x, scalar):
    p = float(scalar[0])
    return [torch.linalg.vector_norm(t.double(), ord=p).float().reshape(1) for t in x]
