import torch


def get_inputs(param, device=None):
    shape = eval(param.get("shape", "[8]"))
    dtype = getattr(torch, param.get("dtype", "float32"))
    return [torch.randn(shape, dtype=dtype, device=device), torch.randn(shape, dtype=dtype, device=device)]


def get_init_inputs(param, device=None):
    return []
