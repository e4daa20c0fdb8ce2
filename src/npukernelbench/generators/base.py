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
    task: TaskSpec
    messages: tuple[Mapping[str, str], ...]      # chat messages (role, content)
    sampling: SamplingParams


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


@runtime_checkable
class Generator(Protocol):
    name: str            # model identity used in run headers and cache keys

    def generate(self, requests: Sequence[GenerationRequest]) -> list[list[Completion]]:
        """One list of ``request.sampling.n`` completions per request, same order."""

    def close(self) -> None: ...
