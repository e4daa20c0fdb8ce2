"""The corpus's records: a training :class:`Sample` (one row of ``data.jsonl`` and of the dataset) and
a :class:`Drop` (a candidate that was not kept, with the reason; one row of ``drops.jsonl``).

Columns of a sample: ``messages`` (chat format; the assistant turn is ``<think>reasoning</think>``
followed by the answer), ``source`` (docs, kernel, project, general, api_debug, kernel_debug),
``origin`` (where it came from: a document chunk, a project file, a case scenario, ...), ``task``
(the benchmark case id it is about, or ""), ``verified`` (passed / built / failed / not_applicable)
and ``provenance`` (teacher, prompt hash, config hash).
"""

from __future__ import annotations

import enum
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

SOURCES = ("docs", "kernel", "project", "general", "api_debug", "kernel_debug")
STAGES = ("docs", "kernel", "project", "general", "errors")


class Verified(enum.StrEnum):
    PASSED = "passed"                  # built and passed the case's reference checks
    BUILT = "built"                    # a complete op project that builds; no case to run it against
    FAILED = "failed"                  # does not build, or builds and fails its case
    NOT_APPLICABLE = "not_applicable"  # the answer holds no complete op project


@dataclass(frozen=True)
class Provenance:
    teacher: str                       # model identity ("" for samples no teacher wrote)
    prompt_hash: str                   # sha256 of the teacher prompt(s) the sample came from
    config_hash: str

    def to_json(self) -> dict[str, str]:
        return {"teacher": self.teacher, "prompt_hash": self.prompt_hash, "config_hash": self.config_hash}


@dataclass(frozen=True)
class Sample:
    messages: tuple[Mapping[str, str], ...]
    source: str
    origin: str
    task: str
    verified: Verified
    provenance: Provenance
    note: str = ""                     # verification message (kept in data.jsonl, not in the dataset)

    @property
    def id(self) -> str:
        canonical = json.dumps([[m["role"], m["content"]] for m in self.messages], ensure_ascii=False)
        return hashlib.sha256(f"{self.source}\0{self.origin}\0{canonical}".encode()).hexdigest()[:16]

    def text(self) -> str:
        return "\n".join(m["content"] for m in self.messages)

    def assistant(self) -> str:
        return next((m["content"] for m in reversed(self.messages) if m["role"] == "assistant"), "")

    def to_row(self) -> dict[str, Any]:
        return {"id": self.id, "messages": [{"role": m["role"], "content": m["content"]} for m in self.messages],
                "source": self.source, "origin": self.origin, "task": self.task, "verified": self.verified.value,
                "provenance": self.provenance.to_json()}

    def to_json(self) -> dict[str, Any]:
        return {**self.to_row(), "note": self.note}

    @classmethod
    def from_json(cls, row: Mapping[str, Any]) -> Sample:
        p = row.get("provenance") or {}
        return cls(messages=tuple({"role": m["role"], "content": m["content"]} for m in row["messages"]),
                   source=row["source"], origin=row.get("origin", ""), task=row.get("task", ""),
                   verified=Verified(row.get("verified", "not_applicable")),
                   provenance=Provenance(p.get("teacher", ""), p.get("prompt_hash", ""), p.get("config_hash", "")),
                   note=row.get("note", ""))


@dataclass(frozen=True)
class Drop:
    stage: str
    source: str
    reason: str                        # a short key: malformed_teacher_output, verification_failed, ...
    origin: str = ""
    task: str = ""
    detail: str = ""                   # one line: why
    text: str = ""                     # the teacher's raw answer, when there is one (nothing is lost)
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"stage": self.stage, "source": self.source, "reason": self.reason, "origin": self.origin,
                "task": self.task, "detail": self.detail, "text": self.text, "extra": dict(self.extra)}

    @classmethod
    def from_json(cls, row: Mapping[str, Any]) -> Drop:
        return cls(stage=row["stage"], source=row["source"], reason=row["reason"], origin=row.get("origin", ""),
                   task=row.get("task", ""), detail=row.get("detail", ""), text=row.get("text", ""),
                   extra=row.get("extra") or {})


def assistant_turn(reasoning: str, answer: str) -> str:
    """The assistant content of every sample: ``<think>reasoning</think>`` then the answer."""
    return f"<think>\n{reasoning.strip()}\n</think>\n\n{answer.strip()}"


def chat(system: str | None, user: str, reasoning: str, answer: str) -> tuple[dict[str, str], ...]:
    turns: list[dict[str, str]] = []
    if system:
        turns.append({"role": "system", "content": system})
    turns.append({"role": "user", "content": user})
    turns.append({"role": "assistant", "content": assistant_turn(reasoning, answer)})
    return tuple(turns)


def prompt_digest(prompts: Sequence[Sequence[Mapping[str, str]]]) -> str:
    """One hash over the teacher prompts a sample came from (in order)."""
    from npukernelbench.prompt import prompt_hash

    return hashlib.sha256("\n".join(prompt_hash(p) for p in prompts).encode()).hexdigest()
