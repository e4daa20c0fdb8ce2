"""``EXEC_NPU_CMD`` calls of a task's compiled ``pybind.cpp``, run on the candidate's operator.

The helper header hands every call here as ``exec_npu_cmd(api, args)`` with tagged arguments (see
``include/pytorch_npu_helper.hpp``). The :class:`OpRunner` bound by the harness for the current
candidate then does what CANN's generated aclnn API and runtime do on hardware:

1. map the positional arguments onto the candidate's OpDef: its inputs, then its attributes, then
   its outputs, each in declaration order (an argument count or kind that does not fit is the
   candidate's fault, like an aclnn API that does not compile against the task's binding);
2. pick the OpDef's DataType column that matches the dtypes of the tensors (scalar arguments bound
   to an input become a one-element tensor, a scalar list a 1-D tensor, of that column's dtype);
3. build the project for that dtype binding and run the kernel through the toolchain in a child
   process, with fresh poisoned output buffers;
4. check that inputs the operator does not write are unchanged, and copy the outputs back into the
   tensors ``pybind.cpp`` allocated. An output tensor that *is* one of the input tensors (identity,
   or the same storage, shape and dtype) is an in-place output: the kernel gets that input's buffer.

Every run also records the bytes it had to move (its own outputs, every input in full: the upstream
layout declares no partial reads), which the checker holds its cost to (``speed_audit`` floors).
"""

from __future__ import annotations

import contextlib
import contextvars
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from npukernelbench.compare import same_bits
from npukernelbench.inputs import from_values
from npukernelbench.result import ErrorCategory
from npukernelbench.speed_audit import Traffic
from npukernelbench.toolchains.base import (
    BuildResult,
    KernelProject,
    Launch,
    OpParam,
    OpSignature,
    ParamSlot,
    RunResult,
    TensorArg,
    Toolchain,
)

_CURRENT: contextvars.ContextVar[OpRunner | None] = contextvars.ContextVar("npukb_op_runner", default=None)


class CallError(Exception):
    """The candidate's operator could not serve a call (subclasses say how)."""


class SignatureMismatch(CallError):
    """The task's call does not fit the candidate's OpDef (arguments, kinds, dtypes)."""

    def __init__(self, message: str, category: ErrorCategory = ErrorCategory.API_SIGNATURE):
        super().__init__(message)
        self.category = category


class TaskCallsOtherOp(Exception):
    """The task's pybind.cpp calls an aclnn API other than its own operator's (LayerNormV4's calls the
    built-in aclnnLayerNorm): a problem of the task, which no candidate can fix."""


class KernelBuildFailed(CallError):
    def __init__(self, build: BuildResult):
        super().__init__(build.diagnostics)
        self.build = build


class KernelRunFailed(CallError):
    def __init__(self, run: RunResult):
        super().__init__(run.message)
        self.run = run


class InputModified(CallError):
    """The kernel wrote to an input that is not one of its (in-place) outputs."""


def exec_npu_cmd(api: str, args: Sequence[tuple[Any, ...]]) -> None:
    """Entry point of the helper header's ``EXEC_NPU_CMD``."""
    runner = _CURRENT.get()
    if runner is None:
        raise RuntimeError(f"kernel_gen_ops called {api} outside an npukernelbench candidate run")
    runner.call(api, list(args))


@contextlib.contextmanager
def bound(runner: OpRunner) -> Iterator[OpRunner]:
    """Route ``EXEC_NPU_CMD`` calls to ``runner`` while the block runs (with torch's fresh memory
    marked, see :func:`marked_uninitialised_memory`)."""
    token = _CURRENT.set(runner)
    try:
        with marked_uninitialised_memory():
            yield runner
    finally:
        _CURRENT.reset(token)


def normalized(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def pick_signature(signatures: Sequence[OpSignature], kernel: str) -> OpSignature:
    """The OpDef whose type is the kernel file's name (CANN names the kernel file after the op type:
    ``AddCustom`` -> ``add_custom``), or the only one registered. Raises SignatureMismatch."""
    if not signatures:
        raise SignatureMismatch("the host code registers no OpDef (a class deriving from OpDef plus OP_ADD(Type))",
                                ErrorCategory.SYNTAX_STRUCTURE)
    named = [s for s in signatures if normalized(s.op) == normalized(kernel)]
    if len(named) == 1:
        return named[0]
    if len(signatures) == 1:
        return signatures[0]
    raise SignatureMismatch(f"the host code registers OpDefs {', '.join(s.op for s in signatures)}, none named "
                            f"after the kernel op_kernel/{kernel}.cpp", ErrorCategory.SYNTAX_STRUCTURE)


# -- torch <-> storage arrays -------------------------------------------------------------------------

def torch_dtype_name(tensor: Any) -> str:
    return str(tensor.dtype).removeprefix("torch.")


def to_storage(tensor: Any) -> np.ndarray:
    """A tensor's raw values as the storage array the toolchains exchange (bfloat16 as uint16 bits).
    No copy where the tensor is contiguous: the array shares its memory and is only read (written
    to a launch file, compared), which keeps half-billion-element tasks within the worker's memory."""
    import torch

    t = tensor.detach().cpu().contiguous()
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().view(np.uint16)
    return t.numpy()


def from_storage(array: np.ndarray, dtype_name: str) -> Any:
    import torch

    if dtype_name == "bfloat16":
        return torch.from_numpy(np.ascontiguousarray(array).view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(np.ascontiguousarray(array))


def _same_tensor(a: Any, b: Any) -> bool:
    if a is b:
        return True
    return (a is not None and b is not None and a.numel() > 0 and a.data_ptr() == b.data_ptr()
            and a.shape == b.shape and a.dtype == b.dtype)


# -- output buffers ------------------------------------------------------------------------------------

@contextlib.contextmanager
def marked_uninitialised_memory() -> Iterator[None]:
    """While the block runs, torch fills what ``empty`` allocates with a marker (NaN; the largest value
    of an integer type; True), as its deterministic mode does: an output the task's binding allocated
    with ``empty`` is then told apart from one it zeroed or filled before the launch (upstream's
    kernels see that initialisation; fresh buffers get the simulator's poison instead)."""
    import torch

    was, warn = torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled()
    filled = torch.utils.deterministic.fill_uninitialized_memory
    torch.use_deterministic_algorithms(True, warn_only=True)
    torch.utils.deterministic.fill_uninitialized_memory = True
    try:
        yield
    finally:
        torch.utils.deterministic.fill_uninitialized_memory = filled
        torch.use_deterministic_algorithms(was, warn_only=warn)


def uninitialised(tensor: Any) -> bool:
    """Whether every element of ``tensor`` holds the marker of :func:`marked_uninitialised_memory`."""
    import torch

    if tensor.numel() == 0:
        return True
    flat = tensor.detach().reshape(-1)
    for begin in range(0, flat.numel(), _MARK_CHUNK):     # no full-size boolean temporary
        t = flat[begin:begin + _MARK_CHUNK]
        if t.is_floating_point() or t.is_complex():
            marked = bool(torch.isnan(t).all())
        elif t.dtype == torch.bool:
            marked = bool(t.all())
        else:
            marked = bool((t == torch.iinfo(t.dtype).max).all())
        if not marked:
            return False
    return True


# Elements per step of :func:`uninitialised`.
_MARK_CHUNK = 1 << 22


# -- binding -------------------------------------------------------------------------------------------

@dataclass
class Bound:
    """One call mapped onto the OpDef: per parameter its tensors (or None), dtypes and attributes."""

    inputs: dict[str, Any] = field(default_factory=dict)       # name -> tensor | [tensors] | None
    scalars: dict[str, np.ndarray] = field(default_factory=dict)  # inputs given as scalars: values
    outputs: dict[str, Any] = field(default_factory=dict)      # name -> tensor | [tensors]
    aliases: dict[str, str] = field(default_factory=dict)      # output -> input it shares a buffer with
    attrs: dict[str, tuple[str, Any]] = field(default_factory=dict)
    dtypes: dict[str, str] = field(default_factory=dict)


def _describe_call(sig: OpSignature, args: Sequence[tuple[Any, ...]]) -> str:
    want = (f"inputs ({', '.join(p.name for p in sig.inputs)}), attributes ({', '.join(a.name for a in sig.attrs)}), "
            f"outputs ({', '.join(p.name for p in sig.outputs)})")
    got = ", ".join(str(a[0]) for a in args)
    return f"OpDef {sig.op} takes {want}; the task passes {len(args)} argument(s): {got}"


_TENSOR_KINDS = ("tensor", "tensor_list")
_ATTR_KINDS = {
    "float": ("float", "int", "scalar"), "int": ("int", "bool", "scalar"), "bool": ("bool", "int", "scalar"),
    "str": ("str",), "list_int": ("int_array",), "list_float": ("float_array", "int_array"),
    "list_bool": ("bool_array",), "list_list_int": (),
}


def _attr_value(kind: str, value: Any, attr_type: str) -> Any:
    if attr_type == "float":
        return float(value)
    if attr_type == "int":
        if isinstance(value, float) and not value.is_integer():
            raise ValueError(f"{value!r} is not an integer")
        return int(value)
    if attr_type == "bool":
        return bool(value)
    if attr_type == "list_float":
        return [float(v) for v in value]
    return value


def bind(sig: OpSignature, api: str, args: Sequence[tuple[Any, ...]]) -> Bound:
    """Map one EXEC_NPU_CMD call onto ``sig`` (raises SignatureMismatch).

    An output named like an input is in place (InplaceAddRmsNorm's ``x1``): the aclnn API CANN
    generates takes that tensor once, as the input (a "Ref" parameter), and the kernel's output
    parameter gets the input's buffer. A call may also pass it again explicitly."""
    n_in, n_attr, n_out = len(sig.inputs), len(sig.attrs), len(sig.outputs)
    in_names = {p.name for p in sig.inputs}
    in_place = [p.name for p in sig.outputs if p.name in in_names]
    if in_place and len(args) == n_in + n_attr + n_out - len(in_place):
        out_decls = [p for p in sig.outputs if p.name not in in_names]
    elif len(args) == n_in + n_attr + n_out:
        out_decls, in_place = list(sig.outputs), []
    else:
        takes = f"{n_in + n_attr + n_out - len(in_place)}" + (f" or {n_in + n_attr + n_out}" if in_place else "")
        raise SignatureMismatch(f"{api}: {_describe_call(sig, args)} (the aclnn API generated for the OpDef takes "
                                f"{takes})")
    bound = Bound()
    for p, arg in zip(sig.inputs, args[:n_in], strict=True):
        kind, value = arg[0], arg[1]
        if kind in ("none",) or (kind == "tensor" and value is None):
            if p.param_type != "OPTIONAL":
                raise SignatureMismatch(f"{api}: the task passes no tensor for input '{p.name}', which the OpDef "
                                        f"declares {p.param_type} (declare it .ParamType(OPTIONAL))")
            bound.inputs[p.name] = None
        elif kind == "tensor_list" or kind == "tensor":
            if (kind == "tensor_list") != (p.param_type == "DYNAMIC"):
                raise SignatureMismatch(f"{api}: input '{p.name}' is declared {p.param_type} but the task passes a "
                                        f"{'tensor list' if kind == 'tensor_list' else 'single tensor'} "
                                        f"(a tensor list needs .ParamType(DYNAMIC))")
            bound.inputs[p.name] = value
        elif kind in ("scalar", "scalar_list", "int_array", "float_array", "bool_array"):
            if p.param_type == "DYNAMIC":
                raise SignatureMismatch(f"{api}: input '{p.name}' is declared DYNAMIC (a tensor list) but the task "
                                        f"passes a {kind}")
            if kind == "scalar":
                values = [value]
            elif kind == "scalar_list":
                values = [v[0] for v in value]
            else:
                values = list(value)
            bound.scalars[p.name] = np.asarray(values)
            bound.inputs[p.name] = None
        else:
            raise SignatureMismatch(f"{api}: input '{p.name}' of OpDef {sig.op} takes a tensor but the task passes "
                                    f"a {kind} ({value!r}); {_describe_call(sig, args)}")
    for a, arg in zip(sig.attrs, args[n_in:n_in + n_attr], strict=True):
        kind, value = arg[0], arg[1]
        if kind == "none":
            continue
        if kind in _TENSOR_KINDS:
            raise SignatureMismatch(f"{api}: attribute '{a.name}' of OpDef {sig.op} gets a {kind}; "
                                    f"{_describe_call(sig, args)}")
        attr_type = a.type
        if attr_type == "none":         # declared without a value type: take the argument's
            attr_type = {"float": "float", "scalar": "float", "int": "int", "bool": "bool", "str": "str",
                         "int_array": "list_int", "float_array": "list_float", "bool_array": "list_bool"}[kind]
        if kind not in _ATTR_KINDS.get(attr_type, ()):
            raise SignatureMismatch(f"{api}: attribute '{a.name}' of OpDef {sig.op} is {attr_type} but the task "
                                    f"passes a {kind} ({value!r})")
        try:
            bound.attrs[a.name] = (attr_type, _attr_value(kind, value, attr_type))
        except (TypeError, ValueError) as exc:
            raise SignatureMismatch(f"{api}: attribute '{a.name}' ({attr_type}): {exc}") from None
    ins = {name: t for name, t in bound.inputs.items() if t is not None}
    for name in in_place:
        if ins.get(name) is None:
            raise SignatureMismatch(f"{api}: output '{name}' of OpDef {sig.op} works in place on input '{name}', "
                                    "but the task passes no tensor for that input")
        bound.outputs[name] = ins[name]
        bound.aliases[name] = name
    for p, arg in zip(out_decls, args[n_in + n_attr:], strict=True):
        kind, value = arg[0], arg[1]
        if kind not in _TENSOR_KINDS or value is None or (kind == "tensor_list" and any(v is None for v in value)):
            raise SignatureMismatch(f"{api}: output '{p.name}' of OpDef {sig.op} gets a {kind} "
                                    f"({'undefined' if value is None else value!r}); {_describe_call(sig, args)}")
        if (kind == "tensor_list") != (p.param_type == "DYNAMIC"):
            raise SignatureMismatch(f"{api}: output '{p.name}' is declared {p.param_type} but the task passes a "
                                    f"{'tensor list' if kind == 'tensor_list' else 'single tensor'}")
        bound.outputs[p.name] = value
        for name, t in ins.items():
            if isinstance(value, list) and isinstance(t, list):
                same = len(value) == len(t) and all(_same_tensor(a, b) for a, b in zip(value, t, strict=True))
            else:
                same = not isinstance(value, list) and not isinstance(t, list) and _same_tensor(value, t)
            if same:
                bound.aliases[p.name] = name
                break
    bound.dtypes = _column(sig, bound, api)
    return bound


def _tensor_dtype(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, list):
        names = {torch_dtype_name(t) for t in value}
        return names.pop() if len(names) == 1 else "mixed:" + ",".join(sorted(names))
    return torch_dtype_name(value)


def _column(sig: OpSignature, bound: Bound, api: str) -> dict[str, str]:
    """The dtype of every parameter from the OpDef DataType column matching the call's tensors."""
    given: dict[str, str] = {}
    for p in sig.inputs:
        dt = _tensor_dtype(bound.inputs.get(p.name))
        if dt is not None:
            given[p.name] = dt
    for p in sig.outputs:
        given[p.name] = _tensor_dtype(bound.outputs[p.name]) or ""
    params: dict[str, OpParam] = {p.name: p for p in (*sig.inputs, *sig.outputs)}

    def fits(j: int) -> bool:
        for name, dt in given.items():
            p = params[name]
            if not p.dtypes:
                continue
            if p.any_column:
                if dt not in p.dtypes:
                    return False
            elif j >= len(p.dtypes) or p.dtypes[j] != dt:
                return False
        return True

    for j in range(sig.columns):
        if fits(j):
            result = {}
            for name, p in params.items():
                if name in given and (p.any_column or not p.dtypes):
                    result[name] = given[name]
                elif p.dtypes and not p.any_column:
                    result[name] = p.dtypes[j] or given.get(name, "")
                else:
                    result[name] = p.dtypes[0] if p.dtypes else given.get(name, "float32")
                if name in bound.scalars and not result[name]:
                    result[name] = "float32"
            return result
    want = ", ".join(f"{n}={d}" for n, d in given.items())
    raise SignatureMismatch(f"{api}: OpDef {sig.op} has no DataType column for {want} (add it as one column of "
                            "the DataType({...}) lists of every input and output)", ErrorCategory.DTYPE_CONVERSION)


# -- running ---------------------------------------------------------------------------------------------

def _nbytes(value: Any) -> int:
    if value is None:
        return 0
    if isinstance(value, list | tuple):
        return sum(int(np.asarray(v).nbytes) for v in value)
    return int(np.asarray(value).nbytes)


@dataclass
class OpRunner:
    """Serves the EXEC_NPU_CMD calls of one candidate project (bound with :func:`bound`)."""

    toolchain: Toolchain
    signature: OpSignature
    kernel: str
    files: Mapping[str, str]
    poison_seed: int = 0
    timeout_s: float = 60.0
    soc: str | None = None         # SoC profile every launch simulates (Launch.soc)
    builds: dict[tuple[tuple[str, str], ...], BuildResult] = field(default_factory=dict)
    runs: list[RunResult] = field(default_factory=list)
    traffic: list[Traffic] = field(default_factory=list)   # per run: the bytes it had to move (speed floors)
    built: bool = False            # some build of this project succeeded

    def project(self, dtypes: Mapping[str, str], lists: set[str]) -> KernelProject:
        params = []
        for role, decls in (("input", self.signature.inputs), ("output", self.signature.outputs)):
            for p in decls:
                ptype = "DYNAMIC" if p.name in lists else p.param_type
                params.append(ParamSlot(p.name, role, ptype, dtypes[p.name]))
        return KernelProject(op=self.signature.op, kernel=self.kernel, files=dict(self.files), params=tuple(params))

    def build(self, dtypes: Mapping[str, str], lists: set[str]) -> BuildResult:
        key = tuple(sorted(dtypes.items())) + tuple(sorted(("list", n) for n in lists))
        if key not in self.builds:
            self.builds[key] = self.toolchain.build(self.project(dtypes, lists))
        result = self.builds[key]
        if not result.ok:
            raise KernelBuildFailed(result)
        self.built = True
        return result

    def call(self, api: str, args: list[tuple[Any, ...]]) -> None:
        sig = self.signature
        if normalized(api) != normalized(f"aclnn{sig.op}"):
            if normalized(sig.op) != normalized(self.kernel):
                raise SignatureMismatch(f"the task calls {api} but the candidate's operator is {sig.op} (its aclnn "
                                        f"API is aclnn{sig.op})", ErrorCategory.SYNTAX_STRUCTURE)
            # The candidate's operator is the one the task's kernel file names: the binding is at fault.
            raise TaskCallsOtherOp(f"the task calls {api}, not its own operator {sig.op} (aclnn{sig.op}): the "
                                   "binding does not exercise the candidate's kernel")
        b = bind(sig, api, args)
        lists = {n for n, v in {**b.inputs, **b.outputs}.items() if isinstance(v, list)}
        build = self.build(b.dtypes, lists)
        ins = []
        sent: dict[str, Any] = {}
        for p in sig.inputs:
            dt = b.dtypes[p.name]
            if p.name in b.scalars:
                data: Any = from_values(b.scalars[p.name], dt)
            else:
                value = b.inputs.get(p.name)
                data = None if value is None else [to_storage(t) for t in value] if isinstance(value, list) \
                    else to_storage(value)
            sent[p.name] = data
            ins.append(TensorArg(p.name, dt, data=data))
        outs = []
        for p in sig.outputs:
            value = b.outputs[p.name]
            shape: Any = [tuple(t.shape) for t in value] if isinstance(value, list) else tuple(value.shape)
            alias = b.aliases.get(p.name)
            init: Any = None
            if alias is None and not any(uninitialised(t) for t in (value if isinstance(value, list) else [value])):
                init = [to_storage(t) for t in value] if isinstance(value, list) else to_storage(value)
            outs.append(TensorArg(p.name, b.dtypes[p.name], data=init, shape=shape, alias=alias))
        launch = Launch(inputs=tuple(ins), outputs=tuple(outs), attrs=b.attrs, timeout_s=self.timeout_s,
                        poison_seed=self.poison_seed, soc=self.soc)
        run = self.toolchain.run(build, launch)
        if not run.ok:
            self.runs.append(run)
            raise KernelRunFailed(run)
        # kept for its time and details; the arrays (as large as the tensors) are handed back below
        self.runs.append(replace(run, outputs={}, inputs_after={}))
        self.traffic.append(Traffic(output_bytes=sum(_nbytes(run.outputs.get(p.name)) for p in sig.outputs
                                                      if p.name not in b.aliases),
                                    input_bytes=sum(_nbytes(sent[p.name]) for p in sig.inputs)))
        aliased = set(b.aliases.values())
        for p in sig.inputs:
            if p.name in aliased or sent[p.name] is None or p.name not in run.inputs_after:
                continue
            if not same_bits(run.inputs_after[p.name], sent[p.name]):
                if not sig.outputs:
                    # An operator without outputs works in place (the binding returns the inputs it
                    # updated, as GroupGemm's and ForeachNonFiniteCheckAndUnscale's do): hand the
                    # kernel's results back to the tensors (each tensor of a list).
                    value, after = b.inputs[p.name], run.inputs_after[p.name]
                    pairs = zip(value, after, strict=True) if isinstance(value, list) else [(value, after)]
                    for tensor, array in pairs:
                        tensor.copy_(from_storage(array, b.dtypes[p.name]).reshape(tensor.shape))
                    continue
                raise InputModified(f"input '{p.name}' was modified by the kernel; inputs must be left unchanged "
                                    "(only an output the task passes as the same tensor may share its buffer)")
        for p in sig.outputs:
            value, got = b.outputs[p.name], run.outputs.get(p.name)
            if got is None:
                raise KernelRunFailed(RunResult(ok=False, message=f"runtime_error: output '{p.name}' was not "
                                                                  "produced by the run"))
            pairs = zip(value, got, strict=True) if isinstance(value, list) else [(value, got)]
            for tensor, array in pairs:
                tensor.copy_(from_storage(array, b.dtypes[p.name]).reshape(tensor.shape))


def candidate_signature(toolchain: Any, op: str, kernel: str, files: Mapping[str, str]) -> OpSignature:
    """The signature of the candidate's operator as its host code registers it (``toolchain.describe``),
    the one ``kernel`` names; a host side that does not build, or registers no such operator, is the
    candidate's build error (``BuildFailed``)."""
    from npukernelbench.checker import BuildFailed

    described = toolchain.describe(KernelProject(op=op, kernel=kernel, files=dict(files), params=()))
    if not described.ok:
        raise BuildFailed(BuildResult(ok=False, artifact=None, key="", diagnostics=described.diagnostics,
                                      error_category=described.error_category, timed_out=described.timed_out))
    try:
        return pick_signature(described.signatures, kernel)
    except SignatureMismatch as exc:
        raise BuildFailed(BuildResult(ok=False, artifact=None, key="", diagnostics=str(exc),
                                      error_category=exc.category)) from None

