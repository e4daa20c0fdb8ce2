"""The completion cache: a rerun regenerates nothing, observed through the cache and the engine."""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
from pathlib import Path

from npukernelbench.completion_cache import CachedGenerator, CompletionCache, local_model_identity
from npukernelbench.generators.base import Completion, GenerationRequest, GeneratorOptions, SamplingParams
from npukernelbench.generators.hf import HFGenerator
from npukernelbench.prompt import build_messages


def entries(root: Path) -> dict[str, int]:
    return {p.name: p.stat().st_mtime_ns for p in root.glob("??/*.json")}


def test_rerun_generates_nothing(tiny_model, add_custom, tmp_path):
    root = tmp_path / "cache"
    req = GenerationRequest(add_custom, build_messages(add_custom), SamplingParams(n=3, max_tokens=8, seed=5))
    first_engine = HFGenerator(str(tiny_model), GeneratorOptions(progress=False))
    first = CachedGenerator(first_engine, CompletionCache(root)).generate([req])[0]
    before = entries(root)
    assert len(before) == 3 and first_engine.samples_generated == 3

    second_engine = HFGenerator(str(tiny_model), GeneratorOptions(progress=False))
    cache = CompletionCache(root)
    second = CachedGenerator(second_engine, cache).generate([req])[0]
    assert entries(root) == before, "a rerun must not rewrite the cache"
    assert second_engine.loads == 0 and second_engine.samples_generated == 0
    assert (cache.hits, cache.misses, cache.writes) == (3, 0, 0)
    assert [c.text for c in second] == [c.text for c in first]
    assert [c.tokens for c in second] == [c.tokens for c in first]
    assert all(c.meta["cached"] for c in second) and [c.sample for c in second] == [0, 1, 2]

    # More samples: only the new indices are generated, in one batch seeded seed + 3.
    more = GenerationRequest(add_custom, req.messages, SamplingParams(n=5, max_tokens=8, seed=5))
    third_engine = HFGenerator(str(tiny_model), GeneratorOptions(progress=False))
    out = CachedGenerator(third_engine, CompletionCache(root)).generate([more])[0]
    assert third_engine.samples_generated == 2 and len(entries(root)) == 5
    assert [c.text for c in out[:3]] == [c.text for c in first] and [c.sample for c in out] == [0, 1, 2, 3, 4]


def test_key_fields(add_custom, tmp_path, tiny_model):
    cache = CompletionCache(tmp_path)
    msgs = build_messages(add_custom)
    base = SamplingParams(n=4, temperature=0.8, top_p=0.95, max_tokens=100, seed=0)
    key = cache.key("m", msgs, base, 0)
    assert key == cache.key("m", msgs, SamplingParams(n=9, temperature=0.8, top_p=0.95, max_tokens=100, seed=0), 0)
    variants = [cache.key("m2", msgs, base, 0), cache.key("m", msgs, base, 1),
                cache.key("m", msgs[:1], base, 0)]
    for change in ({"temperature": 0.7}, {"top_p": 0.9}, {"max_tokens": 99}, {"seed": 1}):
        variants.append(cache.key("m", msgs, SamplingParams(**{**base.__dict__, **change}), 0))
    assert len({key, *variants}) == len(variants) + 1
    model = shutil.copytree(tiny_model, tmp_path / "model")
    ident = local_model_identity(model)
    assert ident == local_model_identity(model)
    os.utime(model / "model.safetensors", ns=(1, 1))
    assert local_model_identity(model) != ident, "retrained weights must change the identity"


def test_damaged_entry_is_a_miss(add_custom, tmp_path):
    cache = CompletionCache(tmp_path)
    msgs = build_messages(add_custom)
    sp = SamplingParams()
    cache.put("m", msgs, sp, Completion(task="t", sample=0, text="hello", tokens=2))
    assert cache.get("m", msgs, sp, 0, "t").text == "hello"
    path = next(tmp_path.glob("??/*.json"))
    path.write_text("{not json")
    assert cache.get("m", msgs, sp, 0, "t") is None


def _writer(root: str, worker: int) -> None:
    cache = CompletionCache(root)
    msgs = ({"role": "user", "content": "same prompt"},)
    for i in range(60):
        sample = i % 20                      # every process writes the same 20 keys, 3 times each
        text = f"w{worker}-{sample}" * 200
        cache.put("model", msgs, SamplingParams(), Completion(task="t", sample=sample, text=text))


def test_concurrent_processes(tmp_path):
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(str(tmp_path), w)) for w in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    assert [p.exitcode for p in procs] == [0, 0, 0, 0]
    files = list(tmp_path.glob("??/*.json"))
    assert len(files) == 20 and not list(tmp_path.glob("??/.*"))
    for f in files:
        entry = json.loads(f.read_text())
        assert entry["text"] == f"w{entry['text'][1]}-{entry['sample']}" * 200

