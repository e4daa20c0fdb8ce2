"""The Layout protocol: what the harness needs from one on-disk task format.

A layout recognises its task folders (``detect``), loads one into a :class:`~npukernelbench.spec.TaskSpec`
(``load``: its static cases are ``TaskSpec.cases``, whatever form they take on disk), builds the
checker that runs a candidate against the task's reference (``checker``: a subclass of
:class:`~npukernelbench.checker.Checker`, which holds the static checks' loop, stage tracking, the
dynamic-shape search and the speed floors), says which toolchains can check its tasks
(``unsupported``), names the SoC profile its tasks are written for (``default_soc``), and gives the
prompt its part (``describe_case``: one static case as the project-level prompt lists it), and what the
upstream generation modes (``--npukb-mode kernel-only|full``, :mod:`npukernelbench.modes`) need of a task:
one static case as a test-case row (``mode_row``) and the question templates whose host side launches a
kernel-only answer (``question_templates``). Registered in
:data:`npukernelbench.layouts.LAYOUTS`; ``TaskSpec.layout`` is the registered name.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from npukernelbench.checker import BaselineCache, Checker, EvalOptions
    from npukernelbench.spec import StaticCase, TaskSpec
    from npukernelbench.toolchains.base import Toolchain


@runtime_checkable
class Layout(Protocol):
    name: str                       # the registered name; TaskSpec.layout of its tasks
    default_soc: str                # the SoC profile its tasks target unless --npukb-soc names one
                                    # (npukernelbench.soc_profiles; the SoC its tasks' own prompt names)

    def detect(self, folder: Path) -> bool:
        """Whether ``folder`` is a task folder of this layout. Cheap (it runs for every directory pytest
        collects) and without imports of torch or numpy."""

    def load(self, folder: Path, root: Path) -> TaskSpec:
        """The task in ``folder``, its id relative to the case root ``root``; raises
        :class:`~npukernelbench.spec.SpecError` naming the file, field and problem."""

    def checker(self, spec: TaskSpec, toolchain: Toolchain, files: Mapping[str, str],
                options: EvalOptions | None = None, baseline: BaselineCache | None = None) -> Checker:
        """A checker of the candidate project ``files`` against ``spec``."""

    def unsupported(self, toolchain: Toolchain) -> str | None:
        """Why ``toolchain`` cannot check this layout's tasks (the sample is then skipped), or None."""

    def describe_case(self, spec: TaskSpec, case: StaticCase) -> str:
        """One static case, one line, as the project-level prompt lists the test cases."""

    def mode_row(self, spec: TaskSpec, case: StaticCase) -> Mapping[str, object] | None:
        """One static case as the upstream modes show and key it: a row whose ``case_id`` names the case
        (its other fields: the shapes, dtypes and attributes), or None when the layout's tasks cannot be
        asked in those modes."""

    def question_templates(self, spec: TaskSpec) -> Mapping[str, str]:
        """The question templates of the upstream modes (relative path -> text): ``op_host/`` files whose
        tiling function sets the block dim (all AIV or all AIC cores) and the ``op_kernel/<kernel>.cpp``
        template; a kernel-only answer builds with these host files."""
