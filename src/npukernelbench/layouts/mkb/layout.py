"""The ``mkb`` layout: detection and loading of MultiKernelBench reference modules, and its hooks.

Detection reads the file's text only (no import): a ``.py`` file that defines ``class Model``,
``get_inputs`` (or ``get_input_groups``: MultiKernelBench's ``npukernelbench_level<N>`` tasks) and
``get_init_inputs`` at its top level, outside any task folder of another layout.
The reference is never executed here: it runs in the checker's confined child (:mod:`.driver`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from npukernelbench.layouts.host_bound import HostBoundLayout

if TYPE_CHECKING:
    from npukernelbench.prompt import PromptOptions
    from npukernelbench.result import SampleResult
    from npukernelbench.spec import StaticCase, TaskSpec

NAME = "mkb"
_NEEDED = (re.compile(r"^class\s+Model\s*[(:]", re.MULTILINE),
           re.compile(r"^def\s+(get_inputs|get_input_groups)\s*\(", re.MULTILINE),
           re.compile(r"^def\s+get_init_inputs\s*\(", re.MULTILINE))
_GROUPED = re.compile(r"^def\s+get_input_groups\s*\(", re.MULTILINE)
_ORDINAL = re.compile(r"^\d+_(?=[A-Za-z_])")      # ``3_add``: the number of a grouped task
_OTHER_LAYOUT_FILES = ("case.toml", "api_desc.md")
MAX_BYTES = 1 << 20


class MkbLayout(HostBoundLayout):
    name = NAME
    checker_target = "npukernelbench.layouts.mkb.checker:MkbChecker"
    described_as = "MultiKernelBench"
    default_soc = "Ascend910B2"     # MultiKernelBench's AscendC backend runs on an Ascend 910B2
    benchmark = "multikernelbench"      # every result says so: summary.json adds Comp@k, Pass@k, SpeedUp_alpha@k

    def detect(self, folder: Path) -> bool:
        path = Path(folder)
        if path.suffix != ".py" or not path.is_file() or path.name.startswith(("test_", "_")):
            return False
        if any((path.parent / other).exists() for other in _OTHER_LAYOUT_FILES) or path.parent.name == "validation":
            return False
        try:
            if path.stat().st_size > MAX_BYTES:
                return False
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return False
        return all(p.search(text) for p in _NEEDED)

    def load(self, folder: Path, root: Path) -> TaskSpec:
        return load_task(folder, root)

    def describe_case(self, spec: TaskSpec, case: StaticCase) -> str:
        return f"case {case.index}: the inputs of {case.row['inputs']}"

    def mode_row(self, spec: TaskSpec, case: StaticCase) -> Mapping[str, object] | None:
        return None                          # MultiKernelBench has its own answer format, no static rows

    def question_templates(self, spec: TaskSpec) -> Mapping[str, str]:
        return {}

    # -- the hooks generic code asks for when a layout has them --------------------------------------
    def messages(self, spec: TaskSpec, options: PromptOptions) -> tuple[dict[str, str], ...]:
        """The chat messages: MultiKernelBench's AscendC prompt as one user message."""
        from npukernelbench.layouts.mkb.prompt import prompt_text

        return ({"role": "user", "content": prompt_text(spec)},)

    def summary_block(self, results: Sequence[SampleResult], samples: int) -> tuple[str, dict[str, Any], str] | None:
        """MultiKernelBench's metrics for summary.json (key ``multikernelbench``) and the line under the table."""
        from npukernelbench.layouts.mkb.metrics import BENCHMARK, mkb_metrics, terminal_line

        block = mkb_metrics(results, samples)
        return None if block is None else (BENCHMARK, block, terminal_line(block))

    def parse_answer(self, spec: TaskSpec, text: str) -> dict[str, str]:
        """The candidate project of a completion (raises extract.ParseError with a one-line reason)."""
        from npukernelbench.layouts.mkb.answer import project_files

        return project_files(text, spec.kernel)


def operator_name(stem: str) -> str:
    """The name the kernel ``<name>_custom`` takes: MultiKernelBench's, the file's stem, except that the
    number a grouped task's file starts with (``3_add``) is dropped, since ``3_add_custom`` and
    ``3AddCustom`` could name no C++ function or class: ``add``."""
    return _ORDINAL.sub("", stem)


def load_task(path: Path, root: Path | None = None) -> TaskSpec:
    """One reference module (raises SpecError). Its case root is the folder above its category folder."""
    from npukernelbench.layouts.mkb.answer import pascal_case
    from npukernelbench.spec import (
        DEFAULT_TOLERANCE,
        DynamicSpec,
        ReferenceSpec,
        SpecError,
        StaticCase,
        TaskSpec,
        Tolerance,
    )

    path = Path(path).resolve()
    root = Path(root).resolve() if root else path.parent.parent
    if root == path.parent:               # the generic default (a folder's parent): the category's parent
        root = path.parent.parent
    if not path.is_file():
        raise SpecError(path, "<file>", "missing")
    name = operator_name(path.stem)
    if not re.fullmatch(r"[A-Za-z_]\w*", name):
        raise SpecError(path, "<file>", "the task name must be an identifier (it names the kernel <name>_custom)")
    kernel = f"{name}_custom"
    text = path.read_text(encoding="utf-8")
    inputs = "get_input_groups()" if _GROUPED.search(text) else "get_inputs()"
    try:
        case_id = path.relative_to(root).with_suffix("").as_posix()
    except ValueError:
        case_id = f"{path.parent.name}/{name}"
    return TaskSpec(
        case_id=case_id, root=root, folder=path, layout=NAME, op=pascal_case(kernel), kernel=kernel, level=1,
        category=path.parent.name, description=text,
        inputs=(), outputs=(), attrs=(), types={}, type_combos=(),
        cases=(StaticCase(index=0, shapes={}, types={}, attrs={}, seed=0, row={"inputs": inputs}),),
        dynamic=DynamicSpec(enabled=False),
        tolerance={n: Tolerance(r, a) for n, (r, a) in DEFAULT_TOLERANCE.items()},
        reference=ReferenceSpec("mkb-model", path), templates={}, solution=None, seeds=1,   # trials: checker.TRIALS
    )
