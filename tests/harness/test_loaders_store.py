import shutil

import pytest
from harness_paths import DATA

from npukernelbench.cases import discover, load_case
from npukernelbench.result import SampleResult, Status
from npukernelbench.spec import SpecError
from npukernelbench.store import RunDir


def test_our_layout_ids_and_markers():
    specs = discover([DATA / "gxx_cases"])
    assert [s.case_id for s in specs] == ["level1/math/vadd", "level2/norm/vscale"]
    single = load_case(DATA / "gxx_cases" / "level2" / "norm" / "vscale")
    assert single.case_id == "level2/norm/vscale" and single.markers == ("level2", "norm")


def test_public_layout_loader():
    specs = {s.case_id: s for s in discover([DATA / "npkb_tree"])}
    assert sorted(specs) == ["level1/Activation/ReluCustom", "level1/Math/AddCustom", "level2/Norm/ScaleShiftCustom"]
    add = specs["level1/Math/AddCustom"]
    assert add.layout == "upstream" and add.op == "AddCustom" and add.kernel == "add_custom"
    assert add.inputs == () and add.outputs == ()        # bound from the candidate's OpDef when it runs
    assert len(add.cases) == 2 and add.solution and "op_kernel/add_custom.cpp" in add.solution
    assert add.required_files() == ("op_kernel/add_custom.cpp",)
    assert specs["level2/Norm/ScaleShiftCustom"].markers == ("level2", "norm")


@pytest.mark.parametrize("edit, field, problem", [
    (("level = 1", "level = 7"), "level", "must be 1, 2 or 3"),
    (('op = "Vadd"', 'op = "1bad"'), "op", "not a C identifier"),
    (('dtype = "T"', 'dtype = "float99"'), "inputs[0].dtype", "neither a dtype"),
    (("shape = [1000]", "shape = [-1]"), "cases[0].shape", "non-negative"),
    (("dim = [1, 300]", "dim = [300, 1]"), "dynamic.dim", "greater than max"),
])
def test_spec_errors_name_file_field_problem(tmp_path, edit, field, problem):
    folder = tmp_path / "level1" / "math" / "vadd"
    shutil.copytree(DATA / "gxx_cases" / "level1" / "math" / "vadd", folder)
    toml = folder / "case.toml"
    toml.write_text(toml.read_text().replace(*edit, 1))
    with pytest.raises(SpecError) as err:
        load_case(folder)
    assert str(toml) in str(err.value) and f"'{field}'" in str(err.value) and problem in str(err.value)


def test_store_resume_ignores_torn_line(tmp_path):
    run = RunDir(tmp_path / "run")
    run.create(fresh=True)
    for i in range(3):
        run.append_result(SampleResult("t", 1, "M", i, Status.PASSED))
    with (run.path / "results.jsonl").open("a") as fh:
        fh.write('{"task": "t", "sam')                  # killed mid-write
    assert run.finished() == {("t", 0), ("t", 1), ("t", 2)}
    run.create(fresh=False)
    assert len(run.results()) == 3
    run.create(fresh=True)
    assert run.results() == []
