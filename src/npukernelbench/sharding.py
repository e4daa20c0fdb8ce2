"""Deterministic split of a run into N shards (``--npukb-shard K/N``), for job arrays: every task
goes to the shard given by a stable hash of its id, so the members of an array cover every selected
task exactly once whatever else is selected, and ``npukb report --out DIR SHARD_DIR...`` merges
their run directories into the summary of the whole run."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass


@dataclass(frozen=True)
class Shard:
    index: int       # 1..count
    count: int

    @classmethod
    def parse(cls, text: str) -> Shard:
        """``K/N`` with 1 <= K <= N (raises ValueError with the option's name)."""
        head, sep, tail = str(text).partition("/")
        if not sep or not head.strip().isdigit() or not tail.strip().isdigit():
            raise ValueError(f"--npukb-shard: expected K/N (shard K of N, e.g. 2/8), got {text!r}")
        index, count = int(head), int(tail)
        if count < 1 or not 1 <= index <= count:
            raise ValueError(f"--npukb-shard: K/N needs 1 <= K <= N, got {text!r}")
        return cls(index, count)

    def holds(self, task: str) -> bool:
        """Whether ``task`` (a case id such as ``level1/math/add_custom``) belongs to this shard."""
        digest = hashlib.sha256(task.encode("utf-8")).digest()
        return int.from_bytes(digest[:8], "big") % self.count == self.index - 1

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"
