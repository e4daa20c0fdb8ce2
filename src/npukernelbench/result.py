"""The one status enum and the per-sample result record (one line of results.jsonl)."""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, field
from typing import Any


class Status(enum.StrEnum):
    PASSED = "passed"
    WRONG = "wrong"                  # builds and runs, output differs from the reference
    BUILD_ERROR = "build_error"
    RUNTIME_ERROR = "runtime_error"  # crash, hardware-illegal action, non-zero exit
    TIMEOUT = "timeout"
    PARSE_ERROR = "parse_error"      # completion text has no usable source files
    REJECTED = "rejected"            # static checks refused the sources (rule named in message)


class Stage(enum.StrEnum):
    """How far a sample got, layer by layer (the last layer it reached)."""

    COLLECTED = "collected"          # the task loaded; the completion parsed and passed the static checks
    HOST_BUILT = "host_built"        # the host code compiled and registered its OpDef
    KERNEL_BUILT = "kernel_built"    # the whole project built
    TILING_RAN = "tiling_ran"        # the tiling function ran and the kernel was launched
    RAN_CLEANLY = "ran_cleanly"      # the kernel ran to the end without a violation
    MATCHED = "matched"              # every output matched the reference

    @classmethod
    def order(cls) -> tuple[Stage, ...]:
        return tuple(cls)


class ErrorCategory(enum.StrEnum):
    """The paper's six compile-error classes, plus other."""

    API_SIGNATURE = "api_signature"
    DTYPE_CONVERSION = "dtype_conversion"
    SCOPE_LIFETIME = "scope_lifetime"
    MEMORY_OBJECT = "memory_object"
    SYNTAX_STRUCTURE = "syntax_structure"
    MACRO_PREPROCESSING = "macro_preprocessing"
    OTHER = "other"


@dataclass(frozen=True)
class SampleResult:
    task: str                        # case id, e.g. level1/math/add_custom
    level: int
    category: str
    sample: int
    status: Status
    error_category: ErrorCategory | None = None
    message: str = ""
    time_us: float | None = None          # candidate kernel time (estimated on ascendc-sim)
    baseline_time_us: float | None = None
    speedup: float | None = None
    speed_kind: str | None = None         # "estimated" (simulator cost model) or "measured"
    suspect: bool = False                 # speedup above the audit threshold
    shapes_checked: int = 0
    seconds: float = 0.0                  # wall time spent evaluating this sample
    tokens: int | None = None
    details: dict[str, Any] = field(default_factory=dict)
    stage: Stage | None = None            # the last layer reached (None: not even collected)
    turn: int | None = None               # multi-turn repair (--npukb-turns > 1): the turn; None: a one-turn run

    def __post_init__(self) -> None:
        # What a result stores becomes training data and prompts: bounded, without the harness's
        # environment or paths outside the candidate's build (npukernelbench.scrub).
        from npukernelbench.scrub import scrub, scrub_value

        object.__setattr__(self, "message", scrub(self.message))
        object.__setattr__(self, "details", scrub_value(self.details))

    @property
    def built(self) -> bool:
        return self.status in (Status.PASSED, Status.WRONG, Status.RUNTIME_ERROR, Status.TIMEOUT)

    @property
    def passed(self) -> bool:
        return self.status is Status.PASSED

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["status"] = self.status.value
        data["error_category"] = self.error_category.value if self.error_category else None
        data["stage"] = self.stage.value if self.stage else None
        if self.turn is None:                 # one-turn runs write exactly what they always wrote
            del data["turn"]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SampleResult:
        data = dict(data)
        data["status"] = Status(data["status"])
        cat = data.get("error_category")
        data["error_category"] = ErrorCategory(cat) if cat else None
        stage = data.get("stage")
        data["stage"] = Stage(stage) if stage else None
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in data.items() if k in known})
