import torch


def get_inputs(param, device=None):
    return [torch.randn(eval(param.get("shape")), dtype=torch.float32, device=device)]


def get_init_inputs(param, device=None):
    return [float(param.get("scale")), float(param.get("shift", 0.0))]
