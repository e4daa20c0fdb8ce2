"""Generation modes (``--npukb-mode``): what the model is asked for and how its answer is read.

- ``project`` (the default): today's prompt (``prompt.py``); the model writes the whole operator project.
- ``kernel-only``: upstream NPUKernelBench's default mode, static shape. Every CSV row of a task is its
  own prompt and is checked on that row only; the model writes only ``op_kernel/<kernel>.cpp`` (a local
  ``TilingDataDef``, no ``GET_TILING_DATA``, the entry's parameters end at ``workspace``) inside a
  ``<kernel_impl>`` block, and the host side is the task's question template.
- ``full``: upstream's full mode, static shape: one prompt per row too, the model writes
  ``op_host/<k>_tiling.h``, ``op_host/<k>.cpp`` and ``op_kernel/<k>.cpp``, each after a separator line
  of ``=`` signs naming its path.

A task of an upstream mode is one :class:`~npukernelbench.spec.TaskSpec` per row (:func:`expand`):
its id is ``<task>#<case_id>`` (:func:`row_task_id`), its only case that row, its dynamic shapes off,
and ``TaskSpec.extra`` says the mode, the row and the task it comes from.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from npukernelbench.spec import TaskSpec

PROJECT = "project"
KERNEL_ONLY = "kernel-only"
FULL = "full"
MODES = (PROJECT, KERNEL_ONLY, FULL)
UPSTREAM_MODES = (KERNEL_ONLY, FULL)
UPSTREAM_SOC = "Ascend910_9392"     # the SoC (Ascend910_93 series) upstream's prompt names: these modes' default

# Upstream's sampling defaults (base_config.yaml), used in the upstream modes unless the user gives them.
UPSTREAM_TEMPERATURE = 0.7
UPSTREAM_MAX_TOKENS = 16384
PROJECT_TEMPERATURE = 0.8
PROJECT_MAX_TOKENS = 8192

MODE_KEY = "npukb_mode"
ROW_KEY = "npukb_case_id"           # the row's case_id, as the CSV writes it
TASK_KEY = "npukb_task"             # the task the row comes from
ROWS_KEY = "npukb_case_ids"         # every case_id of that task (to name an unknown one)
SEPARATOR = "#"


class ModeError(ValueError):
    """A task that the mode cannot ask for, or an unknown mode or case_id."""


def check_mode(mode: str) -> str:
    if mode not in MODES:
        raise ModeError(f"unknown generation mode {mode!r} (choose from {', '.join(MODES)})")
    return mode


def mode_of(spec: TaskSpec) -> str:
    """The generation mode ``spec`` was expanded for (``project`` for a task as loaded)."""
    return str(spec.extra.get(MODE_KEY, PROJECT))


def row_of(spec: TaskSpec) -> str | None:
    """The case_id of the one row an upstream-mode task is, or None."""
    value = spec.extra.get(ROW_KEY)
    return None if value is None else str(value)


def task_of(spec: TaskSpec) -> str:
    """The id of the task ``spec`` belongs to (itself in project mode)."""
    return str(spec.extra.get(TASK_KEY, spec.case_id))


def row_task_id(task: str, case_id: Any) -> str:
    """The id of one row of ``task`` in an upstream mode (completions, results and replay keys)."""
    return f"{task}{SEPARATOR}{str(case_id).strip()}"


def base_task_id(task: str) -> str:
    """The task a result's ``task`` id belongs to: ``<task>`` of a row id made by :func:`row_task_id`,
    else ``task`` itself (project-mode ids hold no separator)."""
    return task.rpartition(SEPARATOR)[0] if SEPARATOR in task else task


def case_ids(spec: TaskSpec) -> tuple[str, ...]:
    """The case_id of every static case of ``spec`` (its CSV rows); ModeError for a task without rows."""
    ids = []
    for case in spec.cases:
        if case.row is None or "case_id" not in case.row:
            raise ModeError(f"{spec.case_id}: the upstream generation modes need CSV rows with a case_id "
                            "(the public NPUKernelBench layout); this task's cases have none")
        ids.append(str(case.row["case_id"]).strip())
    return tuple(ids)


def expand(spec: TaskSpec, mode: str, only: str | None = None) -> list[TaskSpec]:
    """The tasks ``spec`` is in ``mode``: itself in project mode, one per row otherwise (only the row
    ``only`` when given; ModeError when it has no such case_id)."""
    check_mode(mode)
    if mode == PROJECT:
        return [spec]
    ids = case_ids(spec)
    if only is not None and str(only).strip() not in ids:
        raise ModeError(f"{spec.case_id} has no case_id {only!r} (its test_cases.csv has {', '.join(ids)})")
    out = []
    for case, cid in zip(spec.cases, ids, strict=True):
        if only is not None and cid != str(only).strip():
            continue
        extra = {**spec.extra, MODE_KEY: mode, ROW_KEY: cid, TASK_KEY: spec.case_id, ROWS_KEY: ids}
        out.append(dataclasses.replace(spec, case_id=row_task_id(spec.case_id, cid), cases=(case,),
                                       dynamic=dataclasses.replace(spec.dynamic, enabled=False), extra=extra))
    return out


def expand_all(specs: list[TaskSpec], mode: str) -> list[TaskSpec]:
    return [variant for spec in specs for variant in expand(spec, mode)]
