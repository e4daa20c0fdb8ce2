"""VLLMGenerator on the tiny model; runs only where vllm is importable (CUDA hosts)."""

from __future__ import annotations

import importlib.util

import pytest

from npukernelbench.generators.base import GenerationRequest, GeneratorOptions, SamplingParams
from npukernelbench.prompt import build_messages

pytestmark = pytest.mark.skipif(importlib.util.find_spec("vllm") is None,
                                reason="vllm is not installed (CUDA-only wheel: pip install -e .[vllm] on a GPU host)")


def test_vllm_samples(tiny_model, add_custom):
    from npukernelbench.generators.vllm_engine import VLLMGenerator

    gen = VLLMGenerator(str(tiny_model), GeneratorOptions(progress=False, extra={"gpu_memory_utilization": 0.3,
                                                                               "enforce_eager": True}))
    req = GenerationRequest(add_custom, build_messages(add_custom), SamplingParams(n=3, max_tokens=16, seed=1))
    (batch,) = gen.generate([req])
    assert [c.sample for c in batch] == [0, 1, 2] and all(1 <= c.tokens <= 16 for c in batch)
    assert [c.text for c in gen.generate([req])[0]] == [c.text for c in batch]
    assert gen.loads == 1
    gen.close()
