import torch
import torch.nn as nn


class Model(nn.Module):
    """Multiplies a tensor by a constant factor given at construction."""

    def __init__(self, factor: float):
        super().__init__()
        self.factor = factor

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * self.factor


batch_size = 8
dim = 777
factor = 2.5


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return [factor]
