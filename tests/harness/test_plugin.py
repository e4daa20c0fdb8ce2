"""The plugin end to end with pytester, on the g++ test toolchain (tests/harness/gxx_toolchain.py)."""

import json
import os
import shutil

import pytest
from harness_paths import DATA, HERE

pytest_plugins = ["pytester"]
TOOL = "--toolchain=gxx_toolchain:GxxToolchain"


@pytest.fixture
def tree(pytester, monkeypatch):
    shutil.copytree(DATA / "gxx_cases", pytester.path / "cases")
    shutil.copytree(DATA / "npkb_tree", pytester.path / "public")
    src = HERE.parents[1] / "src"
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(src), str(HERE)]))
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")    # fast start-up: only the plugins named
    return pytester


def summary(p):
    return json.loads((p.path / "out" / "summary.json").read_text())


def test_serial_markers_and_xdist_equal(tree):
    args = ["-p", "npukernelbench.plugin", "cases", TOOL, "--samples=2", "--shape-examples=2", "--npukb-out=out"]
    res = tree.runpytest_subprocess(*args, "-m", "level2", "--shapes=static", "-v")
    res.assert_outcomes(passed=2)
    res.stdout.fnmatch_lines(["*level2/norm/vscale[[]s0[]]*PASSED*", "*NPUKernelBench*"])
    generated = (tree.path / "out" / "completions.jsonl").read_text()
    assert "level2/" in generated and "level1/" not in generated          # -m limits generation too
    serial = tree.runpytest_subprocess(*args)
    serial.assert_outcomes(passed=4)
    s1 = summary(tree)
    table1 = [ln for ln in serial.outlines if ln.startswith(("level", "mean"))]
    par = tree.runpytest_subprocess(*args, "-p", "xdist.plugin", "-n", "2")
    par.assert_outcomes(passed=4)
    s2 = summary(tree)
    table2 = [ln for ln in par.outlines if ln.startswith(("level", "mean"))]
    assert s1["levels"] == s2["levels"] and s1["levels"]["mean"]["er"] == {"pass@1": 1.0}
    assert table1 == table2 and table1
    lines = (tree.path / "out" / "results.jsonl").read_text().splitlines()
    assert len(lines) == 4


def test_public_layout_needs_a_describing_toolchain(tree):
    res = tree.runpytest_subprocess("-p", "npukernelbench.plugin", "public/level1/Math/AddCustom", TOOL,
                                    "--npukb-out=out", "-v", "-rs")
    res.assert_outcomes(skipped=1)
    res.stdout.fnmatch_lines(["*cannot describe host code*"])


def test_resume_after_kill_and_failures(tree):
    kernel = tree.path / "cases/level1/math/vadd/solution/op_kernel/vadd.cpp"
    replay = tree.path / "replay.jsonl"
    bad = kernel.read_text().replace("x[i] + y[i]", "x[i] - y[i]")
    host = "// host\n"
    rows = [{"task": "level1/math/vadd", "sample": 0, "files": {"op_host/vadd.cpp": host, "op_kernel/vadd.cpp": bad}},
            {"task": "level1/math/vadd", "sample": 1, "completion": "no code"},
            {"task": "level1/math/vadd", "sample": 2, "files": {"op_host/vadd.cpp": host,
                                                                "op_kernel/vadd.cpp": bad.replace(";", "", 1)}}]
    replay.write_text("\n".join(json.dumps(r) for r in rows))
    args = ["-p", "npukernelbench.plugin", "cases/level1", TOOL, f"--model=replay:{replay}", "--samples=3",
            "--npukb-out=out", "--shapes=static"]
    res = tree.runpytest_subprocess(*args)
    res.assert_outcomes(failed=3)
    res.stdout.fnmatch_lines(["*wrong: output 'z'*max abs error*first mismatch at index*",
                              "*parse_error*", "*build_error (syntax_structure)*"])
    results = tree.path / "out" / "results.jsonl"
    lines = results.read_text().splitlines()
    results.write_text(lines[0] + "\n" + lines[1][:10])          # killed: one line kept, one torn
    again = tree.runpytest_subprocess(*args, "--npukb-resume")
    again.assert_outcomes(failed=2, skipped=1)
    s = summary(tree)
    assert s["levels"]["mean"]["samples"] == 3 and s["statuses"]["build_error"] == 1


@pytest.mark.parametrize("samples", [1, 10])
def test_samples_summary(tree, samples):
    """summary.json and the printed table for --samples 1 and --samples 10 (replayed, 3 of 10 correct)."""
    kernel = (tree.path / "cases/level1/math/vadd/solution/op_kernel/vadd.cpp").read_text()
    host = "// host\n"
    bad = kernel.replace("x[i] + y[i]", "x[i] + y[i] * 1.001f")
    replay = tree.path / "replay.jsonl"
    replay.write_text("\n".join(json.dumps({"task": "level1/math/vadd", "sample": i, "files": {
        "op_host/vadd.cpp": host, "op_kernel/vadd.cpp": kernel if i in (0, 4, 7) else bad}}) for i in range(10)))
    res = tree.runpytest_subprocess("-p", "npukernelbench.plugin", "cases/level1", TOOL, f"--model=replay:{replay}",
                                    f"--samples={samples}", "--npukb-out=out", "--shapes=static")
    res.assert_outcomes(passed=1 if samples == 1 else 3, failed=0 if samples == 1 else 7)
    s = summary(tree)
    assert s["samples_per_task"] == samples
    want = {"pass@1": 1.0} if samples == 1 else {"pass@1": 0.3, "pass@10": 1.0}
    assert s["levels"]["level1"]["er"] == want and s["levels"]["mean"]["er"] == want
    assert s["levels"]["level1"]["cr"] == {k: 1.0 for k in want}
    assert s["statuses"]["passed"] == (1 if samples == 1 else 3)
    header = next(ln for ln in res.outlines if ln.startswith("level ") and "ER@1" in ln)
    assert ("ER@10" in header) == (samples == 10)
    row = next(ln for ln in res.outlines if ln.startswith("level1 ")).split()
    assert row[1:5] == (["1", "1", "100.0", "100.0"] if samples == 1 else ["1", "10", "100.0", "100.0"])
    assert row[4:7] == (["100.0", "1.00x", "0.0"] if samples == 1 else ["100.0", "30.0", "100.0"])


def test_a_worker_that_dies_is_an_infrastructure_failure(tree):
    # one sample's xdist worker dies (as under the OOM killer): the sample is reported as our failure,
    # not the kernel's, the run exits non-zero and a resumed run evaluates it
    (tree.path / "conftest.py").write_text(
        "import os\n"
        "def pytest_runtest_setup(item):\n"
        "    if os.environ.get('PYTEST_XDIST_WORKER') and item.name.endswith('[s0]') and 'vscale' in item.name \\\n"
        "            and not os.path.exists('resumed'):\n"
        "        os._exit(9)\n")
    args = ["-p", "npukernelbench.plugin", "-p", "xdist.plugin", "-n", "2", "cases", TOOL, "--shapes=static",
            "--npukb-out=out"]
    res = tree.runpytest_subprocess(*args)
    assert res.ret != 0
    data = summary(tree)
    failures = data["infrastructure_failures"]
    assert [(f["task"], f["sample"]) for f in failures] == [("level2/norm/vscale", 0)], failures
    assert "crashed" in failures[0]["cause"] and "worker process died" in failures[0]["cause"]
    tasks = {json.loads(line)["task"] for line in (tree.path / "out" / "results.jsonl").read_text().splitlines()}
    assert tasks == {"level1/math/vadd"}
    res.stdout.fnmatch_lines(["*infrastructure failures*"])
    (tree.path / "resumed").write_text("")
    again = tree.runpytest_subprocess(*args, "--npukb-resume")
    again.assert_outcomes(passed=1, skipped=1)
    assert summary(tree)["infrastructure_failures"] == []


def _seeds(tree) -> set[tuple[str, str]]:
    """(input seed, data seed) named by every failure of the run in ``out``."""
    import re

    lines = (tree.path / "out" / "results.jsonl").read_text().splitlines()
    return {re.search(r"\(input seed (\d+); data seed (\d+)\)", json.loads(line)["message"]).groups()
            for line in lines}


def test_one_data_seed_per_run_printed_recorded_resumed_and_replayed(tree):
    """Every xdist worker checks with the controller's data seed, which the run prints and records;
    a resumed run keeps it, ``--npukb-data-seed`` replays it, and a fresh run draws another."""
    kernel = (tree.path / "cases/level1/math/vadd/solution/op_kernel/vadd.cpp").read_text()
    bad = kernel.replace("x[i] + y[i]", "x[i] - y[i]")
    replay = tree.path / "replay.jsonl"
    replay.write_text("\n".join(json.dumps({"task": "level1/math/vadd", "sample": i, "files": {
        "op_host/vadd.cpp": "// host\n", "op_kernel/vadd.cpp": bad}}) for i in range(4)))
    args = ["-p", "npukernelbench.plugin", "-p", "xdist.plugin", "-n", "2", "cases/level1", TOOL,
            f"--model=replay:{replay}", "--samples=4", "--npukb-out=out", "--shapes=static"]
    first = tree.runpytest_subprocess(*args)
    first.assert_outcomes(failed=4)
    seed = json.loads((tree.path / "out" / "run.json").read_text())["data_seed"]
    first.stdout.fnmatch_lines([f"*input data seed {seed} (replay this run's data with --npukb-data-seed={seed})*"])
    named = _seeds(tree)
    assert len(named) == 1 and next(iter(named))[1] == str(seed)       # one seed for both workers' samples
    results = tree.path / "out" / "results.jsonl"
    results.write_text(results.read_text().splitlines()[0] + "\n")
    resumed = tree.runpytest_subprocess(*args, "--npukb-resume")
    resumed.assert_outcomes(failed=3, skipped=1)
    assert json.loads((tree.path / "out" / "run.json").read_text())["data_seed"] == seed and _seeds(tree) == named
    tree.runpytest_subprocess(*args, f"--npukb-data-seed={seed}").assert_outcomes(failed=4)
    assert _seeds(tree) == named                                         # the same data again
    tree.runpytest_subprocess(*args).assert_outcomes(failed=4)
    fresh = json.loads((tree.path / "out" / "run.json").read_text())["data_seed"]
    assert fresh != seed and _seeds(tree) != named                       # drawn per run


def test_replay_matching_no_selected_task_is_a_usage_error(tree):
    replay = tree.path / "replay.jsonl"
    replay.write_text(json.dumps({"task": "level9/other/task", "sample": 0, "completion": "no code"}) + "\n")
    res = tree.runpytest_subprocess("-p", "npukernelbench.plugin", "cases/level1", TOOL, f"--model=replay:{replay}",
                                    "--npukb-out=out", "--shapes=static")
    assert res.ret == pytest.ExitCode.USAGE_ERROR
    res.stderr.fnmatch_lines(["*replay file * holds none of the 1 selected task(s) (it holds level9/other/task)*"])
    assert "Traceback" not in res.stderr.str()


def test_replay_samples_default_to_what_the_file_holds(tree):
    replay = tree.path / "replay.jsonl"
    replay.write_text("".join(json.dumps({"task": "level1/math/vadd", "sample": i, "completion": "no code"}) + "\n"
                              for i in range(2)))
    args = ["-p", "npukernelbench.plugin", "cases/level1", TOOL, f"--model=replay:{replay}", "--npukb-out=out",
            "--shapes=static"]
    collected = tree.runpytest_subprocess(*args, "--collect-only", "-q")
    collected.stdout.fnmatch_lines(["*vadd[[]s0[]]", "*vadd[[]s1[]]"])
    fewer = tree.runpytest_subprocess(*args, "--samples=1")
    fewer.assert_outcomes(failed=1)
    fewer.stdout.fnmatch_lines(["*--samples 1 leaves out 1 completion(s) of the replay file*"])


FIXTURE_TESTS = '''
import pathlib
import pytest

HERE = pathlib.Path(__file__).parent
KERNEL = (HERE / "cases/level1/math/vadd/solution/op_kernel/vadd.cpp").read_text()
HOST = (HERE / "cases/level1/math/vadd/solution/op_host/vadd.cpp").read_text()
BROKEN = {"op_host/vadd.cpp": HOST, "op_kernel/vadd.cpp": KERNEL.replace(";", "", 1)}


@pytest.mark.npukb_case("cases/level1/math/vadd")
@pytest.mark.npukb_files(BROKEN)
def test_kernel(npukb_kernel):
    pass


@pytest.mark.npukb_case("cases/level1/math/vadd")
@pytest.mark.npukb_files(BROKEN)
def test_correct(npukb_checker):
    npukb_checker.assert_correct(shapes="static")


@pytest.mark.npukb_case("cases/level1/math/vadd")
@pytest.mark.npukb_files({"op_host/vadd.cpp": HOST})
def test_unparsed(npukb_checker):
    pass
'''


def test_fixture_failures_are_reported_once_without_a_chained_traceback(tree):
    """A build error (or parse error) under the fixtures is one failure message, not the message, an
    internal exception and "During handling of the above exception" (the message printed twice)."""
    tree.makepyfile(test_fixtures=FIXTURE_TESTS)
    res = tree.runpytest_subprocess("-p", "npukernelbench.plugin", "test_fixtures.py", TOOL, "--npukb-out=out")
    res.assert_outcomes(failed=1, errors=2)                 # npukb_kernel and npukb_checker fail in set-up
    text = res.stdout.str()
    assert "During handling" not in text and "Traceback" not in text and "BuildFailed" not in text, text
    assert res.stdout.lines.count("build_error (syntax_structure):") == 2
    assert res.stdout.lines.count("parse_error: required file op_kernel/vadd.cpp is missing or empty (found: "
                                  "op_host/vadd.cpp)") == 1
