"""MultiKernelBench's AscendC prompt (its "add shot" strategy), written from its structure.

One user message: the role line; a worked example (an original architecture whose kernel is named
``add_custom``, then its transformation: the six embedded strings ``project_json_src``,
``host_tiling_src``, ``host_operator_src``, ``kernel_src``, ``python_bind_src`` and ``model_src``, with
the naming rules: the kernel function is named exactly like the kernel, the operator in the project
JSON and the host source is its PascalCase form); the task's architecture with its kernel name
``<name>_custom`` and the PascalCase name; the instruction to write ``ModelNew`` with the six strings
and nothing else. The example pair is ours (``example/``), not MultiKernelBench's.
"""

from __future__ import annotations

from importlib import resources
from typing import TYPE_CHECKING

from npukernelbench.layouts.mkb.answer import NAMES, pascal_case

if TYPE_CHECKING:
    from npukernelbench.spec import TaskSpec

EXAMPLE_KERNEL = "add_custom"


def _example(name: str) -> str:
    return resources.files("npukernelbench.layouts.mkb").joinpath("example", name).read_text(encoding="utf-8")


def prompt_text(spec: TaskSpec) -> str:
    """The prompt for the task ``spec`` (its reference module is ``spec.description``)."""
    strings = ", ".join(f"`{n}`" for n in NAMES[:-1]) + f" and `{NAMES[-1]}`"
    return "\n".join([
        "You are an expert in writing custom AscendC kernels that speed up PyTorch architectures by replacing "
        "some of their operators.",
        "",
        f"Here is an example of the expected transformation. The original architecture, kernel name "
        f"`{EXAMPLE_KERNEL}`:",
        "```python",
        _example("add.py").strip(),
        "```",
        "",
        f"The transformed version holds six Python strings: {strings}. The kernel function in `kernel_src` is "
        "named exactly like the kernel; the operator in `project_json_src` and `host_operator_src` is named "
        f"after the kernel in PascalCase ({pascal_case(EXAMPLE_KERNEL)}):",
        "```python",
        _example("add_answer.py").strip(),
        "```",
        "",
        f"Now, here is the architecture to optimize, kernel name {spec.kernel} (PascalCase: {spec.op}):",
        "```python",
        spec.description.strip(),
        "```",
        "",
        "Your task: replace PyTorch operators of the architecture named Model with custom AscendC kernels, and "
        f"write the optimized architecture named ModelNew as the six Python strings above ({strings}). Output "
        "only the code in one fenced block: no other text and no testing code.",
    ]) + "\n"
