"""Decontamination against the benchmark: token n-gram overlap with every held-out case's solution
(shared kernel bases included), templates and API description, from our case roots and/or a public
NPUKernelBench tree.

Texts are split into identifier / number / punctuation tokens; an n-gram is a 64-bit hash of ``n``
consecutive tokens. Identical files (a shared base used by many solutions) count once. N-grams found
in at least ``common_documents`` distinct benchmark files are boilerplate (includes, OpDef chains)
and ignored. A sample is contaminated when the share of its n-grams found in the benchmark reaches
``max_overlap``, or when it holds a verbatim copy: ``max_run`` consecutive matched n-grams (about
``max_run + n`` tokens copied from a held-out file), however long the rest of the sample is.
"""

from __future__ import annotations

import fnmatch
import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?|[^\sA-Za-z0-9_]")
_MASK = (1 << 64) - 1


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def _token_ids(toks: Sequence[str]) -> np.ndarray:
    return np.array([int.from_bytes(hashlib.blake2b(t.encode(), digest_size=8).digest(), "little") for t in toks],
                    dtype=np.uint64)


def ngram_sequence(text: str, n: int) -> np.ndarray:
    """64-bit hashes of the token n-grams of ``text``, in text order."""
    ids = _token_ids(tokens(text))
    if len(ids) < n:
        return np.empty(0, dtype=np.uint64)
    acc = np.zeros(len(ids) - n + 1, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for j in range(n):
            acc = acc * np.uint64(1_000_003) + ids[j:len(ids) - n + 1 + j]
    return acc


def ngram_hashes(text: str, n: int) -> np.ndarray:
    """Unique 64-bit hashes of the token n-grams of ``text`` (sorted)."""
    return np.unique(ngram_sequence(text, n))


def longest_run(flags: np.ndarray) -> int:
    best = run = 0
    for flag in flags.tolist():
        run = run + 1 if flag else 0
        best = max(best, run)
    return best


@dataclass(frozen=True)
class Overlap:
    matched: int              # distinct n-grams of the sample found in the benchmark
    total: int                # distinct n-grams of the sample (boilerplate excluded)
    run: int = 0              # longest stretch of consecutive matched n-grams (a verbatim copy)

    @property
    def share(self) -> float:
        return self.matched / self.total if self.total else 0.0


class BenchmarkIndex:
    """N-gram index of benchmark texts (one document per distinct file text)."""

    def __init__(self, documents: Iterable[str], n: int, common_documents: int):
        self.n = n
        seen: set[str] = set()
        arrays = []
        for text in documents:
            digest = hashlib.sha256(text.encode()).hexdigest()
            if digest in seen or not text.strip():
                continue
            seen.add(digest)
            arrays.append(ngram_hashes(text, n))
        self.documents = len(seen)
        if arrays:
            values, counts = np.unique(np.concatenate(arrays), return_counts=True)
            keep = counts < max(2, common_documents)
            self.grams = values[keep]
            self.boilerplate = values[~keep]
        else:
            self.grams = self.boilerplate = np.empty(0, dtype=np.uint64)

    def overlap(self, text: str) -> Overlap:
        sequence = ngram_sequence(text, self.n)
        common = np.isin(sequence, self.boilerplate) if len(self.boilerplate) else np.zeros(len(sequence), bool)
        flags = np.isin(sequence, self.grams)            # boilerplate n-grams are never matches: they break runs
        specific = sequence[~common]
        if not len(specific):
            return Overlap(0, 0)
        unique, first = np.unique(specific, return_index=True)
        return Overlap(int(flags[~common][first].sum()), len(unique), longest_run(flags))


def benchmark_texts(roots: Sequence[Path], exclude: Sequence[str]) -> tuple[list[str], list[str]]:
    """(texts, case ids) of every case under ``roots`` whose id matches none of ``exclude``: the API
    description, the templates and the solution (with its shared files) of each."""
    from npukernelbench.cases import find_case_dirs, load_case
    from npukernelbench.spec import SpecError, read_tree

    texts: list[str] = []
    ids: list[str] = []
    for root in roots:
        for folder in find_case_dirs(Path(root)):
            try:
                spec = load_case(folder)
                case_id, parts = spec.case_id, [spec.description, *spec.templates.values(),
                                                *(spec.solution or {}).values()]
            except (SpecError, OSError, UnicodeDecodeError):
                # Unreadable spec: still index its text files (a contamination check must not skip a case).
                case_id = folder.name
                parts = [t for t in read_tree(folder).values()]
            if any(fnmatch.fnmatch(case_id, pat) for pat in exclude):
                continue
            ids.append(case_id)
            texts.extend(parts)
    return texts, ids
