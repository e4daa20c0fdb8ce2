"""Semantics of Eye: batched identity matrices shaped like x."""
import torch


def reference(x):
    rows, cols = x.shape[-2], x.shape[-1]
    eye = torch.eye(rows, cols, dtype=x.dtype)
    return eye.expand(x.shape).clone()
