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
its templates the layout's question templates, and ``TaskSpec.mode_row`` (a
:class:`~npukernelbench.spec.ModeRow`) says the mode, the row (as the prompt shows it) and the task it
comes from. The rows and question templates come from the task's layout
(``Layout.mode_row``, ``Layout.question_templates``): a public-layout task's CSV rows and ``question/``
files; a ``case.toml`` task's static cases (case_id = the case's index) and templates generated from it.
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

SEPARATOR = "#"


class ModeError(ValueError):
    """A task that the mode cannot ask for, or an unknown mode or case_id."""


def check_mode(mode: str) -> str:
    if mode not in MODES:
        raise ModeError(f"unknown generation mode {mode!r} (choose from {', '.join(MODES)})")
    return mode


def mode_of(spec: TaskSpec) -> str:
    """The generation mode ``spec`` was expanded for (``project`` for a task as loaded)."""
    return spec.mode_row.mode if spec.mode_row is not None else PROJECT


def row_of(spec: TaskSpec) -> str | None:
    """The case_id of the one row an upstream-mode task is, or None."""
    return spec.mode_row.case_id if spec.mode_row is not None else None


def task_of(spec: TaskSpec) -> str:
    """The id of the task ``spec`` belongs to (itself in project mode)."""
    return spec.mode_row.task if spec.mode_row is not None else spec.case_id


def row_data(spec: TaskSpec) -> dict[str, Any]:
    """The test-case row of an upstream-mode task as its prompt shows it (empty in project mode)."""
    return dict(spec.mode_row.row) if spec.mode_row is not None else {}


def row_task_id(task: str, case_id: Any) -> str:
    """The id of one row of ``task`` in an upstream mode (completions, results and replay keys)."""
    return f"{task}{SEPARATOR}{str(case_id).strip()}"


def mode_rows(spec: TaskSpec) -> tuple[dict[str, Any], ...]:
    """Every static case of ``spec`` as a row of the upstream modes (its layout's ``mode_row``); ModeError
    for a task whose layout has none (MultiKernelBench's) or one without static cases."""
    from npukernelbench.layouts import layout_of

    layout = layout_of(spec)
    rows = [layout.mode_row(spec, case) for case in spec.cases]
    if not rows or any(row is None or "case_id" not in row for row in rows):
        raise ModeError(f"{spec.case_id}: the upstream generation modes need static cases with a case_id (CSV rows "
                        f"of the public NPUKernelBench layout, or case.toml cases); this {layout.name} task has none")
    return tuple(dict(row) for row in rows if row is not None)


def base_task_id(task: str) -> str:
    """The task a result's ``task`` id belongs to: ``<task>`` of a row id made by :func:`row_task_id`,
    else ``task`` itself (project-mode ids hold no separator)."""
    return task.rpartition(SEPARATOR)[0] if SEPARATOR in task else task


def case_ids(spec: TaskSpec) -> tuple[str, ...]:
    """The case_id of every static case of ``spec``; ModeError for a task without them."""
    return tuple(str(row["case_id"]).strip() for row in mode_rows(spec))


def expand(spec: TaskSpec, mode: str, only: str | None = None) -> list[TaskSpec]:
    """The tasks ``spec`` is in ``mode``: itself in project mode, one per row otherwise (only the row
    ``only`` when given; ModeError when it has no such case_id)."""
    check_mode(mode)
    if mode == PROJECT:
        return [spec]
    from npukernelbench.layouts import layout_of
    from npukernelbench.spec import ModeRow

    rows = mode_rows(spec)
    ids = tuple(str(row["case_id"]).strip() for row in rows)
    if only is not None and str(only).strip() not in ids:
        raise ModeError(f"{spec.case_id} has no case_id {only!r} (its case_ids: {', '.join(ids)})")
    templates = dict(layout_of(spec).question_templates(spec))
    out = []
    for case, row, cid in zip(spec.cases, rows, ids, strict=True):
        if only is not None and cid != str(only).strip():
            continue
        mode_row = ModeRow(mode=mode, case_id=cid, task=spec.case_id, case_ids=ids, row=row)
        out.append(dataclasses.replace(spec, case_id=row_task_id(spec.case_id, cid), cases=(case,), templates=templates,
                                       dynamic=dataclasses.replace(spec.dynamic, enabled=False), mode_row=mode_row))
    return out


def expand_all(specs: list[TaskSpec], mode: str) -> list[TaskSpec]:
    return [variant for spec in specs for variant in expand(spec, mode)]


def task_soc(spec: TaskSpec, chosen: str | None = None) -> str | None:
    """The SoC profile ``spec`` is checked and prompted on: ``chosen`` (``--npukb-soc``) when given; in
    an upstream generation mode (kernel-only, full), the SoC upstream's prompt names
    (:data:`UPSTREAM_SOC`); else its layout's ``default_soc`` (None, the toolchain's default, for a
    layout that names none)."""
    from npukernelbench.layouts import layout_of

    if chosen is not None:
        return chosen
    if mode_of(spec) != PROJECT:
        return UPSTREAM_SOC
    return getattr(layout_of(spec), "default_soc", None)
