import torch
import torch.nn as nn
import torch_npu
from torch_npu.contrib import transfer_to_npu


class Model(nn.Module):
    def __init__(self, scale, shift):
        super(Model, self).__init__()
        self.scale = scale
        self.shift = shift

    def forward(self, x):
        return x * self.scale + self.shift


class ModelNew(nn.Module):
    def __init__(self, scale, shift):
        super(ModelNew, self).__init__()
        self.scale = scale
        self.shift = shift

    def forward(self, x):
        import kernel_gen_ops
        return kernel_gen_ops.scale_shift_custom(x, self.scale, self.shift)
