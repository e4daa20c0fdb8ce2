"""Semantics of ClipByValue: y = min(max(x, clip_min), clip_max) with broadcast bounds."""
import torch


def reference(x, clip_min, clip_max):
    return torch.minimum(torch.maximum(x, clip_min), clip_max)
