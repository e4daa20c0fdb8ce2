"""Fixtures of the KernelGen-LM tests: the tiny model (tests/conftest.py), small chat datasets, and the
benchmark's add_custom case (its kernels go through the ascendc-sim build cache of NPUKB_CACHE_DIR)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

if any(importlib.util.find_spec(m) is None for m in ("trl", "peft", "datasets", "yaml")):
    pytest.skip("the KernelGen-LM tests need the train extra: pip install -e .[train]", allow_module_level=True)


def _write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture
def chat_data(tmp_path: Path) -> Path:
    """Four short conversations in the ascend_cot row format (think block, then the answer)."""
    rows = [{"messages": [{"role": "system", "content": "You are a professional Ascend kernel development engineer."},
                          {"role": "user", "content": f"What does DataCopy move in step {i}?"},
                          {"role": "assistant", "content": f"<think>Tiles move between GM and UB.</think>"
                                                           f"It copies tile {i} from global memory to the unified "
                                                           f"buffer."}],
             "source": "docs", "task": ""} for i in range(4)]
    return _write_jsonl(tmp_path / "chat.jsonl", rows)
