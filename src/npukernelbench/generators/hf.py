"""HFGenerator: transformers generation from a local Hugging Face model directory (CPU or GPU).

The ``n`` samples of a prompt come from one batched ``generate`` call (``num_return_sequences``),
seeded with the request's seed in a forked RNG (the caller's global torch RNG is untouched), with
temperature / top_p / max_tokens honoured (temperature 0 means greedy: one sequence, repeated).
The prompt goes through the tokenizer's chat template. A LoRA adapter directory is applied with
peft. The model loads lazily, on the first request, so a run served entirely from the completion
cache never loads it.

torch, transformers and peft are imported inside methods only.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from npukernelbench.completion_cache import local_model_identity
from npukernelbench.generators.base import Completion, GenerationRequest, SamplingParams
from npukernelbench.generators.progress import GenerationProgress
from npukernelbench.prompt import render_messages


class ModelLoadError(RuntimeError):
    """The model directory (or LoRA adapter) cannot be used; the message says why and what to do."""


@dataclass(frozen=True)
class Sample:
    text: str
    tokens: int
    finish_reason: str          # "stop" (end-of-sequence token) or "length" (max_tokens reached)
    prompt_tokens: int = 0


def option(options: Any, name: str, default: Any = None) -> Any:
    """Read a field of the harness's generator options (any object or mapping; None = defaults)."""
    if options is None:
        return default
    if isinstance(options, Mapping):
        value = options.get(name, default)
    else:
        value = getattr(options, name, default)
    return default if value is None else value


TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "tokenizer.model", "vocab.json")


def check_model_dir(path: Path) -> None:
    if not path.exists():
        raise ModelLoadError(f"model directory {path} does not exist; pass --model a local Hugging Face "
                             f"model directory (with config.json) or an http://HOST:PORT/v1 server URL")
    if not (path / "config.json").is_file():
        raise ModelLoadError(f"{path} has no config.json: not a Hugging Face model directory "
                             f"(download or save one with save_pretrained first)")
    config = _read_config(path / "config.json")
    if not isinstance(config, dict) or not isinstance(config.get("model_type"), str):
        raise ModelLoadError(f"{path}/config.json is not a Hugging Face model's config (no 'model_type'): "
                             f"not a model directory; pass --model a saved model, a server URL or replay:FILE")
    if not any((path / name).is_file() for name in TOKENIZER_FILES):
        raise ModelLoadError(f"{path} has no tokenizer (none of {', '.join(TOKENIZER_FILES)}): save the "
                             f"tokenizer next to the model (tokenizer.save_pretrained)")


def _read_config(path: Path) -> Any:
    import json

    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None


def busy_cpu_hint(threads: int) -> str | None:
    """A line suggesting ``--cpu-threads 1`` when several torch threads would generate on a machine
    whose cores are already busy (measured: two threads on two busy cores were ~10x slower than one)."""
    try:
        load = os.getloadavg()[0]
    except OSError:
        return None
    cores = os.cpu_count() or 1
    if threads <= 1 or load < cores:
        return None
    return (f"the machine is busy (load {load:.1f} on {cores} cores) and generation uses {threads} torch threads: "
            f"--cpu-threads 1 (cpu_threads: 1 in a kernelgen-lm config) is usually several times faster")


class HFGenerator:
    """``HFGenerator(model_dir, options)``; options fields used: ``lora``, ``device``, ``dtype``,
    ``cpu_threads`` (torch threads when generating on CPU; 0: torch's default), ``progress`` (bool)."""

    def __init__(self, model: str | Path, options: Any = None):
        self.path = Path(model).expanduser()
        check_model_dir(self.path)
        lora = option(options, "lora")
        self.lora = Path(lora).expanduser() if lora else None
        if self.lora is not None and not (self.lora / "adapter_config.json").is_file():
            raise ModelLoadError(f"LoRA adapter directory {self.lora} has no adapter_config.json "
                                 f"(save the adapter with peft's save_pretrained)")
        self.device_request = option(options, "device", "auto")
        self.dtype_request = option(options, "dtype", "auto")
        self.cpu_threads = int(option(options, "cpu_threads", 0) or 0)
        self.show_progress = bool(option(options, "progress", True))
        self.name = self.path.resolve().name + (f"+{self.lora.resolve().name}" if self.lora else "")
        self.identity = local_model_identity(self.path, self.lora)
        self.loads = 0                   # how many times the weights were loaded (0 or 1)
        self.samples_generated = 0
        self.tokens_generated = 0
        self._model: Any = None
        self._tokenizer: Any = None
        self._device: str | None = None
        self._warned_template = False

    # -- loading -------------------------------------------------------------------------------

    def _resolve_device(self) -> str:
        import torch

        if self.device_request != "auto":
            return str(self.device_request)
        return "cuda" if torch.cuda.is_available() else "cpu"

    def _resolve_dtype(self, device: str) -> Any:
        import torch

        if self.dtype_request != "auto":
            try:
                return getattr(torch, str(self.dtype_request))
            except AttributeError:
                raise ModelLoadError(f"unknown dtype {self.dtype_request!r}; use auto, float32, "
                                     f"bfloat16 or float16") from None
        if device.startswith("cuda") and torch.cuda.is_bf16_supported():
            return torch.bfloat16
        return torch.float32

    def load(self) -> None:
        if self._model is not None:
            return
        from transformers import AutoModelForCausalLM, AutoTokenizer

        started = time.monotonic()
        device = self._resolve_device()
        try:
            tokenizer = AutoTokenizer.from_pretrained(self.path)
            model = AutoModelForCausalLM.from_pretrained(self.path, dtype=self._resolve_dtype(device))
        except (OSError, ValueError) as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise ModelLoadError(f"cannot load the model from {self.path}: {first}") from None
        if self.lora is not None:
            try:
                from peft import PeftModel
            except ImportError as exc:
                raise ModelLoadError("a LoRA adapter was given but peft is not installed: "
                                     "pip install 'npukernelbench[train]' (or pip install peft)") from exc
            model = PeftModel.from_pretrained(model, self.lora)
        model.to(device)
        model.eval()
        if device == "cpu" and self.cpu_threads > 0:
            import torch

            torch.set_num_threads(self.cpu_threads)
        if tokenizer.pad_token_id is None:
            tokenizer.pad_token = tokenizer.eos_token
        self._model, self._tokenizer, self._device = model, tokenizer, device
        self.loads += 1
        threads = f" ({self._cpu_thread_count()} torch thread(s))" if device == "cpu" else ""
        print(f"npukb: loaded model {self.name} on {device}{threads} in {time.monotonic() - started:.1f}s",
              file=sys.stderr, flush=True)
        hint = busy_cpu_hint(self._cpu_thread_count()) if device == "cpu" and self.cpu_threads == 0 else None
        if hint:
            print(f"npukb: {hint}", file=sys.stderr, flush=True)

    @staticmethod
    def _cpu_thread_count() -> int:
        import torch

        return int(torch.get_num_threads())

    # -- generation ----------------------------------------------------------------------------

    def encode(self, messages: Sequence[Mapping[str, str]]) -> Any:
        """Token ids (1 x L tensor) of the chat-templated prompt, ending with the assistant turn."""
        self.load()
        tokenizer = self._tokenizer
        plain = [{"role": m["role"], "content": m["content"]} for m in messages]
        if getattr(tokenizer, "chat_template", None):
            text = tokenizer.apply_chat_template(plain, add_generation_prompt=True, tokenize=False)
        else:
            if not self._warned_template:
                print(f"npukb: {self.path} has no chat template; using a plain-text prompt",
                      file=sys.stderr, flush=True)
                self._warned_template = True
            text = render_messages(plain) + "<<assistant>>\n"
        return tokenizer(text, return_tensors="pt", add_special_tokens=False)["input_ids"]

    def _eos_ids(self) -> set[int]:
        ids: set[int] = set()
        for source in (self._model.generation_config.eos_token_id, self._tokenizer.eos_token_id):
            if isinstance(source, int):
                ids.add(source)
            elif source:
                ids.update(int(i) for i in source)
        return ids

    def sample(self, messages: Sequence[Mapping[str, str]], sampling: SamplingParams,
               on_step: Callable[[int], None] | None = None) -> list[Sample]:
        """``sampling.n`` samples for one prompt, in one batched generate call; ``on_step`` is told
        after every decode step how many tokens it produced (the sequences of the batch)."""
        import torch

        if sampling.n < 1:
            return []
        input_ids = self.encode(messages).to(self._device)
        prompt_len = int(input_ids.shape[1])
        greedy = sampling.temperature <= 0
        count = 1 if greedy else sampling.n
        kwargs: dict[str, Any] = {"max_new_tokens": int(sampling.max_tokens), "num_return_sequences": count,
                                  "pad_token_id": self._tokenizer.pad_token_id}
        if greedy:
            kwargs.update(do_sample=False, temperature=None, top_p=None, top_k=None)
        else:
            kwargs.update(do_sample=True, temperature=float(sampling.temperature), top_p=float(sampling.top_p),
                          top_k=None)
        if on_step is not None:
            kwargs["stopping_criteria"] = _step_counter(on_step)
        devices = [torch.device(self._device).index or 0] if str(self._device).startswith("cuda") else []
        with torch.random.fork_rng(devices=devices), torch.inference_mode():
            torch.manual_seed(int(sampling.seed))
            output = self._model.generate(input_ids=input_ids, attention_mask=torch.ones_like(input_ids),
                                          **kwargs)
        eos = self._eos_ids()
        samples = []
        for row in output[:, prompt_len:].tolist():
            stop = next((i for i, tok in enumerate(row) if tok in eos), None)
            kept = row if stop is None else row[:stop]
            tokens = len(row) if stop is None else stop + 1
            text = self._tokenizer.decode(kept, skip_special_tokens=True)
            samples.append(Sample(text=text, tokens=tokens, finish_reason="length" if stop is None else "stop",
                                  prompt_tokens=prompt_len))
        if greedy:
            samples = samples * sampling.n
        self.samples_generated += len(samples)
        self.tokens_generated += sum(s.tokens for s in samples)
        return samples

    def generate(self, requests: Sequence[GenerationRequest]) -> list[list[Completion]]:
        total = sum(r.sampling.n for r in requests)
        results: list[list[Completion]] = []
        if requests:
            self.load()                  # before the progress clock starts: tokens/s is decoding speed
        with GenerationProgress(total, label=f"generating ({self.name})", enabled=self.show_progress,
                                total_requests=len(requests)) as bar:
            for request in requests:
                started = time.monotonic()
                decoded = [0]

                def step(tokens: int, decoded: list[int] = decoded) -> None:
                    decoded[0] += tokens
                    bar.decoding(tokens)

                samples = self.sample(request.messages, request.sampling, on_step=step)
                seconds = time.monotonic() - started
                results.append([
                    Completion(task=request.id, sample=i, text=s.text, tokens=s.tokens,
                               meta={"model": self.name, "backend": "hf", "finish_reason": s.finish_reason,
                                     "batch_seconds": round(seconds, 3), "engine_pid": os.getpid()})
                    for i, s in enumerate(samples)])
                bar.update(len(samples), sum(s.tokens for s in samples), decoded=decoded[0])
        return results

    def close(self) -> None:
        self._model = None
        self._tokenizer = None


def _step_counter(on_step: Callable[[int], None]) -> Any:
    """A transformers stopping criterion that never stops: it reports the tokens of each decode
    step (one per sequence of the batch, an estimate: sequences that already ended count too)."""
    import torch
    from transformers import StoppingCriteria, StoppingCriteriaList

    class StepCounter(StoppingCriteria):
        def __call__(self, input_ids: Any, scores: Any, **kwargs: Any) -> Any:
            on_step(int(input_ids.shape[0]))
            return torch.zeros(input_ids.shape[0], dtype=torch.bool, device=input_ids.device)

    return StoppingCriteriaList([StepCounter()])
