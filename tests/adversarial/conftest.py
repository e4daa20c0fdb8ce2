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
    """The ascendc-sim toolchain. Not importable or not usable here: the tests that need it are
    skipped with the reason (shown by ``pytest -rs``), never silently passed."""
    from npukernelbench.toolchains import get_toolchain

    try:
        chain = get_toolchain("ascendc-sim")
    except Exception as exc:       # noqa: BLE001 - the reason is reported as the skip message
        pytest.skip(f"ascendc-sim toolchain is not available yet: {type(exc).__name__}: {exc}")
    reason = chain.unavailable_reason()
    if reason:
        pytest.skip(f"ascendc-sim toolchain unavailable: {reason}")
    return chain
