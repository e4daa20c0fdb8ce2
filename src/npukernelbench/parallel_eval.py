"""Evaluating many samples, in this process or in ``jobs`` worker processes (``npukb evaluate -j``).

Each worker holds one toolchain and one baseline cache (expert-solution times), like a
pytest-xdist worker. Results come back as they finish. A sample without an outcome (an
:class:`~npukernelbench.infrastructure.InfrastructureError` that persisted through its retry, or a
broken case reference) comes back as a one-line cause instead of a result.

Interrupts (Ctrl-C signals the whole process group): the main process gets the KeyboardInterrupt and
stops the workers; a worker never prints a traceback: SIGINT or SIGTERM unwinds the sample it is
evaluating (the sandbox kills the candidate's processes) or, when it is idle, ends it at once.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any

from npukernelbench.generators.base import Completion
from npukernelbench.options import RunOptions
from npukernelbench.result import SampleResult
from npukernelbench.spec import TaskSpec

Outcome = SampleResult | str
_WORKER: dict[str, Any] = {}


def _start(toolchain: str, worker: bool = False) -> None:
    from npukernelbench.evaluate import BaselineCache
    from npukernelbench.options import load_toolchain

    if worker:
        _WORKER["worker"] = True
        signal.signal(signal.SIGINT, _stop_worker)
        signal.signal(signal.SIGTERM, _stop_worker)
        sys.unraisablehook = _unraisable
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})     # blocked while it started (see below)
    _WORKER["toolchain"] = load_toolchain(toolchain)
    _WORKER["baseline"] = BaselineCache()


def _stop_worker(signum: int, frame: object) -> None:  # noqa: ARG001
    """A worker's SIGINT/SIGTERM: unwind the sample being evaluated (once: Ctrl-C's SIGINT and the main
    process's SIGTERM both come), or end an idle worker quietly."""
    if not _WORKER.get("busy"):
        os._exit(128 + signum)
    if not _WORKER.get("stopping"):
        _WORKER["stopping"] = True
        raise KeyboardInterrupt


def _unraisable(args: Any) -> None:
    """A worker's interrupt that landed in a finalizer (``__del__``, a weakref callback) is swallowed
    there and cannot unwind the sample: end the worker at once, without the "Exception ignored" report
    (the sandbox's children die with it: PR_SET_PDEATHSIG)."""
    if isinstance(args.exc_value, KeyboardInterrupt):
        os._exit(128 + signal.SIGINT)
    sys.__unraisablehook__(args)


def _one(spec: TaskSpec, completion: Completion, options: RunOptions) -> Outcome:
    from npukernelbench.evaluate import evaluate
    from npukernelbench.infrastructure import InfrastructureError
    from npukernelbench.reference_runner import CaseReferenceError

    try:
        _WORKER["busy"] = True
        return evaluate(spec, completion, _WORKER["toolchain"], options.eval_options(), _WORKER["baseline"])
    except InfrastructureError as exc:
        return f"infrastructure failure (not the kernel's fault): {exc.cause}"
    except CaseReferenceError as exc:
        return f"the case's reference failed (a bug in the case, not the kernel): {exc}"
    except KeyboardInterrupt:
        if not _WORKER.get("worker"):
            raise                           # evaluating in the main process: the run itself is interrupted
        return "the worker process was interrupted (SIGINT/SIGTERM; not the kernel's fault)"
    finally:
        _WORKER["busy"] = False


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Interrupted (or abandoned by the caller): drop the queued samples and end the workers now, each
    unwinding the sample it evaluates; one that does not end within 10 s is killed."""
    pool.shutdown(wait=False, cancel_futures=True)
    workers = multiprocessing.active_children()
    for process in workers:
        process.terminate()
    for process in workers:
        process.join(timeout=10)
        if process.is_alive():
            process.kill()
            process.join(timeout=5)


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
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(work)), mp_context=context, initializer=_start,
                               initargs=(options.toolchain, True))
    completed = False
    try:
        # the workers start (on submit) with SIGINT blocked: a Ctrl-C during their start-up, before
        # _start installs the handler, stays pending until then instead of printing a traceback
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            pending = {pool.submit(_one, spec, completion, options): (spec, completion) for spec, completion in work}
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                spec, completion = pending.pop(future)
                yield spec, completion, future.result()
        completed = True
    finally:
        if not completed:                   # KeyboardInterrupt here or in the caller (who closes the generator)
            _stop_workers(pool)
        pool.shutdown(wait=True, cancel_futures=True)
