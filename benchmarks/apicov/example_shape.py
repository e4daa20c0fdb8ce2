"""How a call example is wrapped into a translation unit: its top-level items, definitions or statements.

A block is cut into top-level items (brace, paren and bracket depth 0): a preprocessor line; text up to a
``;``; or text up to the ``}`` that closes a top-level brace (and the ``;`` right after it, or up to the
next ``;`` for a ``class``/``struct``/``union``/``enum``, whose declarators follow the brace). An item is a
*definition* when it is a preprocessor line, starts with ``template``, ``class``, ``struct``, ``union``,
``enum``, ``namespace``, ``typedef``, ``__global__``, ``constexpr`` (a constant a template argument may take
the address of: ``constexpr MatmulConfig MM_CFG = ...``), ``using X =`` (an alias such a constant may
use), or a namespace-scope macro (:data:`NAMESPACE_MACROS`),
or is a function definition (it ends with its body's ``}``, and what precedes its first top-level ``(``
is two or more words without ``=``, not a control statement). Anything else is a statement.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

NAMESPACE_MACROS = re.compile(r"^(?:REGISTER_\w+|BEGIN_\w+|END_\w+|\w+_DEF\w*|OP_ADD|ASCENDC_TPL_\w+|"
                              r"IMPL_OP\w*|OP_TILING_\w+|EXTERN_IMPL_\w+)\b")
_DEFINING_WORDS = re.compile(r"^(?:template|class|struct|union|enum|namespace|typedef|__global__|"
                             r"(?:static\s+)?constexpr|using\s+\w+\s*=)")
_CONTROL = {"if", "for", "while", "switch", "do", "else", "try", "return", "case", "default", "catch"}
_RECORD = re.compile(r"^(?:template\s*<.*?>\s*)?(?:class|struct|union|enum)\b", re.S)
_INCLUDE = re.compile(r"^\s*#\s*include\s*([<\"])([^>\"]+)[>\"]")
_DEFINE = re.compile(r"^\s*#\s*define\s+(\w+)")
_THIS = re.compile(r"\bthis\s*->")
_OPENS_NAMESPACE = re.compile(r"^namespace\s+[\w:]+\s*\{")
_WORDS_BEFORE_CALL = re.compile(r"^[\w\s:<>,*&~]+$")
ELISION = re.compile(r"^[ \t]*(?:\.\.\.|…+)[ \t]*;?[ \t]*$", re.M)


def _masked(code: str) -> str:
    """``code`` with comments and string/char literals blanked (same length, newlines kept)."""
    def blank(m: re.Match) -> str:
        return re.sub(r"[^\n]", " ", m.group(0))
    return re.sub(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', blank, code, flags=re.S)


def items(code: str) -> list[str]:
    """The top-level items of ``code`` (original text, comments included), in order."""
    mask = _masked(code)
    out: list[str] = []
    start = i = depth = 0
    n = len(code)
    while i < n:
        c = mask[i]
        if depth == 0 and c == "#" and mask[start:i].strip() == "":
            end = i
            while True:                                    # a preprocessor line, with its continuations
                nl = mask.find("\n", end)
                if nl == -1:
                    end = n
                    break
                if mask[nl - 1] != "\\":
                    end = nl + 1
                    break
                end = nl + 1
            out.append(code[start:end])
            start = i = end
            continue
        if c in "({[":
            depth += 1
        elif c in ")}]":
            depth = max(depth - 1, 0)
            if c == "}" and depth == 0:
                text = mask[start:i + 1].strip()
                if _RECORD.match(text) or re.search(r"=\s*\{", text) and not re.search(r"\)\s*\{", text):
                    j = mask.find(";", i)                  # declarators, or a braced initialiser, end at ;
                    end = n if j == -1 else j + 1
                else:
                    m = re.match(r"\s*;", mask[i + 1:])
                    end = i + 1 + (m.end() if m else 0)
                out.append(code[start:end])
                start = i = end
                continue
        elif c == ";" and depth == 0:
            out.append(code[start:i + 1])
            start = i + 1
        i += 1
    if code[start:].strip():
        out.append(code[start:])
    return [it for it in out if _masked(it).strip()]


def is_definition(item: str) -> bool:
    text = _masked(item).strip()
    text = re.sub(r"^(?:\[\[.*?\]\]\s*|extern\s+\"C\"\s*|extern\s+\s*)", "", text)
    if text.startswith("#") or _DEFINING_WORDS.match(text) or NAMESPACE_MACROS.match(text):
        return True
    if not text.endswith("}") or "(" not in text:
        return False
    before = text[: text.index("(")].strip()
    words = re.findall(r"[A-Za-z_]\w*", before)
    return (len(words) >= 2 and words[0] not in _CONTROL and "=" not in before
            and bool(_WORDS_BEFORE_CALL.match(before)))


def _include_found(line: str, include_dirs: list[Path]) -> bool:
    m = _INCLUDE.match(line)
    return bool(m) and any((d / m.group(2)).is_file() for d in include_dirs)


@dataclass(frozen=True)
class Wrapped:
    code: str                      # the block as C++ for its side's translation unit
    dropped: list[str]             # the #include lines left out (headers found nowhere)
    alone: bool                    # it opens a namespace of its own: unwrapped, in a translation unit alone


def wrap(code: str, side: str, namespace: str, include_dirs: list[Path]) -> Wrapped:
    """The block as C++ (the rules in :mod:`examples`); ``include_dirs``: where a kept header is found (the
    simulator's, the compiler's). A block that opens a namespace (``namespace ops { ... }``, as an OpDef or
    tiling file does) means the real one: it is not wrapped in ``namespace`` and compiles alone."""
    code = ELISION.sub("", re.sub(r'\bextern\s+"C"\s*', "", code))
    hoisted: list[str] = []
    dropped: list[str] = []
    defs: list[str] = []
    stmts: list[str] = []
    macros: list[str] = []
    for it in items(code):
        if _INCLUDE.match(it):
            (hoisted if _include_found(it, include_dirs) else dropped).append(it.strip())
            continue
        m = _DEFINE.match(it)
        if m:
            macros.append(m.group(1))
        (defs if is_definition(it) else stmts).append(it)
    alone = any(_OPENS_NAMESPACE.match(_masked(d).strip()) for d in defs)
    prefix = "__aicore__ inline auto" if side == "kernel" else "inline auto"
    out = [*hoisted] if alone else [*hoisted, f"namespace {namespace} {{"]
    if side == "kernel":
        out.append("using namespace AscendC;")
    else:
        out.append("using namespace ops;")
    out += [d.rstrip("\n") for d in defs]
    if stmts and side == "host" and any(_THIS.search(_masked(st)) for st in stmts):
        # an OpDef registration's statements (`this->Input("x")...`): a constructor body, as in the real files
        out += ["struct npukb_example_op : public ops::OpDef {",
                "explicit npukb_example_op(const char* name) : ops::OpDef(name) {",
                *(s.rstrip("\n") for s in stmts), "}", "};"]
    elif stmts:
        out += [f"{prefix} npukb_example() {{", *(s.rstrip("\n") for s in stmts), "}"]
    if not alone:
        out.append("}")
    out += [f"#undef {name}" for name in macros]
    return Wrapped("\n".join(out) + "\n", dropped, alone)
