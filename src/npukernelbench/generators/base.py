"""The Generator protocol: prompts in, ``n`` completions per prompt out, in batches."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:                    # typing only: loading the plugin must not import numpy (spec -> dtypes)
    from npukernelbench.spec import TaskSpec


@dataclass(frozen=True)
class SamplingParams:
    n: int = 1
    temperature: float = 0.8
    top_p: float = 0.95
    max_tokens: int = 8192
    seed: int = 0


@dataclass(frozen=True)
class GenerationRequest:
    """One prompt. ``task`` is the benchmark task it belongs to; a free chat request (a dataset
    teacher's prompt, no TaskSpec) leaves it None and names itself with ``key`` instead. ``id`` is what
    completions, replay files and caches are keyed by: ``key`` when given, else the task's case id."""

    task: TaskSpec | None
    messages: tuple[Mapping[str, str], ...]      # chat messages (role, content)
    sampling: SamplingParams
    key: str | None = None
    turn: int = 1                     # multi-turn repair: the turn this request asks for (messages hold the history)
    sample: int | None = None         # a follow-up turn (turn > 1) continues this one sample's conversation

    def __post_init__(self) -> None:
        if self.task is None and not self.key:
            raise ValueError("a GenerationRequest without a task needs a key (a stable request id)")

    @property
    def id(self) -> str:
        return self.key if self.key else self.task.case_id  # type: ignore[union-attr]


@dataclass(frozen=True)
class Completion:
    """One sample. Either ``text`` (a model's raw answer, parsed by extract.py) or ``files``
    (relative path -> source, e.g. from a replay file or the reference generator)."""

    task: str
    sample: int
    text: str | None = None
    files: Mapping[str, str] | None = None
    tokens: int | None = None
    meta: Mapping[str, Any] = field(default_factory=dict)   # labels (mutants), timings, model id


def require_task(request: GenerationRequest, generator: str) -> TaskSpec:
    """The request's benchmark task, for generators that derive answers from it (reference, mutants)."""
    if request.task is None:
        raise ValueError(f"the {generator} model answers benchmark tasks only; request {request.id!r} is a free "
                         f"chat prompt (use replay:FILE, a server URL or a local model for those)")
    return request.task


@runtime_checkable
class Generator(Protocol):
    name: str            # model identity used in run headers and cache keys

    def generate(self, requests: Sequence[GenerationRequest]) -> list[list[Completion]]:
        """One list of ``request.sampling.n`` completions per request, same order."""

    def close(self) -> None: ...


@dataclass(frozen=True)
class EngineOptions:
    """vLLM engine settings (the offline engine and ``npukb serve --engine vllm``). None means the
    default: vLLM's own on a GPU, a CPU-safe one on the CPU backend (see ``vllm_settings``)."""

    gpu_memory_utilization: float | None = None   # fraction of GPU memory (on CPU: of host memory)
    max_model_len: int | None = None              # context length (prompt + completion); model's default
    tensor_parallel_size: int = 1
    kv_cache_gib: float | None = None             # explicit KV-cache size in GiB (CPU default: 1)
    enforce_eager: bool | None = None             # no torch.compile / graphs (CPU default: True)

    def __post_init__(self) -> None:
        if self.gpu_memory_utilization is not None and not 0 < self.gpu_memory_utilization <= 1:
            raise ValueError(f"--gpu-memory-utilization must be in (0, 1], got {self.gpu_memory_utilization}")
        if self.max_model_len is not None and self.max_model_len < 1:
            raise ValueError(f"--max-model-len must be >= 1, got {self.max_model_len}")
        if self.tensor_parallel_size < 1:
            raise ValueError(f"--tensor-parallel-size must be >= 1, got {self.tensor_parallel_size}")
        if self.kv_cache_gib is not None and not self.kv_cache_gib > 0:
            raise ValueError(f"--kv-cache-gib must be > 0, got {self.kv_cache_gib}")


@dataclass(frozen=True)
class GeneratorOptions:
    """Options handed to every generator constructor: ``Cls(model: str, options: GeneratorOptions)``.
    Backends read the fields they use and ignore the rest."""

    lora: str | None = None           # LoRA adapter directory (hf, vllm)
    device: str = "auto"              # hf: cuda/cpu/auto
    dtype: str = "auto"               # hf, vllm: float32/bfloat16/float16/auto
    cpu_threads: int = 0              # hf on CPU: torch threads (0: torch's default)
    progress: bool = True
    timeout: float = 600.0            # openai: seconds per request
    concurrency: int = 8              # openai: parallel requests
    max_retries: int = 5
    backoff: float = 1.0
    seed: int = 0                     # mutants: mutation seed (sampling seed lives in SamplingParams)
    engine: EngineOptions = field(default_factory=EngineOptions)   # vllm
    extra: Mapping[str, Any] = field(default_factory=dict)
