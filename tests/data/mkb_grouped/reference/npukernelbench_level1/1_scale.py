"""A grouped task written for npukernelbench's tests: ``x * factor``, one case per line of 1_scale.json."""

import json
from pathlib import Path

import torch
import torch.nn as nn


class Model(nn.Module):
    """Multiplies a tensor by a factor given with each call."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, factor: float) -> torch.Tensor:
        return x * factor


_DTYPES = {"float32": torch.float32}


def _value(entry):
    if entry["type"] == "tensor":
        return torch.randn(entry["shape"], dtype=_DTYPES[entry["dtype"]])
    return entry["value"]


def get_input_groups():
    lines = (Path(__file__).parent / "1_scale.json").read_text().splitlines()
    return [[_value(e) for e in json.loads(line)["inputs"]] for line in lines if line.strip()]


def get_init_inputs():
    return []
