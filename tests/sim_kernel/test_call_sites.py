"""The kernel line of a report, found from the call stack: token parsing, addr2line output, the first
frame in the candidate's sources, the launcher result it rewrites, and the rewrite that took the old
trailing location parameters out of the headers (tools/rewrite_loc_params.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from npukernelbench.toolchains.ascendc_sim import call_sites

ADDR2LINE = """0x0000000000001203
/x/include/npukb_sim/kernel/pipe.h:120
/x/include/npukb_sim/kernel/pipe.h:187
/scratch/b1/src/op_kernel/add_custom.cpp:57 (discriminator 2)
0x0000000000001300
??:0
0x0000000000001400
/scratch/b1/src/op_kernel/helpers/util.h:9
"""


def test_parse_keeps_each_address_inlining_chain_innermost_first() -> None:
    table = call_sites.parse_addr2line(ADDR2LINE)
    assert [str(s) for s in table[0x1203]] == ["/x/include/npukb_sim/kernel/pipe.h:120",
                                               "/x/include/npukb_sim/kernel/pipe.h:187",
                                               "/scratch/b1/src/op_kernel/add_custom.cpp:57"]
    assert table[0x1300] == ()


def test_the_first_line_in_the_candidates_files_is_the_kernel_line() -> None:
    table = call_sites.parse_addr2line(ADDR2LINE)
    text = "TQue::DeQue: hang (block 0, {{npukb-at:1300,1203,1400}})"
    assert call_sites.resolve(text, table, call_sites.kernel_file) == \
        "TQue::DeQue: hang (block 0, op_kernel/add_custom.cpp:57)"
    # no frame in the candidate's files: the report says so instead of naming a simulator header
    assert call_sites.resolve("x ({{npukb-at:1300}})", table, call_sites.kernel_file) == f"x ({call_sites.UNKNOWN})"


def test_kernel_file_shows_paths_from_op_kernel_on() -> None:
    assert call_sites.kernel_file("/a/b/src_aic/op_kernel/x.cpp") == "op_kernel/x.cpp"
    assert call_sites.kernel_file("op_kernel/sub/y.h") == "op_kernel/sub/y.h"
    assert call_sites.kernel_file("/a/include/npukb_sim/kernel/pipe.h") is None
    assert call_sites.kernel_file("/a/npukb_build.h") is None


def test_resolve_result_fills_the_violation_and_deduplicates_warnings_per_line() -> None:
    result = {
        "message": "Duplicate: UB overflow (block 0, {{npukb-at:1203}})",
        "violation": {"api": "Duplicate", "file": "", "line": 0, "at": "{{npukb-at:1203}}"},
        "kernel_warnings": ["A: w (block 0, {{npukb-at:1203}})", "A: w (block 0, {{npukb-at:1300,1203}})",
                            "B: v (block 0, {{npukb-at:1400}})"],
        "log": "{{npukb-at:1203}} printed by the kernel stays as it is",
    }
    seen: list[list[int]] = []

    def lines(offsets):
        seen.append(list(offsets))
        return ADDR2LINE

    out = call_sites.resolve_result(result, lines)
    assert seen == [[0x1203, 0x1300, 0x1400]]                      # one addr2line run for every token
    assert out["message"].endswith("(block 0, op_kernel/add_custom.cpp:57)")
    assert out["violation"] == {"api": "Duplicate", "file": "op_kernel/add_custom.cpp", "line": 57}
    assert out["kernel_warnings"] == ["A: w (block 0, op_kernel/add_custom.cpp:57)",
                                      "B: v (block 0, op_kernel/helpers/util.h:9)"]
    assert out["log"] == result["log"]
    assert call_sites.resolve_result({"message": "no token"}, lines) == {"message": "no token"}
    assert len(seen) == 1                                          # nothing to resolve: addr2line not run


def _rewriter():
    path = Path(__file__).resolve().parents[2] / "tools" / "rewrite_loc_params.py"
    spec = importlib.util.spec_from_file_location("rewrite_loc_params", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_location_parameter_rewrite() -> None:
    rewrite = _rewriter().rewrite
    assert rewrite("inline void F(int a, NPUKB_LOC_PARAMS) { g(file, line); }") == \
        ("inline void F(int a) { NPUKB_CALLER; g(file, line); }", 1)
    assert rewrite("T Get(const char* file = __builtin_FILE(), int line = __builtin_LINE()) const { return x; }") == \
        ("T Get() const { NPUKB_CALLER; return x; }", 1)
    macro = "  inline void N(int a,  \\\n   NPUKB_LOC_PARAMS) {   \\\n  NAME<T>(a, NPUKB_PTR_LOC); }"
    assert rewrite(macro) == ("  inline void N(int a) { NPUKB_CALLER;   \\\n  NAME<T>(a); }", 2)
    assert rewrite("void G(int a) { h(a); }") == ("void G(int a) { h(a); }", 0)
