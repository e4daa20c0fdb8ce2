import torch.nn as nn
import torch_npu  # noqa: F401  (upstream imports it; shimmed on the CPU)
from torch_npu.contrib import transfer_to_npu  # noqa: F401


class Model(nn.Module):
    def __init__(self, scale, shift):
        super().__init__()
        self.scale = scale
        self.shift = shift

    def forward(self, x):
        return x * self.scale + self.shift


class ModelNew(nn.Module):
    def __init__(self, scale, shift):
        super().__init__()
        self.scale = scale
        self.shift = shift

    def forward(self, x):
        import kernel_gen_ops
        return kernel_gen_ops.scale_shift_custom(x, self.scale, self.shift)
