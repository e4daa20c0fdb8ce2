"""The end-to-end layers of a third-party operator: tiling runs, runs cleanly, matches the golden.

:func:`end_to_end_runner` derives the operator's inputs from what it ships (``Runner.skip`` says why
when it cannot) and picks the DataType column they need (``Runner.column``); ``Runner.run()`` then
runs the operator on the simulator and judges it. cann-ops: ``third_party_cannops``; EvoKernel:
``third_party_evokernel``.
"""

from __future__ import annotations

import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from npukernelbench.infrastructure import InfrastructureError
from npukernelbench.sandbox import Limits, ProcessOutcome, Request, clean_env, run_confined
from npukernelbench.toolchains.base import KernelProject, Launch, OpSignature, ParamSlot, TensorArg, Toolchain

RUN_TIMEOUT_S = 120.0
PROGRAM_LIMITS = Limits(cpu_s=120, memory_bytes=8 << 30, wall_s=180.0, file_bytes=4 << 30)
PYTHON_LIMITS = Limits(cpu_s=300, memory_bytes=32 << 30, wall_s=300.0, file_bytes=4 << 30, processes=512)


@dataclass
class Outcome:
    reached: list[str] = field(default_factory=list)       # layers passed after kernel_built
    failed: str | None = None                               # first layer that failed
    message: str = ""
    inputs: str = ""                                        # what the inputs were (shapes, scaled or not)


class Runner:
    """Base: an operator whose inputs could not be derived."""

    column: int = 0
    skip: str | None = None

    def run(self) -> Outcome:
        return Outcome(inputs=self.skip or "")


def end_to_end_runner(op: Any, sig: OpSignature, kernel: str, toolchain: Toolchain) -> Runner:
    if op.source == "cann-ops":
        return CannOpsRunner(op, sig, kernel, toolchain)
    if op.source == "EvoKernel":
        from third_party_evokernel import EvoKernelRunner

        return EvoKernelRunner(op, sig, kernel, toolchain)
    runner = Runner()
    runner.skip = f"no inputs derivable: unknown source {op.source}"
    return runner


def confined(argv: list[str], cwd: Path, limits: Limits, env: dict[str, str] | None = None,
             readable: tuple[Path, ...] = (), writable: tuple[Path, ...] = ()) -> ProcessOutcome:
    out = run_confined(Request(argv=argv, cwd=cwd, limits=limits, env=clean_env(env), readable=readable,
                               writable=writable))
    if out.infrastructure:
        raise InfrastructureError(f"third_party: {Path(argv[0]).name}: {out.infrastructure}")
    return out


def column_for(sig: OpSignature, dtypes: dict[str, str]) -> int | None:
    """The DataType column whose dtypes are those of the inputs and outputs named in ``dtypes``."""
    for j in range(sig.columns):
        if all(p.any_column and dt in p.dtypes or
               (p.dtypes[min(j, len(p.dtypes) - 1)] if p.dtypes else dt) == dt
               for p in (*sig.inputs, *sig.outputs) if (dt := dtypes.get(p.name)) is not None):
            return j
    return None


def project(op: Any, sig: OpSignature, kernel: str, dtypes: dict[str, str], lists: set[str]) -> KernelProject:
    params = []
    for role, decls in (("input", sig.inputs), ("output", sig.outputs)):
        for p in decls:
            ptype = "DYNAMIC" if p.name in lists else p.param_type
            dt = dtypes.get(p.name) or (p.dtypes[0] if p.dtypes else "float32") or "float32"
            params.append(ParamSlot(p.name, role, ptype, dt))
    return KernelProject(op=sig.op, kernel=kernel, files=op.files, params=tuple(params))


def stage_of(run: Any) -> list[str]:
    reached = []
    if "block_dim" in run.details:
        reached.append("tiling_ran")
        if run.ok:
            reached.append("ran_cleanly")
    return reached


class CannOpsRunner(Runner):
    """A cann-ops operator fed by its own example (see ``third_party_cannops``)."""

    def __init__(self, op: Any, sig: OpSignature, kernel: str, toolchain: Toolchain):
        import third_party_cannops as cann

        self.op, self.sig, self.kernel, self.toolchain = op, sig, kernel, toolchain
        self.cann = cann
        self.work: Path | None = None
        self.calls: list[Any] = []
        example = cann.find_example(op.folder)
        if isinstance(example, str):
            self.skip = example
            return
        self.example = example
        main_cpp = (example.folder / "main.cpp").read_text(encoding="utf-8", errors="replace")
        other = cann.other_aclnn(main_cpp, sig.op, set(op.files))
        if other:
            self.skip = other
            return
        missing = cann.needs_missing_module((example.folder / "gen_data.py").read_text(encoding="utf-8",
                                                                                        errors="replace"))
        if missing:
            self.skip = f"no inputs derivable: gen_data.py imports {missing}, not installed here"
            return
        try:
            self._record(main_cpp)
        except _NoInputs as exc:
            self.skip = f"no inputs derivable: {exc}"
            self._cleanup()

    # -- deriving ----------------------------------------------------------------------------------

    def _record(self, main_cpp: str) -> None:
        cann = self.cann
        root = self.toolchain.cache.root
        root.mkdir(parents=True, exist_ok=True)
        import tempfile

        self.work = Path(tempfile.mkdtemp(prefix="thirdparty-", dir=root))
        work = self.work
        cann.copy_example(self.example, work)
        out = confined([sys.executable, "gen_data.py", *self.example.gen_args], work, PYTHON_LIMITS,
                       readable=cann.python_readable())
        if not out.ok:
            raise _NoInputs(f"gen_data.py failed ({_why(out)}): {_tail(out)}")
        header, impl = cann.aclnn_header(self.sig)
        names = {"npukb_generated_aclnn.h", f"aclnn_{cann.snake(self.sig.op)}.h"}
        import re

        names.update(inc for inc in re.findall(r'#\s*include\s*"(aclnn_\w+\.h)"', main_cpp))
        for name in names:
            (work / name).write_text(header, encoding="utf-8")
        (work / "npukb_generated_aclnn.cpp").write_text(impl, encoding="utf-8")
        argv = ["g++", "-std=c++17", "-O0", "-w", "-I", str(cann.SHIM_INCLUDE), "-I", ".", "main.cpp",
                "npukb_generated_aclnn.cpp", str(cann.SHIM_SOURCE), "-o", "build/example"]
        out = confined(argv, work, PROGRAM_LIMITS)
        if not out.ok:
            raise _NoInputs(f"main.cpp does not compile against the ACL stand-in: {_first_error(out)}")
        # the example reads ../input and writes ../output and the calls folder: the whole scratch folder
        out = confined([str(work / "build" / "example")], work / "build", PROGRAM_LIMITS,
                       {"NPUKB_ACL_MODE": "record", "NPUKB_ACL_DIR": str(work / "calls")}, writable=(work,))
        calls_file = work / "calls" / "calls.txt"
        if not calls_file.is_file():
            raise _NoInputs(f"main.cpp made no operator call ({_why(out)}): {_tail(out)}")
        self.calls = cann.parse_calls(calls_file.read_text(encoding="utf-8"))
        if not self.calls:
            raise _NoInputs("main.cpp made no operator call")
        first = self.calls[0]
        dtypes = self._dtypes(first)
        column = column_for(self.sig, dtypes)
        if column is None:
            raise _NoInputs(f"the example's dtypes ({', '.join(f'{k} {v}' for k, v in dtypes.items())}) fit no "
                            "DataType column of the OpDef")
        self.column = column

    @staticmethod
    def _dtypes(call: Any) -> dict[str, str]:
        dtypes = {}
        for name, t in (*call.inputs.items(), *call.outputs.items()):
            if t is None:
                continue
            item = t[0] if isinstance(t, list) else t
            if item is not None:
                dtypes[name] = item.dtype
        return dtypes

    def _launch(self, call: Any) -> Launch:
        folder = self.work / "calls"
        ins = []
        for p in self.sig.inputs:
            t = call.inputs.get(p.name)
            if t is None:
                ins.append(TensorArg(p.name, p.dtypes[0] if p.dtypes else "float32", data=None))
            elif isinstance(t, list):
                ins.append(TensorArg(p.name, t[0].dtype if t else "float32",
                                     data=[self.cann.read_tensor(folder, x) for x in t]))
            else:
                ins.append(TensorArg(p.name, t.dtype, data=self.cann.read_tensor(folder, t)))
        outs = []
        for p in self.sig.outputs:
            t = call.outputs.get(p.name)
            if t is None:
                raise _NoInputs(f"the example passes no tensor for output {p.name}")
            if isinstance(t, list):
                outs.append(TensorArg(p.name, t[0].dtype, shape=[x.shape for x in t]))
            else:
                outs.append(TensorArg(p.name, t.dtype, shape=t.shape))
        return Launch(inputs=tuple(ins), outputs=tuple(outs), attrs=dict(call.attrs), timeout_s=RUN_TIMEOUT_S)

    # -- running -----------------------------------------------------------------------------------

    def run(self) -> Outcome:
        if self.skip:
            return Outcome(inputs=self.skip)
        try:
            return self._run()
        finally:
            self._cleanup()

    def _run(self) -> Outcome:
        assert self.work is not None
        shapes = "; ".join(f"{n} {list(t.shape) if not isinstance(t, list) else [list(x.shape) for x in t]}"
                           for n, t in self.calls[0].inputs.items() if t is not None)
        outcome = Outcome(inputs=f"examples/{self.example.folder.name}: {len(self.calls)} call(s); {shapes}"[:300])
        for call in self.calls:
            dtypes = self._dtypes(call)
            lists = {n for n, t in (*call.inputs.items(), *call.outputs.items()) if isinstance(t, list)}
            build = self.toolchain.build(project(self.op, self.sig, self.kernel, dtypes, lists))
            if not build.ok:
                outcome.failed, outcome.message = "tiling_ran", f"kernel build for the example's dtypes failed:\n" \
                                                                 f"{build.diagnostics}"
                return outcome
            try:
                launch = self._launch(call)
            except _NoInputs as exc:
                outcome.inputs, outcome.message = f"no inputs derivable: {exc}", ""
                return outcome
            result = self.toolchain.run(build, launch)
            for layer in stage_of(result):
                if layer not in outcome.reached:
                    outcome.reached.append(layer)
            if not result.ok:
                outcome.failed = "ran_cleanly" if "tiling_ran" in outcome.reached else "tiling_ran"
                outcome.message = result.message
                return outcome
            self.cann.write_outputs(self.work / "calls", call, dict(result.outputs))
        out = confined([str(self.work / "build" / "example")], self.work / "build", PROGRAM_LIMITS,
                       {"NPUKB_ACL_MODE": "replay", "NPUKB_ACL_DIR": str(self.work / "calls")}, writable=(self.work,))
        if not out.ok:
            outcome.failed, outcome.message = "matched", f"the example's replay run failed ({_why(out)}): {_tail(out)}"
            return outcome
        for args in self.example.verify:
            out = confined([sys.executable, "verify_result.py", *args], self.work, PYTHON_LIMITS,
                           readable=self.cann.python_readable())
            lines = [ln.strip() for ln in out.stdout.splitlines() if ln.strip()]
            if not out.ok or not lines or lines[-1] != "test pass":
                outcome.failed = "matched"
                outcome.message = f"verify_result.py {' '.join(args)}: mismatch: {_tail(out)}"
                return outcome
        outcome.reached.append("matched")
        return outcome

    def _cleanup(self) -> None:
        if self.work is not None:
            shutil.rmtree(self.work, ignore_errors=True)
            self.work = None


class _NoInputs(Exception):
    pass


def _why(out: ProcessOutcome) -> str:
    if out.timed_out:
        return "time limit"
    if out.signal_name:
        return f"died of {out.signal_name}"
    return f"exit status {out.returncode}"


def _tail(out: ProcessOutcome) -> str:
    text = (out.stderr.strip() or out.stdout.strip()).splitlines()
    return " | ".join(text[-3:])[-600:]


def _first_error(out: ProcessOutcome) -> str:
    for line in (out.stderr + out.stdout).splitlines():
        if "error" in line:
            return line.strip()[-300:]
    return _tail(out)
