"""TaskSpec -> chat messages: the generation prompt of the AscendKernelGen paper (appendix D.4).

The system message carries the role, the target language, the code-style rules and the output
format; the user message carries the task's API description, the host and kernel templates and,
for project-level generation, the static test cases and the hardware description. The result is a
pure function of the task and the :class:`PromptOptions` (no clock, no environment), so it can be
hashed for the completion cache and pinned by snapshot tests.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from npukernelbench.hardware import Hardware
from npukernelbench.spec import StaticCase, TaskSpec

DEFAULT_TOOLCHAIN = "ascendc-sim"


@dataclass(frozen=True)
class PromptOptions:
    """``project_level`` adds the static test cases and the description of the target device:
    ``hardware`` when given, else ``toolchain``'s ``Toolchain.hardware(soc)`` for SoC profile ``soc``
    (``--npukb-soc``), or, when that is None, for the task layout's ``default_soc``."""

    project_level: bool = False
    hardware: Hardware | None = None
    soc: str | None = None
    toolchain: str = DEFAULT_TOOLCHAIN

    def target_hardware(self, task: TaskSpec | None = None) -> Hardware:
        """The device the prompt for ``task`` describes (no task: the chosen or the toolchain's default SoC)."""
        if self.hardware is not None:
            return self.hardware
        from npukernelbench.modes import task_soc
        from npukernelbench.toolchains import get_toolchain

        soc = task_soc(task, self.soc) if task is not None else self.soc
        return get_toolchain(self.toolchain).hardware(soc)


ROLE = "You are a professional Ascend kernel development engineer."

RULES = """\
Your task is to implement an operator for Huawei Ascend NPUs in AscendC (the Ascend C++ kernel \
programming language), as a complete custom-operator project.

Requirements:
1. Write the implementation in AscendC. Use only the AscendC API (kernel_operator.h and the \
host-side registration and tiling headers); do not call PyTorch, CUDA or any other library.
2. Write readable code: clear names, and comments that explain the tiling strategy, the data \
movement between global memory and the on-chip buffers, and the computation.
3. Keep kernel code and host code separate. The kernel file defines the kernel entry function \
(`extern "C" __global__ __aicore__ void <kernel>(...)`) with the exact signature of the template. \
The host file declares the operator definition (OpDef: inputs, outputs, attributes, data types, \
formats) and the tiling function that computes the tiling data and the number of cores (block dim).
4. Pay close attention to data types, shapes and memory layouts: support every data type the API \
description lists, handle element counts that are not multiples of the 32-byte block or of the \
core count, and stay within the on-chip buffer sizes.
5. Keep the operator name, the kernel name, the parameter names and their order exactly as in \
the templates."""


def output_format(task: TaskSpec) -> str:
    kernel = task.kernel
    host, dev, tiling = f"op_host/{kernel}.cpp", f"op_kernel/{kernel}.cpp", f"op_host/{kernel}_tiling.h"
    return f"""\
Output format:
- Output every file of the project as a fenced code block preceded by a header line naming the \
file's relative path, like this:

=== {host} ===
```cpp
// full content of the file
```

- Files: `{host}` (required: OpDef and tiling function), `{dev}` (required: kernel entry and \
implementation), `{tiling}` (optional: the tiling data structure, included by both sides).
- Output the complete content of each file, not a diff or a fragment. If you write a file more \
than once, only its last block counts. Do not output files other than these."""


def system_message(task: TaskSpec) -> str:
    return f"{ROLE}\n\n{RULES}\n\n{output_format(task)}"


def describe_case(task: TaskSpec, case: StaticCase) -> str:
    """One static case as the project-level prompt lists it (its layout decides how)."""
    from npukernelbench.layouts import layout_of

    return layout_of(task).describe_case(task, case)


def _fence(path: str, text: str) -> str:
    lang = "cpp" if path.endswith((".cpp", ".h", ".hpp", ".cc")) else ""
    body = text if text.endswith("\n") else text + "\n"
    return f"=== {path} ===\n```{lang}\n{body}```"


def user_message(task: TaskSpec, options: PromptOptions) -> str:
    sections = [
        f"Implement the operator `{task.op}` (kernel `{task.kernel}`).",
        f"## API description\n\n{task.description.strip()}",
        "## Templates\n\nComplete these files (the host template first, then the kernel template):\n\n"
        + "\n\n".join(_fence(path, task.templates[path]) for path in _template_order(task)),
    ]
    if options.project_level:
        cases = "\n".join(f"- {describe_case(task, c)}" for c in task.cases)
        more = " (and on other shapes drawn at random within the same constraints)" if task.dynamic.enabled else ""
        sections.append(f"## Test cases\n\nThe operator is tested on these static cases{more}:\n\n{cases}")
        sections.append(f"## Hardware\n\n{options.target_hardware(task).describe()}")
    sections.append("Now write the complete project in the output format described above.")
    return "\n\n".join(sections)


def _template_order(task: TaskSpec) -> list[str]:
    """Host files first, then kernel files, then anything else; alphabetical within each group."""
    def rank(path: str) -> tuple[int, str]:
        group = 0 if path.startswith("op_host/") else 1 if path.startswith("op_kernel/") else 2
        return group, path
    return sorted(task.templates, key=rank)


def build_messages(task: TaskSpec, options: PromptOptions | None = None) -> tuple[dict[str, str], ...]:
    """The chat messages for ``task``: a system message (role and rules) and a user message; in an
    upstream generation mode (``modes.py``), upstream's one user message (``upstream_prompt``); for a
    layout that speaks its own benchmark's prompt (a ``messages`` hook), that layout's messages."""
    from npukernelbench.layouts import layout_of
    from npukernelbench.modes import PROJECT, mode_of

    options = options or PromptOptions()
    if mode_of(task) != PROJECT:
        from npukernelbench import upstream_prompt

        return upstream_prompt.build_messages(task, options.target_hardware(task))
    own = getattr(layout_of(task), "messages", None)           # a layout that speaks its benchmark's prompt
    if own is not None:
        return tuple(own(task, options))
    return ({"role": "system", "content": system_message(task)},
            {"role": "user", "content": user_message(task, options)})


def prompt_hash(messages: Sequence[Mapping[str, str]]) -> str:
    """A stable sha256 of the messages (role and content, in order)."""
    canonical = json.dumps([{"role": m["role"], "content": m["content"]} for m in messages],
                           ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def render_messages(messages: Sequence[Mapping[str, str]]) -> str:
    """A plain-text rendering (snapshots, and models without a chat template)."""
    return "\n\n".join(f"<<{m['role']}>>\n{m['content']}" for m in messages) + "\n"
