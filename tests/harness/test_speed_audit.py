"""speed_audit: the harness's own floors on a run's speed, and the speedup on kernel times."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from npukernelbench.spec import load_spec
from npukernelbench.speed_audit import (
    HBM_BYTES_PER_US,
    RunCost,
    Traffic,
    combined,
    cost_of,
    floor_violations,
    traffic_of,
    verdict,
)

ROOT = Path(__file__).resolve().parents[2]


def test_traffic_counts_owned_outputs_and_fully_read_inputs(tmp_path) -> None:
    case = tmp_path / "cases" / "level1" / "math" / "gather_ish"
    case.mkdir(parents=True)
    (case / "reference.py").write_text("def reference(table, idx, acc):\n    return table[idx], acc\n")
    (case / "api_desc.md").write_text("gather\n")
    (case / "case.toml").write_text('op = "GatherIsh"\nkernel = "gather_ish"\nlevel = 1\ncategory = "Math"\n'
                                    '[[inputs]]\nname = "table"\ndtype = "float32"\npartial_read = true\n'
                                    '[[inputs]]\nname = "idx"\ndtype = "int32"\n'
                                    '[[inputs]]\nname = "acc"\ndtype = "float32"\n'
                                    '[[outputs]]\nname = "y"\ndtype = "float32"\n'
                                    '[[outputs]]\nname = "acc_out"\ndtype = "float32"\ninplace = "acc"\n'
                                    '[[cases]]\nshapes = { table = [100, 8], idx = [4], acc = [16] }\n')
    spec = load_spec(case, tmp_path / "cases")
    assert [d.partial_read for d in spec.inputs] == [True, False, False]
    inputs = {"table": np.zeros((100, 8), np.float32), "idx": np.zeros(4, np.int32), "acc": np.zeros(16, np.float32)}
    outputs = {"y": np.zeros((4, 8), np.float32), "acc_out": np.zeros(16, np.float32)}
    traffic = traffic_of(spec, inputs, outputs)
    # the table may be read in part; the in-place output is not the kernel's own buffer
    assert traffic == Traffic(output_bytes=4 * 8 * 4, input_bytes=4 * 4 + 16 * 4)


def test_lists_count_every_tensor() -> None:
    spec = load_spec(ROOT / "benchmark_cases" / "level1" / "math" / "add_custom", ROOT / "benchmark_cases")
    x = np.zeros(1000, np.float16)
    traffic = traffic_of(spec, {"x": x, "y": [x, x]}, {"z": x})
    assert traffic.output_bytes == 2000 and traffic.input_bytes == 6000


def test_a_run_below_the_roofline_is_suspect() -> None:
    traffic = Traffic(output_bytes=4_000_000, input_bytes=8_000_000)       # 7.5 us at 1.6 TB/s
    assert traffic.roofline_us == pytest.approx(12_000_000 / HBM_BYTES_PER_US)
    honest = RunCost(time_us=11.0, launch_overhead_us=3.0, gm_read_bytes=8_000_000, gm_write_bytes=4_000_000)
    assert floor_violations(traffic, honest) == ()
    # a memory-bound estimate sits on the roofline (up to the 6 decimals times travel with): fine
    on_it = RunCost(time_us=3.0 + round(traffic.roofline_us, 6) - 1e-6, launch_overhead_us=3.0,
                    gm_read_bytes=8_000_000, gm_write_bytes=4_000_000)
    assert floor_violations(traffic, on_it) == ()
    fast = RunCost(time_us=10.0, launch_overhead_us=3.0, gm_read_bytes=8_000_000, gm_write_bytes=4_000_000)
    (reason,) = floor_violations(traffic, fast)
    assert "below the HBM roofline" in reason and "7.000 us" in reason


def test_counted_bytes_must_cover_outputs_and_inputs() -> None:
    traffic = Traffic(output_bytes=4096, input_bytes=8192)
    found = floor_violations(traffic, RunCost(time_us=100.0, gm_read_bytes=8192, gm_write_bytes=4000))
    assert len(found) == 1 and "GM writes (4000 bytes) do not cover its outputs (4096 bytes)" in found[0]
    found = floor_violations(traffic, RunCost(time_us=100.0, gm_read_bytes=4096, gm_write_bytes=4096))
    assert len(found) == 1 and "GM reads (4096 bytes) do not cover its inputs (8192 bytes)" in found[0]
    # a toolchain that counts nothing (hardware) is held to the roofline only
    assert floor_violations(traffic, RunCost(time_us=100.0)) == ()


def test_cost_of_reads_the_simulators_breakdown() -> None:
    cost = cost_of(21.5, {"cost": {"launch_overhead_us": 3.0, "gm_read_bytes": 10, "gm_write_bytes": 5}})
    assert cost == RunCost(21.5, 3.0, 10, 5) and cost.kernel_us == pytest.approx(18.5)
    assert cost_of(4.0, {}) == RunCost(4.0, 0.0, None, None)


def test_speedup_compares_kernel_times_without_the_launch_overhead() -> None:
    # 2 us vs 1 us of kernel time behind 3 us of launch overhead each: 2x, not 5/4
    judged = verdict([1.0], [2.0], ())
    assert judged.speedup == 2.0 and not judged.suspect and judged.reasons == ()


def test_suspect_runs_say_why_and_floor_violations_get_no_speedup() -> None:
    judged = verdict([0.1], [2.0], ())
    assert judged.suspect and judged.speedup == 20.0 and "above the audit threshold 10x" in judged.reasons[0]
    judged = verdict([1.0], [2.0], ("below the roofline on x=[8]",))
    assert judged.suspect and judged.speedup is None and judged.reasons == ("below the roofline on x=[8]",)
    assert verdict([], [], ()).speedup is None


def test_several_launches_of_one_call_combine_into_one_cost() -> None:
    both = combined([RunCost(10.0, 3.0, 100, 50), RunCost(5.0, 3.0, 20, 10)])
    assert both == RunCost(15.0, 6.0, 120, 60) and both.kernel_us == pytest.approx(9.0)
    # one launch that did not count its bytes: the combination has no counts (held to the roofline only)
    partial = combined([RunCost(10.0, 3.0, 100, 50), RunCost(5.0, 3.0)])
    assert partial.gm_read_bytes is None and partial.gm_write_bytes is None
    assert floor_violations(Traffic(output_bytes=10**9, input_bytes=0), partial) != ()


def test_kernel_time_never_goes_negative() -> None:
    # a toolchain whose launch overhead exceeds the reported time: 0 kernel time, which gets no speedup
    assert RunCost(time_us=2.0, launch_overhead_us=3.0).kernel_us == 0.0
    assert verdict([0.0], [2.0], ()).speedup is None
