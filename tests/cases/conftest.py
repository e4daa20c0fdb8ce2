"""The one loader of case references for the reference reviews in this folder."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import pytest

from npukernelbench.module_loader import load_module


@pytest.fixture
def case_reference(request: pytest.FixtureRequest) -> Callable[[str], ModuleType]:
    """``case_reference("math/abs_math")``: the ``reference.py`` module of that case, relative to the
    requesting test module's ``CASES`` folder (imported by path, once per file, the way the harness does)."""
    root = request.module.CASES
    return lambda case: load_module(root / case / "reference.py")
