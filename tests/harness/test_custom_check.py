"""A task's custom precision hook (``check`` in reference.py) through ``evaluate`` on the g++ test
toolchain: what a hook may return, several outputs, and that a hook can only reject: a kernel outside
the task's tolerance never passes, whatever the hook says. (The public layout's
``custom_check_precision`` replaces the default tolerance, as upstream: tests/harness/test_public_parts.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from gxx_toolchain import GxxToolchain

from npukernelbench.evaluate import EvalOptions, evaluate
from npukernelbench.generators.base import Completion
from npukernelbench.reference_runner import CaseReferenceError
from npukernelbench.result import Status
from npukernelbench.spec import load_spec

DATA = Path(__file__).resolve().parents[1] / "data"
OPTIONS = EvalOptions(shapes="static", speed=False, seeds=1)

# Two outputs: z = x + y, w = x - y (the kernel ABI of tests/harness/gxx_toolchain.py).
TWO_OUTPUTS = """
op = "Vaddsub"
kernel = "vaddsub"
level = 1
category = "Math"

[[inputs]]
name = "x"
dtype = "float32"

[[inputs]]
name = "y"
dtype = "float32"

[[outputs]]
name = "z"
dtype = "float32"

[[outputs]]
name = "w"
dtype = "float32"

[[cases]]
shape = [300]
"""

KERNEL = """
extern "C" void vaddsub(void** inputs, void** outputs, long n, const double* attrs, long* cost) {
    const float* x = static_cast<const float*>(inputs[0]);
    const float* y = static_cast<const float*>(inputs[1]);
    float* z = static_cast<float*>(outputs[0]);
    float* w = static_cast<float*>(outputs[1]);
    for (long i = 0; i < n; ++i) { z[i] = x[i] + y[i]; w[i] = x[i] - y[i]%s; }
    *cost += n;
}
"""
EXACT = KERNEL % ""
OFF = KERNEL % " + 1e-3f"              # w outside float32's tolerance (rtol 1.3e-6, atol 1e-5)

REFERENCE = """
import torch


def reference(x, y):
    return x + y, x - y


def check(got, expected, case):
    assert set(got) == {"z", "w"} and set(expected) == {"z", "w"}
    result = %s
    return result
"""


@pytest.fixture(scope="module")
def gxx() -> GxxToolchain:
    return GxxToolchain()            # content-keyed build cache shared with test_plugin.py


def case_with_hook(root: Path, name: str, hook_result: str):
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "case.toml").write_text(TWO_OUTPUTS)
    (folder / "reference.py").write_text(REFERENCE % hook_result)
    (folder / "api_desc.md").write_text("z = x + y, w = x - y\n")
    return load_spec(folder, root)


def run(spec, gxx: GxxToolchain, kernel: str):
    files = {f"op_host/{spec.kernel}.cpp": "// host\n", f"op_kernel/{spec.kernel}.cpp": kernel}
    return evaluate(spec, Completion(spec.case_id, 0, files=files), gxx, OPTIONS)


PASSING = {
    "bool": "True", "numpy_bool": "bool(True) and __import__('numpy').bool_(True)", "int_one": "1",
    "tensor_0d": "torch.tensor(True)", "tensor_all_true": "torch.ones(4, dtype=torch.bool)",
    "tuple": "(True, 0.0, 0.0)", "list": "[torch.tensor(True), 1e-9, 1e-9]",
    "per_output": "bool((torch.from_numpy(got['w']) - torch.from_numpy(expected['w'])).abs().max() < 1e-3)",
}
FAILING = {
    "bool": "False", "int_zero": "0", "tensor_0d": "torch.tensor(False)",
    "tensor_one_false": "torch.tensor([True, False, True])", "tuple": "(False, 0.5, 0.25)",
    "list": "[False]", "numpy": "__import__('numpy').array([1, 0])",
    "per_output": "bool((torch.from_numpy(got['w']) - torch.from_numpy(expected['w'])).abs().max() == 0.5)",
}
INVALID = {"none": "None", "count": "2", "float": "1.0", "empty_tensor": "torch.ones(0, dtype=torch.bool)",
           "empty_tuple": "()", "string": "'ok'", "int_array": "__import__('numpy').array([2, 1])",
           "float_array": "__import__('numpy').array([1.0, 1.0])"}


@pytest.mark.parametrize("name", sorted(PASSING))
def test_passing_hook_keeps_a_correct_kernel_passing(name, gxx, tmp_path) -> None:
    spec = case_with_hook(tmp_path, f"pass_{name}", PASSING[name])
    result = run(spec, gxx, EXACT)
    assert result.status is Status.PASSED, result.message


@pytest.mark.parametrize("name", sorted(PASSING))
def test_passing_hook_never_overrides_a_failed_tolerance_check(name, gxx, tmp_path) -> None:
    spec = case_with_hook(tmp_path, f"override_{name}", PASSING[name])
    result = run(spec, gxx, OFF)
    assert result.status is Status.WRONG
    assert "output 'w'" in result.message and "outside rtol" in result.message


@pytest.mark.parametrize("name", sorted(FAILING))
def test_failing_hook_rejects_a_kernel_within_tolerance(name, gxx, tmp_path) -> None:
    spec = case_with_hook(tmp_path, f"fail_{name}", FAILING[name])
    result = run(spec, gxx, EXACT)
    assert result.status is Status.WRONG
    assert "custom precision check failed" in result.message


@pytest.mark.parametrize("name", sorted(INVALID))
def test_malformed_hook_result_is_a_case_bug(name, gxx, tmp_path) -> None:
    spec = case_with_hook(tmp_path, f"invalid_{name}", INVALID[name])
    with pytest.raises(CaseReferenceError, match=r"check\(\) returned"):
        run(spec, gxx, EXACT)
