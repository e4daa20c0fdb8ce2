"""Semantics of ForeachRoundOffNumber: y_i = round(x_i) under round_mode (1 nearest-even, 2 floor, 3 ceil,
4 half away from zero, 5 trunc)."""

import torch


def _round(t, mode):
    """Round t (float32) under an Ascend RoundMode: 1 half-even, 2 floor, 3 ceil, 4 half away, 5 trunc."""
    if mode == 2:
        return torch.floor(t)
    if mode == 3:
        return torch.ceil(t)
    if mode == 4:
        return torch.sign(t) * torch.floor(torch.abs(t) + 0.5)
    if mode == 5:
        return torch.trunc(t)
    return torch.round(t)


def reference(x, round_mode):
    return [_round(t, int(round_mode[0])) for t in x]
