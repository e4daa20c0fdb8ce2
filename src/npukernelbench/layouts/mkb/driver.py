"""The confined child of a MultiKernelBench task: ``python -m npukernelbench.layouts.mkb.driver WORK MODE``.

Runs in the scratch folder WORK, which holds ``plan.json``; writes ``result.json`` (a ``status`` and a
``why``). Nothing here runs in the pytest process: the reference module and the candidate's Python
(``model_src``, its compiled pybind) both execute only in this child, each in its own run.

* ``prepare`` (the reference alone): sizes scaled to the plan's element budget (:mod:`.scaling`),
  ``get_init_inputs()``, ``Model`` built after ``torch.manual_seed(SEED)`` (MultiKernelBench seeds
  both models alike so that their parameters agree), one ``get_inputs()`` per trial (trial ``t`` seeded
  with ``plan.seed + t``, its floating tensors redrawn by value profile ``plan.first_profile + t``, see
  :data:`VALUE_PROFILES`) and ``Model``'s outputs: all kept in ``state.pt``. A grouped reference
  (``get_input_groups``, :mod:`.groups`) gives its groups within the budget as the trials instead,
  drawn after ``torch.manual_seed(plan.seed)``, unprofiled and unscaled.
* ``run`` (the candidate): the compiled pybind imported as ``custom_ops_lib``, ``model_src`` executed,
  ``ModelNew(*init)`` built after the same seed and called on every trial's inputs in ``state.pt``
  (the harness adds one trial at a time, running the child again each time it is done). Its
  ``EXEC_NPU_CMD`` calls are answered from ``call_<i>.result.pt`` (the simulator's results, written by
  the harness); at the first call without one the call is saved as ``call_<i>.pt`` and the child stops
  (status ``call``): the harness runs it on the simulator and starts the child again, until it
  finishes (status ``done``, the outputs in ``out.pt``).

Every file crosses with ``torch.save``/``torch.load(weights_only=True)`` (tensors, numbers, strings,
lists, dicts: no code).
"""

from __future__ import annotations

import importlib.util
import json
import sys
import traceback
from pathlib import Path
from typing import Any

SEED = 1024                       # MultiKernelBench's seed for building Model and ModelNew
MODULE = "custom_ops_lib"         # the name model_src imports the candidate's pybind under
# The value profiles MultiKernelBench cycles its correctness trials through (trial t: t mod 7).
VALUE_PROFILES = ("reference", "normal", "uniform_signed", "small_magnitude", "large_magnitude", "near_one",
                  "sparse_first")


class NeedCall(Exception):
    """The candidate made a call whose simulator result is not there yet."""

    def __init__(self, index: int):
        super().__init__(f"call {index}")
        self.index = index


def _profiled(value: Any, profile: str, index: int) -> Any:
    """``value`` redrawn as the profile says (floating tensors only; the same shape and dtype)."""
    import torch

    if not isinstance(value, torch.Tensor) or not value.is_floating_point() or profile == "reference":
        return value
    shape, dtype = value.shape, value.dtype

    def uniform() -> Any:
        return torch.rand(shape, dtype=torch.float32) * 2 - 1

    if profile == "normal":
        new = torch.randn(shape, dtype=torch.float32)
    elif profile == "uniform_signed":
        new = uniform()
    elif profile == "small_magnitude":
        new = uniform() * 1e-3
    elif profile == "large_magnitude":
        new = uniform() * (5 if dtype in (torch.float16, torch.bfloat16) else 10)
    elif profile == "near_one":
        new = 1 + uniform() * 1e-2
    elif profile == "sparse_first" and index == 0:
        new = torch.randn(shape, dtype=torch.float32).masked_fill(torch.rand(shape) < 0.8, 0)
    else:
        return value
    return new.to(dtype).requires_grad_(value.requires_grad)


def _trial_inputs(module: Any, trial: int, seed: int, first_profile: int) -> list[Any]:
    import torch

    torch.manual_seed(seed + trial)
    values = list(module.get_inputs())
    profile = VALUE_PROFILES[(first_profile + trial) % len(VALUE_PROFILES)]
    tensors = 0
    out = []
    for v in values:
        out.append(_profiled(v, profile, tensors))
        tensors += isinstance(v, torch.Tensor)
    return out


def _copy(values: list[Any]) -> list[Any]:
    import torch

    return [v.detach().clone() if isinstance(v, torch.Tensor) else v for v in values]


def prepare(work: Path, plan: dict[str, Any]) -> dict[str, Any]:
    import torch

    from npukernelbench.layouts.mkb import groups, scaling

    path = Path(plan["reference"])
    plain = scaling.load_module(path, {})
    if groups.is_grouped(plain):
        return _prepare_groups(work, plan, path, plain)
    overrides, size = scaling.choose_sizes(path, int(plan["budget"]))
    module = scaling.load_module(path, overrides)
    init = list(module.get_init_inputs())
    torch.manual_seed(SEED)
    model = module.Model(*init)
    inputs, golden = [], []
    for trial in range(int(plan["trials"])):
        values = _trial_inputs(module, trial, int(plan["seed"]), int(plan.get("first_profile", 0)))
        with torch.no_grad():
            golden.append(model(*_copy(values)))
        inputs.append(values)
    torch.save({"init": init, "inputs": inputs, "golden": golden}, work / "state.pt")
    original = scaling.int_constants(path.read_text(encoding="utf-8"))
    return {"status": "prepared", "elements": size, "scaled": scaling.describe(original, overrides)}


def _prepare_groups(work: Path, plan: dict[str, Any], path: Path, module: Any) -> dict[str, Any]:
    """A grouped reference: its groups within the budget are the trials, as they are (no value profiles)."""
    import torch

    from npukernelbench.layouts.mkb import groups

    budget = int(plan["budget"])
    init = list(module.get_init_inputs())
    found = groups.input_groups(path, module, budget, int(plan["seed"]), work)
    counts = {"groups": found.total, "groups_checked": len(found.inputs), "groups_left_out": found.left_out}
    if not found.inputs:
        return {"status": "over_budget", **counts,
                "why": (f"every one of its {found.total} input groups exceeds the input budget of {budget} elements "
                        f"(the smallest holds {found.smallest_left_out}): nothing to check"
                        if found.total else f"{groups.GROUPS}() returned no groups")}
    torch.manual_seed(SEED)
    model = module.Model(*init)
    golden = []
    for values in found.inputs:
        with torch.no_grad():
            golden.append(model(*_copy(values)))
    torch.save({"init": init, "inputs": found.inputs, "golden": golden}, work / "state.pt")
    return {"status": "prepared", "elements": found.largest, "scaled": "", **counts}


class Answers:
    """Stands for ``op_call.OpRunner`` here: answers each EXEC_NPU_CMD from the harness's results."""

    def __init__(self, work: Path):
        self.work, self.calls = work, 0

    def call(self, api: str, args: list[tuple[Any, ...]]) -> None:
        import torch

        index = self.calls
        self.calls += 1
        answer = self.work / f"call_{index}.result.pt"
        if not answer.is_file():
            torch.save({"api": api, "args": list(args)}, self.work / f"call_{index}.pt")
            raise NeedCall(index)
        saved = torch.load(answer, weights_only=True)["args"]
        for mine, theirs in zip(args, saved, strict=True):
            if mine[0] == "tensor" and mine[1] is not None and theirs[1] is not None:
                mine[1].copy_(theirs[1])
            elif mine[0] == "tensor_list":
                for a, b in zip(mine[1], theirs[1], strict=True):
                    a.copy_(b)


def _load_binding(library: Path) -> Any:
    spec = importlib.util.spec_from_file_location(library.name.split(".")[0], library)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {library.name}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(work: Path, plan: dict[str, Any]) -> dict[str, Any]:
    import torch

    from npukernelbench import npu_shims as shims
    from npukernelbench.layouts.upstream import op_call

    state = torch.load(work / "state.pt", weights_only=True)
    sys.modules[MODULE] = _load_binding(Path(plan["binding"]))
    namespace: dict[str, Any] = {"__name__": "npukb_mkb_candidate"}
    source = Path(plan["model"]).read_text(encoding="utf-8")
    answers = Answers(work)
    try:                               # MultiKernelBench executes model_src as part of compiling the answer
        with shims.import_shims():
            exec(compile(source, "model_src", "exec"), namespace)   # noqa: S102 - candidate code, confined
    except Exception as exc:                                    # noqa: BLE001 - the candidate's failure
        return {"status": "model_error", "why": f"model_src raised {type(exc).__name__}: {str(exc)[:400]}"}
    if not isinstance(namespace.get("ModelNew"), type):
        return {"status": "model_error", "why": "model_src defines no class ModelNew"}
    try:
        with torch.no_grad(), shims.npu_on_cpu(), op_call.bound(answers):   # type: ignore[arg-type]
            torch.manual_seed(SEED)
            model = namespace["ModelNew"](*state["init"])
            outputs, per_trial = [], []
            for values in state["inputs"]:
                before = answers.calls
                outputs.append(model(*values))
                per_trial.append(answers.calls - before)
    except NeedCall as exc:
        return {"status": "call", "index": exc.index}
    except Exception as exc:                                    # noqa: BLE001 - the candidate's failure
        line = next((ln for ln in str(exc).strip().splitlines() if ln.strip()), "")
        return {"status": "error", "why": f"{type(exc).__name__}: {line[:400]}",
                "trace": traceback.format_exc()[-2000:]}
    torch.save({"outputs": outputs}, work / "out.pt")
    return {"status": "done", "calls": answers.calls, "calls_per_trial": per_trial}


def main() -> int:
    work, mode = Path(sys.argv[1]), sys.argv[2]
    plan = json.loads((work / "plan.json").read_text(encoding="utf-8"))
    try:
        result = {"prepare": prepare, "run": run}[mode](work, plan)
    except Exception as exc:                                    # noqa: BLE001 - reported to the harness
        result = {"status": "driver_error", "why": f"{type(exc).__name__}: {str(exc)[:400]}",
                  "trace": traceback.format_exc()[-2000:]}
    (work / "result.json").write_text(json.dumps(result), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
