"""The Generator protocol: prompts in, ``n`` completions per prompt out, in batches."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

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
class GeneratorOptions:
    """Options handed to every generator constructor: ``Cls(model: str, options: GeneratorOptions)``.
    Backends read the fields they use and ignore the rest."""

    lora: str | None = None           # LoRA adapter directory (hf, vllm)
    device: str = "auto"              # hf: cuda/cpu/auto
    dtype: str = "auto"               # hf: float32/bfloat16/float16/auto
    progress: bool = True
    timeout: float = 600.0            # openai: seconds per request
    concurrency: int = 8              # openai: parallel requests
    max_retries: int = 5
    backoff: float = 1.0
    seed: int = 0                     # mutants: mutation seed (sampling seed lives in SamplingParams)
    extra: Mapping[str, Any] = field(default_factory=dict)
