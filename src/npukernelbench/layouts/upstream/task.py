"""The Python side of one public NPUKernelBench task: ``validation/module.py`` (``Model``, ``ModelNew``),
``prepare_inputs.py`` (``get_inputs``, ``get_init_inputs``, optional ``custom_check_precision``), the
typed CSV rows and the compiled ``pybind.cpp`` (``kernel_gen_ops``).

The task files are trusted (they are the benchmark); they run in this process, under the CPU shims
and with the ``npu`` device mapped to the CPU (:mod:`npukernelbench.npu_shims`). Candidate code
never runs here: ``kernel_gen_ops`` hands every operator call to the toolchain.
"""

from __future__ import annotations

import contextlib
import sys
import types
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from npukernelbench import npu_shims as shims
from npukernelbench.layouts.upstream import binding
from npukernelbench.layouts.upstream.rows import Row, read_rows
from npukernelbench.module_loader import CaseReferenceError, load_module
from npukernelbench.reference_runner import call_reference
from npukernelbench.toolchains.base import Toolchain


@dataclass(frozen=True)
class Inputs:
    """What ``get_init_inputs`` and ``get_inputs`` returned for one row and seed."""

    init: tuple[Any, ...]
    args: tuple[Any, ...]


def clone(value: Any) -> Any:
    """Deep copy of tensors inside tuples, lists and dicts (other values as they are); a tensor that
    requires grad stays a leaf that requires grad (references that differentiate need it)."""
    import torch

    if isinstance(value, torch.Tensor):
        return value.detach().clone().requires_grad_(value.requires_grad)
    if isinstance(value, tuple | list):
        return type(value)(clone(v) for v in value)
    if isinstance(value, dict):
        return {k: clone(v) for k, v in value.items()}
    return value


def upcast(value: Any) -> Any:
    """``clone`` with float16 and bfloat16 tensors as float32 (the reference computes in float32)."""
    import torch

    if isinstance(value, torch.Tensor):
        copy = value.detach().float() if value.dtype in (torch.float16, torch.bfloat16) else value.detach().clone()
        return copy.requires_grad_(value.requires_grad)
    if isinstance(value, tuple | list):
        return type(value)(upcast(v) for v in value)
    if isinstance(value, dict):
        return {k: upcast(v) for k, v in value.items()}
    return value


class UpstreamTask:
    """Loaded once per task folder and process (see :func:`upstream_task`)."""

    def __init__(self, folder: Path, op: str, kernel: str):
        self.folder = Path(folder)
        self.op = op
        self.kernel = kernel
        validation = self.folder / "validation"
        self.module = load_module(validation / "module.py", shims.import_shims)
        self.prepare = load_module(validation / "prepare_inputs.py", shims.import_shims)
        for owner, name in ((self.module, "Model"), (self.module, "ModelNew"), (self.prepare, "get_inputs")):
            if not hasattr(owner, name):
                raise CaseReferenceError(f"{owner.__file__} defines no {name}")
        self.rows: list[Row] = read_rows(validation / "test_cases.csv")
        self.pybind = validation / "pybind.cpp"
        self._binding: types.ModuleType | None = None

    @property
    def custom_check(self) -> Any:
        return getattr(self.prepare, "custom_check_precision", None)

    def make_inputs(self, row: Row, seed: int) -> Inputs:
        """``get_init_inputs`` then ``get_inputs`` (as upstream orders them) after seeding torch, and the
        global generators of numpy and Python that some tasks draw from instead."""
        import random

        import numpy as np
        import torch

        torch.manual_seed(seed)
        np.random.seed(seed % 2**32)
        random.seed(seed)
        try:
            with shims.npu_on_cpu():
                init_fn = getattr(self.prepare, "get_init_inputs", None)
                init = tuple(init_fn(row, device="cpu")) if init_fn is not None else ()
                args = self.prepare.get_inputs(row, device="cpu")
        except Exception as exc:
            raise CaseReferenceError(f"{self.folder}/validation/prepare_inputs.py raised {type(exc).__name__}: {exc} "
                                  f"on case {row.label()}") from exc
        return Inputs(init=init, args=tuple(args) if isinstance(args, tuple | list) else (args,))

    def reference(self, row: Row, inputs: Inputs, values: bool = False) -> Any:
        """``Model(*init)(*args)`` on copies; with ``values`` on float32 copies of half/bf16 tensors."""
        copy = upcast if values else clone

        def model(init: Any, args: Any) -> Any:
            return self.module.Model(*init)(*args)

        return call_reference(model, (copy(inputs.init), copy(inputs.args)), {},
                              f"{self.folder}/validation/module.py: Model", f"case {row.label()}")

    def binding(self, toolchain: Toolchain) -> types.ModuleType:
        """The compiled ``kernel_gen_ops`` of this task, built with the toolchain's host compiler and
        cached under its cache root (raises binding.BindingError)."""
        if self._binding is None:
            self._binding = binding.load_binding(binding.build_binding(
                self.pybind, toolchain.cache_root(), self.op, self.kernel, toolchain.host_compiler()))
        return self._binding

    @contextlib.contextmanager
    def bound_module(self, toolchain: Toolchain) -> Iterator[None]:
        """``kernel_gen_ops`` is the compiled binding while the block runs: in module.py's namespace (its
        import at the top) and in ``sys.modules`` (imports inside ``forward``)."""
        compiled = self.binding(toolchain)
        spaces = (vars(self.module), sys.modules)
        saved = [space.get(binding.MODULE_NAME) for space in spaces]
        for space in spaces:
            space[binding.MODULE_NAME] = compiled
        try:
            yield
        finally:
            for space, value in zip(spaces, saved, strict=True):
                if value is None:
                    space.pop(binding.MODULE_NAME, None)
                else:
                    space[binding.MODULE_NAME] = value

    def candidate(self, inputs: Inputs) -> Any:
        """``ModelNew(*init)(*args)`` on copies (call inside :meth:`bound_module` and ``op_call.bound``)."""
        import torch

        with torch.no_grad(), shims.npu_on_cpu():
            return self.module.ModelNew(*clone(inputs.init))(*clone(inputs.args))


_TASKS: dict[str, UpstreamTask] = {}


def upstream_task(folder: Path, op: str, kernel: str) -> UpstreamTask:
    """The task in ``folder`` (loaded once per process); ``op`` is its OpDef type, ``kernel`` its kernel
    name (``TaskSpec.op`` / ``TaskSpec.kernel``)."""
    key = str(Path(folder).resolve())
    if key not in _TASKS:
        _TASKS[key] = UpstreamTask(Path(key), op, kernel)
    return _TASKS[key]
