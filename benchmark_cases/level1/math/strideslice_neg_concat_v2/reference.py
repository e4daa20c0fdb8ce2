"""Semantics of StridesliceNegConcatV2: rotate-half, concat(-x[..., h:], x[..., :h])."""
import torch


def reference(x):
    h = x.shape[-1] // 2
    return torch.cat((-x[..., h:], x[..., :h]), dim=-1)
