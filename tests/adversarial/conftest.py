"""Shared pieces of the adversarial suite: the add_custom case, its expert solution, the toolchain."""

from __future__ import annotations

from pathlib import Path

import pytest

from npukernelbench.spec import TaskSpec, load_spec

ROOT = Path(__file__).resolve().parents[2]
ADD_CUSTOM = ROOT / "benchmark_cases" / "level1" / "math" / "add_custom"


@pytest.fixture(scope="session")
def add_spec() -> TaskSpec:
    return load_spec(ADD_CUSTOM, ROOT / "benchmark_cases")


@pytest.fixture(scope="session")
def solution(add_spec: TaskSpec) -> dict[str, str]:
    assert add_spec.solution, "add_custom ships an expert solution"
    return dict(add_spec.solution)


@pytest.fixture(scope="session")
def toolchain():
    """The ascendc-sim toolchain. Not usable here (no compiler) is a failure of every test that
    needs it, never a skip: a CI machine without g++ must not pass the adversarial suite."""
    from npukernelbench.toolchains import get_toolchain

    chain = get_toolchain("ascendc-sim")
    reason = chain.unavailable_reason()
    if reason:
        pytest.fail(f"ascendc-sim toolchain cannot run here: {reason}", pytrace=False)
    return chain
