"""EvoKernel end to end: the operator's PyTorch reference feeds it, through its own binding.

An EvoKernel operator ships ``CppExtension/csrc/op.cpp``, a torch extension whose function takes
tensors (and scalars), allocates the outputs and calls ``EXEC_NPU_CMD(aclnn<Op>, ...)``; its task is
the PyTorch reference in ``pytorch-references/`` (``Model``, ``get_inputs``, ``get_init_inputs``),
judged with ``torch.allclose(atol=rtol=1e-2)``. Here:

1. the binding is compiled with the project's own machinery (``npukernelbench.layouts.upstream.binding``,
   the clean-room ``pytorch_npu_helper.hpp``), after one adaptation: on the simulator the NPU's
   tensors are CPU tensors (``PrivateUse1`` -> ``CPU``, ``is_privateuseone()`` -> ``is_cpu()``);
2. a driver (``third_party_evokernel_driver.py``) runs confined, in a child process: it imports the
   reference, scales its module-level sizes down when the inputs are huge (reported), builds the
   model and inputs (seeded), computes the golden, maps the binding's parameters onto them (see
   :func:`third_party_evokernel_driver.map_arguments`) and calls the binding in *record* mode: every
   ``EXEC_NPU_CMD`` call is saved;
3. each recorded call runs here through ``npukernelbench.layouts.upstream.op_call.OpRunner`` (the same code
   that serves the public tasks: OpDef binding, build, simulator run, outputs copied back);
4. the driver runs the binding again in *replay* mode (the calls hand back the simulator's outputs)
   and compares what the binding returns with the golden.

A binding parameter that matches nothing the reference provides (the kernel computes a fragment of
the model, its arguments are intermediate values) gives no inputs; the reason is reported.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from third_party_runs import PYTHON_LIMITS, RUN_TIMEOUT_S, Outcome, Runner, confined, stage_of

from npukernelbench.infrastructure import InfrastructureError
from npukernelbench.toolchains.base import OpSignature, Toolchain

DRIVER = Path(__file__).resolve().parent / "third_party_evokernel_driver.py"
COLLECTIONS = {"ops-attention-910b": "Attention", "ops-mhc-910b": "MHC", "ops-kernelbench-910b": "KernelBench"}
INPUT_BUDGET = 1 << 20          # elements of all inputs and parameters after scaling down
FULL_BUDGET = 1 << 24           # the most elements a run at the reference's own sizes may take


def normalized(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def find_reference(op_folder: Path) -> Path | str:
    """The PyTorch reference of an EvoKernel operator folder (``<Name>Custom`` -> ``N_<Name>.py``)."""
    collection = op_folder.parent.name
    refs = op_folder.parent.parent / "pytorch-references" / COLLECTIONS.get(collection, "")
    if not refs.is_dir():
        return f"no inputs derivable: no pytorch-references/{COLLECTIONS.get(collection, '?')} beside {collection}"
    want = normalized(op_folder.name).removesuffix("custom")
    found = sorted((p for p in refs.rglob("*.py") if normalized(re.sub(r"^\d+_", "", p.stem)) == want),
                   key=lambda p: p.as_posix())
    if not found:
        return f"no inputs derivable: no reference named after {op_folder.name}"
    return found[0]


def strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.DOTALL)
    return re.sub(r"//[^\n]*", "", text)


def _split_params(text: str) -> list[str]:
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current)
    return [p.strip() for p in parts]


def param_kind(ctype: str) -> str:
    t = ctype.replace(" ", "")
    if "optional<" in t and "Tensor" in t:
        return "optional_tensor"
    if "TensorList" in t or "vector<at::Tensor>" in t or "vector<torch::Tensor>" in t:
        return "tensor_list"
    if "Tensor" in t:
        return "tensor"
    if "IntArrayRef" in t or "vector<int64_t>" in t:
        return "int_list"
    if re.search(r"\b(double|float)\b", ctype):
        return "float"
    if re.search(r"\bbool\b", ctype):
        return "bool"
    if re.search(r"\b(int64_t|int32_t|int|long|size_t|uint32_t)\b", ctype):
        return "int"
    return "unknown"


def binding_function(text: str) -> tuple[str, list[dict[str, str]]] | str:
    """(python name, parameters [{name, kind}]) of the binding's first ``m.def`` in PYBIND11_MODULE."""
    code = strip_comments(text)
    module = code[code.find("PYBIND11_MODULE"):] if "PYBIND11_MODULE" in code else code
    m = re.search(r'\.def\(\s*"(\w+)"\s*,\s*&?\s*([\w:]+)', module)
    if m is None:
        return "no inputs derivable: the binding defines no function (m.def)"
    py_name, fn = m.group(1), m.group(2).split("::")[-1]
    d = re.search(rf"\b{re.escape(fn)}\s*\(([^{{;]*?)\)\s*(?:const\s*)?\{{", code)
    if d is None:
        return f"no inputs derivable: cannot read the parameters of the binding's {fn}"
    params = []
    for raw in _split_params(d.group(1)):
        raw = raw.split("=")[0].strip()
        if not raw or raw == "void":
            continue
        name = re.findall(r"(\w+)\s*$", raw)
        params.append({"name": name[0] if name else f"arg{len(params)}", "kind": param_kind(raw)})
    return py_name, params


def adapt_binding(text: str) -> str:
    """The binding as it runs on the simulator, where the NPU's tensors are CPU tensors."""
    text = re.sub(r"\bis_privateuseone\s*\(\s*\)", "is_cpu()", text)
    text = re.sub(r"\bkPrivateUse1\b", "kCPU", text)
    return re.sub(r"\bPrivateUse1\b", "CPU", text)


class EvoKernelRunner(Runner):
    """An EvoKernel operator fed by its PyTorch reference through its own binding."""

    def __init__(self, op: Any, sig: OpSignature, kernel: str, toolchain: Toolchain):
        self.op, self.sig, self.kernel, self.toolchain = op, sig, kernel, toolchain
        self.work: Path | None = None
        binding = op.folder / "CppExtension" / "csrc" / "op.cpp"
        if not binding.is_file():
            self.skip = "no inputs derivable: no CppExtension/csrc/op.cpp binding"
            return
        reference = find_reference(op.folder)
        if isinstance(reference, str):
            self.skip = reference
            return
        text = binding.read_text(encoding="utf-8", errors="replace")
        function = binding_function(text)
        if isinstance(function, str):
            self.skip = function
            return
        self.reference, self.binding_text = reference, text
        self.function, self.params = function

    def run(self) -> Outcome:
        if self.skip:
            return Outcome(inputs=self.skip)
        root = self.toolchain.cache.root
        root.mkdir(parents=True, exist_ok=True)
        self.work = Path(tempfile.mkdtemp(prefix="thirdparty-evo-", dir=root))
        try:
            return self._run(root)
        finally:
            shutil.rmtree(self.work, ignore_errors=True)

    @staticmethod
    def _no_inputs(result: dict[str, Any]) -> str:
        why = result.get("why", "")
        if result.get("status") == "too_large":
            return f"no inputs derivable: too large for the simulator: {why}"
        if result.get("status") == "binding_rejects":
            return f"no inputs derivable: the binding rejects the reference's inputs: {why}"
        return f"no inputs derivable: {why}"[:400]

    def _driver(self, mode: str) -> dict[str, Any]:
        from third_party_cannops import python_readable

        assert self.work is not None
        (self.work / "result.json").unlink(missing_ok=True)
        paths = [str(Path(__file__).resolve().parent), *[p for p in sys.path if p and Path(p).is_dir()]]
        out = confined([sys.executable, str(DRIVER), str(self.work), mode], self.work, PYTHON_LIMITS,
                       {"PYTHONPATH": ":".join(dict.fromkeys(paths)), "OMP_NUM_THREADS": "1"},
                       readable=(*python_readable(), self.reference.parent, DRIVER.parent))
        result_file = self.work / "result.json"
        if result_file.is_file():
            return json.loads(result_file.read_text(encoding="utf-8"))
        why = "time limit" if out.timed_out else (f"died of {out.signal_name}" if out.signal_name else
                                                 f"exit status {out.returncode}")
        tail = " | ".join((out.stderr.strip() or out.stdout.strip()).splitlines()[-4:])[-800:]
        return {"status": "driver_failed", "why": f"the reference driver failed ({why}): {tail}"}

    def _run(self, root: Path) -> Outcome:
        from npukernelbench.layouts.upstream.binding import BindingError, build_binding

        assert self.work is not None
        plan = {"reference": str(self.reference), "binding": "", "function": self.function,
                "params": self.params, "budget": INPUT_BUDGET, "full_budget": FULL_BUDGET}
        (self.work / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
        prepared = self._driver("prepare")           # the reference alone first: no binding built in vain
        if prepared.get("status") != "prepared":
            return Outcome(inputs=self._no_inputs(prepared))
        source = self.work / "op.cpp"
        source.write_text(adapt_binding(self.binding_text), encoding="utf-8")
        try:
            library = build_binding(source, root, self.sig.op, self.kernel, self.toolchain.host_compiler())
        except BindingError as exc:
            return Outcome(inputs=f"no inputs derivable: the binding does not build with the project's "
                                  f"pytorch_npu_helper.hpp: {str(exc).splitlines()[-1][:200]}")
        plan["binding"] = str(library)
        (self.work / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
        (self.work / "prepared.json").write_text(json.dumps(prepared), encoding="utf-8")
        recorded = self._driver("record")
        if recorded.get("status") != "recorded":
            return Outcome(inputs=self._no_inputs(recorded))
        outcome = Outcome(inputs=recorded.get("inputs", "")[:400])
        for i in range(int(recorded.get("calls", 0))):
            failure = self._serve(i, outcome)
            if failure is not None:
                return failure
        verdict = self._driver("replay")
        if verdict.get("status") == "matched":
            outcome.reached.append("matched")
        else:
            outcome.failed, outcome.message = "matched", f"{verdict.get('status')}: {verdict.get('why', '')}"
        return outcome

    def _serve(self, index: int, outcome: Outcome) -> Outcome | None:
        """Run recorded call ``index`` on the simulator; None when it ran, else the failed outcome."""
        import torch

        from npukernelbench.layouts.upstream import op_call

        assert self.work is not None
        saved = torch.load(self.work / f"call_{index}.pt", weights_only=True)
        api, args = saved["api"], saved["args"]
        runner = op_call.OpRunner(self.toolchain, self.sig, self.kernel, self.op.files, timeout_s=RUN_TIMEOUT_S)
        try:
            runner.call(api, args)
        except op_call.TaskCallsOtherOp as exc:
            return Outcome(inputs=f"no inputs derivable: {exc}")
        except op_call.SignatureMismatch as exc:
            # the reference's inputs, through the binding, do not reach the OpDef as it declares them
            # (EvoKernel's own harness converted them first): not an input this benchmark can derive
            return Outcome(inputs=f"no inputs derivable: the reference's inputs reach the OpDef in another form "
                                  f"than it declares: {str(exc)[:200]}")
        except op_call.KernelBuildFailed as exc:
            outcome.failed, outcome.message = "tiling_ran", f"kernel build for the call's dtypes failed:\n{exc}"
            return outcome
        except op_call.KernelRunFailed as exc:
            for layer in stage_of(exc.run):
                if layer not in outcome.reached:
                    outcome.reached.append(layer)
            outcome.failed = "ran_cleanly" if "tiling_ran" in outcome.reached else "tiling_ran"
            outcome.message = exc.run.message
            return outcome
        except op_call.InputModified as exc:
            outcome.reached[:] = [*dict.fromkeys([*outcome.reached, "tiling_ran"])]
            outcome.failed, outcome.message = "ran_cleanly", f"input modified: {exc}"
            return outcome
        except InfrastructureError:
            raise
        for run in runner.runs:
            for layer in stage_of(run):
                if layer not in outcome.reached:
                    outcome.reached.append(layer)
        torch.save({"api": api, "args": args}, self.work / f"call_{index}.result.pt")
        return None
