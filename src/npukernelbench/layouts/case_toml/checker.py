"""One candidate project against a ``case.toml`` task: the harness makes the inputs (``inputs.py`` or
the case's ``make_inputs`` hook), launches the kernel on them through the toolchain, and compares
the outputs with ``reference.py`` (``compare.py``, then the case's ``check`` hook).

Per input seed: fresh inputs, reference in this process, candidate in a child process with fresh
poisoned outputs -> inputs unchanged, strict comparison; on the first seed also determinism (a second
run with other poison must agree bit for bit), the speed floors (``speed_audit``) and the expert
solution's cost on the same launch.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import numpy as np

from npukernelbench.checker import BaselineCache, BuildFailed, CaseOutcome, Checker, EvalOptions, SeedChecked
from npukernelbench.compare import compare_outputs, same_bits
from npukernelbench.reference_runner import FunctionReference, Reference
from npukernelbench.result import Stage, Status
from npukernelbench.shapes import ShapeCase, case_strategy
from npukernelbench.spec import TaskSpec
from npukernelbench.speed_audit import RunCost, cost_of, floor_violations, traffic_of
from npukernelbench.toolchains.base import BuildResult, KernelProject, Launch, ParamSlot, TensorArg, Toolchain


def project_for(spec: TaskSpec, files: Mapping[str, str], dtypes: Mapping[str, str]) -> KernelProject:
    params = []
    for role, decls in (("input", spec.inputs), ("output", spec.outputs)):
        for d in decls:
            ptype = "DYNAMIC" if d.kind == "list" else "OPTIONAL" if d.optional else "REQUIRED"
            params.append(ParamSlot(d.name, role, ptype, dtypes[d.name]))
    return KernelProject(op=spec.op, kernel=spec.kernel, files=dict(files), params=tuple(params))


def _copy(value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, list):
        return [np.array(v, copy=True) for v in value]
    return np.array(value, copy=True)


def _shape_of(value: Any) -> Any:
    if isinstance(value, list):
        return [tuple(np.shape(v)) for v in value]
    return tuple(np.shape(value))


class CaseTomlChecker(Checker):
    """``Checker`` of the ``case-toml`` layout: ``CaseTomlChecker(spec, toolchain, files)`` then
    ``check(case)``, ``check_static()``, ``check_dynamic(examples, seed)``."""

    def __init__(self, spec: TaskSpec, toolchain: Toolchain, files: Mapping[str, str],
                 options: EvalOptions | None = None, baseline: BaselineCache | None = None,
                 reference: Reference | None = None):
        super().__init__(spec, toolchain, files, options, baseline)
        self.reference = reference or FunctionReference(spec)

    def case_strategy(self) -> Any:
        return case_strategy(self.spec)

    # -- building ---------------------------------------------------------------------------------
    def build(self, dtypes: Mapping[str, str]) -> BuildResult:
        """Build for one dtype binding (cached); raises :class:`BuildFailed` with the diagnostics."""
        key = tuple(sorted(dtypes.items()))
        if key not in self.builds:
            self.builds[key] = self.toolchain.build(project_for(self.spec, self.files, dtypes))
        result = self.builds[key]
        if not result.ok:
            raise BuildFailed(result)
        self._reach(Stage.KERNEL_BUILT)
        return result

    def build_case(self, case: ShapeCase) -> BuildResult:
        with self.clock("inputs"):
            inputs = self.reference.make_inputs(case, case.seed)
            dtypes = self.reference.dtypes(case, inputs)
        return self.build(dtypes)

    # -- one run ---------------------------------------------------------------------------------
    def launch(self, case: ShapeCase, inputs: Mapping[str, Any], expected: Mapping[str, Any],
               dtypes: Mapping[str, str], poison_seed: int) -> Launch:
        ins = tuple(TensorArg(d.name, dtypes[d.name], data=_copy(inputs[d.name])) for d in self.spec.inputs)
        outs = tuple(TensorArg(d.name, dtypes[d.name], shape=_shape_of(expected[d.name]), alias=d.inplace)
                     for d in self.spec.outputs)
        attr_types = {a.name: a.type for a in self.spec.attrs}
        attrs = {name: (attr_types[name], value) for name, value in case.attrs.items() if name in attr_types}
        return Launch(inputs=ins, outputs=outs, attrs=attrs, timeout_s=self.options.run_timeout_s,
                      poison_seed=poison_seed, soc=self.soc)

    def _baseline_time(self, case: ShapeCase, seed: int, launch: Launch, dtypes: Mapping[str, str]) -> RunCost | None:
        if self.spec.solution is None or not self.options.speed:
            return None
        key = self.baseline.key(self.toolchain, self.spec, case, seed, self.soc)
        if key in self.baseline.times:
            return self.baseline.times[key]
        bkey = (self.toolchain.name, str(self.spec.folder), *sorted(f"{k}={v}" for k, v in dtypes.items()))
        with self.clock.section("baseline"):
            if bkey not in self.baseline.builds:
                self.baseline.builds[bkey] = self.toolchain.build(project_for(self.spec, self.spec.solution, dtypes))
            build = self.baseline.builds[bkey]
            t = None
            if build.ok:
                run = self.toolchain.run(build, launch)
                t = cost_of(run.time_us, run.details) if run.ok and run.time_us is not None else None
        self.baseline.times[key] = t
        return t

    def check_seed(self, case: ShapeCase, seed: int, first: bool) -> CaseOutcome | SeedChecked:
        with self.clock("inputs"):
            inputs = self.reference.make_inputs(case, seed)
            dtypes = self.reference.dtypes(case, inputs)
        with self.clock("reference"):
            expected = self.reference.expected(case, inputs)
        build = self.build(dtypes)
        launch = self.launch(case, inputs, expected, dtypes, poison_seed=seed)
        run = self.toolchain.run(build, launch)
        if "block_dim" in run.details:
            self._reach(Stage.TILING_RAN)
        if run.ok:
            self._reach(Stage.RAN_CLEANLY)
        where = self.where(case, seed)
        if run.timed_out:
            return CaseOutcome(Status.TIMEOUT, f"timed out {where}: "
                                               f"{run.message}".strip(), case=case)
        if not run.ok:
            return CaseOutcome(Status.RUNTIME_ERROR, f"{run.message or 'kernel run failed'} {where}", case=case)
        with self.clock("compare"):
            aliased = {d.inplace for d in self.spec.outputs if d.inplace}
            for d in self.spec.inputs:
                if d.name in aliased or d.name not in run.inputs_after or inputs[d.name] is None:
                    continue
                if not same_bits(run.inputs_after[d.name], inputs[d.name]):
                    return CaseOutcome(Status.WRONG, f"input '{d.name}' was modified by the kernel {where}; "
                                                     "inputs must be left unchanged", case=case)
            verdict = compare_outputs(self.spec, run.outputs, expected, dtypes)
            # A task's custom check can only reject: it never overrides a failed tolerance check.
            if verdict.ok and self.reference.custom_check(case, run.outputs, expected, dtypes) is False:
                verdict = replace(verdict, ok=False, message="the task's custom precision check failed")
        if not verdict.ok:
            return CaseOutcome(Status.WRONG, f"{verdict.message} {where}", case=case, max_abs=verdict.max_abs,
                               max_rel=verdict.max_rel)
        if not first:
            return SeedChecked(verdict.max_abs, verdict.max_rel)
        if self.options.determinism:
            again = self.toolchain.run(build, replace(launch, poison_seed=seed + 7919))
            if not again.ok:
                status = Status.TIMEOUT if again.timed_out else Status.RUNTIME_ERROR
                return CaseOutcome(status, f"a second run on the same inputs with other poison in fresh "
                                           f"buffers failed {where}: {again.message}", case=case)
            if any(not same_bits(run.outputs[n], again.outputs.get(n)) for n in run.outputs):
                return CaseOutcome(Status.WRONG, f"nondeterministic: a second run on the same inputs with "
                                                 f"other poison in fresh buffers gave different bits {where} "
                                                 "(uninitialised reads or races)", case=case)
        cost = base = None
        floors: tuple[str, ...] = ()
        if run.time_us is not None:
            cost = cost_of(run.time_us, run.details)
            sent = {a.name: a.data for a in launch.inputs}
            floors = floor_violations(traffic_of(self.spec, sent, run.outputs), cost)
        if self.is_solution and self.options.speed and cost is not None:
            self.baseline.times.setdefault(self.baseline.key(self.toolchain, self.spec, case, seed, self.soc), cost)
        base = self._baseline_time(case, seed, launch, dtypes) if cost is not None else None
        return SeedChecked(verdict.max_abs, verdict.max_rel, time_us=run.time_us, cost=cost, baseline=base,
                           floors=floors)
