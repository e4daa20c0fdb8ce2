"""Exact and near-duplicate removal. Exact: a hash of the messages with whitespace collapsed. Near:
MinHash signatures of word shingles (``datasketch``) in an LSH index at the configured Jaccard
threshold; the first sample (in stage order) of a near-duplicate group is kept."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from ascend_cot.config import DedupConfig
from ascend_cot.sample import Sample


def _normal(sample: Sample) -> str:
    return "\n".join(f"{m['role']}: {' '.join(m['content'].split())}" for m in sample.messages)


def deduplicate(samples: Sequence[Sample], cfg: DedupConfig) -> tuple[list[Sample], list[tuple[Sample, str, str]]]:
    """(kept, removed) with removed as (sample, reason, the id of the sample it duplicates)."""
    kept: list[Sample] = []
    removed: list[tuple[Sample, str, str]] = []
    seen: dict[str, str] = {}
    lsh = None
    if cfg.near_threshold > 0:
        from datasketch import MinHash, MinHashLSH

        lsh = MinHashLSH(threshold=cfg.near_threshold, num_perm=cfg.num_perm)
    for sample in samples:
        norm = _normal(sample)
        digest = hashlib.sha256(norm.encode()).hexdigest()
        if cfg.exact and digest in seen:
            removed.append((sample, "duplicate_exact", seen[digest]))
            continue
        seen.setdefault(digest, sample.id)
        if lsh is not None:
            words = norm.split()
            k = max(1, cfg.shingle)
            shingles = {" ".join(words[i:i + k]) for i in range(max(1, len(words) - k + 1))}
            mh = MinHash(num_perm=cfg.num_perm, seed=1)
            mh.update_batch([s.encode() for s in shingles])
            near = lsh.query(mh)
            if near:
                removed.append((sample, "duplicate_near", sorted(near)[0]))
                continue
            key = f"{sample.id}:{len(kept)}"
            lsh.insert(key, mh)
        kept.append(sample)
    return kept, removed
