"""Execution rewards evaluated by Ray actors: a pool of evaluation workers on a Ray cluster that any
trainer calls (trl, verl, a loop of your own).

``RayRewardPool(address=..., workers=N, cases=[...]).score(completions, task_ids)`` gives one reward
per completion with the contract of :func:`kernelgen_lm.rewards.score_completions`: the shaped reward
of the verdict of ``npukernelbench``'s one evaluation pipeline, or **None** when our machinery could
not judge the completion (never 0). Each actor (a :class:`RewardWorker`) evaluates with
``score_completions`` itself, so the pipeline, its static checks, its sandbox (the candidate's build
and run are confined child processes, never the actor's Python), its own timeouts (a kernel that
runs too long is a ``timeout`` verdict) and the toolchain's build cache are the local ones.

Distribution is Ray's: ``ray.util.ActorPool`` hands one evaluation at a time to an idle actor. On
top of the pipeline's timeouts the pool has a backstop, ``timeout`` seconds per evaluation from the
moment an actor takes it: an evaluation still running then is a stuck worker, which the pool kills
(Ray restarts it: ``max_restarts``). A killed or crashed actor (OOM killer, segfault in the
machinery) costs the samples it was evaluating their reward (None, with the cause in
:attr:`RayRewardPool.last` and in the log), never the batch.

The case folders must be readable at the same paths on every node (a shared filesystem, or the
same checkout everywhere), like the Python environment (the workers import ``kernelgen_lm`` and
``npukernelbench``; ``runtime_env`` passes Ray's runtime environment to the actors).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kernelgen_lm.rewards import RewardShaping, Scored

__all__ = ["RayRewardPool", "RewardWorker", "ray_unavailable_reason"]


def ray_unavailable_reason() -> str | None:
    """Why the Ray backend cannot be used here (None: it can)."""
    import importlib.util

    if importlib.util.find_spec("ray") is None:
        return "Ray is not installed (pip install -e .[ray])"
    return None


class RewardWorker:
    """One evaluation worker (a Ray actor; plain Python, so it also runs without Ray): the cases of
    ``cases``, one toolchain, the shaping; :meth:`evaluate` scores one completion."""

    def __init__(self, cases: Sequence[str], toolchain: str, shaping: RewardShaping, shapes: str,
                 shape_examples: int) -> None:
        from npukernelbench.cases import discover
        from npukernelbench.options import load_toolchain

        self.specs = {s.case_id: s for s in discover([Path(c) for c in cases])}
        if not self.specs:
            raise ValueError(f"no benchmark cases under {', '.join(map(str, cases))} (on this node)")
        reason = load_toolchain(toolchain).unavailable_reason()
        if reason:
            raise RuntimeError(f"toolchain {toolchain!r} cannot run on this node: {reason}")
        self.toolchain, self.shaping, self.shapes = toolchain, shaping, shapes
        self.shape_examples = shape_examples

    def tasks(self) -> list[str]:
        return sorted(self.specs)

    def evaluate(self, task_id: str, text: str, data_seed: int | None = None) -> Scored:
        from kernelgen_lm.rewards import score_completions

        [scored] = score_completions([(self.specs[task_id], text)], shaping=self.shaping, toolchain=self.toolchain,
                                     shapes=self.shapes, shape_examples=self.shape_examples, jobs=1,
                                     data_seed=data_seed)
        return scored


class RayRewardPool:
    """``workers`` :class:`RewardWorker` actors on the Ray cluster at ``address`` ("" or None: the
    cluster this process is already connected to, else a new local one; "auto": the running one).

    ``timeout`` (an attribute; it may change between batches): seconds one evaluation may take on an
    actor before the pool kills that actor (the pipeline's own timeouts come first and give a
    verdict). ``max_restarts``: how often Ray restarts a dead actor. ``num_cpus``: CPUs Ray reserves
    per actor (the build and run are its children). ``start_timeout``: seconds the actors may take to
    start (or to come back after a restart).
    """

    def __init__(self, address: str | None = None, *, workers: int = 2, cases: Sequence[Path | str] = (),
                 toolchain: str = "ascendc-sim", shaping: RewardShaping | None = None, shapes: str = "static",
                 shape_examples: int = 4, timeout: float = 600.0, num_cpus: float = 1.0, max_restarts: int = 3,
                 data_seed: int | None = None, runtime_env: dict[str, Any] | None = None,
                 start_timeout: float = 120.0, log: Any = None) -> None:
        reason = ray_unavailable_reason()
        if reason:
            raise RuntimeError(f"reward_backend ray: {reason}")
        if workers < 1:
            raise ValueError("RayRewardPool: workers must be at least 1")
        if timeout <= 0:
            raise ValueError("RayRewardPool: timeout must be > 0 seconds")
        if not cases:
            raise ValueError("RayRewardPool: cases: at least one case root or case folder")
        import ray

        self.log = log or (lambda line: print(line, file=sys.stderr, flush=True))
        self.timeout, self.start_timeout = float(timeout), float(start_timeout)
        self._owns_ray = not ray.is_initialized()
        if self._owns_ray:
            ray.init(address=address or None, runtime_env=runtime_env, log_to_driver=False)
        actor_class = ray.remote(num_cpus=num_cpus, max_restarts=max_restarts, max_task_retries=0)(RewardWorker)
        options = {"runtime_env": runtime_env} if runtime_env and not self._owns_ray else {}
        self.data_seed = data_seed        # None: a fresh one per batch (scored), as the local backend draws
        args = ([str(Path(c).resolve()) for c in cases], toolchain, shaping or RewardShaping(), shapes,
                shape_examples)
        self.actors = [actor_class.options(**options).remote(*args) for _ in range(workers)]
        self.last: list[Scored] = []
        try:
            known = ray.get([a.tasks.remote() for a in self.actors], timeout=start_timeout)
        except Exception as exc:
            self.close()
            raise RuntimeError(f"reward_backend ray: the evaluation workers did not start: {_cause(exc)}") from None
        self.tasks = frozenset(known[0])

    def score(self, completions: Sequence[str], task_ids: Sequence[str]) -> list[float | None]:
        """One reward per completion (None: no reward, the cause in :attr:`last`), in input order."""
        return [s.reward for s in self.scored(completions, task_ids)]

    def scored(self, completions: Sequence[str], task_ids: Sequence[str]) -> list[Scored]:
        """One :class:`~kernelgen_lm.rewards.Scored` per completion, in input order."""
        import ray
        from ray.util import ActorPool

        if len(completions) != len(task_ids):
            raise ValueError(f"{len(completions)} completions but {len(task_ids)} task ids")
        unknown = sorted(set(task_ids) - self.tasks)
        if unknown:
            raise ValueError(f"task {unknown[0]!r} is not one of the pool's cases")
        from npukernelbench.data_seed import fresh_data_seed

        started: dict[int, float] = {}
        taken_by: dict[int, Any] = {}
        # one input draw per batch, the same on every actor, unknown to the policy in advance (a fixed draw
        # over a training run would let it learn the outputs instead of the kernel)
        seed = self.data_seed if self.data_seed is not None else fresh_data_seed()

        def take(actor: Any, item: tuple[int, str, str]) -> Any:   # called by the pool when an actor takes it
            started[item[0]], taken_by[item[0]] = time.monotonic(), actor
            return actor.evaluate.remote(item[1], item[2], seed)

        pool = ActorPool(list(self.actors))
        for i, (task, text) in enumerate(zip(task_ids, completions, strict=True)):
            pool.submit(take, (i, task, text))
        out: list[Scored] = []
        for i, task in enumerate(task_ids):       # in order: item i has been taken once items < i came back
            if i not in started:                  # every actor of the pool died (Ray gave up restarting them)
                cause = "no live Ray worker was left to take it"
                out.append(Scored(None, f"infrastructure failure (not the kernel's fault): {cause}"))
                self.log(f"reward pool: {task}[{i}]: no reward: {cause}")
                continue
            try:
                out.append(pool.get_next(timeout=max(0.0, started[i] + self.timeout - time.monotonic())))
                continue
            except TimeoutError:
                ray.kill(taken_by[i], no_restart=False)   # a stuck worker: Ray restarts it
                cause = f"the evaluation took over {self.timeout:g} s on a Ray worker (killed and restarted)"
                self._wait_restarted(taken_by[i])         # before the pool hands it the next evaluation
                try:                              # the killed task's error; frees its place in the pool
                    pool.get_next(timeout=30, ignore_if_timedout=True)
                except Exception:  # noqa: BLE001, S110 - any error of the killed task: its cause is the timeout
                    pass
            except Exception as exc:  # noqa: BLE001 - the actor died or the cluster failed: no outcome
                cause = f"the Ray worker failed: {_cause(exc)}"
                self._wait_restarted(taken_by[i])
            out.append(Scored(None, f"infrastructure failure (not the kernel's fault): {cause}"))
            self.log(f"reward pool: {task}[{i}]: no reward: {cause}")
        self.last = out
        return out

    def _wait_restarted(self, actor: Any) -> None:
        """Wait (up to ``start_timeout``) until Ray has restarted a killed or crashed actor; one that is
        dead for good (its restarts used up) leaves the pool, with a log line."""
        import ray

        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline:
            try:
                ray.get(actor.tasks.remote(), timeout=max(1.0, deadline - time.monotonic()))
                return
            except ray.exceptions.ActorDiedError as exc:
                self.actors = [a for a in self.actors if a is not actor]
                self.log(f"reward pool: a Ray worker is gone for good ({_cause(exc)}); "
                         f"{len(self.actors)} left")
                return
            except (ray.exceptions.RayActorError, ray.exceptions.GetTimeoutError):
                time.sleep(0.2)

    def close(self) -> None:
        """Kill the actors; disconnect from Ray when the pool connected."""
        import ray

        for actor in self.actors:
            try:
                ray.kill(actor, no_restart=True)
            except Exception:  # noqa: BLE001, S110 - already gone
                pass
        self.actors = []
        if self._owns_ray:
            ray.shutdown()

    def __enter__(self) -> RayRewardPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _cause(exc: BaseException) -> str:
    """The first line of a Ray error and, when it carries a remote traceback, its last (the remote error)."""
    lines = [line.strip() for line in str(exc).strip().splitlines() if line.strip()]
    if not lines:
        return type(exc).__name__
    return f"{type(exc).__name__}: {lines[0]}" + (f" ... {lines[-1]}" if len(lines) > 1 else "")
