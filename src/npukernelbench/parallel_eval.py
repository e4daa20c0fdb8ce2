"""Evaluating many samples, in this process or in ``jobs`` worker processes (``npukb evaluate -j``).

Each worker holds one toolchain and one baseline cache (expert-solution times), like a
pytest-xdist worker. Results come back as they finish. A sample without an outcome (an
:class:`~npukernelbench.infrastructure.InfrastructureError` that persisted through its retry, or a
broken case reference) comes back as a one-line cause instead of a result.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any

from npukernelbench.generators.base import Completion
from npukernelbench.options import RunOptions
from npukernelbench.result import SampleResult
from npukernelbench.spec import TaskSpec

Outcome = SampleResult | str
_WORKER: dict[str, Any] = {}


def _start(toolchain: str) -> None:
    from npukernelbench.evaluate import BaselineCache
    from npukernelbench.options import load_toolchain

    _WORKER["toolchain"] = load_toolchain(toolchain)
    _WORKER["baseline"] = BaselineCache()


def _one(spec: TaskSpec, completion: Completion, options: RunOptions) -> Outcome:
    from npukernelbench.evaluate import evaluate
    from npukernelbench.infrastructure import InfrastructureError
    from npukernelbench.reference_runner import CaseReferenceError

    try:
        return evaluate(spec, completion, _WORKER["toolchain"], options.eval_options(), _WORKER["baseline"])
    except InfrastructureError as exc:
        return f"infrastructure failure (not the kernel's fault): {exc.cause}"
    except CaseReferenceError as exc:
        return f"the case's reference failed (a bug in the case, not the kernel): {exc}"


def evaluate_all(work: Sequence[tuple[TaskSpec, Completion]], options: RunOptions,
                 jobs: int = 1) -> Iterator[tuple[TaskSpec, Completion, Outcome]]:
    """(spec, completion, result or cause) for every item of ``work``, in the order they finish."""
    if jobs <= 1 or len(work) <= 1:
        _start(options.toolchain)
        for spec, completion in work:
            yield spec, completion, _one(spec, completion, options)
        return
    # spawn: no fork of a process that may hold threads (generation, progress bars)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=min(jobs, len(work)), mp_context=context, initializer=_start,
                             initargs=(options.toolchain,)) as pool:
        pending = {pool.submit(_one, spec, completion, options): (spec, completion) for spec, completion in work}
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                spec, completion = pending.pop(future)
                yield spec, completion, future.result()
