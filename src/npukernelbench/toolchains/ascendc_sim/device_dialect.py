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
3. The launch chevrons of the host-side launch wrappers that real kernel files carry under
   ``#ifndef ASCENDC_CPU_DEBUG`` (``kernel<<<blockDim, l2ctrl, stream>>>(args...)``) are blanked: the
   wrapper then compiles as a plain call of the kernel entry (the simulator never calls it; it launches
   the entry itself).
4. (``cxx20`` passes only) A class whose only constructor is ``Name() = default;`` loses that line.
   Kernels that use the cube unit are compiled as C++20 (see ``builder.kernel_flags``), where such a
   class is no longer an aggregate; in C++17 -- the device compiler's dialect -- it is, and kernel
   libraries brace-initialise it (``f = {this, id};``). Without the line the class is an aggregate
   again and behaves exactly as in C++17.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ATTR = re.compile(r"\b(?:__forceinline__|__global__|inline)\s*(\[\s*(?:aicore|host)(?:\s*,\s*(?:aicore|host))*\s*\])")
_SPEC = re.compile(r"\btemplate\s*<\s*>")
_CORE_ARG = re.compile(r"<\s*(?:AscendC\s*::\s*)?(AIC|AIV)\s*>\s*\(")
_CLASS_KEY = re.compile(r"\b(?:class|struct|union)\b")


_CLASS_NAME = re.compile(r"\b(?:class|struct)\s+(?:alignas\s*\([^)]*\)\s*)?([A-Za-z_]\w*)")


@dataclass(frozen=True)
class Rewritten:
    text: str
    attributes: int          # bracketed attribute lists blanked
    specialisations: int     # core-type specialisations kept (as overloads) or removed
    defaulted: int = 0       # sole defaulted default constructors removed (cxx20 passes)
    launches: int = 0        # <<<...>>> launch configurations blanked


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


def _class_bodies(masked: str) -> list[tuple[str, int, int, bool]]:
    """(class name, body start, body end, declared with ``struct``) of every class/struct body."""
    bodies: list[tuple[str, int, int, bool]] = []
    stack: list[tuple[str | None, int, bool]] = []
    last_stop = 0
    for i, c in enumerate(masked):
        if c == "{":
            header = _skip_template_header(masked[last_stop:i])
            name, is_struct = None, False
            if _CLASS_KEY.search(header) and "(" not in header and "=" not in header:
                m = _CLASS_NAME.search(header)
                name = m.group(1) if m else None
                is_struct = bool(m) and m.group(0).startswith("struct")
            stack.append((name, i + 1, is_struct))
            last_stop = i + 1
        elif c == "}":
            if stack:
                name, start, is_struct = stack.pop()
                if name:
                    bodies.append((name, start, i, is_struct))
            last_stop = i + 1
        elif c == ";":
            last_stop = i + 1
    return bodies


def _depth_one(masked: str, start: int, end: int) -> str:
    """The body text with nested brace/paren groups blanked (members of this class only)."""
    out = list(masked[start:end])
    depth = 0
    for k, c in enumerate(out):
        if c in "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif depth > 0 and c != "\n":
            out[k] = " "
    return "".join(out)


def _drop_sole_defaulted_ctors(masked: str, chars: list[str]) -> int:
    count = 0
    for name, start, end, is_struct in _class_bodies(masked):
        body = _depth_one(masked, start, end)
        # Only a class that would be an aggregate in C++17: public members only.
        if re.search(r"\b(?:private|protected)\s*:", body) or (not is_struct and not re.search(r"\bpublic\s*:", body)):
            continue
        ctors = list(re.finditer(rf"(?<![~\w:.]){re.escape(name)}\s*\(", body))
        if len(ctors) != 1:
            continue
        m = re.match(rf"{re.escape(name)}\s*\(\s*\)\s*=\s*default\s*;", body[ctors[0].start():])
        if m is None:
            continue
        a = start + ctors[0].start()
        _blank(chars, _specifiers_before(masked, a), a + m.end())
        count += 1
    return count


_SPECIFIER = re.compile(r"(?:inline|constexpr|explicit|__forceinline__|__aicore__|__host__|__device__|[A-Z][A-Z0-9_]*)")


def _specifiers_before(masked: str, a: int) -> int:
    """Start of the specifiers (inline, constexpr, qualifier macros) that precede the declaration at
    ``a``, so that blanking the declaration does not leave them to the next one."""
    i = a
    while True:
        j = i
        while j > 0 and masked[j - 1].isspace():
            j -= 1
        k = j
        while k > 0 and (masked[k - 1].isalnum() or masked[k - 1] == "_"):
            k -= 1
        if k == j or not _SPECIFIER.fullmatch(masked[k:j]):
            return i
        i = k


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


def _blank_launch_chevrons(masked: str, chars: list[str]) -> int:
    """Blank every ``<<<...>>>`` launch configuration (``<<<`` cannot occur in C++ otherwise)."""
    count = 0
    start = masked.find("<<<")
    while start >= 0:
        depth, k, close = 0, start + 3, -1
        while k < len(masked):
            c = masked[k]
            if c in "([{":
                depth += 1
            elif c in ")]}":
                depth -= 1
                if depth < 0:
                    break
            elif c == ";":
                break
            elif depth == 0 and masked.startswith(">>>", k):
                close = k
                break
            k += 1
        if close < 0:
            start = masked.find("<<<", start + 3)
            continue
        _blank(chars, start, close + 3)
        count += 1
        start = masked.find("<<<", close + 3)
    return count


def rewrite(text: str, core: str, cxx20: bool = False) -> Rewritten:
    """The source as the ``core`` ("AIC" or "AIV") compile pass sees it (``cxx20``: compiled as C++20)."""
    masked = mask_comments_and_strings(text)
    chars = list(text)
    attributes = 0
    for m in _ATTR.finditer(masked):
        _blank(chars, m.start(1), m.end(1))
        attributes += 1
        masked = masked[:m.start(1)] + " " * (m.end(1) - m.start(1)) + masked[m.end(1):]
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
    defaulted = _drop_sole_defaulted_ctors(masked, chars) if cxx20 else 0
    launches = _blank_launch_chevrons(masked, chars)
    return Rewritten(text="".join(chars), attributes=attributes, specialisations=specialisations, defaulted=defaulted,
                     launches=launches)
