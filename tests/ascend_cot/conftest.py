"""Fixtures of the Ascend-CoT tests: the tiny example built once per session (its kernels go through the
ascendc-sim build cache of ``NPUKB_CACHE_DIR``)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "ascend_cot"
TINY = EXAMPLES / "tiny.yaml"

if importlib.util.find_spec("bm25s") is None or importlib.util.find_spec("datasketch") is None:
    pytest.skip("the Ascend-CoT tests need the cot extra: pip install -e .[cot]", allow_module_level=True)


@pytest.fixture(scope="session")
def tiny_build(tmp_path_factory: pytest.TempPathFactory):
    from ascend_cot.build import build

    out = tmp_path_factory.mktemp("cot") / "tiny"
    return build(TINY, out, progress=False, log=lambda msg: None)
