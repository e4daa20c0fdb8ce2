"""The MultiKernelBench layout's parts that need no build: detection, loading, the prompt, the answer
parser, scaling, the comparison and the metrics (the end-to-end runs are in test_mkb_end_to_end.py)."""

import json
import shutil
import textwrap

import pytest
import torch
from harness_paths import DATA
from mkb_answers import WRONG, Change, answer_text, changed

from npukernelbench.cases import discover, find_case_dirs, load_case
from npukernelbench.extract import ParseError
from npukernelbench.layouts import detect, layout_of
from npukernelbench.layouts.mkb import answer, scaling
from npukernelbench.layouts.mkb.checker import compare, tolerance
from npukernelbench.layouts.mkb.metrics import mkb_metrics
from npukernelbench.prompt import build_messages
from npukernelbench.result import SampleResult, Status

MKB = DATA / "mkb"
TASKS = MKB / "reference"
ANSWERS = MKB / "answers"


def wrapped(name: str) -> str:
    return "Here is the code:\n```python\n" + answer_text("mkb", name) + "```\nDone."


def test_reference_modules_are_tasks_and_other_python_files_are_not(tmp_path):
    specs = {s.case_id: s for s in discover([TASKS])}
    assert sorted(specs) == ["elementwise/add", "elementwise/relu", "elementwise/scale", "elementwise/sigmoid"]
    relu = specs["elementwise/relu"]
    assert (relu.op, relu.kernel, relu.category, relu.layout) == ("ReluCustom", "relu_custom", "elementwise", "mkb")
    assert "def get_inputs" in relu.description
    assert layout_of(relu).checker is not None
    (tmp_path / "helper.py").write_text("def get_inputs():\n    return []\n")      # no Model: not a task
    (tmp_path / "case.toml").write_text("")
    shutil.copy(TASKS / "elementwise" / "relu.py", tmp_path / "relu.py")           # beside another layout's file
    assert detect(tmp_path / "helper.py") is None and detect(tmp_path / "relu.py") is None
    (tmp_path / "case.toml").unlink()
    assert detect(tmp_path / "relu.py") is not None
    assert find_case_dirs(tmp_path) == [(tmp_path / "relu.py").resolve()]


def test_prompt_has_multikernelbench_structure():
    spec = load_case(TASKS / "elementwise" / "scale.py")
    (message,) = build_messages(spec)
    text = message["content"]
    assert message["role"] == "user"
    for name in answer.NAMES:
        assert f"`{name}`" in text
    assert "kernel name scale_custom (PascalCase: ScaleCustom)" in text
    assert "kernel name `add_custom`" in text and "ModelNew" in text
    assert spec.description.strip() in text
    # the example answer in the prompt parses as an answer itself
    example = text.split("(AddCustom):\n")[1]
    assert answer.project_files(example, "add_custom")["op_kernel/add_custom.cpp"].count("add_custom(") == 1


def test_answer_parses_into_the_project_msopgen_would_hold():
    files = answer.project_files(wrapped("relu"), "relu_custom")
    assert sorted(files) == sorted(["op_host/relu_custom_tiling.h", "op_host/relu_custom.cpp",
                                    "op_kernel/relu_custom.cpp", answer.PROJECT_JSON, answer.PYBIND, answer.MODEL])
    assert "class ModelNew" in files[answer.MODEL] and "EXEC_NPU_CMD" in files[answer.PYBIND]
    assert json.loads(files[answer.PROJECT_JSON])[0]["op"] == "ReluCustom"
    bare = (ANSWERS / "relu.py").read_text()                  # no fenced block: the whole text, as MKB reads it
    assert answer.project_files(bare, "relu_custom") == files


@pytest.mark.parametrize(("text", "reason"), [
    (wrapped("add_missing_string"), "defines no python_bind_src"),
    (wrapped("add_bad_json"), "project_json_src is not valid JSON: line 6"),
    ("```python\nproject_json_src = 1 +\n```", "not valid Python"),
    ("```python\n" + "\n".join(f"{n} = 'x'" for n in answer.NAMES[:-1]) + "\nmodel_src = make()\n```",
     "model_src is not assigned a string literal"),
    (wrapped("relu"), "not the operator AddCustom"),                # the answer for another task
])
def test_bad_answers_fail_with_one_line_reasons(text, reason):
    with pytest.raises(ParseError) as err:
        answer.project_files(text, "add_custom")
    assert reason in str(err.value) and "\n" not in str(err.value)


def test_a_wrong_answer_is_its_right_one_with_one_change():
    right = answer_text("mkb", "add")
    wrong = answer_text("mkb", "add_wrong_math")
    assert wrong != right and wrong == right.replace("Add(z, x, y, n);", "Sub(z, x, y, n);")
    assert "python_bind_src" in right and "python_bind_src" not in answer_text("mkb", "add_missing_string")
    # a change whose text the right answer no longer holds (or holds twice) fails loudly
    with pytest.raises(LookupError, match="found 0 times"):
        changed(answer_text("mkb", "relu"), WRONG["add_wrong_math"][1])
    with pytest.raises(LookupError, match="found 2 times"):
        changed("x = 1\nx = 1\n", Change("x = 1", "x = 2"))


def test_project_json_needs_outputs():
    with pytest.raises(ParseError, match="declares no output_desc"):
        answer.check_project_json('[{"op": "ReluCustom", "input_desc": []}]', "ReluCustom")
    with pytest.raises(ParseError, match="JSON list"):
        answer.check_project_json('{"op": "ReluCustom"}', "ReluCustom")


def test_scaling_halves_the_largest_sizes_until_the_budget(tmp_path):
    path = tmp_path / "big.py"
    path.write_text(textwrap.dedent("""
        import torch
        class Model(torch.nn.Module):
            def __init__(self, features):
                super().__init__()
                self.linear = torch.nn.Linear(features, 8)
            def forward(self, x):
                return self.linear(x)
        batch = 4096
        features = 65536
        kernel = 3
        def get_inputs():
            return [torch.randn(batch, features)]
        def get_init_inputs():
            return [features]
    """))
    overrides, size = scaling.choose_sizes(path, 1 << 20)
    assert size <= 1 << 20 and "kernel" not in overrides
    module = scaling.load_module(path, overrides)
    assert module.features == overrides.get("features", 65536) and module.batch == overrides.get("batch", 4096)
    expected = module.batch * module.features + module.features * 8 + 8
    assert size == expected
    assert scaling.choose_sizes(path, 0) == ({}, 4096 * 65536 + 65536 * 8 + 8)     # 0: full size
    assert scaling.describe({"batch": 4096}, {"batch": 512}) == "batch 4096->512"


def test_comparison_follows_multikernelbench_tolerances():
    ref = torch.ones(4)
    assert tolerance(ref, ref) == 1e-4 and tolerance(ref.half(), ref) == 1e-3
    assert compare(ref, ref + 5e-5)[0] is None
    why, max_abs, _ = compare(ref, ref + 1e-3)
    assert "4 of 4 elements off" in why and max_abs == pytest.approx(1e-3, rel=1e-3)
    assert compare(ref.half(), (ref + 5e-4).half())[0] is None
    assert "shape [2, 2]" in compare(ref, ref.reshape(2, 2))[0]
    assert "differ" in compare(torch.arange(3), torch.tensor([0, 1, 3]))[0]        # integers: exact
    assert "2 values" in compare((ref, ref, ref), (ref, ref))[0]
    assert compare([ref, 3], [ref, 3])[0] is None and "4" in compare([ref, 3], [ref, 4])[0]


def _result(task, sample, status, speedup=None, scaled="no"):
    return SampleResult(task, 1, "x", sample, status, speedup=speedup,
                        details={"benchmark": "multikernelbench", "inputs_scaled": scaled})


def test_metrics_comp_pass_speedup():
    results = [_result("a", 0, Status.PASSED, 2.5), _result("a", 1, Status.WRONG),
               _result("b", 0, Status.BUILD_ERROR), _result("b", 1, Status.PASSED, 0.5, scaled="n 8->4"),
               SampleResult("ours", 1, "x", 0, Status.PASSED)]                    # not a MultiKernelBench task
    block = mkb_metrics(results, 2)
    assert block["tasks"] == 2
    assert block["comp@1"] == pytest.approx((1.0 + 0.5) / 2) and block["comp@2"] == 1.0
    assert block["pass@1"] == pytest.approx(0.5) and block["pass@2"] == 1.0
    assert block["speedup_1@1"] == pytest.approx(0.25) and block["speedup_2@2"] == pytest.approx(0.5)
    assert block["speedup_2@1"] == pytest.approx(0.25) and block["speedup_1.5@2"] == pytest.approx(0.5)
    assert block["inputs_scaled_tasks"] == ["b"] and "estimate" in block["note"]
    assert mkb_metrics([SampleResult("ours", 1, "x", 0, Status.PASSED)], 1) is None


def test_outputs_must_be_what_the_operator_wrote():
    import torch

    from npukernelbench.layouts.mkb.checker import unproduced_output

    written = [torch.tensor([1.0, 2.0, 3.0, 0.0])]                 # a padded output of 4 elements
    assert unproduced_output([torch.tensor([1.0, 2.0, 3.0, 0.0]).reshape(2, 2)], written) is None
    assert unproduced_output([torch.tensor([1.0, 2.0, 3.0])], written) is None      # sliced back
    assert unproduced_output([torch.tensor([1.0, 2.0, 3.5])], written) == "output 0.0"
    assert unproduced_output([torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)], written) == "output 0.0"
    assert unproduced_output([(torch.tensor([1.0]), torch.tensor([9.0]))], written) == "output 0.1"
    assert unproduced_output([torch.tensor([1.0])], []) == "output 0.0"
