import torch
import torch.nn as nn
import torch_npu
from torch_npu.contrib import transfer_to_npu

import kernel_gen_ops


class Model(nn.Module):
    def __init__(self):
        super(Model, self).__init__()

    def forward(self, x, y):
        return x + y


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x, y):
        return kernel_gen_ops.add_custom(x, y)
