"""Scaling a MultiKernelBench reference down: its top-level integer sizes halved until its inputs and
parameters fit an element budget.

MultiKernelBench's references size their inputs with module-level integer constants
(``batch_size = 16``, ``dim = 16384``) that ``get_inputs`` and ``get_init_inputs`` both read, so
changing a constant changes every size derived from it consistently. The largest constant of at least
:data:`MIN_SCALED` is halved, the module re-executed, until the inputs and the model's parameters
and buffers (counted on torch's meta device: nothing is allocated) hold at most the budget. A halving
the reference cannot take (it raises) keeps that constant as it is. Runs only in the confined
reference child (:mod:`.driver`): the reference module is executed.
"""

from __future__ import annotations

import ast
import types
from pathlib import Path
from typing import Any

MIN_SCALED = 16                  # constants below this are kernel sizes, strides, ... (left alone)
MAX_STEPS = 64


def int_constants(source: str) -> dict[str, int]:
    """The module-level ``NAME = <int literal>`` assignments of ``source``."""
    found: dict[str, int] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and type(node.value.value) is int:
            for target in node.targets:
                if isinstance(target, ast.Name):
                    found[target.id] = node.value.value
    return found


def load_module(path: Path, overrides: dict[str, int]) -> types.ModuleType:
    """The reference module with its integer constants replaced by ``overrides``, executed."""
    source = Path(path).read_text(encoding="utf-8")
    tree = ast.parse(source)
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and type(node.value.value) is int:
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id in overrides:
                    node.value = ast.copy_location(ast.Constant(overrides[target.id]), node.value)
    module = types.ModuleType(f"npukb_mkb_reference_{Path(path).stem}")
    module.__file__ = str(path)
    exec(compile(tree, str(path), "exec"), module.__dict__)     # noqa: S102 - the benchmark's reference, confined
    return module


def elements(module: types.ModuleType) -> int:
    """Elements of the inputs and of the model's parameters and buffers, on the meta device."""
    import torch

    with torch.device("meta"):
        model = module.Model(*module.get_init_inputs())
        inputs = module.get_inputs()
    total = sum(p.numel() for p in model.parameters()) + sum(b.numel() for b in model.buffers())
    return total + sum(v.numel() for v in flat(inputs) if isinstance(v, torch.Tensor))


def flat(value: Any) -> list[Any]:
    if isinstance(value, list | tuple):
        return [x for v in value for x in flat(v)]
    return [value]


def choose_sizes(path: Path, budget: int) -> tuple[dict[str, int], int]:
    """Overrides of the reference's constants that bring it within ``budget`` elements (``{}`` when it
    fits already, or ``budget`` is 0), and its element count then."""
    source = Path(path).read_text(encoding="utf-8")
    original = int_constants(source)
    overrides: dict[str, int] = {}
    size = elements(load_module(path, overrides))
    if budget <= 0:
        return overrides, size
    frozen: set[str] = set()
    for _ in range(MAX_STEPS):
        if size <= budget:
            break
        current = {**original, **overrides}
        candidates = [n for n, v in current.items() if v >= MIN_SCALED and n not in frozen]
        if not candidates:
            break
        name = max(candidates, key=lambda n: current[n])
        trial = {**overrides, name: current[name] // 2}
        try:
            trial_size = elements(load_module(path, trial))
        except Exception:               # noqa: BLE001 - a size the reference cannot take: keep that constant
            frozen.add(name)
            continue
        overrides, size = trial, trial_size
    return overrides, size


def describe(original: dict[str, int], overrides: dict[str, int]) -> str:
    """``batch_size 16->8, dim 16384->1024``; empty when nothing was scaled."""
    return ", ".join(f"{k} {original[k]}->{v}" for k, v in sorted(overrides.items()))
