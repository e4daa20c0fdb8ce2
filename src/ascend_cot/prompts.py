"""The teacher prompts (after the AscendKernelGen paper's appendix D) and the student-facing turns.

Teacher prompts ask for machine-readable shapes: ``<question>`` items, a ``<request>``, reasoning in
``<think>...</think>`` then ``<answer>...</answer>``, or a ```json summary. Each function is pure (no
clock, no environment), so prompt hashes are stable and replay files stay valid.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ascend_cot.documents import Chunk

EXPERT = ("You are an expert AscendC kernel developer for Huawei Ascend NPUs. You know the AscendC "
          "programming model (AI Core, vector and cube units, Global Memory, Unified Buffer, TPipe/TQue "
          "pipelining, tiling on the host) and its API in depth.")

ANSWER_FORMAT = ("Reason step by step as an AscendC expert, starting from the question itself (do not quote "
                 "or cite the background material; use it only to be correct). Write the reasoning inside "
                 "<think>...</think>, then the final answer inside <answer>...</answer>.")

STUDENT_SYSTEM = EXPERT


def fence(path: str, text: str) -> str:
    body = text if text.endswith("\n") else text + "\n"
    return f"=== {path} ===\n```cpp\n{body}```"


def files_block(files: Mapping[str, str]) -> str:
    return "\n\n".join(fence(p, t) for p, t in files.items())


def _messages(system: str, user: str) -> tuple[dict[str, str], ...]:
    return ({"role": "system", "content": system}, {"role": "user", "content": user})


# -- documentation ----------------------------------------------------------------------------------

def doc_questions(chunk: Chunk, count: int) -> tuple[dict[str, str], ...]:
    if chunk.api:
        task = (f"This passage is from the AscendC API reference. Write {count} questions a developer would ask "
                "when calling this API in a kernel: which arguments to pass and why, data type and alignment "
                "requirements, limits, and how the call fits into the CopyIn/Compute/CopyOut pipeline. Each "
                "question must be answerable from the passage and concrete (name the API).")
    else:
        task = (f"Write {count} questions that together cover every technical point of this passage (concepts, "
                "rules, limits, numbers, API behaviour). Each question must stand on its own (no 'the passage'), "
                "be answerable from the passage, and ask for understanding, not recall of wording.")
    user = (f"{task}\n\nWrite each question as <question>...</question>, nothing else.\n\n"
            f"## Passage ({chunk.heading})\n\n{chunk.text}")
    return _messages(EXPERT, user)


def doc_answer(question: str, background: Sequence[Chunk]) -> tuple[dict[str, str], ...]:
    context = "\n\n".join(f"### {c.heading}\n{c.text}" for c in background)
    user = (f"{ANSWER_FORMAT}\n\n## Question\n\n{question}\n\n## Background (for you only)\n\n{context}")
    return _messages(EXPERT, user)


# -- kernel-level ------------------------------------------------------------------------------------

def kernel_request(project: str, path: str, files: Mapping[str, str], questions: int) -> tuple[dict[str, str], ...]:
    others = "\n".join(f"- {p}" for p in files if p != path)
    user = (f"Below is the file `{path}` of the AscendC operator project `{project}` (other files: "
            f"{others.strip() or 'none'}).\n\n"
            "1. Write the high-level, concise request that this file answers, as a developer would phrase it "
            "(what to implement, data types, constraints; no reasoning, no code), inside <request>...</request>.\n"
            f"2. Write {questions} targeted questions about the design choices in this file (API use, memory "
            "management and buffer sizes, tiling assumptions, pipelining and synchronisation), each inside "
            "<question>...</question>.\n\n" + fence(path, files[path]))
    return _messages(EXPERT, user)


def kernel_reasoning(request: str, path: str, text: str) -> tuple[dict[str, str], ...]:
    user = ("A developer asked the request below, and the file below is the accepted answer. Write the reasoning "
            "an expert goes through to arrive at this file from the request: the structure, the API choices, the "
            "buffer and tiling decisions, the edge cases. Reason forward from the request (do not describe the "
            "file as given). Put the reasoning inside <think>...</think> and then write <answer>done</answer>.\n\n"
            f"## Request\n\n{request}\n\n## Accepted answer\n\n{fence(path, text)}")
    return _messages(EXPERT, user)


def kernel_design_answer(question: str, path: str, text: str) -> tuple[dict[str, str], ...]:
    user = f"{ANSWER_FORMAT}\n\n## Question about `{path}`\n\n{question}\n\n## The file\n\n{fence(path, text)}"
    return _messages(EXPERT, user)


def kernel_student_request(request: str, path: str) -> str:
    return f"{request}\n\nWrite the file `{path}` of the operator project."


def kernel_student_design(question: str, path: str, text: str) -> str:
    return f"{question}\n\n{fence(path, text)}"


# -- project-level -----------------------------------------------------------------------------------

TILING_SUMMARY_KEYS = ("block_dim", "tiling_key", "workspace_bytes", "tiling")


def project_teacher(instruction: str, files: Mapping[str, str], scenario: str, hardware: str) -> tuple[dict, ...]:
    user = (f"## Instruction\n\n{instruction}\n\n## Kernel and host source\n\n{files_block(files)}\n\n"
            f"## Test case\n\n{scenario}\n\n## Hardware\n\n{hardware}\n\n"
            "Derive, step by step, what this operator's host tiling function computes for exactly this test case "
            "on this hardware (every tiling-structure member, the tiling key, the block dim, the workspace size) "
            "and how the kernel pipeline then processes the data. Put the reasoning inside <think>...</think>. "
            "After it, write a JSON summary in a ```json block with the keys "
            "\"block_dim\" (integer), \"tiling_key\" (integer), \"workspace_bytes\" (integer, total) and "
            "\"tiling\" (an object: every tiling-structure member by name, nested members as objects, arrays as "
            "lists).")
    return _messages(EXPERT, user)


def summary_json(values: Mapping[str, Any]) -> str:
    return "```json\n" + json.dumps(values, indent=2) + "\n```"


# -- error-derived -----------------------------------------------------------------------------------

def api_debug(instruction: str, files: Mapping[str, str], diagnostics: str, docs: Sequence[Chunk]) -> tuple[dict, ...]:
    context = "\n\n".join(f"### {c.heading}\n{c.text}" for c in docs) or "(none found)"
    user = ("The AscendC operator project below does not compile. Diagnose the error from the compiler output "
            "and the API documentation, then fix it. Put the diagnosis (which API or construct is misused, why "
            "the compiler rejects it, what the correct use is) inside <think>...</think>, then output every file "
            "of the fixed project, each as a fenced block preceded by a line `=== path ===`.\n\n"
            f"## Task\n\n{instruction}\n\n## Project\n\n{files_block(files)}\n\n## Compiler output\n\n"
            f"```\n{diagnostics.strip()}\n```\n\n## API documentation (retrieved)\n\n{context}")
    return _messages(EXPERT, user)


def kernel_debug(instruction: str, wrong: Mapping[str, str], failure: str, solution: Mapping[str, str]) -> tuple:
    user = ("The first AscendC project below builds but produces wrong results (the failure is shown). The second "
            "is a verified correct project for the same task. Write the reasoning that finds the bug in the first "
            "project and reconstructs a correct kernel from it: what the failure means, where the logic goes "
            "wrong (tiling, offsets, API semantics, data types), and what the fix is. Reason about the failing "
            "project; do not just say 'copy the reference'. Put it inside <think>...</think>, then output every "
            "file of the corrected project, each as a fenced block preceded by a line `=== path ===`.\n\n"
            f"## Task\n\n{instruction}\n\n## Failing project\n\n{files_block(wrong)}\n\n## Failure\n\n{failure}\n\n"
            f"## Verified project\n\n{files_block(solution)}")
    return _messages(EXPERT, user)


def debug_student(instruction: str, files: Mapping[str, str], evidence: str, kind: str) -> str:
    what = "does not compile" if kind == "api" else "builds but gives wrong results"
    return (f"This AscendC operator project {what}. Find the problem and output the fixed project, every file as a "
            f"fenced block preceded by `=== path ===`.\n\n## Task\n\n{instruction}\n\n## Project\n\n"
            f"{files_block(files)}\n\n## {'Compiler output' if kind == 'api' else 'Failure'}\n\n```\n"
            f"{evidence.strip()}\n```")
