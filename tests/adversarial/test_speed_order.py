"""The estimated times of add_custom variants respect their known order on an Ascend 910B (issue 17):
double-buffered before single-buffered, big tiles before small ones, many cores before one, vector
before scalar, UB scalar before GM scalar, 512-byte-aligned before merely 32-byte-aligned. And the
test can fail: with raw-access costing switched off the GM pointer loop jumps to the front."""

from __future__ import annotations

import pytest
from add_custom_variants import ORDERED, VARIANTS, estimate, order_violations

from npukernelbench.toolchains.ascendc_sim import AscendCSimToolchain


@pytest.fixture(scope="module")
def kernel_times(add_spec, toolchain) -> dict[str, float]:
    return {name: estimate(add_spec, toolchain, VARIANTS[name].make(add_spec.solution))[1] for name in ORDERED}


def test_estimated_times_respect_the_hardware_order(kernel_times) -> None:
    assert order_violations(kernel_times) == [], kernel_times


def test_a_broken_cost_rule_breaks_the_order(add_spec, toolchain, kernel_times) -> None:
    broken = AscendCSimToolchain(cache_dir=toolchain.cache.root, raw_access_costing=False)
    times = dict(kernel_times)
    for name in ("ub_raw_pointers", "gm_raw_pointers"):
        times[name] = estimate(add_spec, broken, VARIANTS[name].make(add_spec.solution))[1]
    found = order_violations(times)
    assert any(v.startswith("ub_get_value") and "gm_raw_pointers" in v for v in found), found
    assert any(v.startswith("tiles_32") and "ub_raw_pointers" in v for v in found), found
