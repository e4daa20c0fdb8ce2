"""One MultiKernelBench answer against its reference module, the way MultiKernelBench judges it.

1. ``describe``: the toolchain compiles the candidate's host code alone; the OpDef named after the
   kernel (``<Name>Custom``) is the operator.
2. The candidate's ``python_bind_src`` is compiled for real against torch's C++ headers with
   npukernelbench's ``pytorch_npu_helper.hpp`` (as for public NPUKernelBench tasks); it does not
   build: a build error.
3. Per input seed, :data:`TRIALS` input trials (MultiKernelBench's value profiles in turn, see
   :mod:`.driver`; a task has one seed by default; a grouped task's trials are its input groups within
   the budget, :mod:`.groups`), in confined child
   processes, never here: the reference child scales the sizes to ``EvalOptions.input_budget`` elements,
   builds the inputs and ``Model``'s outputs; the candidate child imports the compiled pybind as
   ``custom_ops_lib``, runs ``model_src``'s ``ModelNew`` on the same inputs and stops at each
   ``EXEC_NPU_CMD`` that has no result yet, which this process runs on the simulator
   (``op_call.OpRunner``) before starting the child again. The child is given one more trial's inputs
   each time it finishes the trials it has (so a trial's calls are made before later trials' inputs
   reach the child, which tells this process which calls each trial made).
4. Outputs compared as MultiKernelBench compares them: the same structure and shapes; integer and bool
   outputs exactly; floating ones with ``torch.allclose`` at atol = rtol = 1e-3 when either side is
   half or bfloat16, else 1e-4.
5. Checked here, from data this process holds: ``ModelNew`` called the operator, every tensor it returns
   is what a call wrote (:func:`unproduced_output`), and what it passed the calls was not computed
   outside the kernel (:mod:`.provenance`, against the trial inputs the reference child drew).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from npukernelbench.checker import BaselineCache, BuildFailed, CaseOutcome, Checker, EvalOptions, SeedChecked
from npukernelbench.infrastructure import InfrastructureError
from npukernelbench.layouts.mkb.answer import MODEL, PYBIND
from npukernelbench.layouts.mkb.provenance import CallRecord, foreign_call_input
from npukernelbench.layouts.upstream import op_call
from npukernelbench.layouts.upstream.binding import BindingError, build_binding
from npukernelbench.module_loader import CaseReferenceError
from npukernelbench.result import ErrorCategory, Stage, Status
from npukernelbench.sandbox import Limits, Request, clean_env, run_confined
from npukernelbench.shapes import ShapeCase
from npukernelbench.spec import TaskSpec
from npukernelbench.speed_audit import HBM_BYTES_PER_US, RunCost, combined, cost_of
from npukernelbench.toolchains.base import BuildResult, HostDescriber, OpSignature, Toolchain

CHILD_LIMITS = Limits(cpu_s=300, memory_bytes=16 << 30, wall_s=300.0, file_bytes=2 << 30, processes=64)
MAX_CALLS = 256                  # EXEC_NPU_CMD calls one seed may make
TRIALS = 3                       # input trials per seed (value profiles seed, seed + 1, ...: see driver)
DRIVER = "npukernelbench.layouts.mkb.driver"


def tolerance(a: Any, b: Any) -> float:
    """MultiKernelBench's atol = rtol for two tensors' dtypes."""
    import torch

    names = {str(a.dtype), str(b.dtype)}
    if any("float8" in n for n in names):
        return 1e-2
    if {a.dtype, b.dtype} & {torch.float16, torch.bfloat16}:
        return 1e-3
    return 1e-4


def compare(ref: Any, got: Any, path: str = "output") -> tuple[str | None, float, float]:
    """Why ``got`` differs from ``ref`` (None when it does not), and the worst abs and rel errors."""
    import torch

    if isinstance(ref, torch.Tensor) and isinstance(got, torch.Tensor):
        if ref.shape != got.shape:
            return f"{path}: shape {list(got.shape)}, Model's is {list(ref.shape)}", 0.0, 0.0
        numeric = all(t.is_floating_point() or t.is_complex() for t in (ref, got))
        if not numeric or torch.bool in (ref.dtype, got.dtype):
            if not torch.equal(ref, got):
                return f"{path}: {int((ref != got).sum())} of {ref.numel()} elements differ", 0.0, 0.0
            return None, 0.0, 0.0
        tol = tolerance(ref, got)
        a, b = got.detach().double(), ref.detach().double()
        diff = (a - b).abs()
        max_abs = float(diff.max()) if diff.numel() else 0.0
        max_rel = float((diff / b.abs().clamp_min(1e-12)).max()) if diff.numel() else 0.0
        if not torch.allclose(b, a, atol=tol, rtol=tol):
            bad = int((~torch.isclose(a, b, atol=tol, rtol=tol)).sum())
            return (f"{path}: {bad} of {ref.numel()} elements off by more than atol=rtol={tol:g} "
                    f"(max abs error {max_abs:.4g})"), max_abs, max_rel
        return None, max_abs, max_rel
    if isinstance(ref, tuple | list) and isinstance(got, tuple | list):
        if len(ref) != len(got):
            return f"{path}: {len(got)} values, Model returns {len(ref)}", 0.0, 0.0
        worst_abs = worst_rel = 0.0
        for i, (r, g) in enumerate(zip(ref, got, strict=True)):
            why, ma, mr = compare(r, g, f"{path}[{i}]")
            if why:
                return why, ma, mr
            worst_abs, worst_rel = max(worst_abs, ma), max(worst_rel, mr)
        return None, worst_abs, worst_rel
    if isinstance(ref, torch.Tensor) or isinstance(got, torch.Tensor):
        return f"{path}: {type(got).__name__}, Model returns {type(ref).__name__}", 0.0, 0.0
    return (None if ref == got else f"{path}: {got!r}, Model returns {ref!r}"), 0.0, 0.0


def _readable() -> tuple[Path, ...]:
    paths = {Path(sys.prefix), Path(sys.base_prefix), Path(sys.executable).resolve().parent.parent}
    paths.update(Path(p) for p in sys.path if p and Path(p).is_dir() and not p.startswith("/tmp"))
    return tuple(sorted(paths))


def _python_path() -> str:
    import npukernelbench

    package_root = str(Path(npukernelbench.__file__).resolve().parent.parent)
    return ":".join(dict.fromkeys([package_root, *[p for p in sys.path if p and Path(p).is_dir()]]))



def unproduced_output(outputs: Any, produced: list[Any]) -> str | None:
    """The first tensor ``ModelNew`` returned (over every trial) whose elements are not, bit for bit, what
    one of the custom operator's calls wrote into an output (the whole output, or its leading part: a
    padded output sliced back), named as "output T.I"; None when every one is. A result computed by
    PyTorch beside a call of the kernel, which MultiKernelBench's checks could let through, fails here by
    construction: the harness, not the candidate's process, holds what the simulator wrote."""
    import torch

    for trial, result in enumerate(outputs):
        for i, got in enumerate(result if isinstance(result, list | tuple) else [result]):
            if not isinstance(got, torch.Tensor):
                continue
            flat = got.detach().reshape(-1)
            if not any(p.dtype == flat.dtype and p.numel() >= flat.numel()
                       and torch.equal(p[:flat.numel()], flat) for p in produced):
                return f"output {trial}.{i}"
    return None


class MkbChecker(Checker):
    """``Checker`` of the MultiKernelBench layout (one static case: the reference's ``get_inputs``)."""

    def __init__(self, spec: TaskSpec, toolchain: Toolchain, files: Mapping[str, str],
                 options: EvalOptions | None = None, baseline: BaselineCache | None = None):
        if not isinstance(toolchain, HostDescriber):
            raise RuntimeError(f"toolchain {toolchain.name!r} cannot describe host code (no describe())")
        super().__init__(spec, toolchain, files, options, baseline)
        self.kernel_files = {p: t for p, t in files.items() if not p.startswith("mkb/")}
        self.signature: OpSignature | None = None
        self.library: Path | None = None
        self.scaled: str | None = None          # how the reference's sizes were scaled ("" when not)
        self.io_bytes = 0                       # bytes of the reference's inputs and outputs (speed estimate)
        self.result_details: dict[str, Any] = {}
        self._trial_inputs: list[Any] = []      # the trials' inputs, as the reference child drew them
        self._init: Any = []                    # the reference's get_init_inputs()
        self._calls: dict[int, CallRecord] = {}  # per operator call: its inputs and what the simulator wrote

    # -- the candidate's operator and binding --------------------------------------------------------------
    def describe(self) -> OpSignature:
        if self.signature is None:
            self.signature = op_call.candidate_signature(self.toolchain, self.spec.op, self.spec.kernel,
                                                         self.kernel_files)
            self._reach(Stage.HOST_BUILT)
        return self.signature

    def binding(self) -> Path:
        """The candidate's compiled pybind (a build error of the candidate when it does not build)."""
        if self.library is None:
            source = self.files.get(PYBIND, "")
            root = Path(self.toolchain.cache_root()) / "mkb-pybind"
            root.mkdir(parents=True, exist_ok=True)
            path = root / f"{hashlib.sha256(source.encode()).hexdigest()[:24]}.cpp"
            if not path.is_file():
                path.write_text(source, encoding="utf-8")
            try:
                self.library = build_binding(path, self.toolchain.cache_root(), self.spec.op, self.spec.kernel,
                                             self.toolchain.host_compiler())
            except BindingError as exc:
                text = str(exc).replace(str(path), "python_bind_src")
                raise BuildFailed(BuildResult(ok=False, artifact=None, key="", diagnostics=text,
                                              error_category=ErrorCategory.OTHER)) from None
        return self.library

    # -- the confined children -----------------------------------------------------------------------------
    def _child(self, work: Path, mode: str, readable: tuple[Path, ...]) -> dict[str, Any]:
        (work / "result.json").unlink(missing_ok=True)
        out = run_confined(Request(argv=[sys.executable, "-m", DRIVER, str(work), mode], cwd=work,
                                   limits=CHILD_LIMITS, env=clean_env({"PYTHONPATH": _python_path(),
                                                                       "OMP_NUM_THREADS": "1"}),
                                   readable=(*_readable(), *readable)))
        if out.infrastructure:
            raise InfrastructureError(f"the MultiKernelBench {mode} child: {out.infrastructure}")
        result_file = work / "result.json"
        if result_file.is_file():
            try:
                return dict(json.loads(result_file.read_text(encoding="utf-8")))
            except (ValueError, TypeError):
                return {"status": "error", "why": "the child wrote an unreadable result"}
        why = "time limit" if out.timed_out else (f"died of {out.signal_name}" if out.signal_name else
                                                 f"exit status {out.returncode}")
        tail = " | ".join((out.stderr.strip() or out.stdout.strip()).splitlines()[-3:])[-500:]
        return {"status": "timeout" if out.timed_out else "error", "why": f"{why}: {tail}".strip(": ")}

    def _scratch(self) -> Path:
        tmp = Path(self.toolchain.cache_root()) / "tmp"
        tmp.mkdir(parents=True, exist_ok=True)
        return Path(tempfile.mkdtemp(prefix="mkb-", dir=tmp))

    def _prepare(self, seed: int, work: Path) -> Any:
        """The reference's init values, inputs and outputs for ``seed`` (``state.pt`` in ``work`` without
        the outputs, which stay here); raises CaseReferenceError when the reference fails."""
        import torch

        ref = work / "reference"
        ref.mkdir()
        plan = {"reference": str(self.spec.folder), "budget": self.options.input_budget, "trials": TRIALS,
                "seed": seed, "first_profile": seed % 1000}
        (ref / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
        result = self._child(ref, "prepare", (self.spec.folder.parent,))
        if result.get("status") == "over_budget":        # a grouped task's sizes are literals: nothing to check
            raise CaseReferenceError(f"{self.spec.case_id}: {result.get('why')} (--npukb-input-budget="
                                     f"{self.options.input_budget}; raise it to check this task)")
        if result.get("status") != "prepared":
            raise CaseReferenceError(f"{self.spec.folder}: the reference failed: {result.get('why', result)}")
        self.scaled = str(result.get("scaled", ""))
        self.result_details["inputs_scaled"] = self.scaled or "no"
        self.result_details["input_elements"] = int(result.get("elements", 0))
        if "groups" in result:                            # a grouped task: its groups within budget are the trials
            for key in ("groups", "groups_checked", "groups_left_out"):
                self.result_details[f"input_{key}"] = int(result[key])
        budget = self.options.input_budget
        if budget and self.result_details["input_elements"] > budget:     # sizes written as literals in get_inputs
            self.result_details["input_budget_exceeded"] = True
        state = torch.load(ref / "state.pt", weights_only=True)
        trials = max(len(state["inputs"]), 1)
        self.io_bytes = (_nbytes(state["inputs"]) + _nbytes(state["golden"])) // trials     # one trial's
        self._trial_inputs = list(state["inputs"])      # kept here: the candidate's child cannot change them
        self._init = state["init"]
        self._reveal(work, 1)
        shutil.rmtree(ref, ignore_errors=True)
        return state["golden"]

    def _reveal(self, work: Path, trials: int) -> None:
        """Give the candidate's child the first ``trials`` trials' inputs (``state.pt``). The trials are
        shown one at a time, so the calls of a trial are made before any later trial's inputs exist in
        the child: ``ModelNew`` cannot make the same calls in every trial from every trial's inputs."""
        import torch

        torch.save({"init": self._init, "inputs": self._trial_inputs[:trials]}, work / "state.pt")

    def check_seed(self, case: ShapeCase, seed: int, first: bool) -> CaseOutcome | SeedChecked:
        self.describe()
        library = self.binding()
        work = self._scratch()
        try:
            golden = self._prepare(seed, work)
            (work / "model_src.py").write_text(self.files.get(MODEL, ""), encoding="utf-8")
            plan = {"binding": str(library), "model": str(work / "model_src.py")}
            (work / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
            return self._run(case, seed, work, golden, library, first)
        finally:
            shutil.rmtree(work, ignore_errors=True)

    def _run(self, case: ShapeCase, seed: int, work: Path, golden: Any, library: Path,
             first: bool) -> CaseOutcome | SeedChecked:
        import torch

        where = self.where(case, seed) + (f" (inputs scaled down: {self.scaled})" if self.scaled else "")
        self._produced: list[Any] = []          # the custom operator's outputs, as the simulator wrote them
        self._calls = {}
        runner = op_call.OpRunner(toolchain=self.toolchain, signature=self.describe(), kernel=self.spec.kernel,
                                  files=self.kernel_files, poison_seed=seed, timeout_s=self.options.run_timeout_s,
                                  builds=self.builds)
        shown, per_trial = 1, []                # the calls served while each trial was the last one shown
        for _ in range(MAX_CALLS + len(self._trial_inputs) + 1):
            result = self._child(work, "run", (library.parent,))
            status = result.get("status")
            if status == "done":
                per_trial.append(len(self._calls) - sum(per_trial))
                if shown >= len(self._trial_inputs):
                    break
                shown += 1
                self._reveal(work, shown)
                continue
            if status == "model_error":           # model_src does not load: the answer does not compile
                raise BuildFailed(BuildResult(ok=False, artifact=None, key="", diagnostics=str(result.get("why")),
                                              error_category=ErrorCategory.SYNTAX_STRUCTURE))
            if status == "timeout":
                return CaseOutcome(Status.TIMEOUT, f"ModelNew timed out {where}", case=case)
            if status != "call":
                return CaseOutcome(Status.RUNTIME_ERROR, f"ModelNew failed: {result.get('why', status)} {where}",
                                   case=case)
            index = int(result["index"])
            if index >= MAX_CALLS:
                return CaseOutcome(Status.RUNTIME_ERROR, f"ModelNew made more than {MAX_CALLS} operator calls",
                                   case=case)
            outcome = self._serve(runner, work, index, case, where)
            if outcome is not None:
                return outcome
        else:
            return CaseOutcome(Status.RUNTIME_ERROR, "ModelNew did not finish", case=case)
        try:
            outputs = torch.load(work / "out.pt", weights_only=True)["outputs"]
        except Exception as exc:                            # noqa: BLE001 - what the candidate's child wrote
            return CaseOutcome(Status.RUNTIME_ERROR, f"ModelNew's outputs are unreadable ({type(exc).__name__}) "
                                                     f"{where}", case=case)
        worst_abs = worst_rel = 0.0
        for ref, got in zip(golden, outputs, strict=False):
            why, max_abs, max_rel = compare(ref, got)
            if why:
                return CaseOutcome(Status.WRONG, f"{why} {where}", case=case, max_abs=max_abs, max_rel=max_rel)
            worst_abs, worst_rel = max(worst_abs, max_abs), max(worst_rel, max_rel)
        if len(outputs) != len(golden):
            return CaseOutcome(Status.WRONG, f"ModelNew ran {len(outputs)} of {len(golden)} trials {where}", case=case)
        if not runner.runs:
            return CaseOutcome(Status.WRONG, f"ModelNew made no call of the custom operator {where} (MultiKernelBench "
                                             "requires the custom kernel to compute the result)", case=case)
        stray = unproduced_output(outputs, self._produced)
        if stray is not None:
            return CaseOutcome(Status.WRONG, f"ModelNew's {stray} is not what the custom operator wrote: the result "
                                             f"was computed outside the kernel {where}", case=case)
        foreign = foreign_call_input([self._calls[i] for i in sorted(self._calls)], self._trial_inputs, per_trial)
        if foreign is not None:
            return CaseOutcome(Status.WRONG, f"{foreign} {where}", case=case)
        first_trial = per_trial[0]
        cost = _launch_cost(runner, first_trial) if first else None
        return SeedChecked(worst_abs, worst_rel, time_us=cost.time_us if cost else None, cost=cost,
                           baseline=self._estimated_reference(cost) if cost else None)

    def _estimated_reference(self, cost: RunCost) -> RunCost:
        """An estimate of the PyTorch reference's time, which MultiKernelBench measures on the NPU and
        nothing here can: one launch (the candidate's launch overhead) that moves the reference's inputs
        and outputs once at HBM bandwidth, i.e. an ideal fused eager operator. Speedups against it are
        estimates (``result_details['speedup_baseline']`` says so)."""
        self.result_details["speedup_baseline"] = ("estimate: the reference's inputs and outputs moved once at "
                                                   "HBM bandwidth plus one launch (no NPU measurement)")
        return RunCost(time_us=cost.launch_overhead_us + self.io_bytes / HBM_BYTES_PER_US,
                       launch_overhead_us=cost.launch_overhead_us)

    def _serve(self, runner: op_call.OpRunner, work: Path, index: int, case: ShapeCase,
               where: str) -> CaseOutcome | None:
        """Run the saved call ``index`` on the simulator and leave its result for the child."""
        import torch

        try:
            saved = torch.load(work / f"call_{index}.pt", weights_only=True)
            api, args = str(saved["api"]), [tuple(a) for a in saved["args"]]
        except Exception as exc:                            # noqa: BLE001 - what the candidate's child wrote
            return CaseOutcome(Status.RUNTIME_ERROR, f"operator call {index} is unreadable ({type(exc).__name__})",
                               case=case)
        record = CallRecord(inputs=_input_tensors(runner.signature, args))    # before an in-place call
        try:
            with op_call.marked_uninitialised_memory():
                runner.call(api, args)
        except op_call.TaskCallsOtherOp as exc:
            raise BuildFailed(BuildResult(ok=False, artifact=None, key="", diagnostics=str(exc),
                                          error_category=ErrorCategory.SYNTAX_STRUCTURE)) from None
        except op_call.KernelBuildFailed as exc:
            raise BuildFailed(exc.build) from None
        except op_call.SignatureMismatch as exc:
            raise BuildFailed(BuildResult(ok=False, artifact=None, key="", diagnostics=str(exc),
                                          error_category=exc.category)) from None
        except op_call.KernelRunFailed as exc:
            self._note(runner)
            if exc.run.timed_out:
                return CaseOutcome(Status.TIMEOUT, f"timed out {where}: {exc.run.message}", case=case)
            return CaseOutcome(Status.RUNTIME_ERROR, f"{exc.run.message or 'kernel run failed'} {where}", case=case)
        except op_call.CallError as exc:
            return CaseOutcome(Status.WRONG, f"{exc} {where}", case=case)
        self._note(runner)
        for value in op_call.bind(runner.signature, api, args).outputs.values():    # written in place by the call
            for tensor in value if isinstance(value, list) else [value]:
                self._produced.append(tensor.detach().reshape(-1).clone())
                record.outputs.append(self._produced[-1])
        self._calls[index] = record
        torch.save({"api": api, "args": args}, work / f"call_{index}.result.pt")
        return None

    def _note(self, runner: op_call.OpRunner) -> None:
        if runner.built:
            self._reach(Stage.KERNEL_BUILT)
        for run in runner.runs:
            if "block_dim" in run.details:
                self._reach(Stage.TILING_RAN)
            if run.ok:
                self._reach(Stage.RAN_CLEANLY)

    def case_strategy(self) -> Any:
        raise NotImplementedError("MultiKernelBench tasks have no dynamic cases")

    def build_case(self, case: ShapeCase) -> BuildResult:
        """The candidate built: host, binding, and the kernel for the first call's dtypes."""
        self.check_seed(case, self.input_seed(case, 0), first=False)
        built = [b for b in self.builds.values() if b.ok]
        if not built:
            raise BuildFailed(BuildResult(ok=False, artifact=None, key="", diagnostics="ModelNew made no operator "
                                          f"call on {case.describe()}"))
        return built[0]


def _input_tensors(signature: OpSignature, args: list[tuple[Any, ...]]) -> list[tuple[str, Any]]:
    """Copies of the tensors a call passes for the operator's inputs (its first arguments, one per
    declared input), labelled by argument position ("J", "J.M" for a tensor list's M-th tensor)."""
    import torch

    found: list[tuple[str, Any]] = []
    for j, arg in enumerate(args[:len(signature.inputs)]):
        kind, value = (arg[0], arg[1]) if len(arg) > 1 else (arg[0], None)
        if kind == "tensor" and isinstance(value, torch.Tensor):
            found.append((str(j), value.detach().clone()))
        elif kind == "tensor_list" and isinstance(value, list | tuple):
            found.extend((f"{j}.{m}", t.detach().clone()) for m, t in enumerate(value) if isinstance(t, torch.Tensor))
    return found


def _launch_cost(runner: op_call.OpRunner, calls: int) -> RunCost | None:
    """The kernel launches of the first trial (its ``calls`` calls) as one cost."""
    costs = [cost_of(r.time_us, r.details) for r in runner.runs[:calls] if r.time_us is not None]
    return combined(costs) if costs else None


def _nbytes(value: Any) -> int:
    """Bytes of the tensors inside ``value`` (lists, tuples, dicts)."""
    import torch

    if isinstance(value, torch.Tensor):
        return value.numel() * value.element_size()
    if isinstance(value, list | tuple):
        return sum(_nbytes(v) for v in value)
    if isinstance(value, dict):
        return sum(_nbytes(v) for v in value.values())
    return 0
