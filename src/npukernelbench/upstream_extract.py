"""Answers of the upstream generation modes -> project files, or :class:`~npukernelbench.extract.ParseError`.

Thinking sections (``<think>...</think>``) are stripped first (the raw text stays in ``completions.jsonl``);
reasoning before the answer is allowed.

- ``kernel-only``: exactly one ``<kernel_impl>...</kernel_impl>`` block holding the kernel file (in a
  fenced code block, or bare). The project is the task's question host template(s) plus that kernel as
  ``op_kernel/<kernel>.cpp``.
- ``full``: files each after a separator line of ``=`` signs naming its path
  (``===== op_host/add_custom.cpp =====``), the code in a fenced block (or bare, up to the next
  separator); ``op_host/<k>_tiling.h``, ``op_host/<k>.cpp`` and ``op_kernel/<k>.cpp`` are required.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from npukernelbench.extract import MAX_COMPLETION_CHARS, MAX_FILE_CHARS, ParseError, blocks
from npukernelbench.modes import KERNEL_ONLY, mode_of

if TYPE_CHECKING:
    from npukernelbench.spec import TaskSpec

_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_KERNEL_IMPL = re.compile(r"<kernel_impl>(.*?)</kernel_impl>", re.DOTALL | re.IGNORECASE)
_SEPARATOR = re.compile(r"^[ \t]*={3,}[ \t]*(?P<path>[^\s=]+)[ \t]*={3,}[ \t]*$", re.MULTILINE)


def strip_thinking(text: str) -> str:
    """``text`` without its ``<think>...</think>`` sections (a reasoning model's thoughts); ParseError
    when it ends inside one (no final answer)."""
    answer = _THINK.sub("", text)
    low = answer.lower()
    if "</think>" in low:            # thoughts opened by the chat template: the answer follows the last close
        answer = answer[low.rfind("</think>") + len("</think>"):]
    elif "<think>" in low:
        raise ParseError("the completion ends inside a <think> section (no final answer)")
    return answer


def _answer_text(text: str | None) -> str:
    if text is None or not text.strip():
        raise ParseError("empty completion")
    if len(text) > MAX_COMPLETION_CHARS:
        raise ParseError(f"completion is {len(text)} characters, above the {MAX_COMPLETION_CHARS} limit")
    return strip_thinking(text)


def _code_of(section: str, what: str) -> str:
    """The code of one answer section: its last fenced block, or the bare text when it has none."""
    found = blocks(section)
    code = found[-1].text if found else section.strip("\n") + "\n"
    if not code.strip():
        raise ParseError(f"{what} is empty")
    if len(code) > MAX_FILE_CHARS:
        raise ParseError(f"{what} is {len(code)} characters, above the {MAX_FILE_CHARS} limit")
    return code


def kernel_of(text: str | None) -> str:
    """The kernel file of a kernel-only answer."""
    answer = _answer_text(text)
    found = _KERNEL_IMPL.findall(answer)
    if not found:
        opened = "<kernel_impl>" in answer.lower()
        raise ParseError("the <kernel_impl> block is never closed (truncated completion?)" if opened else
                         "no <kernel_impl> block: a kernel-only answer puts op_kernel/<kernel>.cpp inside "
                         "<kernel_impl>...</kernel_impl>")
    if len(found) > 1:
        raise ParseError(f"{len(found)} <kernel_impl> blocks; a kernel-only answer has exactly one")
    return _code_of(found[0], "the <kernel_impl> block")


def host_files(spec: TaskSpec) -> dict[str, str]:
    """The question's host side (every ``op_host/`` template file), which kernel-only answers build with."""
    return {path: text for path, text in spec.templates.items() if path.startswith("op_host/")}


def full_required(spec: TaskSpec) -> tuple[str, ...]:
    k = spec.kernel
    return (f"op_host/{k}_tiling.h", f"op_host/{k}.cpp", f"op_kernel/{k}.cpp")


def full_files_of(text: str | None, spec: TaskSpec) -> dict[str, str]:
    """The files of a full-mode answer (the last section per path wins)."""
    answer = _answer_text(text)
    marks = list(_SEPARATOR.finditer(answer))
    files: dict[str, str] = {}
    for i, mark in enumerate(marks):
        path = mark.group("path").strip("`*").removeprefix("./")
        end = marks[i + 1].start() if i + 1 < len(marks) else len(answer)
        if path in full_required(spec):
            files[path] = _code_of(answer[mark.end():end], f"the section of {path}")
    missing = [p for p in full_required(spec) if p not in files]
    if missing:
        raise ParseError(f"full-mode answer lacks {', '.join(missing)} (each file follows a separator line such "
                         f"as '===== {missing[0]} =====')")
    return files


def files_of(spec: TaskSpec, text: str | None, given: Mapping[str, str] | None = None) -> dict[str, str]:
    """The project an upstream-mode answer builds: ``given`` files (a replay record's) or the parsed ``text``."""
    if mode_of(spec) == KERNEL_ONLY:
        kernel_path = f"op_kernel/{spec.kernel}.cpp"
        if given is not None:
            if not str(given.get(kernel_path, "")).strip():
                raise ParseError(f"required file {kernel_path} is missing or empty")
            return {**host_files(spec), kernel_path: given[kernel_path]}
        return {**host_files(spec), kernel_path: kernel_of(text)}
    if given is not None:
        missing = [p for p in full_required(spec) if not str(given.get(p, "")).strip()]
        if missing:
            raise ParseError(f"full-mode answer lacks {', '.join(missing)}")
        return dict(given)
    return full_files_of(text, spec)
