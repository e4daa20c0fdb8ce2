"""One candidate project against a task of the upstream layout, the way upstream evaluates it, on
its CSV rows (the static cases) and on rows drawn from them (the dynamic cases, ``row_variants``).

1. ``describe``: the toolchain compiles the candidate's host code alone and reports the OpDefs it
   registers; the one named after the kernel file is the operator (``op_call.pick_signature``).
2. For every row and ``seeds`` input seeds derived from the run's data seed
   (``torch.manual_seed(seed)``, and numpy's and Python's global generators, before ``get_init_inputs``
   and ``get_inputs``; a drawn row the task's own code refuses is discarded): the reference
   ``Model(*init)(*args)`` runs twice on copies, in the original dtypes (its outputs' count, shapes and
   dtypes are the contract) and with half/bf16 tensors upcast to float32 (the expected values; a row
   without half/bf16 inputs runs once, the second run would compute the same values); the candidate
   runs as ``ModelNew(*init)(*args)`` with ``kernel_gen_ops`` the task's compiled
   ``pybind.cpp``, whose ``EXEC_NPU_CMD`` runs the kernel in a child process (``op_call``).
3. Outputs are compared positionally: count, shapes and dtypes strictly against what ``Model``
   returns; extra outputs that ``ModelNew`` returns beyond those (an ``rstd`` the reference does not
   compute) are not compared, as upstream's pairwise comparison ignores them. Values: the task's
   ``custom_check_precision(row, ref, out)`` when defined (its verdict is the first element of the
   tuple it returns), else upstream's fixed limits (``UPSTREAM_DEFAULT_LIMITS``: an element fails when
   its absolute and its relative error both exceed 1e-3) or the per-dtype tolerance where that is
   looser; values are compared in float32 (half and bf16 outputs upcast).
4. The first seed of every row runs twice with different poison in the fresh output buffers; the two
   results must agree bit for bit; its kernel launches are held to the speed floors (``speed_audit``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any

from npukernelbench.checker import (
    BaselineCache,
    BuildFailed,
    CaseOutcome,
    Checker,
    DrawRejected,
    EvalOptions,
    SeedChecked,
)
from npukernelbench.compare import ErrorLimits, compare_array, same_bits
from npukernelbench.infrastructure import InfrastructureError
from npukernelbench.layouts.upstream import op_call
from npukernelbench.layouts.upstream.binding import BindingError
from npukernelbench.layouts.upstream.large_case_lock import large_case_turn
from npukernelbench.layouts.upstream.precision import VerdictError, verdict_of
from npukernelbench.layouts.upstream.row_variants import row_strategy
from npukernelbench.layouts.upstream.task import Inputs, UpstreamTask, upcast, upstream_task
from npukernelbench.module_loader import CaseReferenceError
from npukernelbench.result import Stage, Status
from npukernelbench.shapes import ShapeCase
from npukernelbench.spec import TaskSpec
from npukernelbench.speed_audit import RunCost, combined, cost_of, floor_violations
from npukernelbench.toolchains.base import BuildResult, HostDescriber, OpSignature, Toolchain

# What upstream's harness judges a task without ``custom_check_precision`` by: ``check_precision`` with
# its evaluation settings' ``max_abs_error`` and ``max_rel_error`` (both 1e-3), whatever the dtype.
UPSTREAM_DEFAULT_LIMITS = ErrorLimits(max_abs=1e-3, max_rel=1e-3)
DRAW_BUDGET_FLOOR = 1 << 20      # a drawn row may always have this many input bytes (a row of [1] grows too)


class ToolchainUnsupported(RuntimeError):
    """The toolchain cannot describe host code, which the public layout needs to bind the operator."""


def _as_list(value: Any) -> list[Any]:
    if isinstance(value, tuple | list):
        return list(value)
    return [value]


def _upcast_out(value: Any) -> Any:
    """A candidate's returned outputs with half/bf16 tensors as float32, same container types."""
    return upcast(value)


class UpstreamChecker(Checker):
    """``Checker`` of the upstream layout: the candidate runs as ``ModelNew`` through the task's own
    binding; ``check(case)`` checks one CSV row (``case.row``)."""

    def __init__(self, spec: TaskSpec, toolchain: Toolchain, files: Mapping[str, str],
                 options: EvalOptions | None = None, baseline: BaselineCache | None = None,
                 task: UpstreamTask | None = None):
        if not isinstance(toolchain, HostDescriber):
            raise ToolchainUnsupported(f"toolchain {toolchain.name!r} cannot describe host code (no describe()); "
                                       "the upstream NPUKernelBench layout binds operators through their OpDef")
        super().__init__(spec, toolchain, files, options, baseline)
        self.task = task or upstream_task(spec.folder, spec.op, spec.kernel)
        self.signature: OpSignature | None = None
        self._row_bytes: dict[int, int] = {}      # input bytes of each source row (the draw budget)

    def _note_runs(self, runner: op_call.OpRunner) -> None:
        if runner.built:
            self._reach(Stage.KERNEL_BUILT)
        for run in runner.runs:
            if "block_dim" in run.details:
                self._reach(Stage.TILING_RAN)
            if run.ok:
                self._reach(Stage.RAN_CLEANLY)

    def describe(self) -> OpSignature:
        """The candidate's operator signature (raises BuildFailed when the host side does not build)."""
        if self.signature is None:
            self.signature = op_call.candidate_signature(self.toolchain, self.spec.op, self.spec.kernel, self.files)
            self._reach(Stage.HOST_BUILT)
        return self.signature

    # -- one run of ModelNew ------------------------------------------------------------------------------
    def _run_candidate(self, inputs: Inputs, poison_seed: int) -> tuple[Any, op_call.OpRunner]:
        runner = op_call.OpRunner(toolchain=self.toolchain, signature=self.describe(), kernel=self.spec.kernel,
                                  files=self.files, poison_seed=poison_seed, timeout_s=self.options.run_timeout_s,
                                  builds=self.builds, soc=self.soc)
        try:
            with self.clock("binding"), self.task.bound_module(self.toolchain), op_call.bound(runner), \
                    self.clock("model"):
                out = self.task.candidate(inputs)
        except (BindingError, op_call.TaskCallsOtherOp) as exc:
            raise CaseReferenceError(f"{self.spec.folder}/validation/pybind.cpp: {exc}") from exc
        except InfrastructureError:             # our machinery, not the task's module.py nor the candidate
            raise
        except op_call.CallError:
            self._note_runs(runner)
            raise
        except Exception as exc:
            self._note_runs(runner)
            raise CaseReferenceError(f"{self.spec.folder}/validation/module.py: ModelNew raised "
                                  f"{type(exc).__name__}: {exc}") from exc
        self._note_runs(runner)
        return out, runner

    def _call_outcome(self, exc: op_call.CallError, case: ShapeCase, where: str) -> CaseOutcome:
        if isinstance(exc, op_call.KernelBuildFailed):
            raise BuildFailed(exc.build) from None
        if isinstance(exc, op_call.SignatureMismatch):
            raise BuildFailed(BuildResult(ok=False, artifact=None, key="", diagnostics=str(exc),
                                          error_category=exc.category)) from None
        if isinstance(exc, op_call.KernelRunFailed):
            run = exc.run
            if run.timed_out:
                return CaseOutcome(Status.TIMEOUT, f"timed out {where}: "
                                                   f"{run.message}".strip(), case=case)
            return CaseOutcome(Status.RUNTIME_ERROR, f"{run.message or 'kernel run failed'} {where}", case=case)
        return CaseOutcome(Status.WRONG, f"{exc} {where}", case=case)

    # -- comparing --------------------------------------------------------------------------------------
    def _compare(self, case: ShapeCase, structure: Any, values: Any, out: Any, where: str,
                 input_dtypes: tuple[str, ...] = ()) -> CaseOutcome | tuple[float, float]:
        import torch

        refs, vals, got = _as_list(structure), _as_list(values), _as_list(out)
        if len(got) < len(refs):
            return CaseOutcome(Status.WRONG, f"ModelNew returned {len(got)} output(s) but Model returns {len(refs)} "
                                             f"{where}", case=case)
        pairs = []
        for i, (ref, val, g) in enumerate(zip(refs, vals, got, strict=False)):
            if not isinstance(ref, torch.Tensor):
                continue                                   # a non-tensor return value: nothing to compare
            if not isinstance(g, torch.Tensor):
                return CaseOutcome(Status.WRONG, f"output {i}: ModelNew returned {type(g).__name__}, Model a tensor "
                                                 f"{where}", case=case)
            # The binding allocates the outputs, so a dtype other than Model's is the task's choice (Spence:
            # scipy gives Model float32 for float16 inputs, the binding allocates float16): floating vs
            # floating and integer vs integer compare element by element, at the looser dtype's tolerance.
            # A task's custom_check_precision compares upcast values (as upstream does): it may accept a
            # float16 result for Model's float32 reference (the level-3 GEMM tasks do exactly that).
            dtype_differs = (g.dtype != ref.dtype and self.task.custom_check is None
                             and not _same_kind(g.dtype, ref.dtype))
            if (tuple(g.shape) != tuple(ref.shape) and not _same_but_unit_dims(g.shape, ref.shape)) or dtype_differs:
                return CaseOutcome(Status.WRONG, f"output {i}: shape {list(g.shape)} {g.dtype} but Model returns "
                                                 f"{list(ref.shape)} {ref.dtype} {where}", case=case)
            # The task's pybind.cpp allocates the outputs, not the candidate: a binding that allocates
            # [1] for Model's scalar [] (MseLoss) compares element for element, as upstream's does.
            pairs.append((i, ref, val, g.reshape(ref.shape)))

        # a task without a check of its own is judged as upstream judges it (its fixed limits), or by
        # our per-dtype tolerance where that is looser (bfloat16)
        limits = UPSTREAM_DEFAULT_LIMITS if self.task.custom_check is None else None

        def default_verdicts() -> list[Any]:
            verdicts = []
            for i, ref, val, g in pairs:
                if g.dtype != ref.dtype and not _same_kind(g.dtype, ref.dtype):
                    continue                               # only the task's custom check compares these
                dtype_name = op_call.torch_dtype_name(g)
                # a floating output is held to no finer tolerance than the task's floating inputs
                # carry (a float32 gradient summed from float16 inputs: DeepNormGrad's dgamma)
                tolerance = self._looser_tolerance(dtype_name, op_call.torch_dtype_name(ref),
                                                   *(input_dtypes if g.is_floating_point() else ()))
                separate = isinstance(val, torch.Tensor) and val is not ref and val.shape == ref.shape
                expected = val.detach().cpu() if separate else ref
                if expected.dtype in (torch.float16, torch.bfloat16):
                    expected = expected.float()
                # Upstream compares with Model run in the task's own dtype; we compare with the float32
                # computation and also accept, element by element, the task-dtype result (the rounding
                # of every intermediate that a half-precision kernel legitimately makes too, whatever
                # the output's own dtype: a float32 gradient summed from float16 products).
                # (handed over in its storage type and widened a chunk at a time: no float32 copy of a
                # half-billion-element output)
                native = op_call.to_storage(ref) if separate and ref.is_floating_point() else None
                verdicts.append(compare_array(str(i), op_call.to_storage(g), expected.numpy(), dtype_name,
                                              tolerance, self.spec.nan_policy, also=native, limits=limits,
                                              also_dtype=op_call.torch_dtype_name(ref)))
            return verdicts

        hook = self.task.custom_check
        if hook is not None:
            try:
                # Upstream hands the check Model's outputs in the task's dtype; the float32 computation
                # is the more exact reference: passing against either passes.
                ok = verdict_of(hook(case.row, values, _upcast_out(out)))
                native = None if ok else upcast(structure)    # only when needed: outputs can be gigabytes
                if native is not None and not _same_outputs(native, values):
                    with contextlib.suppress(Exception):       # the first verdict stands if this one fails
                        ok = verdict_of(hook(case.row, native, _upcast_out(out)))
                del native
            except VerdictError as exc:
                raise CaseReferenceError(f"{self.spec.folder}/validation/prepare_inputs.py: {exc}") from exc
            except Exception as exc:
                raise CaseReferenceError(f"{self.spec.folder}/validation/prepare_inputs.py: custom_check_precision "
                                      f"raised {type(exc).__name__}: {exc}") from exc
            if ok:
                return 0.0, 0.0            # the task's check decides; default-tolerance figures are not computed
            verdicts = default_verdicts()
            detail = next((v.message for v in verdicts if not v.ok), "")
            return CaseOutcome(Status.WRONG, f"the task's custom_check_precision failed {where}"
                                             + (f" (default tolerances: {detail})" if detail else ""), case=case,
                               max_abs=max((v.max_abs for v in verdicts), default=0.0),
                               max_rel=max((v.max_rel for v in verdicts), default=0.0))
        verdicts = default_verdicts()
        bad = next((v for v in verdicts if not v.ok), None)
        if bad is not None:
            return CaseOutcome(Status.WRONG, f"{bad.message} {where}", case=case, max_abs=bad.max_abs,
                               max_rel=bad.max_rel)
        return max((v.max_abs for v in verdicts), default=0.0), max((v.max_rel for v in verdicts), default=0.0)

    def _looser_tolerance(self, out_dtype: str, *others: str) -> Any:
        """The tolerance for an output of ``out_dtype`` compared where ``others`` (the reference's dtype,
        the task's floating input dtypes) also bound the precision: the loosest of their floating
        tolerances (None, exact, only when the output's and every other dtype's are exact)."""
        found = [t for t in (self.spec.tolerance_for(d) for d in (out_dtype, *others)) if t is not None]
        return max(found, key=lambda t: (t.rtol, t.atol)) if found else None

    # -- one row ---------------------------------------------------------------------------------------
    def check_seed(self, case: ShapeCase, seed: int, first: bool) -> CaseOutcome | SeedChecked:
        """One input seed of one CSV row (under the large-case lock for rows of large inputs). A drawn
        row that the task's own code refuses, or whose inputs exceed the draw budget, is rejected."""
        assert case.row is not None
        self.describe()
        try:
            with self.clock("inputs"):
                inputs = self.task.make_inputs(case.row, seed)
            size = _tensor_bytes(inputs.args) + _tensor_bytes(inputs.init)
            if case.kind == "dynamic" and size > self._draw_budget(case):
                raise DrawRejected(f"{size} input bytes, over the budget of a drawn row")
            with large_case_turn(size, self.toolchain.cache_root()):
                return self._check_seed(case, seed, inputs, first)
        except CaseReferenceError as exc:
            if case.kind == "dynamic":        # the task's own code does not take this draw
                raise DrawRejected(str(exc)) from exc
            raise

    def _draw_budget(self, case: ShapeCase) -> int:
        """Input bytes a drawn row may have: twice its source row's (at least DRAW_BUDGET_FLOOR bytes)."""
        source = self.spec.cases[case.seed]
        if source.index not in self._row_bytes:
            assert source.row is not None
            inputs = self.task.make_inputs(source.row, 0)
            self._row_bytes[source.index] = _tensor_bytes(inputs.args) + _tensor_bytes(inputs.init)
        return max(2 * self._row_bytes[source.index], DRAW_BUDGET_FLOOR)

    def case_strategy(self) -> Any:
        return row_strategy([c.row for c in self.spec.cases if c.row is not None])

    def _check_seed(self, case: ShapeCase, seed: int, inputs: Inputs, first: bool) -> CaseOutcome | SeedChecked:
        """One seed of a row: reference, candidate, comparison (and on the first seed the determinism
        re-run and the costs). A failure's outcome, or what passed."""
        where = self.where(case, seed)
        with self.clock("reference"):
            structure, values = self._reference(case, inputs)
        try:
            out, runner = self._run_candidate(inputs, poison_seed=seed)
        except op_call.CallError as exc:
            return self._call_outcome(exc, case, where)
        with self.clock("compare"):
            compared = self._compare(case, structure, values, out, where, _floating_dtypes(inputs.args))
        if isinstance(compared, CaseOutcome):
            return compared
        del structure, values
        cost = base = None
        if first:
            if self.options.determinism:
                try:
                    again, _ = self._run_candidate(inputs, poison_seed=seed + 7919)
                except op_call.CallError as exc:
                    return self._call_outcome(exc, case, where)
                if not _same_outputs(out, again):
                    return CaseOutcome(Status.WRONG, f"nondeterministic: a second run on the same inputs with "
                                                     f"other poison in fresh buffers gave different bits {where} "
                                                     "(uninitialised reads or races)", case=case)
                del again
            del out
            cost = _launch_cost(runner)
            base = self._baseline_time(case, seed, inputs, cost) if cost is not None else None
        return SeedChecked(compared[0], compared[1], time_us=cost.time_us if cost else None, cost=cost,
                           baseline=base, floors=_launch_floors(runner) if first else ())

    def _baseline_time(self, case: ShapeCase, seed: int, inputs: Inputs, own: RunCost | None) -> RunCost | None:
        """The expert answer's time on the same row and seed (through the same toolchain; cached)."""
        if self.spec.solution is None or not self.options.speed:
            return None
        key = self.baseline.key(self.toolchain, self.spec, case, seed, self.soc)
        if key not in self.baseline.times:
            if dict(self.spec.solution) == self.files:
                self.baseline.times[key] = own
            else:
                expert = UpstreamChecker(self.spec, self.toolchain, self.spec.solution, self.options,
                                         self.baseline, self.task)
                expert.clock = self.clock
                try:
                    with self.clock.section("baseline"):
                        _, runner = expert._run_candidate(inputs, poison_seed=seed)
                    self.baseline.times[key] = _launch_cost(runner)
                except (BuildFailed, op_call.CallError, CaseReferenceError):
                    self.baseline.times[key] = None
        return self.baseline.times[key]

    def _reference(self, case: ShapeCase, inputs: Inputs) -> tuple[Any, Any]:
        """``Model``'s outputs in the original dtypes (the structure) and computed in float32 (half/bf16
        inputs upcast: the values), or the original run's upcast where the float32 run fails or returns
        another structure. The float32 run goes first, so that its upcast inputs and temporaries are
        gone before the original run's are made (a half-billion-element row holds one set at a time)."""
        import torch

        if not {"float16", "bfloat16"} & {*_floating_dtypes(inputs.init), *_floating_dtypes(inputs.args)}:
            structure = self.task.reference(case.row, inputs)
            return structure, structure    # nothing to upcast: a second run would compute the same values
        try:
            values = self.task.reference(case.row, inputs, values=True)
        except CaseReferenceError:
            values = None
        structure = self.task.reference(case.row, inputs)
        if values is None:
            return structure, upcast(structure)
        a, b = _as_list(structure), _as_list(values)
        if len(a) != len(b) or any(isinstance(x, torch.Tensor) != isinstance(y, torch.Tensor)
                                   or (isinstance(x, torch.Tensor) and x.shape != y.shape)
                                   for x, y in zip(a, b, strict=True)):
            return structure, upcast(structure)
        return structure, values

    def build_case(self, case: ShapeCase) -> BuildResult:
        """The candidate built for ``case``: the binding decides the dtypes when ``ModelNew`` calls the
        operator, so the case runs once and its first build is returned."""
        assert case.row is not None
        inputs = self.task.make_inputs(case.row, self.input_seed(case, 0))
        try:
            _, runner = self._run_candidate(inputs, poison_seed=0)
        except op_call.KernelBuildFailed as exc:
            raise BuildFailed(exc.build) from None
        except op_call.CallError:
            pass
        built = [b for b in self.builds.values() if b.ok]
        if not built:
            raise BuildFailed(BuildResult(ok=False, artifact=None, key="", diagnostics="the task's ModelNew made no "
                                          f"operator call on {case.describe()}"))
        return built[0]


def _floating_dtypes(value: Any) -> tuple[str, ...]:
    """The dtype names of the floating tensors inside ``value`` (tuples, lists, dicts)."""
    import torch

    if isinstance(value, torch.Tensor):
        return (op_call.torch_dtype_name(value),) if value.is_floating_point() else ()
    if isinstance(value, tuple | list):
        return tuple(d for v in value for d in _floating_dtypes(v))
    if isinstance(value, dict):
        return tuple(d for v in value.values() for d in _floating_dtypes(v))
    return ()


def _tensor_bytes(value: Any) -> int:
    """Bytes held by the tensors inside ``value`` (tuples, lists, dicts)."""
    import torch

    if isinstance(value, torch.Tensor):
        return value.numel() * value.element_size()
    if isinstance(value, tuple | list):
        return sum(_tensor_bytes(v) for v in value)
    if isinstance(value, dict):
        return sum(_tensor_bytes(v) for v in value.values())
    return 0


def _same_kind(a: Any, b: Any) -> bool:
    """Two torch dtypes that are both floating (real) or both integer (bool apart)."""
    import torch

    if a.is_complex or b.is_complex or torch.bool in (a, b):
        return False
    return a.is_floating_point == b.is_floating_point


def _same_but_unit_dims(a: Any, b: Any) -> bool:
    """Two shapes with the same elements in the same order, differing only in dimensions of size 1."""
    return [d for d in a if d != 1] == [d for d in b if d != 1]


def _launch_cost(runner: op_call.OpRunner) -> RunCost | None:
    """The kernel launches of one Model call as one cost (speedups compare kernel times)."""
    costs = [cost_of(r.time_us, r.details) for r in runner.runs if r.time_us is not None]
    return combined(costs) if costs else None


def _launch_floors(runner: op_call.OpRunner) -> tuple[str, ...]:
    """The speed floors the kernel launches of one Model call are below (each launch on its own bytes,
    as a case-toml task's single launch is)."""
    found = []
    timed = [(r, t) for r, t in zip(runner.runs, runner.traffic, strict=False) if r.time_us is not None]
    for i, (run, traffic) in enumerate(timed):
        prefix = f"launch {i + 1} of {len(timed)}: " if len(timed) > 1 else ""
        found += [prefix + reason for reason in floor_violations(traffic, cost_of(run.time_us, run.details))]
    return tuple(found)


def _same_outputs(a: Any, b: Any) -> bool:
    import torch

    xs, ys = _as_list(a), _as_list(b)
    if len(xs) != len(ys):
        return False
    for x, y in zip(xs, ys, strict=True):
        if isinstance(x, torch.Tensor) and isinstance(y, torch.Tensor):
            if not same_bits(op_call.to_storage(x), op_call.to_storage(y)):
                return False
        elif isinstance(x, list | tuple) and isinstance(y, list | tuple):
            if not _same_outputs(list(x), list(y)):
                return False
    return True

