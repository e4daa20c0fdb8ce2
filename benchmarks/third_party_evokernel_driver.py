"""Child-process driver of an EvoKernel operator's reference and binding (see ``third_party_evokernel``).

    python third_party_evokernel_driver.py WORK prepare|record|replay

Runs confined, in WORK, which holds ``plan.json`` (reference file, compiled binding, its function
and parameters, size budgets). Writes ``result.json``:

* prepare (no binding needed): imports the reference, scales its top-level integer sizes down until
  its inputs and parameters hold at most ``budget`` elements (halving the largest size of at least 16,
  the module re-executed so derived sizes follow), builds the model (seed 0) and inputs (seed 1),
  maps the binding's parameters (:func:`map_arguments`), computes the golden; keeps them in
  ``state.pt``;
* record: calls the binding on them with every ``EXEC_NPU_CMD`` recorded (``call_<i>.pt``); when the
  binding rejects the scaled-down inputs, the reference's own sizes are prepared and tried if they fit
  ``full_budget``;
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


SYNONYMS = {"gamma": "weight", "beta": "bias", "w": "weight", "b": "bias", "scale": "weight"}


def _abbreviation(path: str) -> str:
    """``group_norm.weight`` -> ``gn``: the first letters of the module path's words."""
    words = [w for part in path.split(".")[:-1] for w in part.split("_") if w]
    return "".join(w[0] for w in words)


def _by_token(key: str, tensors: dict[str, Any], used: set[str]) -> str | None:
    """A parameter named ``<prefix>_<leaf>`` (``post_bias``, ``gn_gamma``, ``fc1_w``): the one unused
    model tensor with that leaf (``gamma``/``beta``/``w``/``b`` read as ``weight``/``bias``), or among
    several the one whose module path the prefix names (``gn`` for ``group_norm``, ``fc1`` for ``fc1``)."""
    tokens = key.split("_")
    leaf = SYNONYMS.get(tokens[-1], tokens[-1])
    candidates = [n for n in tensors if n not in used and n.rsplit(".", 1)[-1] == leaf]
    if len(candidates) > 1 and len(tokens) > 1:
        prefix = "_".join(tokens[:-1])
        candidates = [n for n in candidates if _key(n).startswith(prefix) or _abbreviation(n) == prefix]
    return candidates[0] if len(candidates) == 1 else None


def map_arguments(params: list[dict[str, str]], inputs: list[Any], model: Any, init: dict[str, Any],
                  module: types.ModuleType) -> tuple[list[Any], list[str]]:
    """The binding's arguments: the reference's inputs positionally first, then each remaining
    parameter by name among the model's parameters and buffers (``conv_weight`` or a unique
    ``weight`` for ``conv.weight``; ``post_bias`` for the one unused ``bias``, see :func:`_by_token`),
    its scalar attributes, its constructor arguments and the module's constants (a tensor parameter
    given a number gets a one-element float32 tensor). Raises NoInputs when a required parameter
    matches nothing or an input is left over. Returns the values and a line per parameter saying
    where it came from."""
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
        elif kind in ("tensor", "optional_tensor") and (by_token := _by_token(key, tensors, used)) is not None:
            found = (by_token, tensors[by_token])
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


def prepare(work: Path, plan: dict[str, Any], sizes: dict[str, int] | None = None) -> dict[str, Any]:
    """Reference side only (no binding): sizes, model, inputs, golden, the binding's arguments. The state
    goes to ``state.pt``; ``sizes`` None chooses them within the budget."""
    import torch

    path = Path(plan["reference"])
    if sizes is None:
        sizes, _ = choose_sizes(path, int(plan["budget"]))
    module = load_reference(path, sizes)
    size = elements(module)
    if not sizes and size > int(plan["full_budget"]):
        return {"status": "too_large", "why": f"{size} elements at the reference's own sizes"}
    torch.manual_seed(0)
    init_values = list(module.get_init_inputs())
    names = [n for n in inspect.signature(module.Model.__init__).parameters if n != "self"]
    init = dict(zip(names, init_values, strict=False))
    model = module.Model(*init_values)
    torch.manual_seed(1)
    inputs = list(module.get_inputs())
    try:
        values, notes = map_arguments(plan["params"], inputs, model, init, module)
    except NoInputs as exc:
        return {"status": "no_inputs", "why": str(exc)}
    with torch.no_grad():
        golden = model(*[x.clone() if isinstance(x, torch.Tensor) else x for x in inputs])
    torch.save({"values": values, "golden": golden}, work / "state.pt")
    original = int_constants(path)
    scaling = ", ".join(f"{k} {original[k]}->{v}" for k, v in sizes.items())
    described = f"{'scaled down (' + scaling + ')' if sizes else 'reference sizes'}: {_describe(values)}"
    return {"status": "prepared", "scaled": bool(sizes), "elements": size,
            "inputs": f"{described}; mapping {', '.join(notes)}"}


def record(work: Path, plan: dict[str, Any]) -> dict[str, Any]:
    """The binding called on the prepared state, every EXEC_NPU_CMD saved. When it rejects scaled-down
    inputs before any call, the reference's own sizes are prepared and tried (within ``full_budget``)."""
    import torch

    from npukernelbench.layouts.upstream import op_call
    from npukernelbench.layouts.upstream.binding import load_binding

    prepared = json.loads((work / "prepared.json").read_text(encoding="utf-8"))
    fn = getattr(load_binding(Path(plan["binding"])), plan["function"])
    for attempt in range(2):
        state = torch.load(work / "state.pt", weights_only=True)
        recorder = Recorder(work, replay=False)
        try:
            with torch.no_grad(), op_call.bound(recorder):   # type: ignore[arg-type]
                fn(*state["values"])
        except Exception as exc:                             # noqa: BLE001 - the binding's own checks
            why = str(exc).strip().splitlines()[0][:300] if str(exc).strip() else type(exc).__name__
            if recorder.calls:
                return {"status": "binding_rejects", "why": f"after its call: {why}"}
            if attempt == 0 and prepared.get("scaled"):
                prepared = prepare(work, plan, sizes={})
                if prepared["status"] == "too_large":
                    return {"status": "too_large", "why": f"the binding rejects scaled-down inputs ({why}); "
                                                          f"{prepared['why']}"}
                if prepared["status"] != "prepared":
                    return prepared
                continue
            return {"status": "binding_rejects", "why": why}
        if not recorder.calls:
            return {"status": "no_inputs", "why": "the binding made no EXEC_NPU_CMD call"}
        return {"status": "recorded", "calls": recorder.calls, "inputs": prepared.get("inputs", "")}
    return {"status": "no_inputs", "why": "no attempt"}


def replay(work: Path, plan: dict[str, Any]) -> dict[str, Any]:
    import torch

    from npukernelbench.layouts.upstream import op_call
    from npukernelbench.layouts.upstream.binding import load_binding

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
        result = {"prepare": prepare, "record": record, "replay": replay}[mode](work, plan)
    except Exception as exc:                                # noqa: BLE001 - reported to the benchmark
        result = {"status": "driver_error", "why": f"{type(exc).__name__}: {str(exc)[:400]}"}
    (work / "result.json").write_text(json.dumps(result), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
