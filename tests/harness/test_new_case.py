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
    assert 'this->Attr("alpha").AttrType(OPTIONAL).Float(1.0);' in host
    assert not (tmp_path / "my_add" / "template").exists()         # generated from case.toml, not written
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
    (dict(op="My-Add", kernel="my_add"), "op 'My-Add' is not a C identifier"),
])
def test_bad_definitions_are_refused(tmp_path, changes, problem) -> None:
    with pytest.raises((ValueError, KeyError), match=problem):
        write_case(tmp_path / "bad", my_add_case(**changes))
    assert not (tmp_path / "bad").exists()


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


def test_npukb_new_case_writes_a_loadable_case(tmp_path, capsys) -> None:
    from npukernelbench.cli import main

    folder = tmp_path / "level1" / "math" / "my_mul"
    assert main(["new-case", str(folder), "--op", "MyMul", "--inputs", "x,y", "--outputs", "z", "--reference",
                 "torch.mul(x, y)", "--shape", "2048", "--shape", "3,777", "--dtypes", "float16,bfloat16"]) == 0
    assert "MyMul (my_mul), 4 static case(s)" in capsys.readouterr().out
    spec = load_case(folder)
    assert spec.case_id == "level1/math/my_mul" and dict(spec.types) == {"T": ("float16", "bfloat16")}
    assert [c.shapes["x"] for c in spec.cases] == [[2048], [2048], [3, 777], [3, 777]]
    assert load_module(spec.reference.path).reference(2, 3) == 6
    assert main(["new-case", str(folder), "--op", "MyMul", "--inputs", "x", "--outputs", "z", "--reference", "x",
                 "--shape", "8"]) == 2
    assert "already holds a case.toml" in capsys.readouterr().err


@pytest.mark.parametrize("args, problem", [
    (["--op", "My-Mul"], "op 'My-Mul' is not a C identifier"),
    (["--reference", "x *"], "--reference 'x *' is not a Python expression"),
    (["--shape", "2,x"], "--shape takes comma-separated integers"),
    (["--dtypes", "float17"], "unknown dtype 'float17'"),
])
def test_npukb_new_case_refuses_bad_input_and_writes_nothing(tmp_path, capsys, args, problem) -> None:
    from npukernelbench.cli import main

    base = {"--op": "MyMul", "--inputs": "x,y", "--outputs": "z", "--reference": "x * y", "--shape": "8"}
    base.update(dict(zip(args[::2], args[1::2], strict=True)))
    argv = ["new-case", str(tmp_path / "case")] + [part for kv in base.items() for part in kv]
    assert main(argv) == 2
    assert problem in capsys.readouterr().err
    assert not (tmp_path / "case").exists()


TEMPLATE_TEST = '''
import pytest
from npukernelbench.new_case import NewCase

CASE = NewCase(op="MyAdd", reference="def reference(x, y):\\n    return x + y\\n", inputs=["x", "y"],
               outputs=["z"], cases=[[64]], dtypes=["float16", "float32"])


@pytest.mark.npukb_case(CASE)
def test_templates_build(npukb_task, npukb_toolchain, request):
    request.node.add_marker(pytest.mark.npukb_files(dict(npukb_task.templates)))
    kernel = request.getfixturevalue("npukb_kernel")
    assert kernel.ok
'''


def test_generated_templates_build_in_the_simulator(tmp_path) -> None:
    """What a model starts from compiles: the OpDef of every parameter and dtype, the kernel signature."""
    (tmp_path / "test_template.py").write_text(TEMPLATE_TEST)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTEST_XDIST_WORKER", "PYTEST_ADDOPTS")}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-n", "0",
                           "test_template.py"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert "1 passed" in proc.stdout, proc.stdout + proc.stderr
