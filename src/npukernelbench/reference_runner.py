"""Runs a task's torch reference (in this process; candidates run in child processes).

Our ``case-toml`` layout (``TaskSpec.reference.kind == "function"``): ``reference.py`` imported by path;
``reference(*inputs, **attrs)`` returns a tensor or a tuple of tensors (one per output). Optional
hooks: ``make_inputs(case, seed)`` returning ``{name: array or tensor}`` and ``check(got, expected,
case) -> bool``. ``torch_npu`` and friends are shimmed when absent (``npukernelbench.npu_shims``).
The upstream layout loads its ``Model`` through ``npukernelbench.layouts.upstream``; both kinds of
reference are called through :func:`call_reference` (no autograd graph, ``npu`` mapped to the CPU, any
exception a :class:`CaseReferenceError` naming the file, the callable and the case).

Half and bfloat16 inputs are upcast to float32 before the reference runs, so the expected values
are computed in float32 (float32/float64 inputs stay as they are).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from npukernelbench.inputs import InputValue, case_seed, from_values, make_inputs, to_values
from npukernelbench.module_loader import CaseReferenceError, load_module
from npukernelbench.shapes import ShapeCase
from npukernelbench.spec import TaskSpec


def call_reference(fn: Callable[..., Any], args: Sequence[Any], kwargs: Mapping[str, Any], what: str,
                   on: str) -> Any:
    """Run a task's torch reference (``what``: file and callable, for the message; ``on``: the case)."""
    import torch

    from npukernelbench import npu_shims as shims

    try:
        with torch.no_grad(), shims.npu_on_cpu():
            return fn(*args, **kwargs)
    except Exception as exc:
        raise CaseReferenceError(f"{what} raised {type(exc).__name__}: {exc} on {on}") from exc


def _torch_dtype_name(tensor: Any) -> str:
    return str(tensor.dtype).removeprefix("torch.")


def to_torch(value: InputValue, dtype_name: str) -> Any:
    """Storage array -> torch tensor for the reference (half and bfloat16 upcast to float32)."""
    import torch

    if value is None:
        return None
    if isinstance(value, list):
        return [to_torch(v, dtype_name) for v in value]
    array = to_values(value, dtype_name)
    if dtype_name == "float16":
        array = array.astype(np.float32)
    return torch.from_numpy(np.ascontiguousarray(array).copy())


def to_numpy(tensor: Any) -> np.ndarray:
    import torch

    if isinstance(tensor, torch.Tensor):
        t = tensor.detach().cpu()
        if t.dtype in (torch.float16, torch.bfloat16):
            t = t.float()
        return t.numpy().copy()
    return np.asarray(tensor)


def _as_outputs(result: Any, spec: TaskSpec) -> dict[str, Any]:
    if not isinstance(result, tuple | list) or (len(spec.outputs) == 1 and spec.outputs[0].kind == "list"):
        result = (result,)
    if len(result) != len(spec.outputs):
        raise CaseReferenceError(f"the reference returned {len(result)} value(s) for {len(spec.outputs)} output(s) "
                              f"({', '.join(o.name for o in spec.outputs)})")
    out: dict[str, Any] = {}
    for decl, value in zip(spec.outputs, result, strict=True):
        out[decl.name] = [to_numpy(v) for v in value] if isinstance(value, list | tuple) else to_numpy(value)
    return out


def hook_passed(value: Any, hook: str) -> bool:
    """A custom check's verdict, strictly: ``True``/``False`` (Python or numpy), ``0``/``1``, a tensor or
    array of booleans (every element must hold), or a tuple/list whose first element is one of these
    (the public layout's ``(is_pass, abs_diff, rel_diff)``). Anything else (``None``, a float, a count,
    an empty tensor) is a bug in the case and raises :class:`CaseReferenceError`; it never passes a kernel."""
    if isinstance(value, tuple | list):
        if not value:
            raise CaseReferenceError(f"{hook} returned an empty {type(value).__name__}; expected (is_pass, ...)")
        value = value[0]
    if hasattr(value, "detach"):                 # torch tensor
        value = value.detach().cpu().numpy()
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, int | np.integer) and value in (0, 1):
        return bool(value)
    if isinstance(value, np.ndarray) and value.size > 0 and (
            value.dtype == np.bool_ or (value.dtype.kind in "iu" and np.isin(value, (0, 1)).all())):
        return bool(value.all())
    raise CaseReferenceError(f"{hook} returned {value!r} ({type(value).__name__}); expected a bool, 0/1, a boolean "
                          "tensor or a tuple starting with one")


class Reference:
    """Inputs, expected outputs and dtypes of a task's shape cases."""

    def __init__(self, spec: TaskSpec):
        self.spec = spec

    # -- inputs ---------------------------------------------------------------------------------
    def make_inputs(self, case: ShapeCase, seed: int) -> dict[str, InputValue]:
        raise NotImplementedError

    def dtypes(self, case: ShapeCase, inputs: Mapping[str, InputValue]) -> dict[str, str]:
        """Concrete dtype of every parameter (inputs and outputs) for this case."""
        raise NotImplementedError

    def expected(self, case: ShapeCase, inputs: Mapping[str, InputValue]) -> dict[str, Any]:
        raise NotImplementedError

    def custom_check(self, case: ShapeCase, got: Mapping[str, Any], expected: Mapping[str, Any],
                     dtypes: Mapping[str, str]) -> bool | None:
        """None when the task has no custom check, else its verdict."""
        return None


class FunctionReference(Reference):
    def __init__(self, spec: TaskSpec):
        super().__init__(spec)
        self.module = load_module(spec.reference.path)
        if not callable(getattr(self.module, "reference", None)):
            raise CaseReferenceError(f"{spec.reference.path} defines no function reference(*inputs, **attrs)")

    def make_inputs(self, case: ShapeCase, seed: int) -> dict[str, InputValue]:
        hook = getattr(self.module, "make_inputs", None)
        if hook is None:
            return make_inputs(self.spec.inputs, case.shapes, case.types, case_seed(seed, case.key()))
        produced = hook(case, seed)
        values: dict[str, InputValue] = {}
        for decl in self.spec.inputs:
            v = produced.get(decl.name)
            dt = case.types.get(decl.dtype, decl.dtype)
            if v is None:
                values[decl.name] = None
            elif isinstance(v, list | tuple):
                values[decl.name] = [from_values(to_numpy(x), dt) for x in v]
            else:
                values[decl.name] = from_values(to_numpy(v), dt)
        return values

    def dtypes(self, case: ShapeCase, inputs: Mapping[str, InputValue]) -> dict[str, str]:
        return {d.name: case.types.get(d.dtype, d.dtype) for d in self.spec.inputs + self.spec.outputs}

    def expected(self, case: ShapeCase, inputs: Mapping[str, InputValue]) -> dict[str, Any]:
        dts = self.dtypes(case, inputs)
        args = [to_torch(inputs[d.name], dts[d.name]) for d in self.spec.inputs]
        result = call_reference(self.module.reference, args, dict(case.attrs),
                                f"{self.spec.reference.path}: reference()", case.describe())
        return _as_outputs(result, self.spec)

    def custom_check(self, case, got, expected, dtypes):
        hook = getattr(self.module, "check", None)
        if hook is None:
            return None
        return hook_passed(hook(got, expected, case), f"{self.spec.reference.path}: check()")


def reference_for(spec: TaskSpec) -> Reference:
    """The function reference of a ``case.toml`` task (``reference.py``)."""
    if spec.reference.kind != "function":
        raise CaseReferenceError(f"{spec.folder}: the {spec.layout} layout has no function reference (its "
                                 f"reference is a {spec.reference.kind})")
    return FunctionReference(spec)
