"""Fixtures of the generation tests: the add_custom task (the tiny model and the ``npukb serve``
subprocess live in tests/conftest.py, shared with the Ascend-CoT tests)."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ADD_CUSTOM = REPO / "benchmark_cases" / "level1" / "math" / "add_custom"


@pytest.fixture(scope="session")
def add_custom():
    from npukernelbench.spec import load_spec

    return load_spec(ADD_CUSTOM, REPO / "benchmark_cases")
