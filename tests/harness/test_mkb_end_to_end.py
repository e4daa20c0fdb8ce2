"""MultiKernelBench tasks end to end: ``pytest <reference folder> --model=replay:FILE`` on the simulator,
with our own fixture tasks (tests/data/mkb/reference) and hand-written answers in MultiKernelBench's
format (tests/data/mkb/answers; the add answer is the prompt's example; the wrong ones are made from the
right ones by ``mkb_answers``)."""

import json
import os
import shutil

import pytest
from harness_paths import DATA, HERE
from mkb_answers import answer_text

pytest_plugins = ["pytester"]


def _answer(name: str, folder: str = "mkb") -> str:
    return f"```python\n{answer_text(folder, name)}```\n"


@pytest.fixture
def run(pytester, monkeypatch):
    shutil.copytree(DATA / "mkb" / "reference", pytester.path / "reference")
    src = HERE.parents[1] / "src"
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(src), str(HERE)]))
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    rows = [("elementwise/relu", 0, "relu"), ("elementwise/scale", 0, "scale"), ("elementwise/add", 0, "add"),
            ("elementwise/add", 1, "add_wrong_math"), ("elementwise/sigmoid", 0, "add_missing_string")]
    with open(pytester.path / "replay.jsonl", "w") as f:
        for task, sample, name in rows:
            f.write(json.dumps({"task": task, "sample": sample, "completion": _answer(name)}) + "\n")
    return pytester


@pytest.mark.slow
def test_replayed_answers_pass_and_fail_as_multikernelbench_would(run):
    res = run.runpytest_subprocess("-p", "npukernelbench.plugin", "reference", "--model=replay:replay.jsonl",
                                   "--npukb-out=out", "--data-seed=3", "--npukb-input-budget=4096", "-v")
    res.assert_outcomes(passed=3, failed=2, skipped=3)     # the replay holds 2 samples of add only
    res.stdout.fnmatch_lines(["*elementwise/relu[[]s0[]]*PASSED*", "*elementwise/scale[[]s0[]]*PASSED*",
                              "*MultiKernelBench (4 tasks): comp@1 *"])
    results = {(r["task"], r["sample"]): r for r in map(json.loads, (run.path / "out/results.jsonl").read_text()
                                                        .splitlines())}
    assert results[("elementwise/add", 1)]["status"] == "wrong"
    assert "elements off by more than atol=rtol=0.0001" in results[("elementwise/add", 1)]["message"]
    assert "inputs scaled down: cols 1000->62" in results[("elementwise/add", 1)]["message"]
    missing = results[("elementwise/sigmoid", 0)]
    assert missing["status"] == "parse_error" and "defines no python_bind_src" in missing["message"]
    relu = results[("elementwise/relu", 0)]
    assert relu["details"]["inputs_scaled"] == "dim 16384->256" and relu["details"]["input_elements"] == 4096
    assert relu["speedup"] is not None and "estimate" in relu["details"]["speedup_baseline"]
    block = json.loads((run.path / "out/summary.json").read_text())["multikernelbench"]
    assert block["tasks"] == 4 and block["pass@1"] == pytest.approx((1 + 1 + 0.5 + 0) / 4)
    assert block["comp@1"] == pytest.approx((1 + 1 + 1 + 0) / 4)
    assert "elementwise/relu" in block["inputs_scaled_tasks"] and "estimate" in block["note"]
    assert "MultiKernelBench (4 tasks)" in (run.path / "out/report.md").read_text()


@pytest.mark.slow
@pytest.mark.parametrize(("model_src", "status", "message"), [
    ("import torch\nclass ModelOld(torch.nn.Module):\n    pass\n", "build_error", "defines no class ModelNew"),
    ("import torch\nraise ImportError('no such op')\n", "build_error", "model_src raised ImportError: no such op"),
    ("import torch\nclass ModelNew(torch.nn.Module):\n    def forward(self, x):\n        return torch.relu(x)\n",
     "wrong", "made no call of the custom operator"),
    ("import torch\nimport custom_ops_lib\nclass ModelNew(torch.nn.Module):\n    def forward(self, x):\n"
     "        custom_ops_lib.relu_custom(-x)\n        return torch.relu(x)\n",
     "wrong", "output 0.0 is not what the custom operator wrote"),
])
def test_model_src_that_does_not_load_or_skips_the_kernel_fails(model_src, status, message):
    from npukernelbench.cases import load_case
    from npukernelbench.evaluate import EvalOptions, evaluate
    from npukernelbench.generators.base import Completion
    from npukernelbench.layouts.mkb import answer
    from npukernelbench.toolchains import toolchain_class

    spec = load_case(DATA / "mkb" / "reference" / "elementwise" / "relu.py")
    files = answer.project_files(_answer("relu"), "relu_custom")
    files[answer.MODEL] = model_src
    result = evaluate(spec, Completion(spec.case_id, 0, files=files), toolchain_class("ascendc-sim")(),
                      EvalOptions(shapes="static", data_seed=1, input_budget=4096))
    assert (result.status.value, result.details["benchmark"]) == (status, "multikernelbench")
    assert message in result.message + str(result.details.get("diagnostics", ""))


@pytest.mark.slow
def test_scaling_in_the_confined_reference_child(tmp_path):
    """The reference child scales the constants (and says so); sizes written as literals cannot be scaled,
    which the results say too."""
    from npukernelbench.cases import load_case
    from npukernelbench.checker import EvalOptions
    from npukernelbench.layouts.mkb.checker import MkbChecker
    from npukernelbench.toolchains import toolchain_class

    folder = tmp_path / "reference" / "demo"
    folder.mkdir(parents=True)
    body = ("import torch\nclass Model(torch.nn.Module):\n    def forward(self, x):\n        return x * 2\n"
            "def get_init_inputs():\n    return []\n")
    (folder / "consts.py").write_text(body + "rows = 64\ncols = 4096\ndef get_inputs():\n"
                                      "    return [torch.rand(rows, cols)]\n")
    (folder / "literal.py").write_text(body + "def get_inputs():\n    return [torch.rand(64, 4096)]\n")
    toolchain = toolchain_class("ascendc-sim")()
    found = {}
    for name in ("consts", "literal"):
        checker = MkbChecker(load_case(folder / f"{name}.py"), toolchain, {},
                             EvalOptions(shapes="static", data_seed=1, input_budget=8192))
        work = tmp_path / name
        work.mkdir()
        golden = checker._prepare(5, work)
        found[name] = (checker.result_details, [tuple(g.shape) for g in golden])
    assert found["consts"] == ({"inputs_scaled": "cols 4096->128", "input_elements": 8192}, [(64, 128)] * 3)
    assert found["literal"] == ({"inputs_scaled": "no", "input_elements": 262144, "input_budget_exceeded": True},
                                [(64, 4096)] * 3)


@pytest.mark.slow
def test_grouped_task_checks_the_groups_within_budget_in_the_confined_child(tmp_path):
    """A grouped task (get_input_groups reading its sibling .json): the confined reference child reads the
    JSON, keeps the groups within the budget as the trials and says how many it left out; with every group
    over the budget the task is reported, not passed."""
    from npukernelbench.cases import load_case
    from npukernelbench.checker import EvalOptions
    from npukernelbench.layouts.mkb.checker import MkbChecker
    from npukernelbench.module_loader import CaseReferenceError
    from npukernelbench.toolchains import toolchain_class

    spec = load_case(DATA / "mkb_grouped" / "reference" / "npukernelbench_level1" / "1_scale.py")
    toolchain = toolchain_class("ascendc-sim")()
    checker = MkbChecker(spec, toolchain, {}, EvalOptions(shapes="static", data_seed=1, input_budget=1024))
    (tmp_path / "kept").mkdir()
    golden = checker._prepare(5, tmp_path / "kept")
    assert [tuple(g.shape) for g in golden] == [(8, 40), (3, 5, 7)]
    assert checker.result_details == {"inputs_scaled": "no", "input_elements": 320, "input_groups": 3,
                                      "input_groups_checked": 2, "input_groups_left_out": 1}
    small = MkbChecker(spec, toolchain, {}, EvalOptions(shapes="static", data_seed=1, input_budget=100))
    (tmp_path / "none").mkdir()
    with pytest.raises(CaseReferenceError, match="every one of its 3 input groups exceeds the input budget of 100"):
        small._prepare(5, tmp_path / "none")


@pytest.mark.slow
def test_grouped_task_end_to_end_right_answer_passes_wrong_one_fails(pytester, monkeypatch):
    shutil.copytree(DATA / "mkb_grouped" / "reference", pytester.path / "reference")
    src = HERE.parents[1] / "src"
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(src), str(HERE)]))
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    task = "npukernelbench_level1/1_scale"
    with open(pytester.path / "replay.jsonl", "w") as f:
        for sample, name in enumerate(("scale", "scale_wrong_factor")):
            f.write(json.dumps({"task": task, "sample": sample, "completion": _answer(name, "mkb_grouped")}) + "\n")
    res = pytester.runpytest_subprocess("-p", "npukernelbench.plugin", "reference", "--model=replay:replay.jsonl",
                                        "--npukb-out=out", "--data-seed=3", "--npukb-input-budget=1024", "-v")
    res.assert_outcomes(passed=1, failed=1)
    results = {r["sample"]: r for r in map(json.loads, (pytester.path / "out/results.jsonl").read_text().splitlines())}
    assert results[0]["status"] == "passed" and results[1]["status"] == "wrong"
    assert "elements off by more than atol=rtol=0.0001" in results[1]["message"]
    for result in results.values():
        details = result["details"]
        assert (details["input_groups"], details["input_groups_checked"], details["input_groups_left_out"]) == (3, 2, 1)
