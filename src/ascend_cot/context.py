"""What every stage gets: the config, the output folder, and lazily built shared services (teacher,
verifier, documentation chunks and their BM25 index)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ascend_cot.config import BuildConfig
from ascend_cot.documents import Chunk, load_chunks
from ascend_cot.retrieval import Bm25Index
from ascend_cot.sample import Drop, Provenance, Sample, prompt_digest
from ascend_cot.teacher import Teacher
from ascend_cot.verification import Verifier


@dataclass
class StageResult:
    samples: list[Sample] = field(default_factory=list)
    drops: list[Drop] = field(default_factory=list)

    def extend(self, other: StageResult) -> None:
        self.samples.extend(other.samples)
        self.drops.extend(other.drops)


class StageContext:
    def __init__(self, config: BuildConfig, out: Path, progress: bool = True):
        self.config = config
        self.out = Path(out)
        self.progress = progress
        self._teacher: Teacher | None = None
        self._verifier: Verifier | None = None
        self._chunks: list[Chunk] | None = None
        self._index: Bm25Index | None = None

    @property
    def teacher(self) -> Teacher:
        if self._teacher is None:
            self._teacher = Teacher(self.config.teacher, self.out, self.progress)
            self._teacher.check()
        return self._teacher

    @property
    def verifier(self) -> Verifier:
        if self._verifier is None:
            self._verifier = Verifier(self.config.verify, self.out / "cache" / "verify.jsonl")
        return self._verifier

    def chunks(self) -> list[Chunk]:
        if self._chunks is None:
            docs = self.config.stages.docs
            self._chunks = load_chunks(docs.paths, docs.include, docs.api_reference, docs.chunk_chars) \
                if docs.paths else []
        return self._chunks

    def index(self) -> Bm25Index:
        if self._index is None:
            self._index = Bm25Index(self.chunks())
        return self._index

    def provenance(self, prompts: Sequence[Sequence[Any]], teacher: bool = True) -> Provenance:
        return Provenance(self.teacher.name if teacher else "", prompt_digest(prompts) if prompts else "",
                          self.config.config_hash)

    def bar(self, items: Iterable[Any], desc: str, total: int | None = None) -> Iterable[Any]:
        from tqdm import tqdm

        return tqdm(items, desc=desc, total=total, disable=not self.progress, leave=False, dynamic_ncols=True)

    def close(self) -> None:
        if self._teacher is not None:
            self._teacher.close()
