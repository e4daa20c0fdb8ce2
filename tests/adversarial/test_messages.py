"""Messages that do not leak (npukernelbench.scrub, applied by SampleResult) and honest error figures
for NaN and infinite outputs (npukernelbench.compare)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from npukernelbench.compare import compare_array
from npukernelbench.result import SampleResult, Status
from npukernelbench.scrub import PATH, REDACTED, TEXT_LIMIT, add_public_root, bound, harness_secrets, scrub
from npukernelbench.spec import Tolerance
from npukernelbench.toolchains.ascendc_sim.sources import INCLUDE_DIR
from npukernelbench.toolchains.ascendc_sim.toolchain import AscendCSimToolchain

ENV = {"NPUKB_API_KEY": "sk-live-0123456789", "HF_TOKEN": "abc", "SHLVL": "1", "CACHE_ROOT": "/srv/cache/npukb",
       "LANG": "C"}


def test_environment_values_are_redacted_longest_first() -> None:
    text = "key sk-live-0123456789, token abc, level 1, cache /srv/cache/npukb/tmp/run-1/out.bin, lang C"
    out = scrub(text, environ=ENV)
    assert "sk-live" not in out and "abc" not in out and "/srv/cache" not in out
    assert out.count(REDACTED) == 3
    assert "level 1" in out and "lang C" in out          # short values of harmless names stay


def test_secret_names_are_redacted_at_any_length_of_three_or_more() -> None:
    assert harness_secrets({"GITHUB_TOKEN": "xyz", "PASSWORD": "pw", "OTHER": "xyz"}) == ["xyz"]


@pytest.mark.parametrize("path, shown", [
    ("/root/.ssh/id_rsa", PATH),
    ("/home/alice/project/secret_notes.txt", PATH),
    ("/proc/1234/environ", PATH),
    ("/work/cache/tmp/run-x/op_kernel/add_custom.cpp", f"{PATH}/add_custom.cpp"),
    ("/usr/include/c++/12/bits/stl_vector.h", "/usr/include/c++/12/bits/stl_vector.h"),
    (f"{INCLUDE_DIR}/kernel_operator.h", "kernel_operator.h"),
])
def test_absolute_paths_outside_the_build_are_replaced(path: str, shown: str) -> None:
    AscendCSimToolchain()          # declares its headers public (scrub.add_public_root), as any run does
    assert scrub(f"error in {path}:12:3: boom", environ={}) == f"error in {shown}:12:3: boom"


def test_a_directory_is_public_only_once_declared(tmp_path) -> None:
    header = f"{tmp_path}/inc/npukb_decl/k.h"
    assert scrub(f"in {header}:1", environ={}) == f"in {PATH}/k.h:1"
    add_public_root(tmp_path / "inc")
    assert scrub(f"in {header}:1", environ={}) == "in npukb_decl/k.h:1"


def test_relative_paths_code_and_comments_are_kept() -> None:
    text = "op_kernel/add_custom.cpp:7:5: error: x = a / b; // see docs/a.md and https://example.org/x"
    assert scrub(text, environ={}) == text


def test_bounded_head_and_tail() -> None:
    text = "HEAD" + "x" * (3 * TEXT_LIMIT) + "TAIL"
    out = bound(text)
    assert len(out) <= TEXT_LIMIT and out.startswith("HEAD") and out.endswith("TAIL") and "characters cut" in out


def test_sample_result_scrubs_message_and_details(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NPUKB_API_KEY", "sk-test-9876543210")
    result = SampleResult("level1/x", 1, "Math", 0, Status.RUNTIME_ERROR,
                          message="died: sk-test-9876543210 read /root/.aws/credentials " + "y" * 20000,
                          details={"log": ["token sk-test-9876543210"], "case": {"/etc/shadow/x": 1}})
    stored = json.dumps(result.to_json())
    assert "sk-test" not in stored and "/root/.aws" not in stored and "/etc/shadow" not in stored
    assert len(result.message) <= TEXT_LIMIT
    again = SampleResult.from_json(json.loads(stored))
    assert again.message == result.message                 # idempotent on reading back


TOL = Tolerance(rtol=1e-3, atol=1e-3)


def test_all_nan_output_reports_unbounded_error_not_zero() -> None:
    verdict = compare_array("z", np.full(64, np.nan, np.float32), np.ones(64, np.float32), "float32", TOL)
    assert not verdict.ok and verdict.max_abs == float("inf") and verdict.mismatches == 64
    assert "max abs error 0" not in verdict.message
    assert "64 mismatched elements are NaN or infinite (error unbounded)" in verdict.message
    assert "no element where both sides are finite" in verdict.message


def test_all_inf_output_and_mixed_output() -> None:
    inf = compare_array("z", np.full(8, np.inf, np.float32), np.zeros(8, np.float32), "float32", TOL)
    assert not inf.ok and "8 mismatched elements are NaN or infinite" in inf.message and inf.max_rel == float("inf")
    got = np.ones(16, np.float32)
    got[3], got[4] = np.nan, 2.0
    mixed = compare_array("z", got, np.ones(16, np.float32), "float32", TOL)
    assert "1 mismatched elements are NaN or infinite" in mixed.message
    assert "max abs error 1 and max rel error 1 over the 15 finite elements" in mixed.message


def test_finite_mismatch_message_unchanged() -> None:
    got = np.ones(16, np.float32)
    got[2] = 1.5
    verdict = compare_array("z", got, np.ones(16, np.float32), "float32", TOL)
    assert "max abs error 0.5, max rel error 0.5" in verdict.message and verdict.max_abs == 0.5
