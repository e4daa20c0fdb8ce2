"""MultiKernelBench's grouped tasks (``get_input_groups``, ``reference/npukernelbench_level<N>``): detection,
loading and the groups the reference child checks, with our own fixture (tests/data/mkb_grouped). The end
to end run is in test_mkb_end_to_end.py."""

import json
import shutil
import textwrap

import torch
from harness_paths import DATA

from npukernelbench.cases import discover, find_case_dirs
from npukernelbench.layouts import detect, layout_of
from npukernelbench.layouts.mkb import driver, groups, scaling
from npukernelbench.layouts.mkb.layout import operator_name

ROOT = DATA / "mkb_grouped" / "reference"
TASK = ROOT / "npukernelbench_level1" / "1_scale.py"


def test_grouped_module_is_a_task_named_after_its_file_without_the_number():
    (spec,) = discover([ROOT])
    assert spec.case_id == "npukernelbench_level1/1_scale" and spec.layout == "mkb"
    assert (spec.kernel, spec.op, spec.category) == ("scale_custom", "ScaleCustom", "npukernelbench_level1")
    assert "get_input_groups()" in layout_of(spec).describe_case(spec, spec.cases[0])
    assert find_case_dirs(ROOT) == [TASK.resolve()]          # the .json beside it is no task
    assert operator_name("3_add") == "add" and operator_name("relu") == "relu" and operator_name("12") == "12"


def test_a_module_with_neither_get_inputs_nor_get_input_groups_is_not_a_task(tmp_path):
    text = TASK.read_text().replace("def get_input_groups(", "def build_groups(")
    (tmp_path / "scale.py").write_text(text)
    assert detect(tmp_path / "scale.py") is None
    (tmp_path / "scale.py").write_text(TASK.read_text())
    assert detect(tmp_path / "scale.py") is not None


def _groups(budget, work):
    work.mkdir(exist_ok=True)
    module = scaling.load_module(TASK, {})
    assert groups.is_grouped(module)
    return groups.input_groups(TASK, module, budget, seed=5, work=work)


def test_groups_over_the_budget_are_left_out_and_never_drawn(tmp_path):
    found = _groups(1024, tmp_path)
    assert (found.total, found.left_out, found.largest, found.smallest_left_out) == (3, 1, 320, 6400)
    assert [list(g[0].shape) for g in found.inputs] == [[8, 40], [3, 5, 7]]
    assert [g[1] for g in found.inputs] == [2.5, -1.5]
    kept = (tmp_path / "groups" / "1_scale.json").read_text().splitlines()     # the reference read only these
    assert [json.loads(line)["inputs"][1]["value"] for line in kept] == [2.5, -1.5]
    everything = _groups(0, tmp_path / "all")
    assert (everything.total, everything.left_out, len(everything.inputs)) == (3, 0, 3)
    nothing = _groups(100, tmp_path / "none")
    assert (nothing.inputs, nothing.left_out, nothing.smallest_left_out) == ([], 3, 105)


def test_groups_not_read_from_a_sibling_json_are_drawn_and_then_left_out(tmp_path):
    path = tmp_path / "2_twice.py"
    path.write_text(textwrap.dedent("""
        import torch
        class Model(torch.nn.Module):
            def forward(self, x):
                return x * 2
        def get_input_groups():
            x = torch.randn(10)
            return [[x[:int(x.abs().argmax()) + 1]], [torch.randn(50)], [torch.randn(4)]]   # reads values
        def get_init_inputs():
            return []
    """))
    module = scaling.load_module(path, {})
    assert groups.group_sizes(module) is None                   # the meta device cannot take it
    found = groups.input_groups(path, module, 20, seed=1, work=tmp_path)
    assert (found.total, found.left_out, len(found.inputs)) == (3, 1, 2)
    assert [g[0].numel() for g in found.inputs][1] == 4


def _prepare(tmp_path, budget):
    work = tmp_path / "ref"
    work.mkdir()
    plan = {"reference": str(TASK), "budget": budget, "trials": 3, "seed": 7, "first_profile": 7}
    return work, driver.prepare(work, plan)


def test_the_reference_child_makes_the_kept_groups_its_trials(tmp_path):
    work, result = _prepare(tmp_path, 1024)
    assert result["status"] == "prepared"
    assert (result["groups"], result["groups_checked"], result["groups_left_out"]) == (3, 2, 1)
    state = torch.load(work / "state.pt", weights_only=True)
    assert len(state["inputs"]) == len(state["golden"]) == 2 and state["init"] == []
    for (x, factor), golden in zip(state["inputs"], state["golden"], strict=True):
        torch.testing.assert_close(golden, x * factor)       # Model's outputs, unprofiled inputs
    assert not torch.equal(state["inputs"][0][0], torch.zeros(8, 40))


def test_a_task_with_every_group_over_the_budget_is_reported(tmp_path):
    work, result = _prepare(tmp_path, 100)
    assert result["status"] == "over_budget" and not (work / "state.pt").exists()
    assert "every one of its 3 input groups exceeds the input budget of 100 elements" in result["why"]
    assert (result["groups_checked"], result["groups_left_out"]) == (0, 3)


def test_a_plain_task_still_gets_its_random_trials(tmp_path):
    work = tmp_path / "ref"
    work.mkdir()
    copy = tmp_path / "relu.py"
    shutil.copy(DATA / "mkb" / "reference" / "elementwise" / "relu.py", copy)
    result = driver.prepare(work, {"reference": str(copy), "budget": 4096, "trials": 3, "seed": 1})
    assert result["status"] == "prepared" and "groups" not in result
    assert len(torch.load(work / "state.pt", weights_only=True)["inputs"]) == 3
