"""Semantics of Tril: torch.tril of the last two dimensions."""
import torch


def reference(x, diagonal=0):
    return torch.tril(x, diagonal=diagonal)
