"""Execution rewards: a completion's reward is what ``npukernelbench``'s one evaluation pipeline
(``npukernelbench.evaluate.evaluate``) says of it, shaped by verdict.

=====================================  ==========================================================
verdict (``SampleResult.status``)      reward (:class:`RewardShaping` defaults)
=====================================  ==========================================================
parse_error, rejected (static checks)  ``parse_error`` = -1.0
build_error                            ``build_error`` = -0.5
runtime_error, timeout                 ``runtime_error`` = 0.0
wrong                                  ``wrong`` = 0.25
passed                                 ``passed`` + min(``speedup_cap``, ``speedup_weight`` x
                                       max(0, speedup - 1)) = 1.0 + at most 1.0; the bonus only
                                       for a measured or estimated speedup the speed audit does
                                       not flag ``suspect``
infrastructure failure                 **None**: no reward (the sample leaves the batch)
=====================================  ==========================================================

An infrastructure failure (our machinery failed: :class:`npukernelbench.infrastructure.InfrastructureError`
after its retry) and a broken case reference say nothing about the completion: they are never a
zero reward. :func:`reward_of` and :func:`score_completions` give None for them; trl's
``GRPOTrainer`` (1.16) keeps a None reward out of the group baseline and gives the sample a zero
advantage. :func:`compute_score` (verl) cannot return "no reward": it raises
:class:`RewardUnavailable` instead of making a score up.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from npukernelbench.result import SampleResult, Status

__all__ = ["RewardShaping", "RewardUnavailable", "compute_score", "load_task", "reward_of", "score_completions"]


class RewardUnavailable(RuntimeError):
    """The pipeline could not judge the completion (infrastructure failure or a broken case)."""


@dataclass(frozen=True)
class RewardShaping:
    """The reward of each verdict of the pipeline (see the module's table)."""

    parse_error: float = -1.0      # no usable source files, or refused by the static checks
    build_error: float = -0.5
    runtime_error: float = 0.0     # crash, hardware-illegal action, timeout
    wrong: float = 0.25            # builds and runs, output differs from the reference
    passed: float = 1.0
    speedup_weight: float = 0.5    # bonus per unit of speedup above 1 (passed, unsuspect samples only)
    speedup_cap: float = 1.0       # the bonus never exceeds this

    def __post_init__(self) -> None:
        if self.speedup_weight < 0 or self.speedup_cap < 0:
            raise ValueError("reward: speedup_weight and speedup_cap must be >= 0")


_BY_STATUS = {Status.PARSE_ERROR: "parse_error", Status.REJECTED: "parse_error", Status.BUILD_ERROR: "build_error",
              Status.RUNTIME_ERROR: "runtime_error", Status.TIMEOUT: "runtime_error", Status.WRONG: "wrong",
              Status.PASSED: "passed"}


def speedup_bonus(result: SampleResult, shaping: RewardShaping) -> float:
    """The capped speed bonus of a passed sample; 0 without a speedup or when the audit flags it."""
    if result.status is not Status.PASSED or result.suspect or result.speedup is None:
        return 0.0
    return min(shaping.speedup_cap, shaping.speedup_weight * max(0.0, float(result.speedup) - 1.0))


def reward_of(result: SampleResult | str | None, shaping: RewardShaping | None = None) -> float | None:
    """The shaped reward of one pipeline outcome; None for no outcome (an infrastructure failure or a
    broken case: ``parallel_eval`` gives its cause as a string, callers of ``evaluate`` None)."""
    if not isinstance(result, SampleResult):
        return None
    shaping = shaping or RewardShaping()
    base = getattr(shaping, _BY_STATUS[result.status])
    return base + speedup_bonus(result, shaping)


@dataclass(frozen=True)
class Scored:
    """One completion's reward and the outcome it came from (a SampleResult, or the cause of no outcome)."""

    reward: float | None
    outcome: SampleResult | str


def score_completions(items: Sequence[tuple[Any, str]], *, shaping: RewardShaping | None = None,
                      toolchain: str = "ascendc-sim", shapes: str = "static", shape_examples: int = 4,
                      scratch: Path | None = None, jobs: int = 1, data_seed: int | None = None) -> list[Scored]:
    """Evaluate (TaskSpec, completion text) pairs with the pipeline, in ``jobs`` worker processes
    (``npukernelbench.parallel_eval``: its timeouts, the toolchain's build cache), in input order."""
    import tempfile

    from npukernelbench.generators.base import Completion
    from npukernelbench.options import RunOptions
    from npukernelbench.parallel_eval import evaluate_all

    if not items:
        return []
    shaping = shaping or RewardShaping()
    with tempfile.TemporaryDirectory(prefix="npukb-reward-", dir=scratch) as out:
        # a reward needs the verdict, not upstream's case count: a failing sample stops at its first failure
        options = RunOptions(toolchain=toolchain, shapes=shapes, shape_examples=shape_examples, case_score=False,
                             out=Path(out)).with_data_seed(data_seed)
        work = [(spec, Completion(task=spec.case_id, sample=i, text=text)) for i, (spec, text) in enumerate(items)]
        scored: list[Scored | None] = [None] * len(work)
        for _, completion, outcome in evaluate_all(work, options, jobs=jobs):
            scored[completion.sample] = Scored(reward_of(outcome, shaping), outcome)
    return [s for s in scored if s is not None]


@functools.lru_cache(maxsize=256)
def load_task(ground_truth: str) -> Any:
    """A TaskSpec from a case folder path or ``ROOT::case_id`` (a case root and an id under it)."""
    from npukernelbench.cases import discover, load_case

    root, sep, case_id = ground_truth.partition("::")
    if not sep:
        if not Path(root).is_dir():
            raise ValueError(f"ground truth {ground_truth!r}: not a case folder (or ROOT::case_id)")
        return load_case(Path(root))
    found = [s for s in discover([Path(root)]) if s.case_id == case_id]
    if not found:
        raise ValueError(f"ground truth {ground_truth!r}: no case {case_id!r} under {root}")
    return found[0]


@functools.lru_cache(maxsize=4)
def _toolchain(name: str) -> Any:
    from npukernelbench.options import load_toolchain

    toolchain = load_toolchain(name)
    reason = toolchain.unavailable_reason()
    if reason:
        raise RewardUnavailable(f"toolchain {name!r} cannot run here: {reason}")
    return toolchain


def compute_score(data_source: str, solution_str: str, ground_truth: str,
                  extra_info: Mapping[str, Any] | None = None) -> float:
    """verl's custom reward function (``custom_reward_function.name: compute_score``).

    ``ground_truth``: the case folder, or ``ROOT::case_id``. ``extra_info`` may set ``toolchain``
    (default ascendc-sim), ``shapes`` (static), ``shape_examples`` (4) and any :class:`RewardShaping`
    field. An infrastructure failure or a broken case raises :class:`RewardUnavailable`: verl has no
    "no reward" value, and a made-up score would teach the policy something false.
    """
    from npukernelbench.evaluate import EvalOptions, evaluate
    from npukernelbench.generators.base import Completion
    from npukernelbench.infrastructure import InfrastructureError
    from npukernelbench.reference_runner import CaseReferenceError

    extra = dict(extra_info or {})
    spec = load_task(str(ground_truth))
    names = {f.name for f in dataclasses.fields(RewardShaping)}
    shaping = RewardShaping(**{k: float(v) for k, v in extra.items() if k in names})
    options = EvalOptions(shapes=str(extra.get("shapes", "static")), shape_examples=int(extra.get("shape_examples", 4)),
                          case_score=False)
    toolchain = _toolchain(str(extra.get("toolchain", "ascendc-sim")))
    try:
        result = evaluate(spec, Completion(task=spec.case_id, sample=0, text=solution_str), toolchain, options,
                          _baselines())
    except InfrastructureError as exc:
        raise RewardUnavailable(f"{data_source} {spec.case_id}: no reward, the evaluation infrastructure failed "
                                f"(not the completion's fault): {exc.cause}") from exc
    except CaseReferenceError as exc:
        raise RewardUnavailable(f"{data_source} {spec.case_id}: no reward, the case's reference failed: {exc}") from exc
    reward = reward_of(result, shaping)
    assert reward is not None
    return reward


@functools.lru_cache(maxsize=1)
def _baselines() -> Any:
    from npukernelbench.evaluate import BaselineCache

    return BaselineCache()
