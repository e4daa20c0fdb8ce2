"""The teacher: any model spec the benchmark accepts, asked free chat prompts through the benchmark's
own generators (``npukernelbench.generators``), with their concurrency, retries and progress, and,
for live models, the benchmark's completion cache.

Every request has a stable key (``docs.questions:docs/x.md#2``); every answer is appended to
``OUT/teacher/responses.jsonl`` in the replay format (``{"task": KEY, "sample": 0, "completion":
TEXT}``), so ``teacher.model: replay:OUT/teacher/responses.jsonl`` reproduces a build without the model;
the prompts go to ``OUT/teacher/requests.jsonl`` (``{"task": KEY, "messages": [...]}``), which is what
one needs to write or review a replay file by hand.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ascend_cot.config import TeacherConfig
from npukernelbench.generators.base import GenerationRequest, GeneratorOptions, SamplingParams
from npukernelbench.prompt import prompt_hash

TEACHER_BACKENDS = ("replay", "openai", "hf", "vllm")
RESPONSES = "responses.jsonl"
REQUESTS = "requests.jsonl"


class TeacherError(RuntimeError):
    """The teacher cannot be used (unreachable server, missing replay file, unloadable model)."""


@dataclass(frozen=True)
class Ask:
    key: str                                   # stable request id (replay files are keyed by it)
    messages: tuple[Mapping[str, str], ...]


@dataclass(frozen=True)
class Reply:
    key: str
    text: str
    prompt_hash: str
    cached: bool = False


class Teacher:
    def __init__(self, config: TeacherConfig, out: Path, progress: bool = True):
        from npukernelbench.generators import ModelSpecError, get_generator, resolve

        self.config = config
        try:
            backend, _ = resolve(config.model)
        except ModelSpecError as exc:
            raise TeacherError(f"teacher.model: {exc}") from None
        if backend not in TEACHER_BACKENDS:
            raise TeacherError(f"teacher.model {config.model!r}: the {backend} model cannot be a teacher; use "
                               "replay:FILE.jsonl, http(s)://HOST:PORT/v1#MODEL or a local model directory")
        self.backend = backend
        options = GeneratorOptions(progress=progress, timeout=config.timeout, concurrency=config.concurrency,
                                   max_retries=config.max_retries, backoff=config.backoff)
        try:
            generator = get_generator(config.model, options)
        except (ValueError, RuntimeError, OSError) as exc:
            raise TeacherError(f"teacher.model {config.model!r}: {exc}") from None
        self.inner = generator
        if config.cache and backend not in ("replay",):
            from npukernelbench.completion_cache import CachedGenerator, CompletionCache

            generator = CachedGenerator(generator, CompletionCache(out / "cache" / "teacher"))
        self.generator = generator
        self.record = out / "teacher" / RESPONSES
        self.record.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self.asked = 0
        self.cache_hits = 0

    @property
    def name(self) -> str:
        return str(getattr(self.generator, "identity", None) or self.generator.name)

    def check(self) -> None:
        """Fail early (before any stage runs) when a server teacher cannot be reached."""
        if self.backend != "openai":
            return
        from npukernelbench.generators.openai_client import ServerError

        try:
            self.inner.call("GET", "/models")          # type: ignore[attr-defined]
        except ServerError as exc:
            raise TeacherError(f"teacher unreachable: {exc}") from None

    def sampling(self) -> SamplingParams:
        c = self.config
        return SamplingParams(n=1, temperature=c.temperature, top_p=c.top_p, max_tokens=c.max_tokens, seed=c.seed)

    def ask(self, asks: Sequence[Ask]) -> list[Reply]:
        """One answer per ask, same order, from one batched generator call."""
        if not asks:
            return []
        from npukernelbench.generators.hf import ModelLoadError
        from npukernelbench.generators.openai_client import ServerError

        sampling = self.sampling()
        requests = [GenerationRequest(task=None, key=a.key, messages=tuple(a.messages), sampling=sampling)
                    for a in asks]
        try:
            batches = self.generator.generate(requests)
        except (ServerError, ModelLoadError) as exc:
            raise TeacherError(f"teacher failed: {exc}") from None
        replies = []
        for ask, batch in zip(asks, batches, strict=True):
            completion = batch[0]
            text = completion.text or ""
            cached = bool(completion.meta.get("cached"))
            replies.append(Reply(ask.key, text, prompt_hash(ask.messages), cached))
        self._record(asks, replies)
        self.asked += len(replies)
        self.cache_hits += sum(r.cached for r in replies)
        return replies

    def _record(self, asks: Sequence[Ask], replies: Sequence[Reply]) -> None:
        with self._lock:
            with self.record.with_name(REQUESTS).open("a", encoding="utf-8") as fh:
                for a in asks:
                    fh.write(json.dumps({"task": a.key, "messages": [dict(m) for m in a.messages]},
                                        ensure_ascii=False) + "\n")
            with self.record.open("a", encoding="utf-8") as fh:
                for r in replies:
                    fh.write(json.dumps({"task": r.key, "sample": 0, "completion": r.text,
                                         "meta": {"prompt_hash": r.prompt_hash}}, ensure_ascii=False) + "\n")
                fh.flush()
                os.fsync(fh.fileno())

    def close(self) -> None:
        self.generator.close()
