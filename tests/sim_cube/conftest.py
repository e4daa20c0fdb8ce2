"""Fixtures of the cube-path tests: the kernel-side test programs of tests/sim_kernel (simkit)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

KERNEL_TESTS = Path(__file__).resolve().parents[1] / "sim_kernel"
if str(KERNEL_TESTS) not in sys.path:
    sys.path.insert(0, str(KERNEL_TESTS))

from simkit import Program  # noqa: E402


@pytest.fixture(scope="session")
def sim_cache(tmp_path_factory) -> Path:
    if shutil.which("g++") is None:
        pytest.skip("g++ is required for the ascendc-sim cube tests")
    return tmp_path_factory.mktemp("simkit_cube_cache")


@pytest.fixture
def prog(tmp_path: Path, sim_cache: Path) -> Program:
    return Program(tmp_path / "prog", sim_cache)
