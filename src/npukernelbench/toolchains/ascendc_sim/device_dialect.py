"""Rewrites of device-compiler (bisheng) syntax that a host C++ compiler rejects, applied to the kernel
sources before each compile pass. Every rewrite replaces characters by blanks and keeps newlines, so
diagnostics keep their file, line and column.

1. Attribute spelling ``__forceinline__ [aicore]`` / ``[host, aicore]`` (also after ``__global__`` and
   ``inline``): the bracketed list is blanked (the simulator's ``__forceinline__`` is ``inline``).
2. Explicit specialisations of a member function template on the core type *inside a class*, the
   idiom of mixed cube/vector kernels::

       template <int32_t CORE_TYPE = g_coreType> void operator()(Params const &p);
       template <> void operator()<AscendC::AIC>(Params const &p) { ... }
       template <> void operator()<AscendC::AIV>(Params const &p) { ... }

   clang (and so bisheng) accepts explicit specialisations in class scope (CWG 727); g++ does not.
   Each pass is compiled for one core type, so the pass keeps the specialisation of its own core type
   as a plain (non-template) overload, which overload resolution prefers over the primary template,
   and blanks the other one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ATTR = re.compile(r"\b(?:__forceinline__|__global__|inline)\s*(\[\s*(?:aicore|host)(?:\s*,\s*(?:aicore|host))*\s*\])")
_SPEC = re.compile(r"\btemplate\s*<\s*>")
_CORE_ARG = re.compile(r"<\s*(?:AscendC\s*::\s*)?(AIC|AIV)\s*>\s*\(")
_CLASS_KEY = re.compile(r"\b(?:class|struct|union)\b")


@dataclass(frozen=True)
class Rewritten:
    text: str
    attributes: int          # bracketed attribute lists blanked
    specialisations: int     # core-type specialisations kept (as overloads) or removed


def mask_comments_and_strings(text: str) -> str:
    """``text`` with comments and string/char literals replaced by blanks (newlines kept)."""
    out = list(text)
    i, n = 0, len(text)

    def blank(a: int, b: int) -> None:
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if c == "/" and i + 1 < n and text[i + 1] == "/":
            j = text.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif c == "/" and i + 1 < n and text[i + 1] == "*":
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            blank(i, j)
            i = j
        elif c in "\"'":
            if c == "'" and i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_"):
                i += 1                      # digit separator (1'000)
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            blank(i + 1, min(j, n))
            i = j + 1
        else:
            i += 1
    return "".join(out)


def _blank(chars: list[str], a: int, b: int) -> None:
    for k in range(a, b):
        if chars[k] != "\n":
            chars[k] = " "


def _skip_template_header(header: str) -> str:
    """``header`` without leading ``template <...>`` parameter lists (angle brackets balanced)."""
    while True:
        m = re.match(r"\s*template\s*<", header)
        if not m:
            return header
        depth, i = 1, m.end()
        while i < len(header) and depth:
            depth += {"<": 1, ">": -1}.get(header[i], 0)
            i += 1
        header = header[i:]


def _brace_kinds(masked: str, positions: list[int]) -> dict[int, bool]:
    """For each position: whether its innermost enclosing brace is a class/struct/union body."""
    result: dict[int, bool] = {}
    stack: list[bool] = []
    wanted = sorted(positions)
    w = 0
    last_stop = 0
    for i, c in enumerate(masked):
        while w < len(wanted) and wanted[w] == i:
            result[i] = bool(stack) and stack[-1]
            w += 1
        if c == "{":
            header = _skip_template_header(masked[last_stop:i])
            stack.append(bool(_CLASS_KEY.search(header)) and "(" not in header and "=" not in header)
            last_stop = i + 1
        elif c == "}":
            if stack:
                stack.pop()
            last_stop = i + 1
        elif c == ";":
            last_stop = i + 1
    for p in wanted[w:]:
        result[p] = bool(stack) and stack[-1]
    return result


def _match_close(masked: str, i: int, open_c: str, close_c: str) -> int:
    """Index just after the bracket closing the one at ``i``; len(masked) when unbalanced."""
    depth = 0
    for j in range(i, len(masked)):
        if masked[j] == open_c:
            depth += 1
        elif masked[j] == close_c:
            depth -= 1
            if depth == 0:
                return j + 1
    return len(masked)


def rewrite(text: str, core: str) -> Rewritten:
    """The source as the ``core`` ("AIC" or "AIV") compile pass sees it."""
    masked = mask_comments_and_strings(text)
    chars = list(text)
    attributes = 0
    for m in _ATTR.finditer(masked):
        _blank(chars, m.start(1), m.end(1))
        attributes += 1
    candidates: list[tuple[re.Match[str], re.Match[str]]] = []
    for m in _SPEC.finditer(masked):
        stop = len(masked)
        for ch in ";{}":
            k = masked.find(ch, m.end())
            if k >= 0:
                stop = min(stop, k)
        arg = _CORE_ARG.search(masked, m.end(), stop)
        if arg is not None:
            candidates.append((m, arg))
    in_class = _brace_kinds(masked, [m.start() for m, _ in candidates])
    specialisations = 0
    for m, arg in candidates:
        if not in_class.get(m.start()):
            continue
        specialisations += 1
        if arg.group(1) == core:
            _blank(chars, m.start(), m.end())
            _blank(chars, arg.start(), arg.end() - 1)      # keep the '(' of the parameter list
            continue
        params_end = _match_close(masked, arg.end() - 1, "(", ")")
        body = len(masked)
        for ch in ";{":
            k = masked.find(ch, params_end)
            if k >= 0:
                body = min(body, k)
        end = body + 1 if body < len(masked) and masked[body] == ";" else _match_close(masked, body, "{", "}")
        _blank(chars, m.start(), end)
    return Rewritten(text="".join(chars), attributes=attributes, specialisations=specialisations)
