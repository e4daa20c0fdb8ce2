from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from simkit import Program  # noqa: E402


@pytest.fixture(scope="session")
def sim_cache(tmp_path_factory) -> Path:
    if shutil.which("g++") is None:
        pytest.fail("g++ is required for the ascendc-sim kernel tests (apt-get install g++)", pytrace=False)
    return tmp_path_factory.mktemp("simkit_cache")


@pytest.fixture
def prog(tmp_path: Path, sim_cache: Path) -> Program:
    return Program(tmp_path / "prog", sim_cache)
