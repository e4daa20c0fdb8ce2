"""Semantics of MulSigmoidMulAddCustom: y = sigmoid(x * a) * b + c (float32, elementwise)."""

import torch


def reference(x, a, b, c):
    return torch.sigmoid(x.float() * a.float()) * b.float() + c.float()
