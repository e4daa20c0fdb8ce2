"""``npukernelbench.new_case``: a case defined inline is written as a case folder the loader accepts, and
the ``npukb_case`` marker resolves a relative case folder against the test file's folder (whatever the
cwd) while ``npukb_load_case`` resolves against pytest's rootdir."""

from __future__ import annotations

import math
import os
import subprocess
import sys
import tomllib

import pytest

from npukernelbench.cases import load_case
from npukernelbench.module_loader import load_module
from npukernelbench.new_case import NewCase, to_toml, write_case


def scaled_sum(x, y, *, alpha=1.0):
    return x + alpha * y


def my_add_case(**changes) -> NewCase:
    fields = dict(op="MyAdd", reference=scaled_sum, inputs=["x", "y"], outputs=["z"], cases=[[2048], [3, 777]],
                  dtypes=["float16", "float32"])
    fields.update(changes)
    return NewCase(**fields)


def test_written_case_loads_with_every_field(tmp_path) -> None:
    case = my_add_case(spec={"dynamic": {"ranks": [1, 2], "max_elements": 1000},
                             "attrs": [{"name": "alpha", "type": "float", "default": 1.0}],
                             "tolerance": {"float16": {"rtol": 2e-3, "atol": 1e-3}}},
                       solution={"op_kernel/my_add.cpp": "// kernel", "op_host/my_add.cpp": "// host"})
    spec = load_case(write_case(tmp_path / "my_add", case))
    assert (spec.op, spec.kernel, spec.level, spec.category) == ("MyAdd", "my_add", 1, "custom")
    assert [p.name for p in spec.inputs] == ["x", "y"] and [p.name for p in spec.outputs] == ["z"]
    assert dict(spec.types) == {"T": ("float16", "float32")}
    assert len(spec.cases) == 4                                  # 2 shapes x 2 dtypes
    assert (spec.dynamic.ranks, spec.dynamic.max_elements) == ((1, 2), 1000)
    assert spec.tolerance["float16"].rtol == 2e-3
    assert [a.name for a in spec.attrs] == ["alpha"]
    assert dict(spec.solution) == {"op_kernel/my_add.cpp": "// kernel", "op_host/my_add.cpp": "// host"}
    host = spec.templates["op_host/my_add.cpp"]
    assert '.DataType({ge::DT_FLOAT16, ge::DT_FLOAT})' in host and "class MyAdd : public OpDef" in host
    assert "void my_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)" in \
        spec.templates["op_kernel/my_add.cpp"]
    module = load_module(spec.reference.path)
    assert module.reference(2, 3, alpha=2.0) == 8                 # aliased: the function is named scaled_sum


def test_reference_as_source_and_explicit_parameter_tables(tmp_path) -> None:
    case = my_add_case(reference="def reference(x):\n    return x.abs()", inputs=[{"name": "x", "dtype": "int32"}],
                       outputs=[{"name": "z", "dtype": "int32"}], cases=[[8]], kernel="abs_kernel")
    folder = write_case(tmp_path / "abs", case)
    spec = load_case(folder)
    assert spec.kernel == "abs_kernel" and not spec.types and len(spec.cases) == 1
    assert (folder / "reference.py").read_text() == "def reference(x):\n    return x.abs()\n"
    assert "ge::DT_INT32" in spec.templates["op_host/abs_kernel.cpp"]


@pytest.mark.parametrize("changes, problem", [
    (dict(reference=lambda x, y: x + y), "defined with def"),
    (dict(spec={"cases": []}), "set by NewCase's own fields"),
    (dict(dtypes=[]), "need at least one entry in dtypes"),
    (dict(dtypes=["float17"]), "unknown dtype"),
])
def test_bad_definitions_are_refused(tmp_path, changes, problem) -> None:
    with pytest.raises((ValueError, KeyError), match=problem):
        write_case(tmp_path / "bad", my_add_case(**changes))


def test_toml_writer_round_trips() -> None:
    data = {"a": 1, "b": -2.5, "c": math.inf, "d": "q\"uo\\te", "e": [True, False], "odd key": {"x y": [1, 2]},
            "t": {"float16": {"rtol": 1e-3}}, "rows": [{"shape": [2, 3], "types": {"T": "int8"}}, {"seed": 4}]}
    assert tomllib.loads(to_toml(data)) == data


PATH_TESTS = '''
import pytest


@pytest.mark.npukb_case("cases/my_add")
def test_relative_to_this_file(npukb_task):
    assert npukb_task.op == "MyAdd"


@pytest.mark.npukb_case("cases/missing")
def test_missing_folder(npukb_task):
    pass


def test_load_case_relative_to_rootdir(npukb_load_case):
    assert npukb_load_case("tests/cases/my_add").kernel == "my_add"
'''


def test_case_paths_resolve_relative_to_the_test_file_from_any_cwd(tmp_path) -> None:
    project = tmp_path / "project"
    tests = project / "tests"
    write_case(tests / "cases" / "my_add", my_add_case())
    (project / "pytest.ini").write_text("[pytest]\n")
    (tests / "test_paths.py").write_text(PATH_TESTS)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTEST_XDIST_WORKER", "PYTEST_ADDOPTS")}
    for cwd in (project, tests, tmp_path):
        proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-n", "0",
                               str(tests / "test_paths.py"), "-rA"], cwd=cwd, env=env, capture_output=True,
                              text=True, timeout=300)
        out = proc.stdout + proc.stderr
        assert "2 passed, 1 error" in out, (cwd, out)
        assert f"npukb_case('cases/missing'): no folder {tests / 'cases' / 'missing'} (a relative path is " \
               f"resolved against the test file's folder {tests})" in out, out
        assert "Traceback" not in out, out
