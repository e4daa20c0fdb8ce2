"""Reading the teacher's answers: reasoning and answer, question lists, requests, JSON summaries.

Each reader raises :class:`MalformedOutput` with a one-line reason; the caller drops the candidate
(reason ``malformed_teacher_output``) and keeps the raw text in ``drops.jsonl``.
"""

from __future__ import annotations

import json
import re
from typing import Any

_THINK = re.compile(r"<think>(?P<body>.*?)</think>", re.DOTALL | re.IGNORECASE)
_ANSWER = re.compile(r"<answer>(?P<body>.*?)</answer>", re.DOTALL | re.IGNORECASE)
_QUESTION = re.compile(r"<question>(?P<body>.*?)</question>", re.DOTALL | re.IGNORECASE)
_REQUEST = re.compile(r"<request>(?P<body>.*?)</request>", re.DOTALL | re.IGNORECASE)
_JSON_FENCE = re.compile(r"```json\s*\n(?P<body>.*?)```", re.DOTALL | re.IGNORECASE)


class MalformedOutput(ValueError):
    """The teacher's answer does not have the asked-for shape."""


def drop_reason(text: str) -> str:
    """The drop reason for an answer that could not be read: no answer at all, or a malformed one."""
    return "teacher_no_answer" if not (text or "").strip() else "malformed_teacher_output"


def reasoning_and_answer(text: str, require_answer_tag: bool = False) -> tuple[str, str]:
    """``<think>R</think>`` then ``<answer>A</answer>`` (or the text after ``</think>``) -> (R, A)."""
    if not text or not text.strip():
        raise MalformedOutput("empty answer")
    thinks = list(_THINK.finditer(text))
    if not thinks:
        raise MalformedOutput("no <think>...</think> reasoning section")
    reasoning = thinks[-1].group("body").strip()
    rest = text[thinks[-1].end():]
    answers = list(_ANSWER.finditer(rest))
    if answers:
        answer = answers[-1].group("body").strip()
    elif require_answer_tag:
        raise MalformedOutput("no <answer>...</answer> section after the reasoning")
    else:
        answer = rest.strip()
    if len(reasoning) < 20:
        raise MalformedOutput(f"the reasoning is {len(reasoning)} characters: too short to teach anything")
    if not answer:
        raise MalformedOutput("the answer after </think> is empty")
    return reasoning, answer


def reasoning_only(text: str) -> str:
    """The ``<think>...</think>`` section (for prompts whose answer is given, not written)."""
    thinks = list(_THINK.finditer(text or ""))
    if not thinks:
        raise MalformedOutput("no <think>...</think> reasoning section")
    reasoning = thinks[-1].group("body").strip()
    if len(reasoning) < 20:
        raise MalformedOutput(f"the reasoning is {len(reasoning)} characters: too short to teach anything")
    return reasoning


def questions(text: str, limit: int) -> list[str]:
    """``<question>...</question>`` items (at most ``limit``, duplicates removed)."""
    found: list[str] = []
    for m in _QUESTION.finditer(text or ""):
        q = " ".join(m.group("body").split())
        if q and q not in found:
            found.append(q)
    if not found:
        raise MalformedOutput("no <question>...</question> items")
    return found[:limit] if limit > 0 else found


def request(text: str) -> str:
    m = list(_REQUEST.finditer(text or ""))
    if not m:
        raise MalformedOutput("no <request>...</request> section")
    body = m[-1].group("body").strip()
    if len(body) < 10:
        raise MalformedOutput("the request is too short")
    return body


def json_summary(text: str) -> dict[str, Any]:
    """The last ```json fenced block (else the last top-level {...}) of ``text`` as a dict."""
    blocks = [m.group("body") for m in _JSON_FENCE.finditer(text or "")]
    candidates = blocks[::-1] or _braced(text or "")
    for raw in candidates:
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
    raise MalformedOutput("no JSON summary object (a ```json block) found")


def _braced(text: str) -> list[str]:
    """Balanced {...} spans, last first."""
    spans = []
    depth = 0
    start = -1
    for i, ch in enumerate(text):
        if ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
            if depth == 0:
                spans.append(text[start:i + 1])
    return spans[::-1]


def strip_think(text: str) -> str:
    return _THINK.sub("", text or "").strip()
