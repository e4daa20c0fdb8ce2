"""Progress lines of a benchmark run (done/total, elapsed, an ETA), in a real pytest subprocess,
serial and under pytest-xdist, with pytest's -q/-v output left intact."""

import os
import re
import shutil

import pytest
from harness_paths import DATA, HERE

from npukernelbench.run_progress import RunProgress, clock, sample_of

pytest_plugins = ["pytester"]
TOOL = "--toolchain=gxx_toolchain:GxxToolchain"
LINE = re.compile(r"npukernelbench: progress (\d+)/(\d+) samples \(([^)]*)\), (\d+:\d\d) elapsed, "
                  r"(about \d+:\d\d left)$")


@pytest.fixture
def tree(pytester, monkeypatch):
    shutil.copytree(DATA / "gxx_cases", pytester.path / "cases")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(HERE.parents[1] / "src"), str(HERE)]))
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    return pytester


def progress_lines(res):
    return [m for ln in res.outlines if (m := LINE.search(ln))]


@pytest.mark.parametrize("extra", [(), ("-q",), ("-v",), ("-p", "xdist.plugin", "-n", "2")],
                         ids=["serial", "quiet", "verbose", "xdist"])
def test_a_run_prints_done_of_total_with_an_eta(tree, extra):
    res = tree.runpytest_subprocess("-p", "npukernelbench.plugin", "cases", TOOL, "--samples=2", "--shapes=static",
                                    "--npukb-out=out", *extra)
    res.assert_outcomes(passed=4)
    found = progress_lines(res)
    # 4 samples: a line per tenth of the run means one per sample, until the last (the summary follows)
    assert [(int(m[1]), int(m[2])) for m in found] == [(1, 4), (2, 4), (3, 4)], res.outlines
    assert all(m[5].startswith("about ") for m in found)
    assert found[-1][3] == "3 passed"
    if "-v" in extra:
        res.stdout.fnmatch_lines(["*vadd[[]s0[]] PASSED*"])
    if "-q" in extra:   # pytest's own summary line is still there
        res.stdout.fnmatch_lines(["4 passed in *"])


def test_qq_is_silent(tree):
    res = tree.runpytest_subprocess("-p", "npukernelbench.plugin", "cases", TOOL, "--samples=1", "--shapes=static",
                                    "--npukb-out=out", "-qq")
    assert res.ret == 0 and "results: " in res.stdout.str()
    assert not progress_lines(res)


def test_eta_from_the_finished_samples_wall_time():
    t = [100.0]
    lines: list[str] = []
    p = RunProgress(total=40, write=lines.append, interval=30.0, now=lambda: t[0])
    t[0] += 600.0                                       # the project's own tests first: not sample time
    p.item_started("tests/test_x.py::test_y")
    t[0] += 60.0
    p.item_started("cases/level1/math/vadd::level1/math/vadd[s0]")     # the clock starts here
    for i in range(4):                                  # 4 samples in 20 s: 5 s per sample
        t[0] += 5.0
        for when, outcome in (("setup", "passed"), ("call", "failed" if i == 0 else "passed"),
                              ("teardown", "passed")):
            p.report(f"cases/level1/math/vadd::level1/math/vadd[s{i}]", when, outcome)
    assert lines == ["npukernelbench: progress 4/40 samples (1 failed, 3 passed), 0:20 elapsed, about 3:00 left"]
    t[0] += 31.0                                        # the interval passed: the next sample prints a line
    p.report("x::t[s0]", "setup", "skipped")
    p.report("x::t[s0]", "teardown", "passed")
    assert len(lines) == 2 and "5/40" in lines[1] and "1 skipped" in lines[1]
    p.report("x::t[s1]", "???", "failed")               # a crashed xdist worker's report: an error
    p.report("not a sample", "teardown", "passed")
    assert len(p.done) == 6 and p.outcomes["error"] == 1


def test_clock_and_node_ids():
    assert clock(59.6) == "1:00" and clock(3725) == "1:02:05"
    assert sample_of("a/b::level1/math/vadd[s12]") == ("level1/math/vadd", 12)
    assert sample_of("tests/test_x.py::test_y") is None and sample_of("t::f[x]") is None
