"""What the reference runner hands the comparison: one entry per output (a list for tensor-list
outputs, 1-tuples unwrapped), half/bfloat16 results upcast to float32, ``get_init_inputs`` used,
and a reference that raises reported as a case bug."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from npukernelbench.reference_runner import CaseReferenceError, reference_for
from npukernelbench.shapes import static_cases
from npukernelbench.spec import load_spec

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
VADD = DATA / "gxx_cases" / "level1" / "math" / "vadd"


def expected_of(spec):
    ref = reference_for(spec)
    case = static_cases(spec)[0]
    inputs = ref.make_inputs(case, 0)
    return inputs, ref.expected(case, inputs)


def vadd_with(tmp_path: Path, body: str):
    folder = tmp_path / "vadd"
    shutil.copytree(VADD, folder)
    (folder / "reference.py").write_text(body)
    return load_spec(folder, tmp_path)


def test_tensor_list_output_is_a_list() -> None:
    spec = load_spec(ROOT / "benchmark_cases" / "level2" / "foreach" / "foreach_abs", ROOT / "benchmark_cases")
    inputs, expected = expected_of(spec)
    (name,) = [d.name for d in spec.outputs]
    x = inputs[spec.inputs[0].name]
    assert isinstance(expected[name], list) and len(expected[name]) == len(x)
    assert [e.shape for e in expected[name]] == [np.shape(v) for v in x]


@pytest.mark.parametrize("body", ["def reference(x, y):\n    return (x + y,)\n",
                                  "def reference(x, y):\n    return [x + y]\n"])
def test_one_output_returned_in_a_sequence(body: str, tmp_path: Path) -> None:
    inputs, expected = expected_of(vadd_with(tmp_path, body))
    assert isinstance(expected["z"], np.ndarray)
    np.testing.assert_array_equal(expected["z"], inputs["x"] + inputs["y"])


@pytest.mark.parametrize("cast", ["half", "bfloat16"])
def test_half_results_are_upcast(cast: str, tmp_path: Path) -> None:
    _, expected = expected_of(vadd_with(tmp_path, f"def reference(x, y):\n    return (x + y).{cast}()\n"))
    assert expected["z"].dtype == np.float32


def test_float64_results_stay(tmp_path: Path) -> None:
    _, expected = expected_of(vadd_with(tmp_path, "def reference(x, y):\n    return (x + y).double()\n"))
    assert expected["z"].dtype == np.float64


def test_wrong_output_count_and_raising_reference_are_case_bugs(tmp_path: Path) -> None:
    with pytest.raises(CaseReferenceError, match=r"returned 2 value\(s\) for 1 output"):
        expected_of(vadd_with(tmp_path / "a", "def reference(x, y):\n    return x, y\n"))
    with pytest.raises(CaseReferenceError, match=r"reference\(\) raised ValueError: broken"):
        expected_of(vadd_with(tmp_path / "b", "def reference(x, y):\n    raise ValueError('broken')\n"))
