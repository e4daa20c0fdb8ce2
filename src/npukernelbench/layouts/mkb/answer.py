"""A MultiKernelBench AscendC answer: a Python file of six source strings, read without running it.

MultiKernelBench takes the first fenced code block of the completion (a leading ``python``, ``cpp`` or
``json`` dropped; the whole completion when it has no block) and executes it; the strings it must
define are ``project_json_src`` (the msopgen
project JSON), ``host_tiling_src``, ``host_operator_src``, ``kernel_src``, ``python_bind_src`` and
``model_src`` (the ``ModelNew`` module). Here the block is parsed (``ast``), never executed: each name
must be assigned a string literal at the top level. The strings go where MultiKernelBench's build
writes them, in an operator project named ``<op>_custom`` (PascalCase ``<Op>Custom``):
``op_host/<op>_custom_tiling.h``, ``op_host/<op>_custom.cpp``, ``op_kernel/<op>_custom.cpp``; the
project JSON, the pybind source and ``model_src`` are kept under ``mkb/`` (:data:`PROJECT_JSON`,
:data:`PYBIND`, :data:`MODEL`), where the kernel build does not read them.
"""

from __future__ import annotations

import ast
import json
import re

from npukernelbench.extract import ParseError

NAMES = ("project_json_src", "host_tiling_src", "host_operator_src", "kernel_src", "python_bind_src", "model_src")
PROJECT_JSON = "mkb/project.json"
PYBIND = "mkb/pybind.cpp"
MODEL = "mkb/model_src.py"
_FENCE = re.compile(r"```(.*?)```", re.DOTALL)
_LANGUAGES = ("python", "cpp", "json")


def pascal_case(name: str) -> str:
    """``relu_custom`` -> ``ReluCustom`` (MultiKernelBench's naming of the operator type)."""
    return "".join(part.capitalize() for part in name.split("_") if part)


def first_block(text: str) -> str:
    """The first fenced block's code without a leading language word (``python``, ``cpp``, ``json``), as
    MultiKernelBench reads it; the whole text when there is no fenced block."""
    match = _FENCE.search(text.strip())
    if match is None:
        return text
    code = match.group(1).strip()
    for word in _LANGUAGES:
        if code.startswith(word):
            code = code[len(word):].strip()
    return code


def source_strings(code: str) -> dict[str, str]:
    """The six strings the answer assigns at its top level (ParseError naming what is wrong)."""
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        raise ParseError(f"the answer's code block is not valid Python: line {exc.lineno}: {exc.msg}") from None
    found: dict[str, str] = {}
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AnnAssign) and node.value is not None else []
        value = getattr(node, "value", None)
        for target in targets:
            if isinstance(target, ast.Name) and target.id in NAMES:
                if not (isinstance(value, ast.Constant) and isinstance(value.value, str)):
                    raise ParseError(f"{target.id} is not assigned a string literal")
                found[target.id] = value.value
    missing = [n for n in NAMES if n not in found]
    if missing:
        raise ParseError(f"the answer defines no {', '.join(missing)} (it needs all six source strings: "
                         f"{', '.join(NAMES)})")
    return found


def check_project_json(text: str, op: str) -> None:
    """The msopgen project JSON: a list holding the operator ``op`` with input and output descriptions."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(f"project_json_src is not valid JSON: line {exc.lineno}: {exc.msg}") from None
    if not isinstance(data, list) or not data or not all(isinstance(d, dict) for d in data):
        raise ParseError("project_json_src must be a JSON list of operator objects")
    ops = [d.get("op") for d in data]
    if op not in ops:
        raise ParseError(f"project_json_src defines {', '.join(map(str, ops))}, not the operator {op}")
    entry = data[ops.index(op)]
    for key in ("input_desc", "output_desc"):
        if key in entry and not isinstance(entry[key], list):
            raise ParseError(f"project_json_src: {op}.{key} must be a list")
    if not entry.get("output_desc"):
        raise ParseError(f"project_json_src: {op} declares no output_desc")


def project_files(text: str, kernel: str) -> dict[str, str]:
    """The candidate project of a completion for the kernel ``kernel`` (``relu_custom``)."""
    strings = source_strings(first_block(text))
    check_project_json(strings["project_json_src"], pascal_case(kernel))
    return {
        f"op_host/{kernel}_tiling.h": strings["host_tiling_src"],
        f"op_host/{kernel}.cpp": strings["host_operator_src"],
        f"op_kernel/{kernel}.cpp": strings["kernel_src"],
        PROJECT_JSON: strings["project_json_src"],
        PYBIND: strings["python_bind_src"],
        MODEL: strings["model_src"],
    }
