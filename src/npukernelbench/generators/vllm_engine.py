"""VLLMGenerator: vLLM's offline engine on a local model directory (GPU hosts).

Chosen automatically for ``--model=DIR`` when ``vllm`` is importable (``pip install -e .[vllm]``;
the official wheel is CUDA-only). All prompts of a run go to the engine in one ``LLM.chat`` call,
each with its own ``SamplingParams(n=..., seed=...)``, so vLLM batches across tasks and samples.
A LoRA adapter directory becomes a ``LoRARequest`` (the engine is built with ``enable_lora``).

Engine settings come from ``options.extra``: ``tensor_parallel_size`` (default 1),
``gpu_memory_utilization`` (0.9), ``max_model_len`` (model default), ``max_lora_rank`` (64),
``enforce_eager`` (False). vllm is imported only when this class is constructed.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from npukernelbench.completion_cache import local_model_identity
from npukernelbench.generators.base import Completion, GenerationRequest
from npukernelbench.generators.hf import ModelLoadError, check_model_dir, option
from npukernelbench.generators.progress import GenerationProgress

ENGINE_KEYS = ("tensor_parallel_size", "gpu_memory_utilization", "max_model_len", "max_lora_rank",
               "enforce_eager", "dtype")


class VLLMGenerator:
    def __init__(self, model: str | Path, options: Any = None):
        try:
            import vllm  # noqa: F401
        except ImportError as exc:
            raise ModelLoadError(f"the vllm backend needs vllm ({exc}); install it on a CUDA host with "
                                 f"pip install -e .[vllm], or use --model=hf:DIR (transformers)") from exc
        self.path = Path(model).expanduser()
        check_model_dir(self.path)
        lora = option(options, "lora")
        self.lora = Path(lora).expanduser() if lora else None
        if self.lora is not None and not (self.lora / "adapter_config.json").is_file():
            raise ModelLoadError(f"LoRA adapter directory {self.lora} has no adapter_config.json")
        extra = dict(option(options, "extra", {}) or {})
        self.engine_args = {k: extra[k] for k in ENGINE_KEYS if k in extra}
        self.show_progress = bool(option(options, "progress", True))
        self.name = self.path.resolve().name + (f"+{self.lora.resolve().name}" if self.lora else "")
        self.identity = local_model_identity(self.path, self.lora)
        self.loads = 0
        self._llm: Any = None

    def load(self) -> None:
        if self._llm is not None:
            return
        from vllm import LLM

        started = time.monotonic()
        kwargs: dict[str, Any] = {"model": str(self.path), **self.engine_args}
        if self.lora is not None:
            kwargs["enable_lora"] = True
            kwargs.setdefault("max_lora_rank", 64)
        self._llm = LLM(**kwargs)
        self.loads += 1
        print(f"npukb: loaded model {self.name} with vLLM in {time.monotonic() - started:.1f}s",
              file=sys.stderr, flush=True)

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
        with GenerationProgress(total, label=f"generating ({self.name}, vLLM)", enabled=self.show_progress) as bar:
            outputs = self._llm.chat(conversations, sampling_params=params, lora_request=lora_request,
                                     use_tqdm=False)
            seconds = round(time.monotonic() - started, 3)
            results = []
            for request, output in zip(requests, outputs, strict=True):
                batch = [Completion(task=request.id, sample=i, text=o.text, tokens=len(o.token_ids),
                                    meta={"model": self.name, "backend": "vllm", "finish_reason": o.finish_reason,
                                          "batch_seconds": seconds})
                         for i, o in enumerate(sorted(output.outputs, key=lambda o: o.index))]
                bar.update(len(batch), sum(c.tokens or 0 for c in batch))
                results.append(batch)
        return results

    def close(self) -> None:
        self._llm = None
