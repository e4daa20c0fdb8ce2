"""Shared fixtures for the ascendc-sim host and toolchain tests: one toolchain per session with a private cache."""

from __future__ import annotations

import pytest

from npukernelbench.toolchains.ascendc_sim import AscendCSimToolchain
from npukernelbench.toolchains.base import KernelProject, ParamSlot


@pytest.fixture(scope="session")
def sim(tmp_path_factory: pytest.TempPathFactory) -> AscendCSimToolchain:
    """The simulator with a private cache. No usable compiler is a failure, never a skip: a CI
    machine without g++ must not pass these tests by skipping them."""
    toolchain = AscendCSimToolchain(cache_dir=tmp_path_factory.getbasetemp() / "ascendc-sim-cache")
    reason = toolchain.unavailable_reason()
    if reason:
        pytest.fail(f"ascendc-sim cannot run here: {reason}", pytrace=False)
    return toolchain


def _project(op: str, kernel: str, host: str, kernel_src: str, params: list[tuple[str, str, str, str]],
            extra: dict[str, str] | None = None) -> KernelProject:
    files = {f"op_host/{kernel}.cpp": host, f"op_kernel/{kernel}.cpp": kernel_src, **(extra or {})}
    return KernelProject(op=op, kernel=kernel, files=files,
                         params=tuple(ParamSlot(name, role, ptype, dt) for name, role, ptype, dt in params))


@pytest.fixture(scope="session")
def make_project():
    """``make_project(op, kernel, host, kernel_src, params, extra_files)`` -> KernelProject."""
    return _project
