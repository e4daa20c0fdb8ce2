"""A completion cache: rerunning a benchmark regenerates nothing.

One entry per sample, keyed by the model identity (a local directory's path plus a hash of its
config and weight files' names, sizes and modification times, plus the LoRA adapter; or a server
URL plus model name), the prompt hash, the sampling parameters that change the text (temperature,
top_p, max_tokens, seed) and the sample index. ``n`` is not part of the key: asking for 8 samples
after a run with 4 generates only samples 4..7.

Storage is one small JSON file per entry under ``<root>/<2 hex>/<key>.json``, written to a temporary
file and renamed into place, so concurrent processes (xdist workers, parallel runs) never read a
partial entry; two writers of the same key simply leave one complete entry.

:class:`CachedGenerator` wraps any Generator: hits come from the cache, the misses of a request
are generated in one batched call seeded with ``seed + first missing index`` (so a fresh run uses
exactly ``seed``) and stored.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import tempfile
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path

from npukernelbench.generators.base import Completion, GenerationRequest, Generator, SamplingParams
from npukernelbench.prompt import prompt_hash

CACHE_VERSION = 1
MODEL_FILE_SUFFIXES = (".json", ".safetensors", ".bin", ".model", ".jinja", ".txt", ".py", ".gguf")


def default_cache_dir() -> Path:
    """``$NPUKB_CACHE_DIR``, else ``$XDG_CACHE_HOME/npukernelbench/completions``, else ~/.cache/..."""
    explicit = os.environ.get("NPUKB_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "npukernelbench" / "completions"


def directory_fingerprint(path: Path) -> str:
    """sha256 over config.json's content and the (name, size, mtime) of the model's files."""
    digest = hashlib.sha256()
    path = Path(path)
    config = path / "config.json"
    if config.is_file():
        digest.update(config.read_bytes())
    for item in sorted(path.iterdir()) if path.is_dir() else ():
        if item.is_file() and item.suffix in MODEL_FILE_SUFFIXES:
            st = item.stat()
            digest.update(f"{item.name}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


def local_model_identity(model_dir: Path | str, lora: Path | str | None = None) -> str:
    """Identity of a local model (and optional LoRA adapter) for cache keys."""
    model_dir = Path(model_dir).resolve()
    identity = f"{model_dir}@{directory_fingerprint(model_dir)}"
    if lora is not None:
        lora_dir = Path(lora).resolve()
        identity += f"+lora:{lora_dir}@{directory_fingerprint(lora_dir)}"
    return identity


def _sampling_fields(sampling: SamplingParams) -> dict[str, float | int]:
    return {"temperature": float(sampling.temperature), "top_p": float(sampling.top_p),
            "max_tokens": int(sampling.max_tokens), "seed": int(sampling.seed)}


class CompletionCache:
    def __init__(self, root: Path | str):
        self.root = Path(root)
        self.hits = 0
        self.misses = 0
        self.writes = 0
        self._lock = threading.Lock()

    def key(self, model: str, messages: Sequence[Mapping[str, str]], sampling: SamplingParams,
            sample: int) -> str:
        fields = {"v": CACHE_VERSION, "model": model, "prompt": prompt_hash(messages),
                  "sampling": _sampling_fields(sampling), "sample": sample}
        return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, model: str, messages: Sequence[Mapping[str, str]], sampling: SamplingParams,
            sample: int, task: str) -> Completion | None:
        path = self._path(self.key(model, messages, sampling, sample))
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            with self._lock:
                self.misses += 1
            return None
        except (OSError, json.JSONDecodeError, UnicodeDecodeError):
            # A damaged entry (disk full, manual edit) counts as a miss and is overwritten later.
            with self._lock:
                self.misses += 1
            return None
        with self._lock:
            self.hits += 1
        meta = dict(entry.get("meta") or {})
        meta["cached"] = True
        return Completion(task=task, sample=sample, text=entry.get("text"), files=entry.get("files"),
                          tokens=entry.get("tokens"), meta=meta)

    def put(self, model: str, messages: Sequence[Mapping[str, str]], sampling: SamplingParams,
            completion: Completion) -> None:
        key = self.key(model, messages, sampling, completion.sample)
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        entry = {"model": model, "prompt": prompt_hash(messages), "sampling": _sampling_fields(sampling),
                 "sample": completion.sample, "task": completion.task, "text": completion.text,
                 "files": dict(completion.files) if completion.files is not None else None,
                 "tokens": completion.tokens,
                 "meta": {k: v for k, v in dict(completion.meta).items() if k != "cached"}}
        fd, tmp = tempfile.mkstemp(prefix=f".{key[:8]}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(entry, handle, ensure_ascii=False, default=str)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        with self._lock:
            self.writes += 1

    def __len__(self) -> int:
        return sum(1 for _ in self.root.glob("??/*.json")) if self.root.is_dir() else 0


def generator_identity(generator: Generator) -> str:
    return str(getattr(generator, "identity", None) or generator.name)


class CachedGenerator:
    """A Generator that serves samples from a :class:`CompletionCache` and generates only misses."""

    def __init__(self, inner: Generator, cache: CompletionCache):
        self.inner = inner
        self.cache = cache
        self.name = inner.name
        self.identity = generator_identity(inner)

    def generate(self, requests: Sequence[GenerationRequest]) -> list[list[Completion]]:
        results: list[list[Completion | None]] = []
        pending: list[tuple[int, list[int], GenerationRequest]] = []
        for i, request in enumerate(requests):
            found = [self.cache.get(self.identity, request.messages, request.sampling, s, request.id)
                     for s in range(request.sampling.n)]
            results.append(list(found))
            missing = [s for s, c in enumerate(found) if c is None]
            if missing:
                sampling = dataclasses.replace(request.sampling, n=len(missing),
                                               seed=request.sampling.seed + missing[0])
                pending.append((i, missing, dataclasses.replace(request, sampling=sampling)))
        if pending:
            generated = self.inner.generate([sub for _, _, sub in pending])
            for (i, missing, _), completions in zip(pending, generated, strict=True):
                if len(completions) != len(missing):
                    raise RuntimeError(f"generator {self.name!r} returned {len(completions)} samples for "
                                       f"{requests[i].id}, {len(missing)} were asked")
                for index, completion in zip(missing, completions, strict=True):
                    completion = dataclasses.replace(completion, sample=index)
                    self.cache.put(self.identity, requests[i].messages, requests[i].sampling, completion)
                    results[i][index] = completion
        return [[c for c in row if c is not None] for row in results]

    def close(self) -> None:
        self.inner.close()
