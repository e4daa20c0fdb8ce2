import json

import torch


def get_inputs(param, device):
    shape = json.loads(param.get("shape"))
    dtype = getattr(torch, param.get("dtype", "float32"))
    return [torch.randn(shape, dtype=dtype, device=device) for _ in range(1)]


def get_init_inputs(param, device):
    return []
