"""CPU stand-ins for the Ascend-only Python packages that task references import, and a scoped mapping
of the ``npu`` device onto the CPU (for the references of every layout).

``validation/module.py`` and ``prepare_inputs.py`` import ``torch_npu``, ``torch_npu.contrib.
transfer_to_npu``, ``kernel_gen_ops`` and ``framework.utils.check_precision`` (the upstream harness's
package). :func:`import_shims` makes those imports succeed while a task file is imported, for every
name that is not installed; the shims leave ``sys.modules`` afterwards, so that libraries probing for
``torch_npu`` later (accelerate, transformers) do not mistake a shim for the real package.
:func:`npu_on_cpu` maps ``.npu()``, ``.to("npu")`` and ``device="npu"`` to the CPU while task code
runs, and restores torch afterwards.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import sys
import types
from collections.abc import Callable, Iterator
from typing import Any

SHIMMED = ("torch_npu", "torch_npu.contrib", "torch_npu.contrib.transfer_to_npu", "kernel_gen_ops", "framework",
           "framework.utils")


class ShimError(RuntimeError):
    """Task code used a part of torch_npu / kernel_gen_ops that the CPU shims do not provide."""


def _missing(module: str) -> Callable[[str], Any]:
    def getattr_(attr: str) -> Any:
        if attr.startswith("__"):
            raise AttributeError(attr)
        raise ShimError(f"{module}.{attr} is not available: {module} is a CPU shim of npukernelbench (only the "
                        "torch reference and the candidate kernel, through kernel_gen_ops, run here)")
    return getattr_


def _module(name: str, doc: str, **attrs: Any) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__doc__ = f"npukernelbench CPU shim: {doc}"
    module.__getattr__ = _missing(name)  # type: ignore[method-assign]
    for key, value in attrs.items():
        setattr(module, key, value)
    return module


def _npu_namespace() -> types.SimpleNamespace:
    return types.SimpleNamespace(synchronize=lambda *a, **k: None, set_device=lambda *a, **k: None,
                                 is_available=lambda: False, current_device=lambda: 0, device_count=lambda: 0,
                                 empty_cache=lambda: None, manual_seed=lambda *a, **k: None)


def _make(name: str) -> types.ModuleType:
    if name == "torch_npu":
        return _module(name, "torch_npu is not installed", npu=_npu_namespace())
    if name == "torch_npu.contrib":
        return _module(name, "torch_npu is not installed")
    if name == "torch_npu.contrib.transfer_to_npu":
        return _module(name, "importing it maps cuda to npu upstream; here everything runs on the CPU")
    if name == "kernel_gen_ops":
        return _module(name, "the task's compiled pybind.cpp is bound in only while a candidate runs")
    if name == "framework":
        return _module(name, "the upstream harness package")
    if name == "framework.utils":
        from npukernelbench.layouts.upstream.precision import check_precision

        return _module(name, "the upstream harness's helpers", check_precision=check_precision)
    raise KeyError(name)


def _installed(name: str) -> bool:
    if name in sys.modules:
        return True
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


@contextlib.contextmanager
def import_shims() -> Iterator[None]:
    """Make the task files' imports succeed for every shimmed name that is not installed."""
    added: list[str] = []
    for name in SHIMMED:
        parent = name.rpartition(".")[0]
        if (parent and parent not in added and _installed(parent)) or _installed(name):
            continue
        module = _make(name)
        sys.modules[name] = module
        added.append(name)
        if parent in added:
            setattr(sys.modules[parent], name.rpartition(".")[2], module)
    try:
        yield
    finally:
        for name in added:
            sys.modules.pop(name, None)


# -- the npu device on the CPU ----------------------------------------------------------------------

_FACTORIES = ("tensor", "as_tensor", "empty", "zeros", "ones", "full", "rand", "randn", "randint", "randperm",
              "arange", "linspace", "logspace", "eye", "empty_like", "zeros_like", "ones_like", "full_like",
              "rand_like", "randn_like", "randint_like", "empty_strided", "normal")


_RANDOM = ("rand", "randn", "rand_like", "randn_like")


def _is_npu(device: Any) -> bool:
    return isinstance(device, str) and device.split(":")[0] == "npu"


def _cpu_device(kwargs: dict[str, Any]) -> dict[str, Any]:
    if _is_npu(kwargs.get("device")):
        kwargs = {**kwargs, "device": "cpu"}
    return kwargs


def _factory(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def call(*args: Any, **kwargs: Any) -> Any:
        return original(*args, **_cpu_device(kwargs))
    return call


def _random_factory(original: Callable[..., Any]) -> Callable[..., Any]:
    """``torch.rand``/``randn`` (and ``*_like``) with an integer or bool dtype: drawn in float32 and cast,
    as the NPU backend accepts them (torch's CPU backend refuses: "not implemented for 'Int'")."""
    import torch

    @functools.wraps(original)
    def call(*args: Any, **kwargs: Any) -> Any:
        kwargs = _cpu_device(kwargs)
        dtype = kwargs.get("dtype")
        if dtype is None and args and isinstance(args[0], torch.Tensor) and original.__name__.endswith("_like"):
            dtype = args[0].dtype
        if dtype is not None and not (dtype.is_floating_point or dtype.is_complex):
            return original(*args, **{**kwargs, "dtype": torch.float32}).to(dtype)
        return original(*args, **kwargs)
    return call


def _random_fill(original: Callable[..., Any]) -> Callable[..., Any]:
    """``Tensor.uniform_``/``normal_`` on an integer tensor: drawn in float32 and cast (as on the NPU)."""
    import torch

    @functools.wraps(original)
    def call(self: Any, *args: Any, **kwargs: Any) -> Any:
        if self.dtype.is_floating_point or self.dtype.is_complex:
            return original(self, *args, **kwargs)
        values = original(torch.empty(self.shape, dtype=torch.float32), *args, **kwargs)
        return self.copy_(values.to(self.dtype))
    return call


def _to(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def call(self: Any, *args: Any, **kwargs: Any) -> Any:
        args = tuple("cpu" if _is_npu(a) else a for a in args)
        return original(self, *args, **_cpu_device(kwargs))
    return call


@contextlib.contextmanager
def npu_on_cpu() -> Iterator[None]:
    """While task code runs: ``.npu()`` is a no-op, ``.to("npu")`` and ``device="npu"`` mean the CPU,
    and ``torch.npu`` exists (synchronize and friends do nothing). Restored on exit."""
    import torch

    saved: list[tuple[Any, str, Any, bool]] = []

    def patch(owner: Any, name: str, value: Any) -> None:
        saved.append((owner, name, owner.__dict__.get(name) if isinstance(owner, type) else getattr(owner, name, None),
                      name in (owner.__dict__ if isinstance(owner, type) else vars(owner))))
        setattr(owner, name, value)

    try:
        patch(torch.Tensor, "npu", lambda self, *a, **k: self)
        patch(torch.nn.Module, "npu", lambda self, *a, **k: self)
        patch(torch.Tensor, "to", _to(torch.Tensor.to))
        patch(torch.nn.Module, "to", _to(torch.nn.Module.to))
        if not hasattr(torch, "npu"):
            patch(torch, "npu", _npu_namespace())
        for name in _FACTORIES:
            if hasattr(torch, name):
                wrap = _random_factory if name in _RANDOM else _factory
                patch(torch, name, wrap(getattr(torch, name)))
        for name in ("uniform_", "normal_"):
            patch(torch.Tensor, name, _random_fill(getattr(torch.Tensor, name)))
        yield
    finally:
        for owner, name, value, existed in reversed(saved):
            if existed:
                setattr(owner, name, value)
            else:
                with contextlib.suppress(AttributeError):
                    delattr(owner, name)
