import torch
from framework.utils import check_precision


def get_inputs(param, device=None):
    return [torch.randn(eval(param.get("shape")), dtype=torch.float32, device=device)]


def get_init_inputs(param, device=None):
    return []


def custom_check_precision(param, outputs, outputs_new):
    return check_precision(outputs, outputs_new, max_abs_error=1e-4, max_rel_error=1e-4)
