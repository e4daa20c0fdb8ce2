"""The two pieces of bisheng's AscendC dialect that no C++ header can provide, rewritten in kernel
sources before the host compiler sees them:

* the launch chevrons ``kernel<<<blockDim, l2ctrl, stream>>>(args...)`` of the host-side launch
  wrappers real kernels carry under ``#ifndef ASCENDC_CPU_DEBUG`` become
  ``(::npukb::launch_config(blockDim, l2ctrl, stream), kernel)(args...)``: the launch arguments are
  still type-checked as ``(uint32_t, void*, void*)`` and the kernel call as a call;
* the function attribute ``[aicore]`` (what ``__aicore__`` expands to on the device compiler) and
  ``[host, aicore]`` become blanks.

Comments, string and character literals are left alone; every rewrite keeps the text's line breaks,
so compiler diagnostics still point at the candidate's own lines.
"""

from __future__ import annotations

import re

_ATTRIBUTE = re.compile(r"\[\s*(?:host\s*,\s*)?aicore\s*\]")
_IDENT_TAIL = re.compile(r"(?:[A-Za-z_][A-Za-z0-9_]*\s*::\s*)*[A-Za-z_][A-Za-z0-9_]*\s*$")


def _code_spans(text: str) -> list[tuple[int, int]]:
    """[start, end) ranges of ``text`` outside comments and string/character literals."""
    spans: list[tuple[int, int]] = []
    i, start, n = 0, 0, len(text)
    while i < n:
        c = text[i]
        two = text[i:i + 2]
        if two == "//":
            end = text.find("\n", i)
            end = n if end < 0 else end
        elif two == "/*":
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
        elif c == 'R' and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^()\\ ]{0,16})\(', text[i:])
            if m is None:
                i += 1
                continue
            close = text.find(")" + m.group(1) + '"', i + m.end())
            end = n if close < 0 else close + len(m.group(1)) + 2
        elif c in "\"'":
            if c == "'" and i > 0 and (text[i - 1].isalnum()):   # digit separator 1'000
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            end = min(j + 1, n)
        else:
            i += 1
            continue
        if start < i:
            spans.append((start, i))
        i = start = end
    if start < n:
        spans.append((start, n))
    return spans


def _find_chevron_close(text: str, begin: int, spans: list[tuple[int, int]]) -> int:
    """Index of the ``>>>`` closing the launch configuration that starts at ``begin``, or -1."""
    depth = 0
    for s, e in spans:
        if e <= begin:
            continue
        for k in range(max(s, begin), e):
            ch = text[k]
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
                if depth < 0:
                    return -1
            elif depth == 0 and text.startswith(">>>", k) and k + 3 <= e:
                return k
            elif ch == ";":
                return -1
    return -1


def device_source(text: str) -> str:
    """``text`` with the launch chevrons and ``[aicore]`` attributes rewritten (see module doc)."""
    if "<<<" not in text and "aicore" not in text:
        return text
    spans = _code_spans(text)
    out: list[str] = []
    pos = 0
    for s, e in spans:
        if s < pos:
            continue
        k = s
        while True:
            k = text.find("<<<", max(k, pos), e)
            if k < 0:
                break
            close = _find_chevron_close(text, k + 3, spans)
            head = _IDENT_TAIL.search(text, pos, k)
            if close < 0 or head is None:
                k += 3
                continue
            config = text[k + 3:close]
            out.append(text[pos:head.start()])
            out.append("(::npukb::launch_config(" + config + "), " + text[head.start():k].rstrip() + ")")
            pos = close + 3
            k = pos
            if pos >= e:
                break
    out.append(text[pos:])
    rewritten = "".join(out)
    if "aicore" not in rewritten:
        return rewritten
    spans = _code_spans(rewritten)
    pieces: list[str] = []
    last = 0
    for s, e in spans:
        for m in _ATTRIBUTE.finditer(rewritten, s, e):
            pieces.append(rewritten[last:m.start()])
            pieces.append(re.sub(r"[^\n]", " ", m.group(0)))
            last = m.end()
    pieces.append(rewritten[last:])
    return "".join(pieces)
