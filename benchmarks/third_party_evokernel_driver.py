"""Child-process driver of an EvoKernel operator's reference and binding (see ``third_party_evokernel``).

    python third_party_evokernel_driver.py WORK record|replay

Runs confined, in WORK, which holds ``plan.json`` (reference file, compiled binding, its function
and parameters, size budgets). Writes ``result.json``:

* record: imports the reference, scales its top-level integer sizes down until its inputs and
  parameters hold at most ``budget`` elements (halving the largest size of at least 16, the module
  re-executed so derived sizes follow; the reference's own sizes when the binding accepts only
  those and they fit ``full_budget``), builds the model (seed 0) and inputs (seed 1), computes the
  golden, maps the binding's parameters (:func:`map_arguments`) and calls the binding with every
  ``EXEC_NPU_CMD`` recorded (``call_<i>.pt``); the state is kept in ``state.pt``;
* replay: calls the binding on the same values with each ``EXEC_NPU_CMD`` answered from
  ``call_<i>.result.pt`` (the simulator's outputs) and compares what it returns with the golden:
  ``torch.allclose(atol=1e-2, rtol=1e-2)`` per output, shapes equal.
"""

from __future__ import annotations

import ast
import inspect
import json
import math
import sys
import types
from pathlib import Path
from typing import Any

TOLERANCE = 1e-2
MIN_SCALED = 16


class NoInputs(Exception):
    pass


def load_reference(path: Path, overrides: dict[str, int]) -> types.ModuleType:
    """The reference module, its top-level integer constants replaced by ``overrides`` (then executed)."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and \
                type(node.value.value) is int:
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id in overrides:
                    node.value = ast.copy_location(ast.Constant(overrides[target.id]), node.value)
    module = types.ModuleType(f"npukb_reference_{path.stem}")
    module.__file__ = str(path)
    exec(compile(tree, str(path), "exec"), module.__dict__)     # noqa: S102 - the corpus's reference, confined
    return module


def int_constants(path: Path) -> dict[str, int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and type(node.value.value) is int:
            for target in node.targets:
                if isinstance(target, ast.Name):
                    found[target.id] = node.value.value
    return found


def elements(module: types.ModuleType) -> int:
    """Elements of the inputs and the model's parameters, measured on the meta device (nothing allocated)."""
    import torch

    with torch.device("meta"):
        model = module.Model(*module.get_init_inputs())
        inputs = module.get_inputs()
    total = sum(p.numel() for p in model.parameters()) + sum(b.numel() for b in model.buffers())
    for value in inputs:
        if isinstance(value, torch.Tensor):
            total += value.numel()
    return total


def choose_sizes(path: Path, budget: int) -> tuple[dict[str, int], int]:
    """Overrides of the reference's sizes that bring it within ``budget`` elements, and its size then."""
    original = int_constants(path)
    overrides: dict[str, int] = {}
    size = elements(load_reference(path, overrides))
    for _ in range(64):
        if size <= budget:
            break
        current = {**original, **overrides}
        candidates = [n for n, v in current.items() if v >= MIN_SCALED]
        if not candidates:
            break
        name = max(candidates, key=lambda n: current[n])
        trial = {**overrides, name: current[name] // 2}
        try:
            trial_size = elements(load_reference(path, trial))
        except Exception:               # noqa: BLE001 - a size the reference cannot take: keep it
            original[name] = 0
            overrides.pop(name, None)
            continue
        overrides, size = trial, trial_size
    return overrides, size


def _key(name: str) -> str:
    return name.lower().replace(".", "_")


def map_arguments(params: list[dict[str, str]], inputs: list[Any], model: Any, init: dict[str, Any],
                  module: types.ModuleType) -> tuple[list[Any], list[str]]:
    """The binding's arguments: the reference's inputs positionally first, then each remaining
    parameter by name among the model's parameters and buffers (``conv_weight`` or a unique
    ``weight`` for ``conv.weight``), its scalar attributes, its constructor arguments and the
    module's constants (a tensor parameter given a number gets a one-element float32 tensor). Raises
    NoInputs when a required parameter matches nothing or an input is left over. Returns the values
    and a line per parameter saying where it came from."""
    import torch

    values: list[Any] = []
    notes: list[str] = []
    pending = list(inputs)
    tensors = dict(model.named_parameters())
    tensors.update(dict(model.named_buffers()))
    scalars: dict[str, Any] = {}
    for source in (vars(module), init, vars(model)):
        for k, v in source.items():
            if isinstance(v, bool | int | float) and not k.startswith("_"):
                scalars[k] = v
    used: set[str] = set()
    for p in params:
        kind, name = p["kind"], p["name"]
        if pending:
            value = pending.pop(0)
            if kind in ("tensor", "optional_tensor") and isinstance(value, int | float):
                value = torch.tensor(value, dtype=torch.float32)
            values.append(value)
            notes.append(f"{name}=input")
            continue
        key = _key(name)
        for suffix in ("_opt", "_optional", "_attr", "_value", "_t"):
            if key.endswith(suffix) and len(key) > len(suffix):
                key = key[: -len(suffix)]
                break
        found: tuple[str, Any] | None = None
        exact = [n for n in tensors if _key(n) == key and n not in used]
        leaf = [n for n in tensors if _key(n).rsplit("_", 1)[-1] == key and n.rsplit(".", 1)[-1] == key
                and n not in used]
        if exact:
            found = (exact[0], tensors[exact[0]])
        elif len(leaf) == 1:
            found = (leaf[0], tensors[leaf[0]])
        elif key in scalars or _key(name) in scalars:
            k = key if key in scalars else _key(name)
            found = (k, scalars[k])
        if found is None:
            if kind == "optional_tensor":
                values.append(None)
                notes.append(f"{name}=None")
                continue
            raise NoInputs(f"the binding's parameter '{name}' matches nothing the reference provides (its "
                           "inputs, parameters, attributes or sizes): the kernel computes a part of the model")
        source_name, value = found
        used.add(source_name)
        if kind in ("tensor", "optional_tensor") and not isinstance(value, torch.Tensor):
            value = torch.tensor(float(value), dtype=torch.float32)
        elif kind == "float" and isinstance(value, torch.Tensor):
            value = float(value.reshape(-1)[0])
        elif kind == "int" and isinstance(value, torch.Tensor):
            value = int(value.reshape(-1)[0])
        elif kind == "float":
            value = float(value)
        elif kind in ("int", "bool"):
            value = bool(value) if kind == "bool" else int(value)
        values.append(value.detach().clone() if isinstance(value, torch.Tensor) else value)
        notes.append(f"{name}={source_name}")
    if pending:
        raise NoInputs(f"the binding takes {len(params)} argument(s) but the reference has {len(inputs)} input(s) "
                       "left over: the kernel computes something else than the model")
    return values, notes


def _describe(values: list[Any]) -> str:
    import torch

    parts = []
    for v in values:
        if isinstance(v, torch.Tensor):
            parts.append(f"{str(v.dtype).removeprefix('torch.')}{list(v.shape)}")
        else:
            parts.append(repr(v))
    return ", ".join(parts)


class Recorder:
    """Stands for op_call.OpRunner in the child: EXEC_NPU_CMD calls are saved (record) or answered
    from the simulator's results (replay)."""

    def __init__(self, work: Path, replay: bool):
        self.work, self.replay, self.calls = work, replay, 0

    def call(self, api: str, args: list[tuple[Any, ...]]) -> None:
        import torch

        index = self.calls
        self.calls += 1
        if not self.replay:
            torch.save({"api": api, "args": list(args)}, self.work / f"call_{index}.pt")
            return
        saved = torch.load(self.work / f"call_{index}.result.pt", weights_only=True)["args"]
        for mine, theirs in zip(args, saved, strict=True):
            if mine[0] == "tensor" and mine[1] is not None and theirs[1] is not None:
                mine[1].copy_(theirs[1])
            elif mine[0] == "tensor_list":
                for a, b in zip(mine[1], theirs[1], strict=True):
                    a.copy_(b)


def compare(out: Any, golden: Any) -> tuple[bool, str]:
    import torch

    outs = list(out) if isinstance(out, list | tuple) else [out]
    refs = list(golden) if isinstance(golden, list | tuple) else [golden]
    if len(outs) < len(refs):
        return False, f"the binding returns {len(outs)} output(s), the reference {len(refs)}"
    for i, (o, r) in enumerate(zip(outs, refs, strict=False)):
        if not isinstance(o, torch.Tensor) or not isinstance(r, torch.Tensor):
            continue
        if tuple(o.shape) != tuple(r.shape):
            if o.numel() != r.numel():
                return False, f"output {i}: shape {list(o.shape)}, the reference's {list(r.shape)}"
            o = o.reshape(r.shape)
        a, b = o.detach().double(), r.detach().double()
        if not torch.allclose(a, b, atol=TOLERANCE, rtol=TOLERANCE):
            diff = (a - b).abs()
            finite = torch.isfinite(diff)
            worst = float(diff[finite].max()) if finite.any() else math.nan
            bad = int((~torch.isclose(a, b, atol=TOLERANCE, rtol=TOLERANCE)).sum())
            return False, f"output {i}: {bad} of {a.numel()} elements off (max abs diff {worst:.4g})"
    return True, ""


def record(work: Path, plan: dict[str, Any]) -> dict[str, Any]:
    import torch

    from npukernelbench.public import op_call
    from npukernelbench.public.binding import load_binding

    path = Path(plan["reference"])
    overrides, size = choose_sizes(path, int(plan["budget"]))
    attempts = [overrides] if not overrides else [overrides, {}]
    module_fn = None
    last_error = ""
    for attempt, sizes in enumerate(attempts):
        scaled = bool(sizes)
        module = load_reference(path, sizes)
        if not scaled:
            size = elements(module)
            if size > int(plan["full_budget"]):
                why = f"{size} elements at the reference's own sizes"
                if last_error:
                    why = f"the binding rejects scaled-down inputs ({last_error}); {why}"
                return {"status": "too_large", "why": why}
        torch.manual_seed(0)
        init_values = list(module.get_init_inputs())
        names = [n for n in inspect.signature(module.Model.__init__).parameters if n != "self"]
        init = dict(zip(names, init_values, strict=False))
        model = module.Model(*init_values)
        torch.manual_seed(1)
        inputs = list(module.get_inputs())
        with torch.no_grad():
            golden = model(*[x.clone() if isinstance(x, torch.Tensor) else x for x in inputs])
        try:
            values, notes = map_arguments(plan["params"], inputs, model, init, module)
        except NoInputs as exc:
            return {"status": "no_inputs", "why": str(exc)}
        if module_fn is None:
            module_fn = getattr(load_binding(Path(plan["binding"])), plan["function"])
        recorder = Recorder(work, replay=False)
        try:
            with torch.no_grad(), op_call.bound(recorder):   # type: ignore[arg-type]
                module_fn(*values)
        except Exception as exc:                             # noqa: BLE001 - the binding's own checks
            if recorder.calls:
                return {"status": "binding_rejects", "why": f"after its call: {str(exc).splitlines()[0][:300]}"}
            last_error = str(exc).strip().splitlines()[0][:300] if str(exc).strip() else type(exc).__name__
            if attempt + 1 < len(attempts):
                continue
            return {"status": "binding_rejects", "why": last_error}
        if not recorder.calls:
            return {"status": "no_inputs", "why": "the binding made no EXEC_NPU_CMD call"}
        torch.save({"values": values, "golden": golden}, work / "state.pt")
        scaling = ", ".join(f"{k} {int_constants(path)[k]}->{v}" for k, v in sizes.items())
        described = f"{'scaled down (' + scaling + ')' if scaled else 'reference sizes'}: {_describe(values)}"
        return {"status": "recorded", "calls": recorder.calls,
                "inputs": f"{described}; mapping {', '.join(notes)}"}
    return {"status": "no_inputs", "why": last_error or "no attempt"}


def replay(work: Path, plan: dict[str, Any]) -> dict[str, Any]:
    import torch

    from npukernelbench.public import op_call
    from npukernelbench.public.binding import load_binding

    state = torch.load(work / "state.pt", weights_only=True)
    fn = getattr(load_binding(Path(plan["binding"])), plan["function"])
    recorder = Recorder(work, replay=True)
    with torch.no_grad(), op_call.bound(recorder):          # type: ignore[arg-type]
        out = fn(*state["values"])
    ok, why = compare(out, state["golden"])
    return {"status": "matched" if ok else "mismatch", "why": why}


def main() -> int:
    work, mode = Path(sys.argv[1]), sys.argv[2]
    plan = json.loads((work / "plan.json").read_text(encoding="utf-8"))
    try:
        result = record(work, plan) if mode == "record" else replay(work, plan)
    except Exception as exc:                                # noqa: BLE001 - reported to the benchmark
        result = {"status": "driver_error", "why": f"{type(exc).__name__}: {str(exc)[:400]}"}
    (work / "result.json").write_text(json.dumps(result), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
